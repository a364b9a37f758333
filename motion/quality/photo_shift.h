// Sub-pel precision on real photographs, for the tests and dpx-bench (an internal library, never
// installed): photographs moved by exact quarter pixels the way a camera integrates light — a 4x
// upsample of the photo shifted by whole pixels of the 4x grid and box-averaged 4x4 back — and
// the share of the textured blocks whose vector lies within 1/4 pixel of the true shift.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dpx/motion.h"
#include "dpx/plane.h"
#include "dpx/status.h"

namespace dpx {
namespace quality {

// An 8-bit grey picture, rows back to back.
struct GreyImage {
  int width = 0, height = 0;
  std::vector<std::uint8_t> pixels;
  int at(int x, int y) const { return pixels[static_cast<std::size_t>(y) * width + x]; }
  PlaneView view() const {
    return PlaneView{pixels.data(), width, height, static_cast<std::size_t>(width), 1, SampleType::kU8};
  }
};

// A binary 8-bit PGM (P5, maxval 255).
Status read_pgm(const std::string& path, GreyImage* out);

// The test photographs *.pgm of `dir`, sorted by name, with their file names.
Status read_photos(const std::string& dir, std::vector<GreyImage>* photos, std::vector<std::string>* names);

// The width x height frame at (ox, oy) of the photo moved by (qx, qy) quarter pixels: pixel (x, y) is
// the mean of the 4x4 samples (4 (ox + x) + k + qx, 4 (oy + y) + i + qy) of the photo's bilinear 4x
// upsample (sample (u, v) at photo coordinates (u / 4, v / 4)), rounded. The frame and its
// reach |q| / 4 + 1 must lie inside the photo.
GreyImage quarter_shifted(const GreyImage& photo, int ox, int oy, int width, int height, int qx, int qy);

// The interior blocks (not in the grid's first or last row or column) of a block grid over
// `frame` whose structure tensor's smaller eigenvalue is at least the median of the interior
// blocks': the textured half, as indices row * columns + column.
std::vector<std::size_t> textured_blocks(const GreyImage& frame, int block);

// Over `blocks` of the field: how many vectors lie within 1/4 pixel of the true shift (qx, qy) / 4
// on both axes (the half-pel grid's bound), and their mean (Euclidean) distance to it in pixels.
struct ShiftScore {
  std::size_t within = 0, blocks = 0;
  double error_sum = 0;
  void add(const ShiftScore& o) { within += o.within, blocks += o.blocks, error_sum += o.error_sum; }
  double fraction() const { return blocks ? static_cast<double>(within) / static_cast<double>(blocks) : 0; }
  double mean_error() const { return blocks ? error_sum / static_cast<double>(blocks) : 0; }
};
ShiftScore score_shift(const MotionField& field, const std::vector<std::size_t>& blocks, int qx, int qy);

}  // namespace quality
}  // namespace dpx
