/* The device side of a dpx element (see gstdpxcudacontext.h). */
#include "gstdpxcudacontext.h"

#if DPX_HAVE_CUDA
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#endif

GType gst_dpx_backend_get_type(void) {
  static GType type = 0;
  static const GEnumValue values[] = {
      {GST_DPX_BACKEND_AUTO, "CUDA when a device is usable, else the CPU", "auto"},
      {GST_DPX_BACKEND_CUDA, "CUDA (an error without a usable device)", "cuda"},
      {GST_DPX_BACKEND_CPU, "CPU", "cpu"},
      {0, nullptr, nullptr},
  };
  if (g_once_init_enter(&type)) {
    GType t = g_enum_register_static("GstDpxBackend", values);
    g_once_init_leave(&type, t);
  }
  return type;
}

namespace gstdpx {

void CudaDevice::set_device_id(int id) {
  std::lock_guard<std::mutex> lk(lock_);
  if (id != device_id_) gst_clear_object(&context_); /* a context of the former device */
  device_id_ = id;
}

int CudaDevice::device_id() {
  std::lock_guard<std::mutex> lk(lock_);
  return device_id_;
}

GstCudaContext* CudaDevice::context() {
  std::lock_guard<std::mutex> lk(lock_);
  return context_;
}

void CudaDevice::start(bool cuda) {
  if (cuda)
    take_element_context();
  else
    release();
  std::lock_guard<std::mutex> lk(lock_);
  running_ = true;
}

void CudaDevice::stop() {
  std::lock_guard<std::mutex> lk(lock_);
  running_ = false;
}

void CudaDevice::release() {
  std::lock_guard<std::mutex> lk(lock_);
  gst_clear_object(&context_);
}

#if DPX_HAVE_CUDA

void CudaDevice::take_element_context() {
  GstContext* kept = gst_element_get_context(element_, GST_CUDA_CONTEXT_TYPE);
  if (kept == nullptr) return;
  handle_set_context(kept);
  gst_context_unref(kept);
}

/* A context set on the element comes first: gst-cuda's search asks only the neighbours and the
 * application, and makes a new context when they have none. It stores what it finds or makes
 * through set_context() on the element, which fills context_ and checks that same pointer; so the
 * search gets context_ itself and runs without the lock, which set_context() takes. */
bool CudaDevice::ensure(std::string* why) {
  if (context() == nullptr) take_element_context();
  if (context() != nullptr) return true;
  if (dpx::cuda_device_count() == 0) {
    *why = "no usable CUDA device";
    return false;
  }
  if (!gst_cuda_load_library()) {
    *why = "the CUDA driver library could not be loaded";
    return false;
  }
  const int id = device_id();
  if (!gst_cuda_ensure_element_context(element_, id, &context_)) {
    *why = "no CUDA context for device " + std::to_string(id);
    return false;
  }
  return true;
}

/* gst-cuda's helper keeps a context it has; here a context offered while the element is not
 * running replaces the kept one. */
void CudaDevice::handle_set_context(GstContext* context) {
  std::lock_guard<std::mutex> lk(lock_);
  GstCudaContext* offered = nullptr;
  if (!gst_cuda_handle_set_context(element_, context, device_id_, &offered) || offered == nullptr) return;
  if (offered == context_ || (context_ != nullptr && running_)) {
    gst_object_unref(offered);
    return;
  }
  gst_clear_object(&context_);
  context_ = offered;
}

bool CudaDevice::handle_context_query(GstQuery* query) {
  std::lock_guard<std::mutex> lk(lock_);
  return gst_cuda_handle_context_query(element_, query, context_);
}

bool CudaDevice::holds(GstBuffer* buffer) {
  GstCudaContext* ctx = context();
  const guint n = gst_buffer_n_memory(buffer);
  if (ctx == nullptr || n == 0) return false;
  for (guint i = 0; i < n; ++i) {
    GstMemory* mem = gst_buffer_peek_memory(buffer, i);
    if (!gst_is_cuda_memory(mem) || GST_CUDA_MEMORY_CAST(mem)->context != ctx) return false;
  }
  return true;
}

CudaDevice::Current::Current(CudaDevice& device) {
  GstCudaContext* ctx = device.context();
  pushed_ = ctx != nullptr && gst_cuda_context_push(ctx);
}

CudaDevice::Current::~Current() {
  if (pushed_) gst_cuda_context_pop(nullptr);
}

#else /* the build without the CUDA backend: there is never a context */

bool CudaDevice::ensure(std::string* why) {
  *why = "this build of the plugin has no CUDA backend";
  return false;
}

void CudaDevice::take_element_context() {}

void CudaDevice::handle_set_context(GstContext*) {}

bool CudaDevice::handle_context_query(GstQuery*) {
  return false;
}

bool CudaDevice::holds(GstBuffer*) {
  return false;
}

CudaDevice::Current::Current(CudaDevice&) {}

CudaDevice::Current::~Current() {}

#endif

/* The feature's name is spelled out: gst-cuda's headers need the CUDA toolkit. */
bool caps_are_cuda_memory(GstCaps* caps) {
  GstCapsFeatures* features = gst_caps_get_features(caps, 0);
  return features != nullptr && gst_caps_features_contains(features, "memory:CUDAMemory");
}

bool decide_backend(GstDpxBackend requested, CudaDevice& device, dpx::Backend* backend, std::string* why) {
  *backend = dpx::Backend::kCpu;
  if (requested == GST_DPX_BACKEND_CPU) return true;
  if (device.ensure(why)) {
    CudaDevice::Current current(device);
    if (current.pushed()) {
      *backend = dpx::Backend::kCuda;
      return true;
    }
    *why = "cannot make the CUDA context current";
  }
  return requested == GST_DPX_BACKEND_AUTO;
}

}  // namespace gstdpx
