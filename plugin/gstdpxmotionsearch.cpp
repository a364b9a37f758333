#include "gstdpxmotionsearch.h"

#include "gstdpxhostcopy.h"

#if DPX_HAVE_CUDA
#include "dpx/cuda_status.h"
#endif

namespace gstdpx {
namespace {

// Grows `b` to at least `bytes`.
template <typename Buffer>
dpx::Status ensure_size(Buffer& b, std::size_t bytes) {
  return b.size() >= bytes ? dpx::Status::ok() : b.allocate(bytes);
}

#if !DPX_HAVE_CUDA
dpx::Status not_built() {
  return dpx::Status(dpx::StatusCode::kNotBuilt, "dpxmotionest was built without CUDA support");
}
#endif

}  // namespace

dpx::Status MotionSearcher::process(const GstDpxPlaneJob& job, const dpx::MotionParams& params,
                                    GstClockTime pts, bool discont) {
  if (results_.size() <= job.slot) results_.resize(job.slot + 1);
  MotionResult& out = results_[job.slot];
  out.searched = false;
  out.pts = pts;
  const bool usable = reference_.valid && !discont && reference_.view.width == job.src.width &&
                      reference_.view.height == job.src.height && reference_.view.type == job.src.type;
  if (usable) {
    DPX_RETURN_IF_ERROR(search(job, params, &out));
    out.searched = true;
    out.reference_pts = reference_.pts;
  } else {
    previous_.grid = dpx::MotionGrid();  // a new chain starts without a previous field
  }
  reference_.valid = false;  // until the copy below is enqueued
  DPX_RETURN_IF_ERROR(store_reference(job));
  reference_.valid = true;
  reference_.pts = pts;
  return dpx::Status::ok();
}

// Searches the plane against the reference; on CUDA the vectors are there once the stream has run.
dpx::Status MotionSearcher::search(const GstDpxPlaneJob& job, const dpx::MotionParams& p, MotionResult* out) {
  out->grid = dpx::motion_grid(job.src.width, job.src.height, p.block_size);
  out->grid.scale = dpx::motion_scale(p);
  // The last frame's field is a start of the predictive search when it covers the same blocks.
  PreviousField& last = previous_;
  const bool same_grid = last.grid.block_size == out->grid.block_size &&
                         last.grid.columns == out->grid.columns && last.grid.rows == out->grid.rows;
  dpx::MotionPrevious previous;
  previous.scale = last.grid.scale;
  if (job.backend == dpx::Backend::kCpu) {
    previous.vectors = same_grid && !last.host.empty() ? last.host.data() : nullptr;
    DPX_RETURN_IF_ERROR(dpx::motion_estimate_cpu(job.src, reference_.view, p, &out->field, 0, previous));
    out->vectors = out->field.vectors.data();
    out->device_vectors = nullptr;
    last.host = out->field.vectors;
    last.grid = out->grid;
    return dpx::Status::ok();
  }
#if DPX_HAVE_CUDA
  const std::size_t bytes = out->grid.count() * sizeof(dpx::MotionVector);
  previous.vectors = same_grid && last.device.size() >= bytes ? last.device.as<dpx::MotionVector>() : nullptr;
  DPX_RETURN_IF_ERROR(ensure_size(out->device, bytes));
  DPX_RETURN_IF_ERROR(ensure_size(out->pinned, bytes));
  auto* vectors = out->device.as<dpx::MotionVector>();
  DPX_RETURN_IF_ERROR(dpx::motion_estimate_cuda(job.src, reference_.view, p, vectors, out->grid.count(),
                                                job.stream, previous));
  // This field is the next frame's previous one (copied once it is written, on the same stream).
  DPX_RETURN_IF_ERROR(ensure_size(last.device, bytes));
  DPX_CUDA_TRY(cudaMemcpyAsync(last.device.data(), vectors, bytes, cudaMemcpyDeviceToDevice, job.stream));
  last.grid = out->grid;
  last.host.clear();
  DPX_CUDA_TRY(cudaMemcpyAsync(out->pinned.data(), vectors, bytes, cudaMemcpyDeviceToHost, job.stream));
  out->vectors = out->pinned.as<dpx::MotionVector>();
  out->device_vectors = vectors;
  return dpx::Status::ok();
#else
  return not_built();
#endif
}

// Keeps the plane as the next frame's reference (after the search on the same stream has read
// the old one).
dpx::Status MotionSearcher::store_reference(const GstDpxPlaneJob& job) {
  const dpx::PlaneView& cur = job.src;
  const std::size_t pitch = cur.row_bytes(), bytes = pitch * cur.height;
  ReferencePlane& ref = reference_;
  ref.view = cur;
  ref.view.pitch = pitch;
  if (job.backend == dpx::Backend::kCpu) {
    ref.host.resize(bytes);
    copy_rows(ref.host.data(), pitch, cur.data, cur.pitch, pitch, cur.height);
    ref.view.data = ref.host.data();
    return dpx::Status::ok();
  }
#if DPX_HAVE_CUDA
  DPX_RETURN_IF_ERROR(ensure_size(ref.device, bytes));
  DPX_CUDA_TRY(cudaMemcpy2DAsync(ref.device.data(), pitch, cur.data, cur.pitch, pitch, cur.height,
                                 cudaMemcpyDeviceToDevice, job.stream));
  ref.view.data = ref.device.data();
  return dpx::Status::ok();
#else
  return not_built();
#endif
}

void MotionSearcher::reset() {
  reference_ = ReferencePlane();
  previous_ = PreviousField();
  results_.clear();
}

}  // namespace gstdpx
