#include "device_array.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings.h"
#include "cuda_support.h"

namespace dpx {
namespace py_bindings {
namespace {

// What a __dlpack__ capsule of a DeviceArray owns: the tensor, its shape and element strides, and
// a reference to the array, dropped by the deleter.
struct Export {
  dlpack::DLManagedTensor tensor{};
  std::vector<std::int64_t> shape, strides;
  py::object array;
};

void delete_export(dlpack::DLManagedTensor* t) {
  py::gil_scoped_acquire gil;  // consumers may release tensors from any thread
  delete static_cast<Export*>(t->manager_ctx);
}

// A capsule nobody consumed still owns its tensor.
void release_unconsumed(PyObject* capsule) {
  if (!PyCapsule_IsValid(capsule, dlpack::kCapsuleName)) return;
  auto* t = static_cast<dlpack::DLManagedTensor*>(PyCapsule_GetPointer(capsule, dlpack::kCapsuleName));
  t->deleter(t);
}

std::uint8_t type_code(const std::string& dtype) {
  switch (dtype[0]) {
    case 'u':
      return dlpack::kDLUInt;
    case 'i':
      return dlpack::kDLInt;
    default:
      return dlpack::kDLFloat;
  }
}

std::string repr(const DeviceArray& a) {
  const ArrayView& g = a.geometry();
  std::string shape;
  for (std::int64_t d : g.shape) shape += (shape.empty() ? "" : ", ") + std::to_string(d);
  return "dpx.DeviceArray(shape=(" + shape + (g.shape.size() == 1 ? ",)" : ")") + ", dtype=" + g.dtype +
         ", device=" + std::to_string(g.device) + ")";
}

}  // namespace

std::shared_ptr<DeviceArray> DeviceArray::empty(const std::vector<std::int64_t>& shape,
                                                const std::string& dtype, int device) {
  auto a = std::make_shared<DeviceArray>();
  ArrayView& g = a->geometry_;
  g.dtype = py::str(py::dtype(dtype).attr("name"));
  g.itemsize = static_cast<int>(py::dtype(dtype).itemsize());
  for (std::int64_t d : shape) {
    if (d < 0) raise_value_error("DeviceArray: negative dimension in the shape");
    g.shape.push_back(d);
  }
  g.strides = c_order_strides(g.shape, g.itemsize);
  g.device = device;
  DeviceScope scope;
  throw_if_error(scope.enter(device));
  throw_if_error(a->owned_.allocate(g.bytes()));
  g.data = a->owned_.data();
  return a;
}

std::shared_ptr<DeviceArray> DeviceArray::lent(ManagedTensor tensor, const ArrayView& view) {
  auto a = std::make_shared<DeviceArray>();
  a->geometry_ = view;
  a->geometry_.owner = py::object();
  a->lent_ = std::move(tensor);
  return a;
}

ArrayView DeviceArray::view(py::handle self, const char* name) const {
  ArrayView v = geometry_;
  v.name = name;
  v.owner = py::reinterpret_borrow<py::object>(self);
  v.waits = true;
  return v;
}

py::dict DeviceArray::cuda_array_interface() const {
  const ArrayView& g = geometry_;
  py::dict d;
  d["shape"] = py::tuple(py::cast(g.shape));
  d["typestr"] = py::dtype(g.dtype).attr("str");
  d["data"] = py::make_tuple(reinterpret_cast<std::uintptr_t>(g.data), g.readonly);
  d["version"] = 3;
  d["strides"] = g.contiguous() ? py::object(py::none()) : py::object(py::tuple(py::cast(g.strides)));
  d["stream"] = py::none();  // the calls that write it wait for their work
  return d;
}

py::object DeviceArray::dlpack(py::handle self, const py::object& stream) const {
  // every call that writes a DeviceArray waits for its work: nothing for a consumer's stream to wait for
  if (!stream.is_none() && !py::isinstance<py::int_>(stream))
    throw py::type_error("__dlpack__: stream must be None or an int");
  const ArrayView& g = geometry_;
  auto* e = new Export;
  e->shape = g.shape;
  for (std::int64_t s : g.strides) e->strides.push_back(s / g.itemsize);
  e->array = py::reinterpret_borrow<py::object>(self);
  dlpack::DLTensor& t = e->tensor.dl_tensor;
  t.data = g.data;
  t.device = {dlpack::kDLCUDA, g.device};
  t.ndim = static_cast<std::int32_t>(g.shape.size());
  t.dtype = {type_code(g.dtype), static_cast<std::uint8_t>(g.itemsize * 8), 1};
  t.shape = e->shape.data();
  t.strides = e->strides.data();
  t.byte_offset = 0;
  e->tensor.manager_ctx = e;
  e->tensor.deleter = delete_export;
  PyObject* capsule = PyCapsule_New(&e->tensor, dlpack::kCapsuleName, release_unconsumed);
  if (capsule == nullptr) {
    delete e;
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::object>(capsule);
}

py::tuple DeviceArray::dlpack_device() const {
  return py::make_tuple(int(dlpack::kDLCUDA), geometry_.device);
}

py::object DeviceArray::get() const {
  const ArrayView& g = geometry_;
  if (!g.contiguous())
    raise_value_error("DeviceArray.get: the array is strided; copy it with CuPy or PyTorch");
  py::array host(py::dtype(g.dtype), g.shape);
  if (g.size() == 0) return std::move(host);
  void* dst = host.mutable_data();
  {
    py::gil_scoped_release unlocked;
    DeviceScope scope;
    throw_if_error(scope.enter(g.device));
    const cudaStream_t stream = stream_from_handle(0);
    throw_if_error(copy_async(dst, g.data, g.bytes(), stream));
    throw_if_error(synchronize(stream));
  }
  return std::move(host);
}

void bind_device_array(py::module_& m) {
  py::class_<DeviceArray, std::shared_ptr<DeviceArray>>(
      m, "DeviceArray",
      "CUDA memory dpx returns where no array library holds it (results of calls on tensors passed\n"
      "only through DLPack). CuPy, PyTorch and Numba take it without a copy (cupy.asarray(a),\n"
      "torch.from_dlpack(a), numba.cuda.as_cuda_array(a)); get() copies it into a numpy array.")
      .def_static("empty", &DeviceArray::empty, py::arg("shape"), py::arg("dtype"), py::arg("device"),
                  "A new C-order array on CUDA device `device`; its contents are undefined.")
      .def_property_readonly("shape",
                             [](const DeviceArray& a) { return py::tuple(py::cast(a.geometry().shape)); })
      .def_property_readonly("strides",
                             [](const DeviceArray& a) { return py::tuple(py::cast(a.geometry().strides)); })
      .def_property_readonly("dtype", [](const DeviceArray& a) { return py::dtype(a.geometry().dtype); })
      .def_property_readonly("ndim", [](const DeviceArray& a) { return a.geometry().shape.size(); })
      .def_property_readonly("size", [](const DeviceArray& a) { return a.geometry().size(); })
      .def_property_readonly("nbytes", [](const DeviceArray& a) { return a.geometry().bytes(); })
      .def_property_readonly(
          "device", [](const DeviceArray& a) { return a.geometry().device; }, "The CUDA device ordinal.")
      .def_property_readonly("__cuda_array_interface__", &DeviceArray::cuda_array_interface)
      .def(
          "__dlpack__",
          [](py::handle self, const py::object& stream) {
            return self.cast<const DeviceArray&>().dlpack(self, stream);
          },
          py::kw_only(), py::arg("stream") = py::none())
      .def("__dlpack_device__", &DeviceArray::dlpack_device)
      .def("get", &DeviceArray::get, "A numpy copy of the array (waits for the copy).")
      .def("__repr__", &repr);
}

}  // namespace py_bindings
}  // namespace dpx
