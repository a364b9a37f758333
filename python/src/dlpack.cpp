// The DLPack consumer: an object with __dlpack__ / __dlpack_device__ (and neither array interface)
// becomes a numpy array over its memory (CPU) or a dpx.DeviceArray lending it (CUDA, on the
// current device). The capsule is consumed as the protocol says — renamed "used_dltensor", its
// tensor's deleter called once the numpy array or DeviceArray goes.
#include <pybind11/numpy.h>

#include <string>

#include "arrays.h"
#include "bindings.h"
#include "cuda_support.h"
#include "device_array.h"
#include "dlpack_abi.h"

namespace dpx {
namespace py_bindings {
namespace {

// The stream argument of __dlpack__ for the call's stream (the Python array API's convention:
// 1 the legacy default stream, 2 the per-thread one, else a cudaStream_t; 0 is not allowed).
std::uintptr_t dlpack_stream(std::uintptr_t call_stream) {
  return call_stream == 0 ? 1 : call_stream;
}

ManagedTensor take_capsule(const py::object& capsule, const std::string& name) {
  if (!PyCapsule_IsValid(capsule.ptr(), dlpack::kCapsuleName))
    raise_value_error(name +
                      ": __dlpack__ returned no unused \"dltensor\" capsule (a capsule is consumed once)");
  auto* t = static_cast<dlpack::DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), dlpack::kCapsuleName));
  if (t == nullptr || PyCapsule_SetName(capsule.ptr(), dlpack::kUsedCapsuleName) != 0)
    throw py::error_already_set();
  return ManagedTensor(t);
}

char kind_of(std::uint8_t code) {
  switch (code) {
    case dlpack::kDLInt:
      return 'i';
    case dlpack::kDLUInt:
      return 'u';
    case dlpack::kDLFloat:
      return 'f';
    default:
      return 0;
  }
}

// The tensor's geometry, checked: one sample a lane, whole bytes, no negative strides.
ArrayView geometry_of(const dlpack::DLTensor& t, const std::string& name) {
  ArrayView v;
  v.name = name;
  const char kind = kind_of(t.dtype.code);
  if (kind == 0 || t.dtype.lanes != 1 || t.dtype.bits % 8 != 0 || t.dtype.bits == 0 || t.dtype.bits > 64)
    raise_value_error(name + ": unsupported DLPack dtype (code " + std::to_string(t.dtype.code) + ", " +
                      std::to_string(t.dtype.bits) + " bits, " + std::to_string(t.dtype.lanes) +
                      " lanes); dpx takes integer and float samples");
  v.itemsize = t.dtype.bits / 8;
  v.dtype = dtype_name(kind, v.itemsize);
  if (t.ndim < 0 || (t.ndim > 0 && t.shape == nullptr))
    raise_value_error(name + ": DLPack tensor without a shape");
  for (int d = 0; d < t.ndim; ++d) {
    if (t.shape[d] < 0) raise_value_error(name + ": negative dimension in the DLPack shape");
    v.shape.push_back(t.shape[d]);
  }
  if (t.strides == nullptr) {
    v.strides = c_order_strides(v.shape, v.itemsize);
  } else {
    for (int d = 0; d < t.ndim; ++d) {
      if (t.strides[d] < 0)
        raise_value_error(name + ": negative DLPack strides are not supported; pass a contiguous copy");
      v.strides.push_back(t.strides[d] * v.itemsize);
    }
  }
  v.data = static_cast<char*>(t.data) + t.byte_offset;
  return v;
}

std::string device_text(std::int32_t type, std::int32_t id) {
  return "(device type " + std::to_string(type) + ", id " + std::to_string(id) + ")";
}

// `obj` through DLPack: a numpy array for host memory, a dpx.DeviceArray for CUDA memory. `stream`
// is the call's stream (an int handle, 0 the default stream): the exporter orders its work before
// it.
py::object from_dlpack(py::handle obj, const std::string& name, std::uintptr_t stream) {
  const py::tuple where = obj.attr("__dlpack_device__")();
  if (where.size() != 2) raise_value_error(name + ": __dlpack_device__ must return (device type, device id)");
  const auto type = where[0].cast<std::int32_t>(), id = where[1].cast<std::int32_t>();
  const bool host = type == dlpack::kDLCPU || type == dlpack::kDLCUDAHost;
  if (!host && type != dlpack::kDLCUDA && type != dlpack::kDLCUDAManaged)
    raise_value_error(name + ": a DLPack tensor on neither the CPU nor a CUDA device " +
                      device_text(type, id));
  if (!host) {
    int current = -1;
    throw_if_error(current_device(name.c_str(), &current));
    if (id != current)
      raise_value_error(name + ": a DLPack tensor on CUDA device " + std::to_string(id) + " while device " +
                        std::to_string(current) + " is current; make its device current first");
  }
  // host memory takes no stream argument
  ManagedTensor tensor = take_capsule(
      host ? obj.attr("__dlpack__")() : obj.attr("__dlpack__")(py::arg("stream") = dlpack_stream(stream)),
      name);
  const dlpack::DLTensor& t = tensor->dl_tensor;
  if (t.device.device_type != type || (!host && t.device.device_id != id))
    raise_value_error(name + ": the DLPack tensor's device " +
                      device_text(t.device.device_type, t.device.device_id) +
                      " differs from __dlpack_device__'s " + device_text(type, id));
  ArrayView v = geometry_of(t, name);
  if (!host) {
    v.device = id;
    return py::cast(DeviceArray::lent(std::move(tensor), v));
  }
  const py::capsule base(tensor.get(),
                         [](void* p) { ManagedTensorRelease{}(static_cast<dlpack::DLManagedTensor*>(p)); });
  tensor.release();  // the capsule owns it now
  return py::array(py::dtype(v.dtype), v.shape, v.strides, v.data, base);
}

}  // namespace

void bind_dlpack(py::module_& m) {
  m.def("from_dlpack", &from_dlpack, py::arg("obj"), py::arg("name"), py::arg("stream"),
        "A DLPack tensor as a numpy array (host memory) or a dpx.DeviceArray (CUDA memory).");
}

}  // namespace py_bindings
}  // namespace dpx
