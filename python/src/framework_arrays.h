// CuPy arrays and PyTorch CUDA tensors read field by field rather than through
// __cuda_array_interface__, which both build anew on every access (PyTorch in Python) and whose
// pointer the bindings would then have to ask CUDA about: the frameworks know their memory's
// device. The small-call path of every function goes through here.
#pragma once

#include <pybind11/pybind11.h>

#include "arrays.h"

namespace dpx {
namespace py_bindings {

// Fills `view` (name and owner set by the caller) from a CuPy array or a PyTorch CUDA tensor and
// returns true; false, leaving `view` alone, for any other object.
bool view_framework_array(py::handle obj, ArrayView* view);

}  // namespace py_bindings
}  // namespace dpx
