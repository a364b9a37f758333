// dpx-bench motion: what the host part (bench_motion.cpp) and the device part
// (bench_motion_cuda.cpp, CUDA builds only) share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench.h"
#include "dpx/motion.h"

namespace dpx {
namespace bench {

// Frames of one size cut from a moving textured canvas, held back to back (pitch = width).
struct MotionFrames {
  int width = 0, height = 0;
  std::vector<std::uint8_t> bytes;  // count() frames
  int count() const { return static_cast<int>(bytes.size() / frame_bytes()); }
  std::size_t frame_bytes() const { return static_cast<std::size_t>(width) * height; }
  PlaneView frame(int i) const {
    return PlaneView{bytes.data() + frame_bytes() * i, width, height, static_cast<std::size_t>(width), 1,
                     SampleType::kU8};
  }
};

// A cw x ch GRAY8 picture of two octaves of value noise with grain (fixed seed).
std::vector<std::uint8_t> texture_canvas(int cw, int ch);

// The quality rows (CPU, every build): endpoint error on exact sub-pixel shifts, smoothness with
// lambda, predictive against full search.
int run_motion_quality(const Options& opts, Report& report);

// The real-photo sub-pel rows (CPU): the share of textured blocks within 1/4 pixel per
// interpolation, step and search, beside a bicubic 4x upsample's full search.
int run_motion_photo_rows(const Options& opts, Report& report);

struct MotionCase {
  int width, height, block, range;
  MotionSubpel subpel = MotionSubpel::kNone;
  MotionSearch search = MotionSearch::kFull;
  int lambda = 0;
  MotionInterpolation interpolation = MotionParams{}.interpolation;
  std::string section() const;
  MotionParams params() const;
  // Candidates of the full search (inside the frame) times block pixels, summed over the blocks.
  double sad_pixels() const;
};

// GPU rows of one case on `frames`: the kernel with the DPX and the plain policy, beside a device
// copy of the frame. First both policies run on frames 0 -> 1 of `check_frames` and must equal
// `check_field` (the CPU result there); a mismatch or a failed launch returns non-zero, no rows.
int run_motion_gpu(const Options& opts, const MotionCase& c, const MotionFrames& frames,
                   const MotionFrames& check_frames, const MotionField& check_field, Report& report);

}  // namespace bench
}  // namespace dpx
