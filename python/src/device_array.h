// dpx.DeviceArray: device memory the bindings hand to Python where no array library can hold it —
// the results of calls on CUDA tensors that came only through DLPack, and those tensors themselves
// while a call reads them. It exposes __cuda_array_interface__ (v3) and __dlpack__, so CuPy, PyTorch
// and Numba take it without a copy; get() copies it into a numpy array.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "arrays.h"
#include "dlpack_abi.h"
#include "dpx/device.h"

namespace dpx {
namespace py_bindings {

// Calls a consumed DLPack tensor's deleter: the exporter may free its memory then.
struct ManagedTensorRelease {
  void operator()(dlpack::DLManagedTensor* t) const {
    if (t != nullptr && t->deleter != nullptr) t->deleter(t);
  }
};
using ManagedTensor = std::unique_ptr<dlpack::DLManagedTensor, ManagedTensorRelease>;

class DeviceArray {
 public:
  // A new C-order array of `dtype` (numpy's name) on CUDA device `device`.
  static std::shared_ptr<DeviceArray> empty(const std::vector<std::int64_t>& shape, const std::string& dtype,
                                            int device);
  // A CUDA tensor taken from a DLPack capsule, held until this object goes (then its deleter runs).
  // `view` holds its checked geometry.
  static std::shared_ptr<DeviceArray> lent(ManagedTensor tensor, const ArrayView& view);

  // The array as a call sees it; `self` is this object's Python handle (kept alive by the view).
  ArrayView view(py::handle self, const char* name) const;
  const ArrayView& geometry() const { return geometry_; }

  py::dict cuda_array_interface() const;
  py::object dlpack(py::handle self, const py::object& stream) const;
  py::tuple dlpack_device() const;
  py::object get() const;  // a numpy copy

 private:
  ArrayView geometry_;  // name, owner and stream unset
  DeviceBuffer owned_;
  ManagedTensor lent_;
};

}  // namespace py_bindings
}  // namespace dpx
