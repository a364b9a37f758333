// How a search is put together from its passes, the same for both backends (host code):
//
//   full, lambda 0:     full search                      -> (refine, when subpel) -> out
//   full, lambda > 0:   full search (first pass, SAD only) -> full search ranked by cost
//                       -> refine (subpel, and the SAD of the chosen vector) -> out
//   predictive:         4x box average of both planes -> full search of the coarse planes
//                       (first pass) -> refine (predictive starts, subpel) -> out
#pragma once

#include <algorithm>

#include "dpx/motion.h"
#include "motion_cost.h"
#include "refine_block.h"

namespace dpx {
namespace motion_detail {

// The coarse search of the predictive mode: planes of ceil(size / 4) pixels, blocks of
// max(B, 16) / 4 coarse pixels (each covers `ratio` search blocks per side), range ceil(R / 4).
struct CoarsePlan {
  int width, height;
  MotionParams params;
  int ratio;
};

inline CoarsePlan coarse_plan(int width, int height, const MotionParams& p) {
  const int side = std::max(p.block_size, 16);
  CoarsePlan c;
  c.width = (width + 3) / 4;
  c.height = (height + 3) / 4;
  c.params.block_size = side / 4;
  c.params.search_range = (p.search_range + 3) / 4;
  c.ratio = side / p.block_size;
  return c;
}

// Does the search need the second stage (refine_block.h)?
inline bool needs_refine(const MotionParams& p) {
  return p.search == MotionSearch::kPredictive || p.subpel != MotionSubpel::kNone || p.lambda > 0;
}

// The ranking of the second full search (lambda > 0) and of the refinement: the first pass
// `first` on the search grid (full) or the coarse grid (predictive).
inline CostModel cost_model(const MotionParams& p, const MotionVector* first, int first_columns) {
  CostModel m;
  m.lambda = p.lambda;
  m.scale = motion_scale(p);
  m.first.vectors = first;
  m.first.columns = first_columns;
  if (p.search == MotionSearch::kPredictive) {
    m.first.ratio = std::max(p.block_size, 16) / p.block_size;
    m.first.scale = 4;
  }
  return m;
}

inline RefineJob refine_job(const PlaneView& current, const PlaneView& reference, const MotionParams& p,
                            const CostModel& cost, const MotionPrevious& previous, const MotionVector* start,
                            MotionVector* out) {
  const MotionGrid grid = motion_grid(current.width, current.height, p.block_size);
  RefineJob j;
  j.cur = static_cast<const unsigned char*>(current.data);
  j.ref = static_cast<const unsigned char*>(reference.data);
  j.cur_pitch = current.pitch;
  j.ref_pitch = reference.pitch;
  j.width = current.width;
  j.height = current.height;
  j.block = p.block_size;
  j.columns = grid.columns;
  j.rows = grid.rows;
  j.range = p.search_range;
  j.scale = motion_scale(p);
  j.filter = subpel_filter(p.interpolation, current.type == SampleType::kU8 ? 1 : 2);
  j.predictive = p.search == MotionSearch::kPredictive;
  j.cost = cost;
  j.previous = j.predictive ? previous : MotionPrevious{};
  j.start = start;
  j.out = out;
  return j;
}

}  // namespace motion_detail
}  // namespace dpx
