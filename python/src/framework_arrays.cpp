#include "framework_arrays.h"

#include <pybind11/numpy.h>

#include <cstdint>
#include <string>
#include <unordered_map>

namespace dpx {
namespace py_bindings {
namespace {

enum class Framework { kOther, kCupy, kTorch };

// By the package its type comes from, decided once a type.
Framework framework_of(py::handle obj) {
  static std::unordered_map<PyTypeObject*, Framework> known;  // under the GIL
  PyTypeObject* type = Py_TYPE(obj.ptr());
  const auto it = known.find(type);
  if (it != known.end()) return it->second;
  const std::string module = py::str(py::handle(reinterpret_cast<PyObject*>(type)).attr("__module__"));
  const std::string package = module.substr(0, module.find('.'));
  const Framework f = package == "cupy"    ? Framework::kCupy
                      : package == "torch" ? Framework::kTorch
                                           : Framework::kOther;
  Py_INCREF(type);  // kept for good: a freed type's address could come back as another's
  known.emplace(type, f);
  return f;
}

std::int64_t to_int64(py::handle h) {
  return h.cast<std::int64_t>();
}

// The stream CuPy's arrays are ready on: its current stream (what its __cuda_array_interface__
// names), 0 for the default stream.
std::uintptr_t cupy_current_stream() {
  static const py::handle get_current_stream =
      py::object(py::module_::import("cupy.cuda").attr("get_current_stream")).release();  // kept for good
  return get_current_stream().attr("ptr").cast<std::uintptr_t>();
}

void read_cupy(py::handle obj, ArrayView* v) {
  const py::object memory = obj.attr("data");  // a MemoryPointer at the array's first element
  v->data = reinterpret_cast<void*>(memory.attr("ptr").cast<std::uintptr_t>());
  v->device = memory.attr("device_id").cast<int>();
  for (py::handle d : py::tuple(obj.attr("shape"))) v->shape.push_back(to_int64(d));
  for (py::handle d : py::tuple(obj.attr("strides"))) v->strides.push_back(to_int64(d));  // bytes
  const py::dtype dtype = obj.attr("dtype");
  v->itemsize = static_cast<int>(dtype.itemsize());
  v->dtype = dtype_name(dtype.kind(), v->itemsize);
  v->has_stream = true;
  v->stream = cupy_current_stream();
}

void read_torch(py::handle obj, ArrayView* v) {
  v->data = reinterpret_cast<void*>(obj.attr("data_ptr")().cast<std::uintptr_t>());
  v->device = obj.attr("get_device")().cast<int>();
  v->itemsize = obj.attr("element_size")().cast<int>();
  const std::string dtype = py::str(obj.attr("dtype"));  // "torch.uint8"
  v->dtype = dtype.substr(dtype.find('.') + 1);
  for (py::handle d : py::tuple(obj.attr("shape"))) v->shape.push_back(to_int64(d));
  for (py::handle d : py::tuple(obj.attr("stride")()))
    v->strides.push_back(to_int64(d) * v->itemsize);  // elements
}

}  // namespace

bool view_framework_array(py::handle obj, ArrayView* view) {
  switch (framework_of(obj)) {
    case Framework::kCupy:
      read_cupy(obj, view);
      return true;
    case Framework::kTorch:
      if (!obj.attr("is_cuda").cast<bool>()) return false;
      read_torch(obj, view);
      return true;
    case Framework::kOther:
      break;
  }
  return false;
}

}  // namespace py_bindings
}  // namespace dpx
