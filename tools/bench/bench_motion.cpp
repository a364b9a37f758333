// dpx-bench motion: block matching, 16x16 blocks — full search +-16..+-64, quarter-pel, lambda,
// predictive +-64 and +-128 — on 1920x1080 and 3840x2160 GRAY8 frames of a moving texture held in device memory (rotated over more than the
// 60 MB L2). Rows: the kernel with __vibmin_u32 (dpx) and with a plain compare-and-select (plain),
// on the h264/hevc sub-pel rows the default's phase-plane builder alone (dpx plane build), a device
// copy of the frame, and the CPU implementation (1080p +-16, few reps). Throughput is SAD work:
// candidates searched x block pixels per second.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "bench.h"
#include "bench_motion.h"
#include "dpx/motion.h"
#include "worker_pool.h"

namespace dpx {
namespace bench {

std::string MotionCase::section() const {
  std::string s = "motion " + std::to_string(width) + "x" + std::to_string(height) + " b" + std::to_string(block) +
                  " r" + std::to_string(range);
  if (search == MotionSearch::kPredictive) s += " predictive";
  if (subpel != MotionSubpel::kNone) s += subpel == MotionSubpel::kHalf ? " half" : " quarter";
  if (lambda > 0) s += " lambda" + std::to_string(lambda);
  if (subpel != MotionSubpel::kNone)
    s += interpolation == MotionInterpolation::kBilinear ? " bilinear"
                                                         : (interpolation == MotionInterpolation::kH264 ? " h264" : " hevc");
  return s;
}

MotionParams MotionCase::params() const {
  MotionParams p;
  p.block_size = block;
  p.search_range = range;
  p.subpel = subpel;
  p.search = search;
  p.lambda = lambda;
  p.interpolation = interpolation;
  return p;
}

double MotionCase::sad_pixels() const {
  const MotionGrid g = motion_grid(width, height, block);
  auto valid = [this](int origin, int extent, int frame) {
    return std::min(range, frame - origin - extent) - std::max(-range, -origin) + 1;
  };
  double total = 0;
  for (int r = 0; r < g.rows; ++r)
    for (int c = 0; c < g.columns; ++c) {
      const int bw = std::min(block, width - c * block), bh = std::min(block, height - r * block);
      total += double(valid(c * block, bw, width)) * valid(r * block, bh, height) * bw * bh;
    }
  return total;
}

std::vector<std::uint8_t> texture_canvas(int cw, int ch) {
  std::mt19937_64 rng(20261129);
  std::uniform_real_distribution<double> unit(0, 1);
  auto lattice = [&](int step) {
    std::vector<double> g(static_cast<std::size_t>(cw / step + 2) * (ch / step + 2));
    for (auto& v : g) v = unit(rng);
    return g;
  };
  const int s1 = 29, s2 = 7;
  const std::vector<double> g1 = lattice(s1), g2 = lattice(s2);
  auto noise = [&](const std::vector<double>& g, int step, int x, int y) {
    const int lw = cw / step + 2, gx = x / step, gy = y / step;
    const double fx = double(x % step) / step, fy = double(y % step) / step;
    const double sx = fx * fx * (3 - 2 * fx), sy = fy * fy * (3 - 2 * fy);
    auto at = [&](int i, int j) { return g[static_cast<std::size_t>(j) * lw + i]; };
    return (at(gx, gy) * (1 - sx) + at(gx + 1, gy) * sx) * (1 - sy) + (at(gx, gy + 1) * (1 - sx) + at(gx + 1, gy + 1) * sx) * sy;
  };
  std::vector<std::uint8_t> canvas(static_cast<std::size_t>(cw) * ch);
  std::uniform_int_distribution<int> grain(-5, 5);
  for (int y = 0; y < ch; ++y)
    for (int x = 0; x < cw; ++x) {
      const double v = 255 * (0.65 * noise(g1, s1, x, y) + 0.3 * noise(g2, s2, x, y)) + grain(rng);
      canvas[static_cast<std::size_t>(y) * cw + x] = static_cast<std::uint8_t>(std::clamp(v, 0.0, 255.0));
    }
  return canvas;
}

namespace {

// The texture canvas panned by (3, 2) pixels per frame: every frame is a real-looking picture and
// each pair has a known global motion.
MotionFrames make_frames(int width, int height, std::size_t min_total_bytes) {
  MotionFrames f;
  f.width = width;
  f.height = height;
  const int count = static_cast<int>(std::max<std::size_t>(2, (min_total_bytes + f.frame_bytes() - 1) / f.frame_bytes()));
  const int vx = 3, vy = 2;
  const int cw = width + vx * count + 1, ch = height + vy * count + 1;
  const std::vector<std::uint8_t> canvas = texture_canvas(cw, ch);
  f.bytes.resize(f.frame_bytes() * count);
  for (int i = 0; i < count; ++i)
    for (int y = 0; y < height; ++y)
      std::copy_n(canvas.begin() + static_cast<std::size_t>(y + vy * i) * cw + vx * i, width,
                  f.bytes.begin() + f.frame_bytes() * i + static_cast<std::size_t>(y) * width);
  return f;
}

// The CPU field of frames 0 -> 1 (what the GPU is checked against); empty when the search fails.
MotionField cpu_field(const MotionCase& c, const MotionFrames& frames) {
  MotionField field;
  const Status status = motion_estimate_cpu(frames.frame(1), frames.frame(0), c.params(), &field);
  if (!status.is_ok()) std::fprintf(stderr, "motion: CPU search failed: %s\n", status.message().c_str());
  return status.is_ok() ? field : MotionField{};
}

void add_cpu_row(const Options& opts, const MotionCase& c, const MotionFrames& frames, Report& report) {
  Options cpu_opts = opts;
  cpu_opts.reps = std::min(opts.reps, 3);
  cpu_opts.warmup = 1;
  MotionField field;
  const double us = time_host_us(cpu_opts, [&](int i) {
    (void)motion_estimate_cpu(frames.frame((i + 1) % frames.count()), frames.frame(i % frames.count()), c.params(),
                              &field);
  });
  Row row;
  row.section = c.section();
  row.variant = "cpu";
  row.median_us = us;
  row.throughput = c.sad_pixels() / (us * 1e3);
  row.unit = "G SAD px/s";
  row.note = std::to_string(dpx::runtime::hardware_threads()) +
             " threads; a candidate stops once its SAD passes the best";
  report.add(row);
}

int run_motion_bench(const Options& opts, Report& report) {
  const std::size_t rotate_bytes = 66u << 20;  // beyond the 60 MB L2
  const auto quarter = MotionSubpel::kQuarter;
  const auto predictive = MotionSearch::kPredictive;
  const auto bilinear = MotionInterpolation::kBilinear, h264 = MotionInterpolation::kH264;
  const auto full = MotionSearch::kFull;
  // The sub-pel rows with every interpolation (the default, HEVC, first), each beside the full search.
  std::vector<MotionCase> cases = {{1920, 1080, 16, 16},
                                   {1920, 1080, 16, 16, quarter},
                                   {1920, 1080, 16, 16, quarter, full, 0, h264},
                                   {1920, 1080, 16, 16, quarter, full, 0, bilinear}};
  if (!opts.quick)
    cases.insert(cases.end(), {{1920, 1080, 16, 16, MotionSubpel::kNone, MotionSearch::kFull, 4},
                               {1920, 1080, 16, 32},
                               {3840, 2160, 16, 16},
                               {3840, 2160, 16, 32},
                               {3840, 2160, 16, 64},
                               {3840, 2160, 16, 64, MotionSubpel::kNone, predictive},
                               {3840, 2160, 16, 64, quarter, predictive, 4},
                               {3840, 2160, 16, 64, quarter, predictive, 4, h264},
                               {3840, 2160, 16, 64, quarter, predictive, 4, bilinear},
                               {3840, 2160, 16, 128, MotionSubpel::kNone, predictive}});
  int rc = 0;
  MotionFrames frames;
  const MotionFrames small = make_frames(640, 360, 1);
  for (const MotionCase& c : cases) {
    if (frames.width != c.width) frames = make_frames(c.width, c.height, rotate_bytes);
    // The CPU is timed at 1080p +-16 (seconds per frame elsewhere) and checks the GPU at full size
    // there; the other cases are checked on a 640x360 pair of the same kind.
    const bool cpu_row = c.width == 1920 && c.range == 16 && c.params().subpel == MotionSubpel::kNone && c.lambda == 0;
    if (cpu_row) add_cpu_row(opts, c, frames, report);
    const MotionFrames& check_frames = cpu_row ? frames : small;
    MotionCase check_case = c;
    check_case.width = check_frames.width;
    check_case.height = check_frames.height;
    const MotionField check = cpu_field(check_case, check_frames);
    if (check.vectors.empty()) {
      rc = 1;
      continue;
    }
#if DPX_HAVE_CUDA
    if (cuda_device_count() > 0)
      rc |= run_motion_gpu(opts, c, frames, check_frames, check, report);
    else
      std::fprintf(stderr, "motion: no CUDA device, GPU rows skipped\n");
#else
    std::fprintf(stderr, "motion: built without CUDA, GPU rows skipped\n");
#endif
  }
  rc |= run_motion_quality(opts, report);
  return rc | run_motion_photo_rows(opts, report);
}

const Registration registration("motion",
                                "block matching 16x16: full +-16..+-64, quarter-pel, lambda, predictive +-64/+-128, "
                                "1080p and 4K GRAY8 (dpx, plain, dpx plane build on h264/hevc sub-pel, copy, cpu); quality (EPE, smoothness, predictive "
                                "vs full; --image=FILE.pgm; real photos per interpolation against a bicubic anchor, "
                                "--photos=DIR)",
                                run_motion_bench);

}  // namespace
}  // namespace bench
}  // namespace dpx
