#include "gstdpxpinned.h"

#include <cuda_runtime_api.h>
#include <gst/video/video.h>

GST_DEBUG_CATEGORY_STATIC(gst_dpx_pinned_debug);
#define GST_CAT_DEFAULT gst_dpx_pinned_debug

typedef struct {
  GstAllocator parent;
  GstCudaContext* context;
} GstDpxPinnedAllocator;

typedef struct {
  GstAllocatorClass parent_class;
} GstDpxPinnedAllocatorClass;

G_DEFINE_TYPE(GstDpxPinnedAllocator, gst_dpx_pinned_allocator, GST_TYPE_ALLOCATOR);

namespace {

/* What a wrapped memory needs to free its block: the block and the context it was made in. */
struct PinnedBlock {
  void* data;
  GstCudaContext* context;
};

void pinned_block_free(gpointer user_data) {
  auto* block = static_cast<PinnedBlock*>(user_data);
  if (gst_cuda_context_push(block->context)) {
    cudaFreeHost(block->data);
    gst_cuda_context_pop(nullptr);
  } else {
    GST_ERROR("cannot make the CUDA context current: pinned block %p leaks", block->data);
  }
  gst_object_unref(block->context);
  delete block;
}

}  // namespace

/* Wrapped memories belong to the system-memory allocator (they map like any host memory), so
 * GstAllocator::free is never called for this allocator: the wrapped notify frees the block. */
static GstMemory* gst_dpx_pinned_allocator_alloc(GstAllocator* allocator, gsize size,
                                                 GstAllocationParams* params) {
  auto* self = reinterpret_cast<GstDpxPinnedAllocator*>(allocator);
  GstAllocationParams defaults;
  if (params == nullptr) {
    gst_allocation_params_init(&defaults);
    params = &defaults;
  }
  /* cudaHostAlloc returns page-aligned blocks, which covers any alignment a pool asks for. */
  const gsize maxsize = params->prefix + size + params->padding;
  void* data = nullptr;
  if (!gst_cuda_context_push(self->context)) {
    GST_ERROR_OBJECT(self, "cannot make the CUDA context current");
    return nullptr;
  }
  const cudaError_t err = cudaHostAlloc(&data, maxsize, cudaHostAllocPortable);
  gst_cuda_context_pop(nullptr);
  if (err != cudaSuccess) {
    cudaGetLastError();
    GST_ERROR_OBJECT(self, "cudaHostAlloc of %" G_GSIZE_FORMAT " bytes failed: %s", maxsize,
                     cudaGetErrorString(err));
    return nullptr;
  }
  auto* block = new PinnedBlock{data, static_cast<GstCudaContext*>(gst_object_ref(self->context))};
  GstMemory* mem = gst_memory_new_wrapped(static_cast<GstMemoryFlags>(params->flags), data, maxsize,
                                          params->prefix, size, block, pinned_block_free);
  if ((params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED) && params->prefix) memset(data, 0, params->prefix);
  if ((params->flags & GST_MEMORY_FLAG_ZERO_PADDED) && params->padding)
    memset(static_cast<guint8*>(data) + params->prefix + size, 0, params->padding);
  return mem;
}

static void gst_dpx_pinned_allocator_finalize(GObject* object) {
  auto* self = reinterpret_cast<GstDpxPinnedAllocator*>(object);
  gst_clear_object(&self->context);
  G_OBJECT_CLASS(gst_dpx_pinned_allocator_parent_class)->finalize(object);
}

static void gst_dpx_pinned_allocator_class_init(GstDpxPinnedAllocatorClass* klass) {
  G_OBJECT_CLASS(klass)->finalize = gst_dpx_pinned_allocator_finalize;
  GST_ALLOCATOR_CLASS(klass)->alloc = gst_dpx_pinned_allocator_alloc;
  GST_DEBUG_CATEGORY_INIT(gst_dpx_pinned_debug, "dpxpinned", 0, "dpx pinned host memory");
}

static void gst_dpx_pinned_allocator_init(GstDpxPinnedAllocator* self) {
  GstAllocator* alloc = GST_ALLOCATOR_CAST(self);
  alloc->mem_type = "DpxPinnedHost";
  /* Buffers from this allocator hold ordinary wrapped host memory. */
  GST_OBJECT_FLAG_SET(self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

GstAllocator* gst_dpx_pinned_allocator_new(GstCudaContext* context) {
  g_return_val_if_fail(GST_IS_CUDA_CONTEXT(context), nullptr);
  auto* self = static_cast<GstDpxPinnedAllocator*>(g_object_new(GST_TYPE_DPX_PINNED_ALLOCATOR, nullptr));
  gst_object_ref_sink(self);
  self->context = static_cast<GstCudaContext*>(gst_object_ref(context));
  return GST_ALLOCATOR_CAST(self);
}

GstBufferPool* gst_dpx_pinned_pool_new(GstCudaContext* context, GstCaps* caps, guint min, guint max) {
  GstVideoInfo info;
  if (!gst_video_info_from_caps(&info, caps)) return nullptr;
  GstAllocator* allocator = gst_dpx_pinned_allocator_new(context);
  GstBufferPool* pool = gst_video_buffer_pool_new();
  GstStructure* config = gst_buffer_pool_get_config(pool);
  gst_buffer_pool_config_set_params(config, caps, GST_VIDEO_INFO_SIZE(&info), min, max);
  gst_buffer_pool_config_set_allocator(config, allocator, nullptr);
  gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_object_unref(allocator);
  if (!gst_buffer_pool_set_config(pool, config)) {
    gst_object_unref(pool);
    return nullptr;
  }
  return pool;
}
