// The operations of MorphOp as sequences of dilations/erosions and saturating differences, written
// once for both backends. An Engine provides:
//   Status run(const PlaneView& in, const MutablePlaneView& out, bool dilate);  // all iterations
//   Status subtract(const PlaneView& a, const PlaneView& b, const MutablePlaneView& out);  // max(a - b, 0)
//   MutablePlaneView stage();  // a plane of the frame's shape, for the first stage's result
// `out` of subtract may be `a` or `b` (it works sample by sample); `stage()` is only asked for by
// the compound operations.
#pragma once

#include "dpx/morphology.h"

namespace dpx {
namespace morph {

inline bool is_compound(MorphOp op) { return op != MorphOp::kDilate && op != MorphOp::kErode; }

template <class Engine>
Status run_operation(Engine& e, const PlaneView& src, const MutablePlaneView& dst, MorphOp op) {
  switch (op) {
    case MorphOp::kDilate: return e.run(src, dst, true);
    case MorphOp::kErode: return e.run(src, dst, false);
    case MorphOp::kGradient: {
      DPX_RETURN_IF_ERROR(e.run(src, dst, true));
      const MutablePlaneView eroded = e.stage();
      DPX_RETURN_IF_ERROR(e.run(src, eroded, false));
      return e.subtract(dst.as_const(), eroded.as_const(), dst);
    }
    default: break;
  }
  // Open and close, then what top-hat and black-hat take from them.
  const bool opening = op == MorphOp::kOpen || op == MorphOp::kTopHat;
  const MutablePlaneView first = e.stage();
  DPX_RETURN_IF_ERROR(e.run(src, first, !opening));
  DPX_RETURN_IF_ERROR(e.run(first.as_const(), dst, opening));
  if (op == MorphOp::kTopHat) return e.subtract(src, dst.as_const(), dst);
  if (op == MorphOp::kBlackHat) return e.subtract(dst.as_const(), src, dst);
  return Status::ok();
}

}  // namespace morph
}  // namespace dpx
