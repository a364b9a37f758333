/* The device side of a dpx element: the `backend` property's values, the decision of where
 * frames run, and the element's GstCudaContext (found through neighbours or made, shared through
 * GstContext, made current around CUDA work). Usable in builds without the CUDA backend, where
 * every request for CUDA is answered "not built". */
#pragma once

#include <gst/gst.h>

#include <mutex>
#include <string>

#include "dpx/device.h"

typedef struct _GstCudaContext GstCudaContext;

G_BEGIN_DECLS

#define GST_TYPE_DPX_BACKEND (gst_dpx_backend_get_type())
GType gst_dpx_backend_get_type(void);

/* Values of the `backend` property; the same order as dpx::Backend. */
typedef enum {
  GST_DPX_BACKEND_AUTO = 0,
  GST_DPX_BACKEND_CUDA = 1,
  GST_DPX_BACKEND_CPU = 2,
} GstDpxBackend;

G_END_DECLS

namespace gstdpx {

/* The element's CUDA context lives from the first start that needs it until READY->NULL, as
 * nvcodec's elements keep theirs: a restart (READY <-> PAUSED) reuses it rather than making a new
 * one, and per-stream CUDA resources are what a stop frees. A context set on the element (by the
 * application, a bin, or gst-cuda when it finds or makes one) replaces the kept one while the
 * element is not running; one set while it runs is taken at the next start. */
class CudaDevice {
 public:
  explicit CudaDevice(GstElement* element) : element_(element) {}
  ~CudaDevice() { release(); }
  CudaDevice(const CudaDevice&) = delete;
  CudaDevice& operator=(const CudaDevice&) = delete;

  /* The `cuda-device-id` property: -1 takes a neighbour's device, else the first. A new id drops
   * the kept context. */
  void set_device_id(int id);
  int device_id();

  /* From the element's start to its stop: `cuda` FALSE (the CPU backend was asked for) drops the
   * kept context, else the latest context set on the element is taken. */
  void start(bool cuda);
  void stop();

  /* Finds or makes the context; FALSE with the reason in `why` when CUDA cannot be used. */
  bool ensure(std::string* why);
  /* The context, nullptr before ensure() or after release(). No reference is added. */
  GstCudaContext* context();
  /* Drops the context (READY->NULL, a finalized element). */
  void release();

  /* GstElement::set_context and the CONTEXT query, for neighbours sharing the context. */
  void handle_set_context(GstContext* context);
  bool handle_context_query(GstQuery* query);

  /* TRUE when every memory of `buffer` is CUDA memory of this context (usable in place). */
  bool holds(GstBuffer* buffer);

  /* Makes the context current for the guard's lifetime (nothing without a context). */
  class Current {
   public:
    explicit Current(CudaDevice& device);
    ~Current();
    bool pushed() const { return pushed_; }
    Current(const Current&) = delete;
    Current& operator=(const Current&) = delete;

   private:
    bool pushed_ = false;
  };

 private:
  /* Offers the context GstElement keeps for the element (the latest one set on it). */
  void take_element_context();

  GstElement* element_;
  std::mutex lock_; /* guards the three below: set_context comes from any thread */
  int device_id_ = -1;
  GstCudaContext* context_ = nullptr;
  bool running_ = false; /* between start and stop: the context in use is not replaced */
};

/* Where frames run for the `backend` property: cpu as asked; cuda when `device` can be used;
 * auto takes cuda when it can and the CPU otherwise. FALSE (with `why`) only when cuda was asked
 * for explicitly and cannot be used. `backend` is kCpu whenever the answer is not kCuda. */
bool decide_backend(GstDpxBackend requested, CudaDevice& device, dpx::Backend* backend, std::string* why);

/* TRUE for caps whose first structure is in memory:CUDAMemory. */
bool caps_are_cuda_memory(GstCaps* caps);

}  // namespace gstdpx
