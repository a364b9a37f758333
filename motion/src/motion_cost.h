// The vector cost both backends rank candidates by (dpx/motion.h): the H.264 median predictor
// taken from a first-pass field, the lambda penalty, and the complete candidate order. Host and
// device code share these functions, so the CPU twin and the kernels agree by construction.
#pragma once

#include <cstdint>

#include "dpx/motion.h"
#include "dpx_ops.cuh"

namespace dpx {
namespace motion_detail {

struct Vec {
  int x, y;
};

DPX_HD int iabs(int v) { return v < 0 ? -v : v; }
DPX_HD int median3(int a, int b, int c) {
  const int lo = a < b ? a : b, hi = a < b ? b : a;
  return c < lo ? lo : (c > hi ? hi : c);
}
// v / s rounded to the nearest integer, halves away from zero (s > 0).
DPX_HD int round_div(int v, int s) { return v >= 0 ? (v + s / 2) / s : -((-v + s / 2) / s); }
// floor(v / s) for the sub-pel scales s = 1, 2 or 4: an arithmetic shift by 0, 1 or 2.
DPX_HD int floor_div_scale(int v, int s) { return v >> (s >> 1); }

// The first pass as the predictor reads it: a field whose blocks are `ratio` search blocks wide
// and whose units are `scale` pixels (the full search: 1 and 1; the coarse search: max(B, 16) / B
// and 4). Null vectors: no first pass, every predictor is (0, 0).
struct FirstPass {
  const MotionVector* vectors = nullptr;
  int columns = 0;
  int ratio = 1;
  int scale = 1;

  // The first-pass vector, in pixels, of the search block (column, row).
  DPX_HD Vec at(int column, int row) const {
    const MotionVector& v = vectors[static_cast<std::size_t>(row / ratio) * columns + column / ratio];
    return Vec{v.dx * scale, v.dy * scale};
  }
};

// H.264's motion vector predictor for block (c, r) of a grid `columns` wide: the component-wise
// median of A (left), B (top) and C (top-right; top-left where the top-right is outside the
// grid), absent neighbours counting as (0, 0); in the top row, where B and C are absent, A itself.
DPX_HD Vec median_predictor(const FirstPass& f, int c, int r, int columns) {
  if (f.vectors == nullptr) return Vec{0, 0};
  const Vec a = c > 0 ? f.at(c - 1, r) : Vec{0, 0};
  if (r == 0) return a;
  const Vec b = f.at(c, r - 1);
  const Vec cc = c + 1 < columns ? f.at(c + 1, r - 1) : (c > 0 ? f.at(c - 1, r - 1) : Vec{0, 0});
  return Vec{median3(a.x, b.x, cc.x), median3(a.y, b.y, cc.y)};
}

// lambda * (|vx - s px| + |vy - s py|) for a vector v in units of 1/s pixel.
struct Penalty {
  Vec predictor{0, 0};  // pixels
  int lambda = 0;
  int scale = 1;

  DPX_HD std::uint32_t units(int vx, int vy) const {
    return static_cast<std::uint32_t>(lambda) *
           static_cast<std::uint32_t>(iabs(vx - scale * predictor.x) + iabs(vy - scale * predictor.y));
  }
  // The same for an integer vector (dx, dy) in pixels.
  DPX_HD std::uint32_t pixels(int dx, int dy) const { return units(scale * dx, scale * dy); }
};

// What ranks a search's candidates: lambda 0 ranks by SAD alone.
struct CostModel {
  FirstPass first;
  int lambda = 0;
  int scale = 1;

  DPX_HD Penalty at(int c, int r, int columns) const {
    return Penalty{lambda > 0 ? median_predictor(first, c, r, columns) : Vec{0, 0}, lambda, scale};
  }
};

// A candidate in units of 1/s pixel with its cost.
struct Choice {
  std::uint32_t cost;
  int x, y;
};

// The complete order: the smaller cost, then the smaller |x| + |y|, then y, then x (the tie rule
// of the full search, match_key.h).
DPX_HD bool precedes(const Choice& a, const Choice& b) {
  if (a.cost != b.cost) return a.cost < b.cost;
  const int ma = iabs(a.x) + iabs(a.y), mb = iabs(b.x) + iabs(b.y);
  if (ma != mb) return ma < mb;
  if (a.y != b.y) return a.y < b.y;
  return a.x < b.x;
}

}  // namespace motion_detail
}  // namespace dpx
