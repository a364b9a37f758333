// dpx-bench deshake, host side: shaky NV12 frames (a pan with random shake over the motion
// benchmark's texture), the element's per-frame work on the CPU, and the GPU rows where a device
// exists.
#include "bench_deshake.h"

#include <algorithm>
#include <cstdio>
#include <random>

#include "bench_motion.h"
#include "dpx/device.h"
#include "worker_pool.h"

namespace dpx {
namespace bench {

Status DeshakeStep::measure(const PlaneView& luma, bool cuda, cudaStream_t stream) {
  FrameMotion m;
  DPX_RETURN_IF_ERROR(cuda ? analyser.analyse_cuda(luma, 0, stream, &m) : analyser.analyse_cpu(luma, 0, &m));
  path.push(m.motion(), !m.measured || !m.fit.reliable);
  if (path.ready()) correction = path.pop().correction;
  return Status::ok();
}

WarpPlan DeshakeStep::plan(int width, int height, int sub) const {
  WarpPlan p =
      warp_plan(correction, 1.0, width, height, sub, sub, WarpInterpolation::kBilinear, WarpBorder::kBlack);
  p.fill[0] = sub == 1 ? 16 : 128;
  p.fill[1] = 128;
  return p;
}

namespace {

// Frames of a camera panning 2 px a frame with up to +-6 px of shake, cut from the texture canvas;
// at least `min_total_bytes` of them (beyond the L2 when rotated).
ShakyFrames make_frames(int width, int height, std::size_t min_total_bytes) {
  ShakyFrames f;
  f.width = width;
  f.height = height;
  const int count =
      static_cast<int>(std::max<std::size_t>(4, (min_total_bytes + f.frame_bytes() - 1) / f.frame_bytes()));
  const int margin = 8, cw = width + 2 * count + 2 * margin, ch = height + 2 * margin;
  const std::vector<std::uint8_t> canvas = texture_canvas(cw, ch);
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> shake(-6, 6);
  f.bytes.resize(f.frame_bytes() * count);
  for (int i = 0; i < count; ++i) {
    const int ox = margin + 2 * i + shake(rng), oy = margin + shake(rng);
    std::uint8_t* frame = f.bytes.data() + f.frame_bytes() * i;
    for (int y = 0; y < height; ++y)
      std::copy_n(canvas.begin() + static_cast<std::size_t>(y + oy) * cw + ox, width,
                  frame + static_cast<std::size_t>(y) * width);
    for (int y = 0; y < height / 2; ++y)  // chroma: the luma rows below, as a stand-in picture
      std::copy_n(frame + static_cast<std::size_t>(2 * y) * width, width,
                  frame + f.luma_bytes() + static_cast<std::size_t>(y) * width);
  }
  return f;
}

void add_cpu_row(const Options& opts, const ShakyFrames& frames, Report& report) {
  DeshakeStep step;
  std::vector<std::uint8_t> out(frames.frame_bytes());
  const int w = frames.width, h = frames.height;
  const MutablePlaneView luma_out{out.data(), w, h, static_cast<std::size_t>(w), 1, SampleType::kU8};
  const MutablePlaneView chroma_out{out.data() + frames.luma_bytes(), w / 2, h / 2,
                                    static_cast<std::size_t>(w),      2,     SampleType::kU8};
  Options cpu = opts;
  cpu.reps = std::min(opts.reps, opts.quick ? 3 : 10);
  cpu.warmup = 2;
  Status status;
  const double us = time_host_us(cpu, [&](int i) {
    Status s = step.measure(frames.luma(i), false, nullptr);
    if (s.is_ok()) s = warp_plane_cpu(frames.luma(i), luma_out, step.plan(w, h, 1));
    if (s.is_ok()) s = warp_plane_cpu(frames.chroma(i), chroma_out, step.plan(w, h, 2));
    if (!s.is_ok()) status = s;
  });
  if (!status.is_ok()) {
    std::fprintf(stderr, "deshake cpu: %s\n", status.message().c_str());
    return;
  }
  Row row;
  row.section = "deshake NV12 " + std::to_string(w) + "x" + std::to_string(h);
  row.variant = "cpu";
  row.median_us = us;
  row.throughput = 1e6 / us;
  row.unit = "frames/s";
  row.note = std::to_string(dpx::runtime::hardware_threads()) + " threads: measure + warp";
  report.add(row);
}

int run_deshake_bench(const Options& opts, Report& report) {
  const std::size_t rotate_bytes = 66u << 20;  // beyond the 60 MB L2
  std::vector<std::pair<int, int>> sizes = {{1920, 1080}};
  if (!opts.quick) sizes.emplace_back(3840, 2160);
  if (opts.width && opts.height) sizes = {{*opts.width, *opts.height}};
  int rc = 0;
  for (const auto& size : sizes) {
    const ShakyFrames frames = make_frames(size.first, size.second, rotate_bytes);
    add_cpu_row(opts, frames, report);
#if DPX_HAVE_CUDA
    if (cuda_device_count() > 0)
      rc |= run_deshake_gpu(opts, frames, report);
    else
      std::fprintf(stderr, "deshake: no CUDA device, GPU rows skipped\n");
#else
    std::fprintf(stderr, "deshake: built without CUDA, GPU rows skipped\n");
#endif
  }
  return rc;
}

const Registration registration("deshake",
                                "stabilisation per frame, 1080p and 4K NV12: measure (downscale, predictive "
                                "quarter-pel search, fit) + warp, on CUDA memory beside a frame copy and the "
                                "search alone, and on the CPU (--width/--height for one size)",
                                run_deshake_bench);

}  // namespace
}  // namespace bench
}  // namespace dpx
