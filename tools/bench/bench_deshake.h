// dpx-bench deshake: what the host part (bench_deshake.cpp) and the device part
// (bench_deshake_cuda.cpp, CUDA builds only) share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench.h"
#include "dpx/stabilise.h"

namespace dpx {
namespace bench {

// NV12 frames of a shaking camera over a textured canvas, back to back (pitch = width): the luma
// plane then the interleaved chroma plane of each.
struct ShakyFrames {
  int width = 0, height = 0;
  std::vector<std::uint8_t> bytes;
  std::size_t luma_bytes() const { return static_cast<std::size_t>(width) * height; }
  std::size_t frame_bytes() const { return luma_bytes() + luma_bytes() / 2; }
  int count() const { return static_cast<int>(bytes.size() / frame_bytes()); }
  PlaneView luma(int i) const {
    return PlaneView{bytes.data() + frame_bytes() * (i % count()),
                     width,
                     height,
                     static_cast<std::size_t>(width),
                     1,
                     SampleType::kU8};
  }
  PlaneView chroma(int i) const {
    return PlaneView{bytes.data() + frame_bytes() * (i % count()) + luma_bytes(),
                     width / 2,
                     height / 2,
                     static_cast<std::size_t>(width),
                     2,
                     SampleType::kU8};
  }
};

// What the element does with one frame, on the CPU or CUDA: measure it, move the path on, warp
// both planes by the correction of the frame leaving (the steady state of a lookahead).
struct DeshakeStep {
  MotionAnalyser analyser;
  CameraPath path;
  Similarity correction;
  // Measures `luma` and takes the next correction from the path.
  Status measure(const PlaneView& luma, bool cuda, cudaStream_t stream);
  WarpPlan plan(int width, int height, int sub) const;
};

// GPU rows for `frames`: the element's work per frame on device memory, beside a device copy of
// the frame and the motion search alone; checked bit for bit against the CPU first. Non-zero on
// a mismatch or a CUDA failure.
int run_deshake_gpu(const Options& opts, const ShakyFrames& frames, Report& report);

}  // namespace bench
}  // namespace dpx
