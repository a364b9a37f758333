/* Page-locks recurring pageable system memory (cudaHostRegister) so that the CUDA backend copies
 * it asynchronously at full speed instead of staging it through pinned memory by the CPU. A
 * GstMemory is registered the second time it carries a frame (buffer pools and sources that
 * rotate a set of buffers bring the same memory back), and unregistered when it is freed (a weak
 * reference: the registration never outlives the memory). Registration is capped in bytes; memory
 * that cannot be registered (already pinned, sharing a page with pinned memory, a share of another
 * block, over the cap) is staged as before, without asking the driver.
 * Only built with the CUDA backend; streaming thread only, but unregistration may run anywhere. */
#pragma once

#include <gst/gst.h>

#include <cstddef>
#include <memory>

typedef struct _GstCudaContext GstCudaContext;

namespace gstdpx {

class HostRegistry {
 public:
  /* Bytes registered at most, over every memory alive at once. */
  static constexpr std::size_t kMaxBytes = std::size_t(2) << 30;

  HostRegistry();
  ~HostRegistry();
  HostRegistry(const HostRegistry&) = delete;
  HostRegistry& operator=(const HostRegistry&) = delete;

  /* Notes each system memory of `buffer`, registering those seen before (the context must be
   * current; it is kept for unregistering). */
  void note(GstBuffer* buffer, GstCudaContext* context);

  /* Bytes registered now. */
  std::size_t registered_bytes() const;

  struct Shared;

 private:
  std::shared_ptr<Shared> shared_;
};

}  // namespace gstdpx
