// motion_estimate_cuda_with<Ops>: checks, then the passes of motion_pipeline.h on the stream. The
// default search is one launch into the caller's array; the other modes take their first pass and
// coarse planes, and the sharp filters' sub-pel search the reference's 16 phase planes, from
// scratch leases (stream-ordered memory from libdpx's pool), freed on the stream after the last
// launch that reads them, so nothing synchronises. Both are taken before the first launch: a
// search that cannot have them fails with nothing written. Included by the one file
// that instantiates each policy: motion_estimate_cuda.cu (Dpx, libdpxmotion) and
// motion_variants.cu (PlainOps).
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "block_match_launch.cuh"
#include "cuda_check.h"
#include "dpx/motion.h"
#include "motion_pipeline.h"
#include "pointer_kind.h"
#include "scratch.h"

namespace dpx {

namespace motion_detail {

// The coarse planes and field of the predictive search, in one allocation.
struct CoarseScratch {
  MutablePlaneView current, reference;
  MotionVector* field;
};

inline Status make_coarse(const PlaneView& like, const CoarsePlan& plan, runtime::ScratchLease* scratch,
                          CoarseScratch* out) {
  const std::size_t sample = like.type == SampleType::kU8 ? 1 : 2;
  const std::size_t pitch = (sample * plan.width + 15) / 16 * 16, plane = pitch * plan.height;
  const std::size_t vectors = motion_grid(plan.width, plan.height, plan.params.block_size).count();
  unsigned char* base = nullptr;
  DPX_RETURN_IF_ERROR(scratch->acquire_array(2 * plane + vectors * sizeof(MotionVector), &base));
  out->current = MutablePlaneView{base, plan.width, plan.height, pitch, 1, like.type};
  out->reference = MutablePlaneView{base + plane, plan.width, plan.height, pitch, 1, like.type};
  out->field = reinterpret_cast<MotionVector*>(base + 2 * plane);  // 2 * plane is a multiple of 16
  return Status::ok();
}

// The device memory of the reference's phase planes for a job that uses_patch_planes (others
// need none): 16 planes of the frame and a sample's margin, into job->phases.
inline Status make_phase_planes(SampleType type, runtime::ScratchLease* scratch, RefineJob* job) {
  if (!uses_patch_planes(*job)) return Status::ok();
  job->phases.layout = frame_planes_layout(job->width, job->height, type == SampleType::kU8 ? 1 : 2);
  if (!frame_planes_fit(job->phases.layout)) {
    return Status(StatusCode::kUnsupported,
                  "motion_estimate_cuda: the 16 phase planes of h264/hevc sub-pel for a " +
                      std::to_string(job->width) + "x" + std::to_string(job->height) + " frame take " +
                      std::to_string(job->phases.layout.total_bytes() >> 20) +
                      " MiB, past their 2 GiB limit (bilinear interpolation or motion_estimate_cpu take it)");
  }
  return scratch->acquire_array(job->phases.layout.total_bytes(), &job->phases.data);
}

}  // namespace motion_detail

template <typename Ops>
Status motion_estimate_cuda_with(const PlaneView& current, const PlaneView& reference,
                                 const MotionParams& params, MotionVector* vectors,
                                 std::size_t capacity, cudaStream_t stream, const MotionPrevious& previous) {
  DPX_RETURN_IF_ERROR(motion_validate(current, reference, params, previous));
  const MotionGrid grid = motion_grid(current.width, current.height, params.block_size);
  if (vectors == nullptr) return invalid_argument("motion_estimate_cuda: null output array");
  if (capacity < grid.count()) {
    return invalid_argument("motion_estimate_cuda: output holds " + std::to_string(capacity) +
                            " vectors, the grid needs " + std::to_string(grid.count()));
  }
  DPX_RETURN_IF_ERROR(runtime::check_device_readable(current.data, "motion_estimate_cuda", "current"));
  DPX_RETURN_IF_ERROR(runtime::check_device_readable(reference.data, "motion_estimate_cuda", "reference"));
  DPX_RETURN_IF_ERROR(runtime::check_device_readable(vectors, "motion_estimate_cuda", "output"));
  if (previous.vectors != nullptr && params.search == MotionSearch::kPredictive)
    DPX_RETURN_IF_ERROR(runtime::check_device_readable(previous.vectors, "motion_estimate_cuda", "previous"));

  namespace md = motion_detail;
  if (!md::needs_refine(params)) return md::full_search_cuda<Ops>(current, reference, params, {}, vectors, stream);

  md::RefineJob job = md::refine_job(current, reference, params, {}, previous, vectors, vectors);
  runtime::ScratchLease scratch(nullptr, stream), planes_scratch(nullptr, stream);
  DPX_RETURN_IF_ERROR(md::make_phase_planes(current.type, &planes_scratch, &job));
  const MotionVector* first = vectors;
  int first_columns = grid.columns;
  if (params.search == MotionSearch::kPredictive) {
    const md::CoarsePlan plan = md::coarse_plan(current.width, current.height, params);
    md::CoarseScratch coarse;
    DPX_RETURN_IF_ERROR(md::make_coarse(current, plan, &scratch, &coarse));
    DPX_RETURN_IF_ERROR(md::box_average_cuda(current, coarse.current, stream));
    DPX_RETURN_IF_ERROR(md::box_average_cuda(reference, coarse.reference, stream));
    DPX_RETURN_IF_ERROR(md::full_search_cuda<Ops>(coarse.current.as_const(), coarse.reference.as_const(),
                                                  plan.params, {}, coarse.field, stream));
    first = coarse.field;
    first_columns = motion_grid(plan.width, plan.height, plan.params.block_size).columns;
  } else if (params.lambda > 0) {
    MotionVector* field = nullptr;
    DPX_RETURN_IF_ERROR(scratch.acquire_array(grid.count(), &field));
    DPX_RETURN_IF_ERROR(md::full_search_cuda<Ops>(current, reference, params, {}, field, stream));
    first = field;
    DPX_RETURN_IF_ERROR(md::full_search_cuda<Ops>(current, reference, params,
                                                  md::cost_model(params, first, first_columns), vectors, stream));
  } else {
    DPX_RETURN_IF_ERROR(md::full_search_cuda<Ops>(current, reference, params, {}, vectors, stream));
  }
  job.cost = md::cost_model(params, first, first_columns);
  return md::refine_cuda(job, current.type, stream);
}

}  // namespace dpx
