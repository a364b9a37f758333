// Block-matching motion estimation: one motion vector per block of a luma plane, found by
// exhaustive (full) or predictive search of the sum of absolute differences (SAD) against a
// reference plane, optionally refined to half or quarter pixels and smoothed by a vector cost.
//
//   dpx::MotionParams p;  p.block_size = 16;  p.search_range = 16;
//   dpx::MotionField field;
//   dpx::Status s = dpx::motion_estimate_cpu(cur, ref, p, &field);          // host planes, threads
//   dpx::Status s = dpx::motion_estimate_cuda(cur, ref, p, d_vectors,        // device planes and
//                                             capacity, stream);             // output, asynchronous
//
// Both implementations return bit-identical vectors and SADs.
//
// Definitions (the contract both backends implement):
//   * Planes: one channel, u8 or u16 samples, any pitch; current and reference have the same size
//     and type.
//   * Blocks tile the plane from the top-left corner: columns = ceil(width / B), rows =
//     ceil(height / B), B in {4, 8, 16, 32}. The blocks in the last column and row may be partial:
//     a block covers only its pixels inside the frame (bw x bh, bw = min(B, width - x0)).
//   * A vector (dx, dy) says that the block's pixels at (x, y) in the current plane are matched
//     with the reference pixels at (x + dx, y + dy): it points from the block to where its content
//     was in the reference. |dx|, |dy| <= R (the search range, 1..64).
//   * A candidate is searched only when the whole block (its bw x bh pixels) stays inside the
//     reference: 0 <= x0 + dx, x0 + dx + bw <= width, and the same vertically. (0, 0) is always a
//     candidate, so every block has a vector.
//   * SAD(dx, dy) = sum over the block's pixels of |cur(x, y) - ref(x + dx, y + dy)|.
//   * The vector is the candidate with the smallest SAD; among equal SADs the one with the smaller
//     |dx| + |dy| wins, then the smaller dy, then the smaller dx. A static or flat area therefore
//     yields (0, 0), and the result never depends on the order of the search.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dpx/device.h"
#include "dpx/plane.h"
#include "dpx/status.h"

namespace dpx {

constexpr int kMotionMaxRange = 64;             // full search
constexpr int kMotionMaxPredictiveRange = 128;  // predictive search
constexpr int kMotionMaxLambda = 4096;

enum class MotionSubpel { kNone = 1, kHalf = 2, kQuarter = 4 };  // the value is the scale s
enum class MotionSearch { kFull, kPredictive };
// How the reference is sampled between pixels by the half/quarter-pel stage (the filters are
// defined in full in motion/src/subpel_filter.h): bilinear weights in quarter pixels; H.264's
// luma filters (6-tap half samples, quarter samples averaged from their two nearest neighbours);
// HEVC's 8-tap/7-tap luma filters. Taps past the frame's edge read the edge sample repeated.
// With the sharp filters the sub-pel search tries every quarter position within 1-2 pixels of the
// integer vector; bilinear its 8 half-pel, then 8 quarter-pel neighbours (docs/motion-output.md).
enum class MotionInterpolation { kBilinear, kH264, kHevc };

struct MotionParams {
  int block_size = 16;    // B: 4, 8, 16 or 32 pixels
  int search_range = 16;  // R: |dx|, |dy| <= R pixels, 1..kMotionMaxRange (full) or ..128 (predictive)
  MotionSubpel subpel = MotionSubpel::kNone;
  MotionSearch search = MotionSearch::kFull;
  int lambda = 0;  // 0..kMotionMaxLambda: weight of the distance to the predictor, per vector unit
  MotionInterpolation interpolation = MotionInterpolation::kHevc;  // sub-pel samples
};

// Vectors are in units of 1 / scale pixel.
inline int motion_scale(const MotionParams& p) { return static_cast<int>(p.subpel); }

// One block's result: 8 bytes, the layout of the device output arrays.
struct MotionVector {
  std::int16_t dx = 0;
  std::int16_t dy = 0;
  std::uint32_t sad = 0;
};
static_assert(sizeof(MotionVector) == 8, "MotionVector is two int16 and one uint32, unpadded");

// The blocks of a plane; vectors are stored row-major, index = row * columns + column.
struct MotionGrid {
  int block_size = 0;
  int columns = 0;
  int rows = 0;
  int scale = 1;  // vectors are in units of 1 / scale pixel: 1, 2 or 4

