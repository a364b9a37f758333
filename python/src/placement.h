// Where a call runs: on the device of its CUDA arrays (on the caller's stream), or — for numpy
// arrays — on the backend asked for, with copies to the device and back when that is CUDA.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "arrays.h"
#include "cuda_support.h"
#include "dpx/device.h"

namespace dpx {
namespace py_bindings {

// "auto", "cuda" or "cpu"; ValueError otherwise.
Backend parse_backend(const std::string& name);

struct Placement {
  bool cuda = false;
  int device = -1;               // the CUDA device of the call
  bool host_arrays = true;       // numpy arrays (staged through device copies on CUDA)
  cudaStream_t stream = nullptr;
  // The call waits for its work before it returns: numpy arrays, or memory that must not be
  // released while the work reads it (ArrayView::waits).
  bool waits = false;
};

// CUDA arrays must all live on one device and cannot be mixed with numpy arrays or run with
// backend "cpu" (ValueError). Their call runs on `stream`, made to wait first for the streams the
// arrays' producers named in __cuda_array_interface__. Numpy arrays run on the backend resolved
// (auto: CUDA when a device is usable), on `stream` or the default stream.
Placement place(const std::vector<const ArrayView*>& arrays, const std::string& backend, std::uintptr_t stream);

// A call that only takes host data (sequences): the backend resolved.
Placement place_host(const std::string& backend);

// Runs the rest of a CUDA call on the placement's device.
class CallScope {
 public:
  explicit CallScope(const Placement& p);

 private:
  DeviceScope device_;
};

// An array's memory as a CUDA call reads or writes it: the array itself when it is on the device,
// else a device copy — an input's uploaded by input(), an output's copied back by finish().
class DeviceOperand {
 public:
  Status input(const ArrayView& a, cudaStream_t stream);
  Status output(const ArrayView& a, cudaStream_t stream);
  void* data() const { return data_; }
  // Host outputs: enqueues the copy back (the call waits before reading); nothing for device ones.
  Status finish(cudaStream_t stream) const;

 private:
  Status bind(const ArrayView& a, cudaStream_t stream);  // the array itself, or a device buffer of its size

  const ArrayView* array_ = nullptr;
  StreamBuffer copy_;
  void* data_ = nullptr;
};

}  // namespace py_bindings
}  // namespace dpx
