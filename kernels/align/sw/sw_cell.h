// One cell of the affine-gap recurrence (see dpx/align.h), shared by the CPU code and the CUDA
// kernels so both compute the same values and the same traceback directions.
//
// State carried between cells, as the kernels and the CPU sweep hold it:
//   e — on entry E[i][j]; on exit E[i][j+1] (the next cell of the row);
//   f — on entry F[i][j]; on exit F[i+1][j] (the same column, next row);
//   diag — H[i-1][j-1]; the cell returns H[i][j].
// Lanes: Lanes32 holds one alignment in an int32, Lanes16 two alignments in the 16-bit halves of
// a word (low half = first alignment), each op working on both at once.
#pragma once

#include <cstdint>

#include "dpx_ops.cuh"

namespace dpx {
namespace align {

// Traceback direction code of a cell (4 bits).
enum DirectionBits : std::uint32_t {
  kFromDiag = 0,   // H[i][j] = H[i-1][j-1] + s
  kFromE = 1,      // H[i][j] = E[i][j]: a gap in the query (D)
  kFromF = 2,      // H[i][j] = F[i][j]: a gap in the target (I)
  kSourceMask = 3,
  kExtendE = 4,    // E[i][j+1] extends E[i][j] (else it opens from H[i][j])
  kExtendF = 8,    // F[i+1][j] extends F[i][j]
};

template <class Ops>
struct Lanes32 {
  using V = std::int32_t;
  static constexpr int kLanes = 1;
  static constexpr std::int32_t kMin = INT32_MIN;
  static DPX_HD V splat(std::int32_t v) { return v; }
  static DPX_HD V max(V a, V b) { return Ops::max3_s32(a, b, b); }
  static DPX_HD V add(V a, V b) { return ops::lanes::wadd32(a, b); }
  static DPX_HD V max3(V a, V b, V c) { return Ops::max3_s32(a, b, c); }
  static DPX_HD V max3_relu(V a, V b, V c) { return Ops::max3_s32_relu(a, b, c); }
  static DPX_HD V addmax(V a, V b, V c) { return Ops::addmax_s32(a, b, c); }
  static DPX_HD std::int32_t lane(V v, int) { return v; }
  // best = max(best, v); improved[k] tells whether lane k took v (strictly greater).
  static DPX_HD V keep_max(V best, V v, bool improved[1]) {
    bool kept;
    const V r = Ops::bmax_s32(best, v, &kept);
    improved[0] = !kept;
    return r;
  }
};

template <class Ops>
struct Lanes16 {
  using V = std::uint32_t;
  static constexpr int kLanes = 2;
  static constexpr std::int32_t kMin = -32768;
  static DPX_HD V splat(std::int32_t v) { return ops::lanes::pack(v, v); }
  static DPX_HD V pack(std::int32_t lo, std::int32_t hi) { return ops::lanes::pack(lo, hi); }
  static DPX_HD V max(V a, V b) { return Ops::max3_s16x2(a, b, b); }
  static DPX_HD V add(V a, V b) { return Ops::add_s16x2(a, b); }
  static DPX_HD V max3(V a, V b, V c) { return Ops::max3_s16x2(a, b, c); }
  static DPX_HD V max3_relu(V a, V b, V c) { return Ops::max3_s16x2_relu(a, b, c); }
  static DPX_HD V addmax(V a, V b, V c) { return Ops::addmax_s16x2(a, b, c); }
  static DPX_HD std::int32_t lane(V v, int k) { return k ? ops::lanes::shi(v) : ops::lanes::slo(v); }
  static DPX_HD V keep_max(V best, V v, bool improved[2]) {
    bool kept_hi, kept_lo;
    const V r = Ops::bmax_s16x2(best, v, &kept_hi, &kept_lo);
    improved[0] = !kept_lo;
    improved[1] = !kept_hi;
    return r;
  }
};

// Gap costs and floors in lane form. `floor` keeps H - open from wrapping (it never binds on the
// values the plans allow); `neg_inf` starts E and F (minus infinity that survives one extend).
template <class L>
struct GapCosts {
  typename L::V neg_open, neg_extend, floor, neg_inf;
  DPX_HD GapCosts(std::int32_t open, std::int32_t extend)
      : neg_open(L::splat(-open)), neg_extend(L::splat(-extend)), floor(L::splat(L::kMin)),
        neg_inf(L::splat(L::kMin + extend)) {}
};

// Score-only cell: H = max(diag + sub, E, F[, 0]); then E and F move on. The add does not wait for
// E, so what a row carries from column to column (E -> H -> H - open -> E) is three instructions.
template <class L, bool kLocal>
DPX_HD typename L::V cell(typename L::V diag, typename L::V sub, typename L::V& e, typename L::V& f,
                          const GapCosts<L>& g) {
  const typename L::V diag_sub = L::add(diag, sub);
  const typename L::V h = kLocal ? L::max3_relu(diag_sub, e, f) : L::max3(diag_sub, e, f);
  const typename L::V h_open = L::addmax(h, g.neg_open, g.floor);
  e = L::addmax(e, g.neg_extend, h_open);
  f = L::addmax(f, g.neg_extend, h_open);
  return h;
}

// The same cell in 32 bits, also reporting its direction code. The predicates of the bmax
// operations are the directions: ties go to the first operand, which sets the documented tie order
// (diagonal, then E, then F; extend before open). Where a local alignment starts (H = 0) is not
// recorded: the walk follows H back from the end and stops where it reaches 0 (sw_walk.h).
template <class Ops, bool kLocal>
DPX_HD std::int32_t cell_with_direction(std::int32_t diag, std::int32_t sub, std::int32_t& e, std::int32_t& f,
                                        std::int32_t open, std::int32_t extend, std::uint32_t* code) {
  bool e_over_f, diag_wins, extend_e, extend_f;
  const std::int32_t gap = Ops::bmax_s32(e, f, &e_over_f);
  std::int32_t h = Ops::bmax_s32(diag + sub, gap, &diag_wins);
  if (kLocal) h = Ops::max3_s32(h, 0, 0);
  const std::int32_t h_open = h - open;
  e = Ops::bmax_s32(e - extend, h_open, &extend_e);
  f = Ops::bmax_s32(f - extend, h_open, &extend_f);
  const std::uint32_t source = diag_wins ? kFromDiag : e_over_f ? kFromE : kFromF;
  *code = source | (extend_e ? kExtendE : 0u) | (extend_f ? kExtendF : 0u);
  return h;
}

// What a row of a strip records for the traceback. Lanes32: one word of 4-bit codes, column c at
// bits 4c..4c+3 (R <= 8).
struct CodeWord {
  std::uint32_t code = 0;
};

// Lanes16: the predicates of the packed cell's bmax operations as bit planes, column c of the low
// lane at bit c, of the high lane at bit 16 + c (R <= 16): one predicated OR a predicate, where
// assembling 4-bit codes would take several instructions a cell.
struct DirectionPlanes {
  std::uint32_t diag = 0, e_over_f = 0, extend_e = 0, extend_f = 0;
  // The four words a step stores: the source code's two bits (kSourceMask: diagonal 0, E 1, F 2),
  // then extend E and extend F.
  DPX_HD void words(std::uint32_t out[4]) const {
    out[0] = ~diag & e_over_f;
    out[1] = ~diag & ~e_over_f;
    out[2] = extend_e;
    out[3] = extend_f;
  }
};

// The 4-bit code (DirectionBits) at `bit` of the four plane words of DirectionPlanes::words.
DPX_HD std::uint32_t code_from_planes(const std::uint32_t* words, int bit) {
  std::uint32_t code = 0;
DPX_UNROLL
  for (int w = 0; w < 4; ++w) code |= ((words[w] >> bit) & 1u) << w;
  return code;
}

// cell_with_direction on the packed lanes: the same values and, per lane, the same predicates (the
// first operand kept on a tie), recorded for column c.
template <class Ops, bool kLocal>
DPX_HD std::uint32_t cell16_with_direction(std::uint32_t diag, std::uint32_t sub, std::uint32_t& e, std::uint32_t& f,
                                           const GapCosts<Lanes16<Ops>>& g, int c, DirectionPlanes& p) {
  using L = Lanes16<Ops>;
  const std::uint32_t lo = 1u << c, hi = 1u << (16 + c);
  const std::uint32_t gap = Ops::bmax_s16x2_bits(e, f, &p.e_over_f, lo, hi);
  std::uint32_t h = Ops::bmax_s16x2_bits(L::add(diag, sub), gap, &p.diag, lo, hi);
  // Local: H - open from H floored at 0, as max(H - open, -open) beside the floor itself, so the
  // next E does not wait for it (no predicate: the walk finds the start from H, sw_walk.h).
  const std::uint32_t h_open = kLocal ? L::addmax(h, g.neg_open, g.neg_open) : L::add(h, g.neg_open);
  if (kLocal) h = L::max(h, 0u);
  e = Ops::bmax_s16x2_bits(L::add(e, g.neg_extend), h_open, &p.extend_e, lo, hi);
  f = Ops::bmax_s16x2_bits(L::add(f, g.neg_extend), h_open, &p.extend_f, lo, hi);
  return h;
}

// True when two encoded letters count as '=' in a CIGAR.
DPX_HD bool letters_match(int a, int b, int wildcard) { return a == b && a != wildcard; }

// Boundary H values (dpx/align.h): row 0 at column j, column 0 at row i.
DPX_HD std::int32_t gap_of(std::int32_t length, std::int32_t open, std::int32_t extend) {
  return length == 0 ? 0 : open + (length - 1) * extend;
}
DPX_HD std::int32_t top_boundary(bool global, std::int32_t j, std::int32_t open, std::int32_t extend) {
  return global ? -gap_of(j, open, extend) : 0;
}
DPX_HD std::int32_t left_boundary(bool local, std::int32_t i, std::int32_t open, std::int32_t extend) {
  return local ? 0 : -gap_of(i, open, extend);
}

}  // namespace align
}  // namespace dpx
