// motion_estimate_cuda_with<Ops>: checks, then the passes of motion_pipeline.h on the stream. The
// default search is one launch into the caller's array; the other modes take their first pass and
// coarse planes from the scratch lease (stream-ordered memory from libdpx's pool), freed on the
// stream after the last launch that reads them, so nothing synchronises. Included by the one file
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

}  // namespace motion_detail

template <typename Ops>
Status motion_estimate_cuda_with(const PlaneView& current, const PlaneView& reference,
                                 const MotionParams& params, MotionVector* vectors,
                                 std::size_t capacity, cudaStream_t stream, const MotionPrevious& previous,
                                 motion_detail::RefineLauncher refine) {
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

  runtime::ScratchLease scratch(nullptr, stream);
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
  const md::CostModel cost = md::cost_model(params, first, first_columns);
  return refine(md::refine_job(current, reference, params, cost, previous, vectors, vectors), current.type, stream);
}

}  // namespace dpx
