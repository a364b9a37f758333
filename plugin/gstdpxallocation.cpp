#include "gstdpxallocation.h"

#if DPX_HAVE_CUDA
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/video/video.h>

#include "gstdpxpinned.h"
#endif

namespace gstdpx {

#if DPX_HAVE_CUDA
namespace {

/* Configures `pool` for `caps` and returns the buffer size it settled on (0 on failure). */
guint configure_pool(GstBufferPool* pool, GstCaps* caps, guint size) {
  GstStructure* config = gst_buffer_pool_get_config(pool);
  gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_buffer_pool_config_set_params(config, caps, size, 0, 0);
  if (!gst_buffer_pool_set_config(pool, config)) return 0;
  config = gst_buffer_pool_get_config(pool);
  guint actual = 0;
  gst_buffer_pool_config_get_params(config, nullptr, &actual, nullptr, nullptr);
  gst_structure_free(config);
  return actual;
}

/* The pool for `caps` on the CUDA side: CUDA memory for CUDA caps, pinned host memory for
 * system-memory caps on the CUDA backend; nullptr when neither applies. */
GstBufferPool* make_pool(CudaDevice& device, dpx::Backend backend, GstCaps* caps, guint* size) {
  GstCudaContext* ctx = device.context();
  GstVideoInfo info;
  if (ctx == nullptr || !gst_video_info_from_caps(&info, caps)) return nullptr;
  GstBufferPool* pool = nullptr;
  if (caps_are_cuda_memory(caps)) {
    pool = gst_cuda_buffer_pool_new(ctx);
    *size = configure_pool(pool, caps, GST_VIDEO_INFO_SIZE(&info));
  } else if (backend == dpx::Backend::kCuda) {
    pool = gst_dpx_pinned_pool_new(ctx, caps, 0, 0);
    *size = GST_VIDEO_INFO_SIZE(&info);
  }
  if (pool != nullptr && *size == 0) gst_clear_object(&pool);
  return pool;
}

}  // namespace

AllocationReply propose_allocation(CudaDevice& device, dpx::Backend backend, GstQuery* query) {
  GstCaps* caps = nullptr;
  gboolean need_pool = FALSE;
  gst_query_parse_allocation(query, &caps, &need_pool);
  if (caps == nullptr) return AllocationReply::kRefused;
  guint size = 0;
  GstBufferPool* pool = make_pool(device, backend, caps, &size);
  if (pool == nullptr)
    return caps_are_cuda_memory(caps) ? AllocationReply::kRefused : AllocationReply::kDefault;
  if (need_pool) gst_query_add_allocation_pool(query, pool, size, 0, 0);
  /* Upstream's default decide_allocation gives its pool the first allocator of the query:
   * offer the pool's own (the pinned one) so that it is kept. */
  GstStructure* config = gst_buffer_pool_get_config(pool);
  GstAllocator* allocator = nullptr;
  GstAllocationParams params;
  if (gst_buffer_pool_config_get_allocator(config, &allocator, &params) && allocator != nullptr)
    gst_query_add_allocation_param(query, allocator, &params);
  gst_structure_free(config);
  gst_object_unref(pool);
  gst_query_add_allocation_meta(query, GST_VIDEO_META_API_TYPE, nullptr);
  return AllocationReply::kAnswered;
}

AllocationReply decide_allocation(CudaDevice& device, dpx::Backend backend, GstQuery* query) {
  GstCaps* caps = nullptr;
  gst_query_parse_allocation(query, &caps, nullptr);
  if (caps == nullptr) return AllocationReply::kRefused;
  GstBufferPool* pool = nullptr;
  guint size = 0, min = 0, max = 0;
  const bool has_pool = gst_query_get_n_allocation_pools(query) > 0;
  if (has_pool) gst_query_parse_nth_allocation_pool(query, 0, &pool, &size, &min, &max);
  const bool cuda_caps = caps_are_cuda_memory(caps);
  if (cuda_caps && pool != nullptr &&
      (!GST_IS_CUDA_BUFFER_POOL(pool) || GST_CUDA_BUFFER_POOL(pool)->context != device.context())) {
    gst_clear_object(&pool); /* a pool of another device or memory type: use ours */
  }
  if (pool != nullptr) {
    /* Downstream's pool: system memory (copied through staging) or CUDA memory of our context. */
    gst_object_unref(pool);
    return AllocationReply::kDefault;
  }
  GstBufferPool* own = make_pool(device, backend, caps, &size);
  if (own == nullptr) return cuda_caps ? AllocationReply::kRefused : AllocationReply::kDefault;
  if (has_pool)
    gst_query_set_nth_allocation_pool(query, 0, own, size, min, max);
  else
    gst_query_add_allocation_pool(query, own, size, min, max);
  gst_object_unref(own);
  /* The pool is configured: the default decide_allocation would replace its allocator. */
  return AllocationReply::kAnswered;
}

#else /* without the CUDA backend every pool is GstBaseTransform's */

AllocationReply propose_allocation(CudaDevice&, dpx::Backend, GstQuery*) {
  return AllocationReply::kDefault;
}

AllocationReply decide_allocation(CudaDevice&, dpx::Backend, GstQuery*) {
  return AllocationReply::kDefault;
}

#endif

}  // namespace gstdpx
