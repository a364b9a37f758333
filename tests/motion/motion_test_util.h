// Test fixtures for libdpxmotion: host planes with a chosen pitch, textured frames that look like
// video (smooth blobs with grain), and the brute-force definition every implementation must match.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "dpx/motion.h"
#include "dpx/plane.h"

namespace dpx {
namespace test {

// A host plane of u8 or u16 samples; `pad` extra bytes per row make pitch != row bytes.
class TestPlane {
 public:
  TestPlane() = default;
  TestPlane(int width, int height, SampleType type, int pad = 0);

  int width() const { return width_; }
  int height() const { return height_; }
  SampleType type() const { return type_; }
  std::size_t pitch() const { return pitch_; }
  int max_value() const { return type_ == SampleType::kU8 ? 255 : 65535; }

  int get(int x, int y) const;
  void set(int x, int y, int v);

  PlaneView view() const { return PlaneView{bytes_.data(), width_, height_, pitch_, 1, type_}; }
  MutablePlaneView mutable_view() { return MutablePlaneView{bytes_.data(), width_, height_, pitch_, 1, type_}; }
  const std::vector<std::uint8_t>& bytes() const { return bytes_; }

 private:
  int width_ = 0, height_ = 0;
  SampleType type_ = SampleType::kU8;
  std::size_t pitch_ = 0;
  std::vector<std::uint8_t> bytes_;
};

// A smooth random texture with grain, defined on a canvas larger than any frame cut from it, so
// a frame shifted by (dx, dy) is exact everywhere. Values span the sample type's range.
class Texture {
 public:
  Texture(std::mt19937_64& rng, int canvas_width, int canvas_height, SampleType type);
  // The frame whose pixel (x, y) is texture (x + ox, y + oy); the offsets keep within the canvas.
  TestPlane frame(int width, int height, int ox, int oy, int pad = 0) const;

 private:
  int width_, height_;
  SampleType type_;
  std::vector<int> values_;
};

// Uniform random samples in [0, max_value].
TestPlane random_plane(std::mt19937_64& rng, int width, int height, SampleType type, int max_value, int pad = 0);

// The definition in dpx/motion.h, computed the slow obvious way: every candidate inside the
// reference, the smallest (SAD, |dx| + |dy|, dy, dx).
MotionField brute_force_motion(const TestPlane& current, const TestPlane& reference, const MotionParams& params);

MotionParams motion_params(int block_size, int search_range);

// motion_estimate_cpu, expected to succeed.
MotionField run_motion_cpu(const TestPlane& current, const TestPlane& reference, const MotionParams& params,
                           int threads = 0);

// A pair of frames and the search to run on them. Device copies start `offset` bytes into their
// buffer, so odd offsets give rows at every byte alignment.
struct ComparisonCase {
  std::string name;
  TestPlane current, reference;
  MotionParams params;
  std::size_t offset = 0;
};

// The cases the CUDA kernel (on the device, and its steps run on the host) must answer exactly as
// the CPU does: random frames for every type, block size and several ranges; frames full of ties;
// the largest range; tiny frames; misaligned rows; shifted textures.
std::vector<ComparisonCase> comparison_cases(std::mt19937_64& rng);

// The sub-pel and lambda settings of dpx/motion.h for the full search, computed the slow obvious
// way from brute_force_motion: every integer candidate ranked by SAD + penalty, then the half- and
// quarter-pel neighbours on the reference interpolated by reference_sample; the SAD of the chosen
// vector.
MotionField reference_motion(const TestPlane& current, const TestPlane& reference, const MotionParams& params);

// The reference sample at (x + fx/4, y + fy/4) by `mode`, written from the codecs' texts (H.264
// 8.4.2.2.1, HEVC 8.5.3.3.3.1), edges replicated: the definition the filters are tested against.
int reference_sample(const TestPlane& ref, MotionInterpolation mode, int x, int y, int fx, int fy);

// A frame shifted by (qx, qy) quarter pixels exactly: the texture sampled at 4x, moved by whole
// pixels there and box-averaged 4x4 (the texture's canvas is at least 4 * (size + margin)).
TestPlane quarter_shifted_frame(const Texture& fine, int width, int height, int qx, int qy);

// The settings beyond the default the CUDA pipeline must answer exactly as the CPU does, the
// sub-pel ones with every interpolation.
std::vector<MotionParams> mode_variants(int block_size, int search_range);

// The folder of the test photographs (tests/data/photos), found from the test executable's own
// place: the nearest folder above it that holds tests/data/photos.
std::string photo_dir();

// The first block whose vector or SAD differs, as text ("" when the fields are equal).
std::string first_difference(const MotionField& expected, const MotionField& actual);

}  // namespace test
}  // namespace dpx