  std::size_t count() const { return static_cast<std::size_t>(columns) * static_cast<std::size_t>(rows); }
};

// The grid of `block_size` blocks over a width x height plane (empty for sizes below 1).
MotionGrid motion_grid(int width, int height, int block_size);

// A host-side field of vectors.
struct MotionField {
  MotionGrid grid;
  std::vector<MotionVector> vectors;

  void resize(const MotionGrid& g) {
    grid = g;
    vectors.resize(g.count());
  }
  const MotionVector& at(int column, int row) const {
    return vectors[static_cast<std::size_t>(row) * grid.columns + column];
  }
};

// The previous frame's field, a start of the predictive search (ignored by the full search):
// the same grid as this search, vectors in units of 1 / scale pixel (rounded to whole pixels,
// halves away from zero). A host array for the CPU, a device array for CUDA; null: none.
struct MotionPrevious {
  const MotionVector* vectors = nullptr;
  int scale = 1;
};

// Checks planes and parameters (both backends call it first): valid views, one channel, equal size
// and type, block size in {4, 8, 16, 32}, search range in 1..kMotionMaxRange (full) or
// 1..kMotionMaxPredictiveRange (predictive), a known subpel, search and interpolation, lambda in
// 0..kMotionMaxLambda, a previous scale of 1, 2 or 4.
Status motion_validate(const PlaneView& current, const PlaneView& reference, const MotionParams& params,
                       const MotionPrevious& previous = {});

// CPU implementation on host planes; fills `field` (resized to the grid, scale set). `threads` = 0
// uses every hardware thread.
Status motion_estimate_cpu(const PlaneView& current, const PlaneView& reference,
                           const MotionParams& params, MotionField* field, int threads = 0,
                           const MotionPrevious& previous = {});

// CUDA implementation on device planes; writes motion_grid(...).count() vectors to the device
// array `vectors` (`capacity` elements available), asynchronously on `stream`. Modes beyond the
// default take their scratch memory stream-ordered from libdpx's pool for the call; half or
// quarter pixels with h264 or hevc interpolation also the reference's 16 quarter-pel phase planes
// (16 times the frame, rows padded to 128 bytes: 35 MB at 1080p, 137 MB at 4K for 8-bit samples),
// and fail with kUnsupported where those would pass 2 GiB.
Status motion_estimate_cuda(const PlaneView& current, const PlaneView& reference,
                            const MotionParams& params, MotionVector* vectors, std::size_t capacity,
                            cudaStream_t stream, const MotionPrevious& previous = {});

// Motion detection figures over a field whose vectors are in units of 1 / scale pixel: the mean
// Euclidean vector length (pixels) and the fraction of blocks whose vector is longer than
// `threshold` pixels. Zeros for an empty field.
struct MotionStats {
  double mean_length = 0;
  double moving_fraction = 0;
};
MotionStats motion_stats(const MotionVector* vectors, std::size_t count, double threshold, int scale = 1);

// Draws the field onto a one-channel plane so a person can see it: for every block, the segment
// from its centre to centre + (dx, dy) / grid.scale rounded to whole pixels (halves away from
// zero; where its content came from) in the plane's brightest value, the centre pixel included. Pixels outside the plane are skipped. The CUDA version writes
// the same pixels; `vectors` is a host array for the CPU version and a device array for CUDA.
Status draw_motion_cpu(const MutablePlaneView& plane, const MotionGrid& grid, const MotionVector* vectors);
Status draw_motion_cuda(const MutablePlaneView& plane, const MotionGrid& grid,
                        const MotionVector* vectors, cudaStream_t stream);

}  // namespace dpx
