// What the bindings see of an array argument: a numpy array (host) or any object with
// __cuda_array_interface__ (CuPy, PyTorch, Numba; device), reduced to pointer, shape, byte strides
// and sample type, and checked with messages that name the argument.
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "dpx/status.h"

namespace dpx {
namespace py_bindings {

namespace py = pybind11;

struct ArrayView {
  std::string name;  // the argument's name, for messages
  void* data = nullptr;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;  // bytes
  std::string dtype;                  // numpy's name: "uint8", "int32", "float32", ...
  int itemsize = 0;
  int device = -1;  // CUDA device ordinal; -1 for host memory
  bool readonly = false;
  bool has_stream = false;  // __cuda_array_interface__ v3: the stream the data is ready on
  std::uintptr_t stream = 0;
  // The call waits for its work before it returns: the memory is lent through DLPack (its exporter
  // may free it once the capsule is released) or held by a dpx.DeviceArray, whose readers are not
  // ordered on a stream.
  bool waits = false;
  py::object owner;  // keeps the object alive while its memory is used

  bool on_device() const { return device >= 0; }
  std::size_t size() const;  // elements
  std::size_t bytes() const { return size() * static_cast<std::size_t>(itemsize); }
  bool contiguous() const;  // C order, no gaps
};

// Turns a library failure into the Python exception for it: ValueError for bad arguments
// (kInvalidArgument, kUnsupported, kOverflow), RuntimeError for the rest (device failures, no
// device, CUDA not built).
void throw_if_error(const Status& status);

// numpy's name of a sample type: kind 'u', 'i', 'f' or 'b' and its size in bytes.
std::string dtype_name(char kind, int itemsize);

// The byte strides of a C-order array.
std::vector<std::int64_t> c_order_strides(const std::vector<std::int64_t>& shape, int itemsize);

// Reads `obj` (a numpy array, a dpx.DeviceArray or a CUDA array); raises TypeError for anything
// else.
ArrayView view_array(py::handle obj, const char* name);

// Raise ValueError unless the array has one of these dtypes / this many dimensions, and is not
// empty.
void require_dtype(const ArrayView& a, std::initializer_list<const char*> allowed);
void require_ndim(const ArrayView& a, std::initializer_list<int> allowed);
void require_not_empty(const ArrayView& a);
void require_contiguous(const ArrayView& a);
void require_writable(const ArrayView& a);
void require_same_shape(const ArrayView& a, const ArrayView& b);

[[noreturn]] void raise_value_error(const std::string& message);

}  // namespace py_bindings
}  // namespace dpx
