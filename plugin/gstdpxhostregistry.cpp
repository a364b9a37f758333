#include "gstdpxhostregistry.h"

#include <cuda_runtime_api.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>

#include <atomic>

GST_DEBUG_CATEGORY_STATIC (gst_dpx_host_registry_debug);
#define GST_CAT_DEFAULT gst_dpx_host_registry_debug

namespace gstdpx {

/* What outlives the element: the byte count, shared with every registration's unregister. */
struct HostRegistry::Shared {
  std::atomic<std::size_t> bytes{0};
};

namespace {

/* A memory's state, as qdata: seen once, registered, or not registrable. */
enum class MemoryState { kSeen = 1, kRegistered, kRefused };

GQuark
state_quark ()
{
  static GQuark q = g_quark_from_static_string ("GstDpxHostRegistryState");
  return q;
}

MemoryState
state_of (GstMemory * mem)
{
  return static_cast<MemoryState> (GPOINTER_TO_INT (gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST (mem),
              state_quark ())));
}

void
set_state (GstMemory * mem, MemoryState state)
{
  gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (mem), state_quark (),
      GINT_TO_POINTER (static_cast<int> (state)), nullptr);
}

/* One registration: undone when its memory is finalized, before the block is freed. */
struct Registration {
  void *data;
  std::size_t bytes;
  GstCudaContext *context;
  std::shared_ptr<HostRegistry::Shared> shared;
};

void
unregister (gpointer user_data, GstMiniObject *)
{
  auto *r = static_cast<Registration *> (user_data);
  if (gst_cuda_context_push (r->context)) {
    cudaHostUnregister (r->data);
    cudaGetLastError ();
    gst_cuda_context_pop (nullptr);
  } else {
    GST_ERROR ("cannot make the CUDA context current: %p stays registered", r->data);
  }
  r->shared->bytes -= r->bytes;
  gst_object_unref (r->context);
  delete r;
}

}  // namespace

HostRegistry::HostRegistry ():shared_ (std::make_shared<Shared> ())
{
  static gsize once = 0;
  if (g_once_init_enter (&once)) {
    GST_DEBUG_CATEGORY_INIT (gst_dpx_host_registry_debug, "dpxhostregistry", 0, "dpx host memory registration");
    g_once_init_leave (&once, 1);
  }
}

HostRegistry::~HostRegistry () = default;

std::size_t
HostRegistry::registered_bytes () const
{
  return shared_->bytes;
}

void
HostRegistry::note (GstBuffer * buffer, GstCudaContext * context)
{
  for (guint i = 0; i < gst_buffer_n_memory (buffer); ++i) {
    GstMemory *mem = gst_buffer_peek_memory (buffer, i);
    if (gst_is_cuda_memory (mem) || mem->parent != nullptr)
      continue;                 /* device memory, or a share of another memory's block */
    const MemoryState state = state_of (mem);
    if (state == MemoryState::kRegistered || state == MemoryState::kRefused)
      continue;
    if (state != MemoryState::kSeen) {
      set_state (mem, MemoryState::kSeen);
      continue;
    }
    GstMapInfo map;
    if (!gst_memory_map (mem, &map, GST_MAP_READ)) {
      set_state (mem, MemoryState::kRefused);
      continue;
    }
    const std::size_t bytes = map.size;
    void *data = map.data;
    gst_memory_unmap (mem, &map);
    if (shared_->bytes + bytes > kMaxBytes || cudaHostRegister (data, bytes, cudaHostRegisterPortable) != cudaSuccess) {
      cudaGetLastError ();      /* already pinned, or the driver refused: staged as before */
      set_state (mem, MemoryState::kRefused);
      continue;
    }
    shared_->bytes += bytes;
    set_state (mem, MemoryState::kRegistered);
    auto *r = new Registration { data, bytes, static_cast<GstCudaContext *> (gst_object_ref (context)), shared_ };
    gst_mini_object_weak_ref (GST_MINI_OBJECT_CAST (mem), unregister, r);
    GST_DEBUG ("registered %p (%" G_GSIZE_FORMAT " bytes)", data, bytes);
  }
}

}  // namespace gstdpx
