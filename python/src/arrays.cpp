#include "arrays.h"

#include <pybind11/numpy.h>

#include "cuda_support.h"
#include "device_array.h"
#include "framework_arrays.h"

namespace dpx {
namespace py_bindings {
namespace {

std::string join(const std::vector<std::int64_t>& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}

ArrayView from_numpy(const py::array& a, const char* name) {
  ArrayView v;
  v.name = name;
  v.owner = a;
  v.readonly = !a.writeable();
  v.data = const_cast<void*>(a.data());
  for (py::ssize_t d = 0; d < a.ndim(); ++d) {
    v.shape.push_back(a.shape(d));
    v.strides.push_back(a.strides(d));
  }
  const py::dtype dt = a.dtype();
  if (dt.byteorder() == '>') raise_value_error(std::string(name) + ": big-endian arrays are not supported");
  v.itemsize = static_cast<int>(dt.itemsize());
  v.dtype = dtype_name(dt.kind(), v.itemsize);
  return v;
}

ArrayView from_cuda_interface(py::handle obj, const py::dict& cai, const char* name) {
  ArrayView v;
  v.name = name;
  v.owner = py::reinterpret_borrow<py::object>(obj);
  if (cai.contains("mask") && !cai["mask"].is_none())
    raise_value_error(std::string(name) + ": masked CUDA arrays are not supported");
  const std::string typestr = py::str(cai["typestr"]);
  if (typestr.size() < 3 || typestr[0] == '>')
    raise_value_error(std::string(name) + ": unsupported CUDA array type '" + typestr + "'");
  v.itemsize = std::stoi(typestr.substr(2));
  v.dtype = dtype_name(typestr[1], v.itemsize);
  const py::tuple data = cai["data"];
  v.data = reinterpret_cast<void*>(data[0].cast<std::uintptr_t>());
  v.readonly = data[1].cast<bool>();
  for (py::handle d : py::tuple(cai["shape"])) v.shape.push_back(d.cast<std::int64_t>());
  if (cai.contains("strides") && !cai["strides"].is_none()) {
    for (py::handle d : py::tuple(cai["strides"])) v.strides.push_back(d.cast<std::int64_t>());
  } else {
    v.strides = c_order_strides(v.shape, v.itemsize);
  }
  if (cai.contains("stream") && !cai["stream"].is_none()) {
    v.has_stream = true;
    v.stream = cai["stream"].cast<std::uintptr_t>();
  }
  if (v.size() == 0) return v;  // no memory to ask about; require_not_empty says so
  int device = -1;
  throw_if_error(pointer_device(v.data, name, &device));
  v.device = device;
  return v;
}

}  // namespace

// "|u1" / "<i4" / "<f4" -> "uint8" / "int32" / "float32".
std::string dtype_name(char kind, int itemsize) {
  const std::string bits = std::to_string(itemsize * 8);
  switch (kind) {
    case 'u': return "uint" + bits;
    case 'i': return "int" + bits;
    case 'f': return "float" + bits;
    case 'b': return "bool";
    default: return std::string("kind '") + kind + "', " + std::to_string(itemsize) + " bytes";
  }
}

std::vector<std::int64_t> c_order_strides(const std::vector<std::int64_t>& shape, int itemsize) {
  std::vector<std::int64_t> strides(shape.size(), itemsize);
  for (int d = static_cast<int>(shape.size()) - 2; d >= 0; --d) strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

std::size_t ArrayView::size() const {
  std::size_t n = 1;
  for (std::int64_t d : shape) n *= static_cast<std::size_t>(d);
  return n;
}

bool ArrayView::contiguous() const {
  if (size() == 0) return true;
  std::int64_t expected = itemsize;
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    if (shape[d] != 1 && strides[d] != expected) return false;
    expected *= shape[d];
  }
  return true;
}

void raise_value_error(const std::string& message) { throw py::value_error(message); }

void throw_if_error(const Status& status) {
  if (status.is_ok()) return;
  switch (status.code()) {
    case StatusCode::kInvalidArgument:
    case StatusCode::kUnsupported:
    case StatusCode::kOverflow:
      throw py::value_error(status.message());
    default:
      throw std::runtime_error(status.message());
  }
}

ArrayView view_array(py::handle obj, const char* name) {
  if (py::isinstance<py::array>(obj)) return from_numpy(py::reinterpret_borrow<py::array>(obj), name);
  if (py::isinstance<DeviceArray>(obj)) return obj.cast<const DeviceArray&>().view(obj, name);
  ArrayView v;
  v.name = name;
  v.owner = py::reinterpret_borrow<py::object>(obj);
  if (view_framework_array(obj, &v)) return v;
  // read once: CuPy builds the dict on every access
  const py::object cai = py::getattr(obj, "__cuda_array_interface__", py::none());
  if (!cai.is_none()) return from_cuda_interface(obj, cai.cast<py::dict>(), name);
  throw py::type_error(std::string(name) + ": expected a numpy array or a CUDA array (__cuda_array_interface__ or DLPack), got " +
                       std::string(py::str(obj.get_type().attr("__name__"))));
}

void require_dtype(const ArrayView& a, std::initializer_list<const char*> allowed) {
  std::string names;
  for (const char* d : allowed) {
    if (a.dtype == d) return;
    names += std::string(names.empty() ? "" : " or ") + d;
  }
  raise_value_error(a.name + ": dtype must be " + names + ", got " + a.dtype);
}

void require_ndim(const ArrayView& a, std::initializer_list<int> allowed) {
  std::string names;
  for (int n : allowed) {
    if (static_cast<int>(a.shape.size()) == n) return;
    names += (names.empty() ? "" : " or ") + std::to_string(n);
  }
  raise_value_error(a.name + ": expected " + names + " dimensions, got shape " + join(a.shape));
}

void require_not_empty(const ArrayView& a) {
  if (a.size() == 0) raise_value_error(a.name + ": the array is empty (shape " + join(a.shape) + ")");
}

void require_contiguous(const ArrayView& a) {
  if (!a.contiguous())
    raise_value_error(a.name + ": this call needs a C-contiguous array (strides " + join(a.strides) +
                      " for shape " + join(a.shape) + "); pass a contiguous copy");
}

void require_writable(const ArrayView& a) {
  if (a.readonly) raise_value_error(a.name + ": the array is read-only");
}

void require_same_shape(const ArrayView& a, const ArrayView& b) {
  if (a.shape != b.shape)
    raise_value_error(b.name + ": shape " + join(b.shape) + " differs from " + a.name + "'s " + join(a.shape));
}

}  // namespace py_bindings
}  // namespace dpx
