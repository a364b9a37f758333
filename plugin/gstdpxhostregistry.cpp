#include "gstdpxhostregistry.h"

#include <cuda_runtime_api.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>

GST_DEBUG_CATEGORY_STATIC(gst_dpx_host_registry_debug);
#define GST_CAT_DEFAULT gst_dpx_host_registry_debug

namespace gstdpx {

/* What outlives the element: the byte count, shared with every registration's unregister. */
struct HostRegistry::Shared {
  std::atomic<std::size_t> bytes{0};
};

namespace {

/* A memory's state, as qdata: seen once, registered, or not registrable. */
enum class MemoryState { kSeen = 1, kRegistered, kRefused };

GQuark state_quark() {
  static GQuark q = g_quark_from_static_string("GstDpxHostRegistryState");
  return q;
}

MemoryState state_of(GstMemory* mem) {
  return static_cast<MemoryState>(
      GPOINTER_TO_INT(gst_mini_object_get_qdata(GST_MINI_OBJECT_CAST(mem), state_quark())));
}

void set_state(GstMemory* mem, MemoryState state) {
  gst_mini_object_set_qdata(GST_MINI_OBJECT_CAST(mem), state_quark(),
                            GINT_TO_POINTER(static_cast<int>(state)), nullptr);
}

/* The page spans registered through any registry of the process. The driver pins whole pages and
 * refuses a range that shares a page with a registered one (small buffers of one heap do), so such
 * memory is known refused here instead of asking the driver and reading an error back. */
class PinnedPages {
 public:
  struct Span {
    std::uintptr_t begin, end;
  };

  static Span pages_of(const void* data, std::size_t bytes) {
    static const std::uintptr_t page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    const auto first = reinterpret_cast<std::uintptr_t>(data);
    return Span{first / page * page, (first + bytes + page - 1) / page * page};
  }

  /* Claims `span` unless it overlaps a claimed span. */
  bool claim(Span span) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto next = spans_.lower_bound(span.begin);
    if (next != spans_.end() && next->first < span.end) return false;
    if (next != spans_.begin() && std::prev(next)->second > span.begin) return false;
    spans_.emplace(span.begin, span.end);
    return true;
  }

  void release(Span span) {
    std::lock_guard<std::mutex> lock(mutex_);
    spans_.erase(span.begin);
  }

  static PinnedPages& process() {
    static PinnedPages pages;
    return pages;
  }

 private:
  std::mutex mutex_;
  std::map<std::uintptr_t, std::uintptr_t> spans_; /* begin -> end */
};

/* Whether the driver already knows `data` as page-locked or device memory (cudaMallocHost, a
 * registration made outside this plugin); asking is not an error for pageable memory. */
bool known_to_driver(const void* data) {
  cudaPointerAttributes attr{};
  const bool known =
      cudaPointerGetAttributes(&attr, data) == cudaSuccess && attr.type != cudaMemoryTypeUnregistered;
  cudaGetLastError();
  return known;
}

/* One registration: undone when its memory is finalized, before the block is freed. */
struct Registration {
  void* data;
  std::size_t bytes;
  PinnedPages::Span pages;
  GstCudaContext* context;
  std::shared_ptr<HostRegistry::Shared> shared;
};

void unregister(gpointer user_data, GstMiniObject*) {
  auto* r = static_cast<Registration*>(user_data);
  if (gst_cuda_context_push(r->context)) {
    cudaHostUnregister(r->data);
    cudaGetLastError();
    gst_cuda_context_pop(nullptr);
    PinnedPages::process().release(r->pages);
  } else {
    GST_ERROR("cannot make the CUDA context current: %p stays registered", r->data);
  }
  r->shared->bytes -= r->bytes;
  gst_object_unref(r->context);
  delete r;
}

}  // namespace

HostRegistry::HostRegistry() : shared_(std::make_shared<Shared>()) {
  static gsize once = 0;
  if (g_once_init_enter(&once)) {
    GST_DEBUG_CATEGORY_INIT(gst_dpx_host_registry_debug, "dpxhostregistry", 0,
                            "dpx host memory registration");
    g_once_init_leave(&once, 1);
  }
}

HostRegistry::~HostRegistry() = default;

std::size_t HostRegistry::registered_bytes() const {
  return shared_->bytes;
}

void HostRegistry::note(GstBuffer* buffer, GstCudaContext* context) {
  for (guint i = 0; i < gst_buffer_n_memory(buffer); ++i) {
    GstMemory* mem = gst_buffer_peek_memory(buffer, i);
    if (gst_is_cuda_memory(mem) || mem->parent != nullptr)
      continue; /* device memory, or a share of another memory's block */
    const MemoryState state = state_of(mem);
    if (state == MemoryState::kRegistered || state == MemoryState::kRefused) continue;
    if (state != MemoryState::kSeen) {
      set_state(mem, MemoryState::kSeen);
      continue;
    }
    GstMapInfo map;
    if (!gst_memory_map(mem, &map, GST_MAP_READ)) {
      set_state(mem, MemoryState::kRefused);
      continue;
    }
    const std::size_t bytes = map.size;
    void* data = map.data;
    gst_memory_unmap(mem, &map);
    const PinnedPages::Span pages = PinnedPages::pages_of(data, bytes);
    if (shared_->bytes + bytes > kMaxBytes || known_to_driver(data) || !PinnedPages::process().claim(pages)) {
      set_state(mem, MemoryState::kRefused); /* over the cap or already pinned: staged as before */
      continue;
    }
    const cudaError_t err = cudaHostRegister(data, bytes, cudaHostRegisterPortable);
    if (err != cudaSuccess) {
      cudaGetLastError();
      PinnedPages::process().release(pages);
      GST_DEBUG("the driver refused %p (%" G_GSIZE_FORMAT " bytes): %s", data, bytes,
                cudaGetErrorString(err));
      set_state(mem, MemoryState::kRefused);
      continue;
    }
    shared_->bytes += bytes;
    set_state(mem, MemoryState::kRegistered);
    auto* r =
        new Registration{data, bytes, pages, static_cast<GstCudaContext*>(gst_object_ref(context)), shared_};
    gst_mini_object_weak_ref(GST_MINI_OBJECT_CAST(mem), unregister, r);
    GST_DEBUG("registered %p (%" G_GSIZE_FORMAT " bytes)", data, bytes);
  }
}

}  // namespace gstdpx
