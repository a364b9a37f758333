/* GstDpxPinnedAllocator: page-locked host memory (cudaHostAlloc, portable) for system-memory
 * buffers, so that the CUDA backend copies them to and from the GPU asynchronously and at full
 * PCIe speed. GstDpxFilter puts it in the video buffer pools it offers upstream and uses for its
 * own output. Only built with the CUDA backend. */
#pragma once

#include <gst/cuda/gstcudacontext.h>
#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_TYPE_DPX_PINNED_ALLOCATOR (gst_dpx_pinned_allocator_get_type())
GType gst_dpx_pinned_allocator_get_type(void);

/* The allocator keeps `context` alive as long as any of its memory exists: the memory is
 * allocated and freed with that context current. */
GstAllocator* gst_dpx_pinned_allocator_new(GstCudaContext* context);

/* A GstVideoBufferPool for `caps` whose memory comes from a pinned allocator on `context`. */
GstBufferPool* gst_dpx_pinned_pool_new(GstCudaContext* context, GstCaps* caps, guint min, guint max);

G_END_DECLS
