// motion_estimate_cpu: the passes of motion_pipeline.h on host planes, each split by block rows
// over the worker pool (motion_estimate_host.h).
#include <cstdint>
#include <vector>

#include "block_match_cpu.h"
#include "dpx/motion.h"
#include "motion_estimate_host.h"
#include "motion_pipeline.h"
#include "refine_block.h"
#include "worker_pool.h"

namespace dpx {

namespace {

struct NoReduction {  // one lane holds the whole sum
  std::uint32_t operator()(std::uint32_t v) const { return v; }
};

// Rows first, next, next + workers, ... of the job (a block reads only the frames and the first
// pass, and writes only its own vector).
template <typename T>
void refine_rows(const motion_detail::RefineJob& job, int first, int workers) {
  std::vector<T> planes(motion_detail::patch_plane_samples(job.block));
  const motion_detail::FrameStage<T> stage{{job.cur, job.ref, job.cur_pitch, job.ref_pitch, job.width, job.height},
                                           planes.data(), job.block};
  for (int r = first; r < job.rows; r += workers)
    for (int c = 0; c < job.columns; ++c) motion_detail::refine_block(job, c, r, 0, 1, stage, NoReduction{});
}

Status refine_cpu(const motion_detail::RefineJob& job, SampleType type, int threads) {
  const int n = runtime::worker_count(threads, static_cast<std::size_t>(job.rows));
  return runtime::run_workers(n, [&](const runtime::Worker& w) {
    if (type == SampleType::kU8)
      refine_rows<std::uint8_t>(job, w.index, n);
    else
      refine_rows<std::uint16_t>(job, w.index, n);
    return Status::ok();
  });
}

// A host plane of the 4x box average of `src`.
struct CoarsePlane {
  std::vector<std::uint8_t> bytes;
  PlaneView view;
};

template <typename T>
void box_average(const PlaneView& src, CoarsePlane* dst) {
  T* out = reinterpret_cast<T*>(dst->bytes.data());
  for (int y = 0; y < dst->view.height; ++y)
    for (int x = 0; x < dst->view.width; ++x)
      out[static_cast<std::size_t>(y) * dst->view.width + x] = motion_detail::box_average_4x<T>(
          static_cast<const unsigned char*>(src.data), src.pitch, src.width, src.height, x, y);
}

CoarsePlane coarse_plane(const PlaneView& src, const motion_detail::CoarsePlan& plan) {
  CoarsePlane c;
  const std::size_t sample = src.type == SampleType::kU8 ? 1 : 2;
  c.bytes.resize(sample * plan.width * plan.height);
  c.view = PlaneView{c.bytes.data(), plan.width, plan.height, sample * plan.width, 1, src.type};
  if (src.type == SampleType::kU8)
    box_average<std::uint8_t>(src, &c);
  else
    box_average<std::uint16_t>(src, &c);
  return c;
}

}  // namespace

namespace motion_detail {

Status motion_estimate_host(const PlaneView& current, const PlaneView& reference, const MotionParams& params,
                            MotionField* field, int threads, const MotionPrevious& previous, const HostRefine& refine) {
  DPX_RETURN_IF_ERROR(motion_validate(current, reference, params, previous));
  if (field == nullptr) return invalid_argument("motion_estimate_cpu: null output field");
  if (threads < 0) return invalid_argument("motion_estimate_cpu: negative thread count");
  namespace md = motion_detail;
  if (!md::needs_refine(params))
    return md::full_search_cpu(current, reference, params, md::CostModel{}, field, threads);

  MotionField first;
  if (params.search == MotionSearch::kPredictive) {
    const md::CoarsePlan plan = md::coarse_plan(current.width, current.height, params);
    const CoarsePlane cur = coarse_plane(current, plan), ref = coarse_plane(reference, plan);
    DPX_RETURN_IF_ERROR(md::full_search_cpu(cur.view, ref.view, plan.params, md::CostModel{}, &first, threads));
    field->resize(motion_grid(current.width, current.height, params.block_size));
  } else {
    DPX_RETURN_IF_ERROR(md::full_search_cpu(current, reference, params, md::CostModel{}, &first, threads));
    if (params.lambda > 0) {
      const md::CostModel cost = md::cost_model(params, first.vectors.data(), first.grid.columns);
      DPX_RETURN_IF_ERROR(md::full_search_cpu(current, reference, params, cost, field, threads));
    } else {
      *field = first;
    }
  }
  const md::CostModel cost = md::cost_model(params, first.vectors.data(), first.grid.columns);
  const md::RefineJob job =
      md::refine_job(current, reference, params, cost, previous, field->vectors.data(), field->vectors.data());
  DPX_RETURN_IF_ERROR(refine(job, current.type));
  field->grid.scale = motion_scale(params);
  return Status::ok();
}

}  // namespace motion_detail

Status motion_estimate_cpu(const PlaneView& current, const PlaneView& reference, const MotionParams& params,
                           MotionField* field, int threads, const MotionPrevious& previous) {
  return motion_detail::motion_estimate_host(
      current, reference, params, field, threads, previous,
      [threads](const motion_detail::RefineJob& job, SampleType type) { return refine_cpu(job, type, threads); });
}

}  // namespace dpx
