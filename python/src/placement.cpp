#include "placement.h"

namespace dpx {
namespace py_bindings {

Backend parse_backend(const std::string& name) {
  if (name == "auto") return Backend::kAuto;
  if (name == "cuda") return Backend::kCuda;
  if (name == "cpu") return Backend::kCpu;
  raise_value_error("backend must be 'auto', 'cuda' or 'cpu', got '" + name + "'");
}

Placement place_host(const std::string& backend) {
  Backend resolved = Backend::kCpu;
  throw_if_error(resolve_backend(parse_backend(backend), &resolved));
  Placement p;
  p.cuda = resolved == Backend::kCuda;
  p.device = p.cuda ? 0 : -1;
  return p;
}

Placement place(const std::vector<const ArrayView*>& arrays, const std::string& backend, std::uintptr_t stream) {
  const Backend requested = parse_backend(backend);
  const ArrayView* first_device = nullptr;
  const ArrayView* first_host = nullptr;
  for (const ArrayView* a : arrays) {
    const ArrayView*& first = a->on_device() ? first_device : first_host;
    if (first == nullptr) first = a;
  }
  if (first_device == nullptr) {
    Placement p;
    Backend resolved = Backend::kCpu;
    throw_if_error(resolve_backend(requested, &resolved));
    if (resolved == Backend::kCuda) {
      p.cuda = true;
      p.device = -1;  // the current device
      p.stream = stream_from_handle(stream);
      p.waits = true;
    }
    return p;
  }
  if (first_host != nullptr)
    raise_value_error(first_host->name + " is a host array and " + first_device->name +
                      " a CUDA array: pass all arrays of a call on the same side");
  for (const ArrayView* a : arrays) {
    if (a->device != first_device->device)
      raise_value_error(a->name + " is on CUDA device " + std::to_string(a->device) + ", " + first_device->name +
                        " on device " + std::to_string(first_device->device) + ": pass arrays of one device");
  }
  if (requested == Backend::kCpu)
    raise_value_error("backend='cpu' takes host arrays; " + first_device->name + " is on CUDA device " +
                      std::to_string(first_device->device));
  Placement p;
  p.cuda = true;
  p.device = first_device->device;
  p.host_arrays = false;
  p.stream = stream_from_handle(stream);
  for (const ArrayView* a : arrays) p.waits = p.waits || a->waits;
  for (const ArrayView* a : arrays) {
    if (a->has_stream && stream_from_handle(a->stream) != p.stream) {
      CallScope scope(p);
      throw_if_error(stream_wait(p.stream, stream_from_handle(a->stream)));
    }
  }
  return p;
}

CallScope::CallScope(const Placement& p) {
  if (p.device >= 0) throw_if_error(device_.enter(p.device));
}

Status DeviceOperand::input(const ArrayView& a, cudaStream_t stream) {
  DPX_RETURN_IF_ERROR(bind(a, stream));
  return a.on_device() ? Status::ok() : copy_async(copy_.data(), a.data, a.bytes(), stream);
}

Status DeviceOperand::output(const ArrayView& a, cudaStream_t stream) { return bind(a, stream); }

Status DeviceOperand::bind(const ArrayView& a, cudaStream_t stream) {
  array_ = &a;
  if (a.on_device()) {
    data_ = a.data;
    return Status::ok();
  }
  if (!a.contiguous()) return invalid_argument(a.name + ": host arrays must be C-contiguous");
  DPX_RETURN_IF_ERROR(copy_.allocate(a.bytes(), stream));
  data_ = copy_.data();
  return Status::ok();
}

Status DeviceOperand::finish(cudaStream_t stream) const {
  if (array_ == nullptr || array_->on_device()) return Status::ok();
  return copy_async(array_->data, copy_.data(), array_->bytes(), stream);
}

}  // namespace py_bindings
}  // namespace dpx
