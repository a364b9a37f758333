// _dpx: the compiled half of the `dpx` package. The Python layer (dpx/*.py) allocates results
// beside their inputs, resolves streams and shapes records; this half checks arrays, picks the
// device and calls the library with the GIL released.
#include <pybind11/pybind11.h>

#include "bindings.h"
#include "dpx/device.h"

namespace py = pybind11;

PYBIND11_MODULE(_dpx, m) {
  m.doc() = "libdpx bindings (use the dpx package)";
  m.def("cuda_built", &dpx::cuda_built, "True when the package was built with its CUDA backend.");
  m.def("cuda_device_count", &dpx::cuda_device_count, "Number of usable CUDA devices (0 without CUDA).");
  dpx::py_bindings::bind_morphology(m);
  dpx::py_bindings::bind_motion(m);
  dpx::py_bindings::bind_alignment(m);
  dpx::py_bindings::bind_search(m);
  dpx::py_bindings::bind_epilogue(m);
  dpx::py_bindings::bind_device_array(m);
  dpx::py_bindings::bind_dlpack(m);
}
