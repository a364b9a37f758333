/* Buffer pools of a dpx element: a GstCudaBufferPool for memory:CUDAMemory caps, and pinned host
 * memory (gstdpxpinned.h) for system-memory caps on the CUDA backend, so that uploads and
 * downloads run asynchronously. Anything else is left to GstBaseTransform's defaults. */
#pragma once

#include <gst/gst.h>

#include "dpx/device.h"
#include "gstdpxcudacontext.h"

namespace gstdpx {

enum class AllocationReply {
  kAnswered, /* the query holds our pool */
  kDefault,  /* not ours to answer: GstBaseTransform's default applies */
  kRefused,  /* CUDA-memory caps without a usable pool */
};

/* propose_allocation: offers our pool (and its allocator) upstream. */
AllocationReply propose_allocation(CudaDevice& device, dpx::Backend backend, GstQuery* query);

/* decide_allocation: keeps downstream's pool when it suits, else puts ours in the query. */
AllocationReply decide_allocation(CudaDevice& device, dpx::Backend backend, GstQuery* query);

}  // namespace gstdpx
