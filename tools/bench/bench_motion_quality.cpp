// dpx-bench motion, quality rows (the CPU implementation, so they exist in every build; the GPU
// returns the same bits). Pictures come from --image=FILE.pgm (a binary PGM, 8-bit, at least
// 720x440: scripts/photo-to-pgm.sh makes one from a photograph) when given, else from the texture
// canvas; --dump=DIR writes the frames measured. Three measurements:
//   * endpoint error (EPE, pixels) on exact sub-pixel shifts: the picture sampled at 4x, shifted
//     by whole pixels there and box-averaged 4x4; integer, half and quarter vectors;
//   * smoothness with lambda on a panned and zoomed picture with sensor noise: mean |dv| between
//     neighbouring blocks (pixels) and the EPE against the true flow at the block centres;
//   * predictive against full search on a fast pan with zoom: the share of blocks whose SAD
//     reaches the full search's minimum, and the time of both.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "bench.h"
#include "bench_motion.h"
#include "dpx/motion.h"
#include "photo_shift.h"

namespace dpx {
namespace bench {

namespace {

struct Picture {
  int width = 0, height = 0;
  std::vector<std::uint8_t> pixels;
  std::string name;
  double at(double x, double y) const {  // bilinear, edges repeated
    x = std::clamp(x, 0.0, width - 1.001);
    y = std::clamp(y, 0.0, height - 1.001);
    const int ix = static_cast<int>(x), iy = static_cast<int>(y);
    const double fx = x - ix, fy = y - iy;
    auto p = [&](int i, int j) { return double(pixels[static_cast<std::size_t>(j) * width + i]); };
    return (p(ix, iy) * (1 - fx) + p(ix + 1, iy) * fx) * (1 - fy) + (p(ix, iy + 1) * (1 - fx) + p(ix + 1, iy + 1) * fx) * fy;
  }
};

// A binary 8-bit PGM (P5), or an empty picture.
Picture read_pgm(const std::string& path) {
  quality::GreyImage g;
  if (!quality::read_pgm(path, &g).is_ok()) return Picture{};
  Picture p;
  p.width = g.width;
  p.height = g.height;
  p.pixels = std::move(g.pixels);
  return p;
}

Picture source_picture(const Options& opts) {
  if (!opts.image.empty()) {
    Picture p = read_pgm(opts.image);
    // The 640x360 windows below, panned, zoomed and shifted, stay inside 720x440.
    if (p.width >= 720 && p.height >= 440) {
      p.name = opts.image.substr(opts.image.find_last_of('/') + 1);
      return p;
    }
    std::fprintf(stderr, "motion quality: %s is not a binary 8-bit PGM of at least 720x440; texture used\n",
                 opts.image.c_str());
  }
  Picture p;
  p.width = 1600;
  p.height = 960;
  p.pixels = texture_canvas(p.width, p.height);
  p.name = "texture";
  return p;
}

struct Frame {
  int width, height;
  std::vector<std::uint8_t> pixels;
  PlaneView view() const { return PlaneView{pixels.data(), width, height, static_cast<std::size_t>(width), 1, SampleType::kU8}; }
};

// With --dump=DIR the frames of every measurement are written there as binary PGMs, so other
// estimators (scripts/mestimate_vectors.c: FFmpeg's mestimate) can run on the same pictures.
std::string dump_dir;

void dump(const Frame& f, const std::string& name) {
  if (dump_dir.empty()) return;
  std::ofstream out(dump_dir + "/" + name + ".pgm", std::ios::binary);
  out << "P5\n" << f.width << " " << f.height << "\n255\n";
  out.write(reinterpret_cast<const char*>(f.pixels.data()), static_cast<std::streamsize>(f.pixels.size()));
}

// The picture at 4x density (every source pixel split into 4x4 by bilinear sampling), shifted by
// (qx, qy) there, then box-averaged: a shift of exactly (qx / 4, qy / 4) pixels.
Frame quarter_shifted(const Picture& pic, int width, int height, int qx, int qy) {
  Frame f{width, height, std::vector<std::uint8_t>(static_cast<std::size_t>(width) * height)};
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      double sum = 0;
      for (int i = 0; i < 4; ++i)
        for (int k = 0; k < 4; ++k) sum += std::round(pic.at(40 + (4 * x + k + qx) / 4.0, 40 + (4 * y + i + qy) / 4.0));
      f.pixels[static_cast<std::size_t>(y) * width + x] = static_cast<std::uint8_t>(std::lround(sum / 16));
    }
  return f;
}

// The picture seen through a camera at time t: zoomed by zoom^t about the frame centre and panned
// by t * (vx, vy) from the picture's centre (x0, y0), with noise of +-noise grey levels.
// true_flow() is where a pixel of frame t+1 was in frame t.
struct Camera {
  double vx, vy, zoom;
  int noise;
  int width, height;
  double x0, y0;
  double cx(double t) const { return x0 + t * vx; }
  double cy(double t) const { return y0 + t * vy; }
  double scale(double t) const { return std::pow(zoom, -t); }
  Frame frame(const Picture& pic, int t, std::mt19937_64& rng) const {
    Frame f{width, height, std::vector<std::uint8_t>(static_cast<std::size_t>(width) * height)};
    std::uniform_int_distribution<int> grain(-noise, noise);
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) {
        const double v = pic.at(cx(t) + (x - width / 2.0) * scale(t), cy(t) + (y - height / 2.0) * scale(t));
        f.pixels[static_cast<std::size_t>(y) * width + x] = static_cast<std::uint8_t>(std::clamp(std::lround(v) + grain(rng), 0L, 255L));
      }
    return f;
  }
  void true_flow(int t, double x, double y, double* fx, double* fy) const {
    const double px = cx(t + 1) + (x - width / 2.0) * scale(t + 1), py = cy(t + 1) + (y - height / 2.0) * scale(t + 1);
    *fx = (px - cx(t)) / scale(t) + width / 2.0 - x;
    *fy = (py - cy(t)) / scale(t) + height / 2.0 - y;
  }
};

MotionParams params(int block, int range, MotionSubpel subpel, MotionSearch search, int lambda) {
  return MotionCase{0, 0, block, range, subpel, search, lambda}.params();
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The field of cur against ref, and the host time it took (microseconds).
MotionField estimate(const Frame& cur, const Frame& ref, const MotionParams& p, double* us) {
  MotionField f;
  const auto t0 = std::chrono::steady_clock::now();
  const Status s = motion_estimate_cpu(cur.view(), ref.view(), p, &f);
  *us = seconds_since(t0) * 1e6;
  if (!s.is_ok()) std::fprintf(stderr, "motion quality: %s\n", s.message().c_str());
  return f;
}

const char* subpel_name(MotionSubpel s) {
  return s == MotionSubpel::kNone ? "integer" : (s == MotionSubpel::kHalf ? "half" : "quarter");
}

void endpoint_error_rows(const Picture& pic, bool quick, Report& report) {
  const int w = quick ? 320 : 640, h = quick ? 180 : 360, b = 16;
  const Frame ref = quarter_shifted(pic, w, h, 0, 0);
  dump(ref, "epe_ref");
  const int shifts[][2] = {{5, -3}, {-10, 7}, {2, 1}, {13, -14}};
  for (MotionSubpel subpel : {MotionSubpel::kNone, MotionSubpel::kHalf, MotionSubpel::kQuarter}) {
    double total = 0, us_total = 0;
    long blocks = 0, exact = 0;
    for (const auto& q : shifts) {
      const Frame cur = quarter_shifted(pic, w, h, q[0], q[1]);
      dump(cur, "epe_q" + std::to_string(q[0]) + "_" + std::to_string(q[1]));
      double us;
      const MotionField f = estimate(cur, ref, params(b, 16, subpel, MotionSearch::kFull, 0), &us);
      us_total += us;
      const int s = static_cast<int>(subpel);
      for (int r = 1; r + 1 < f.grid.rows; ++r)
        for (int c = 1; c + 1 < f.grid.columns; ++c) {
          const MotionVector& v = f.at(c, r);
          total += std::hypot(double(v.dx) / s - q[0] / 4.0, double(v.dy) / s - q[1] / 4.0);
          exact += v.dx * 4 == q[0] * s && v.dy * 4 == q[1] * s;
          ++blocks;
        }
    }
    char note[120];
    std::snprintf(note, sizeof note, "exact vector on %.1f%% of inner blocks; 4 shifts in 1/4 px", 100.0 * exact / blocks);
    report.add(Row{"motion quality EPE " + std::to_string(w) + "x" + std::to_string(h) + " b16 r16", subpel_name(subpel),
                   us_total / 4, total / blocks, "px EPE", note});
  }
}

// Mean over blocks of the L1 vector difference to the right and lower neighbours, in pixels.
double roughness(const MotionField& f) {
  double total = 0;
  long pairs = 0;
  const double s = f.grid.scale;
  for (int r = 0; r < f.grid.rows; ++r)
    for (int c = 0; c < f.grid.columns; ++c) {
      const MotionVector& v = f.at(c, r);
      if (c + 1 < f.grid.columns) total += (std::abs(v.dx - f.at(c + 1, r).dx) + std::abs(v.dy - f.at(c + 1, r).dy)) / s, ++pairs;
      if (r + 1 < f.grid.rows) total += (std::abs(v.dx - f.at(c, r + 1).dx) + std::abs(v.dy - f.at(c, r + 1).dy)) / s, ++pairs;
    }
  return pairs ? total / pairs : 0;
}

double flow_error(const MotionField& f, const Camera& cam, int t) {
  double total = 0;
  const int b = f.grid.block_size;
  for (int r = 0; r < f.grid.rows; ++r)
    for (int c = 0; c < f.grid.columns; ++c) {
      double fx, fy;
      cam.true_flow(t, c * b + b / 2.0 - 0.5, r * b + b / 2.0 - 0.5, &fx, &fy);
      const MotionVector& v = f.at(c, r);
      total += std::hypot(double(v.dx) / f.grid.scale - fx, double(v.dy) / f.grid.scale - fy);
    }
  return total / static_cast<double>(f.vectors.size());
}

void lambda_rows(const Picture& pic, bool quick, Report& report) {
  const Camera cam{2.3, -1.4, 1.01, 10, quick ? 320 : 640, quick ? 180 : 360, pic.width / 2.0 - 20,
                   pic.height / 2.0 - 10};
  std::mt19937_64 rng(7);
  const Frame a = cam.frame(pic, 0, rng), b = cam.frame(pic, 1, rng);
  dump(a, "smooth_0");
  dump(b, "smooth_1");
  for (int lambda : {0, 1, 2, 4, 8, 16}) {
    double us;
    const MotionField f = estimate(b, a, params(8, 16, MotionSubpel::kQuarter, MotionSearch::kFull, lambda), &us);
    char note[120];
    std::snprintf(note, sizeof note, "EPE vs true flow %.3f px; pan (2.3,-1.4) zoom 1%%, noise +-10", flow_error(f, cam, 0));
    report.add(Row{"motion quality smoothness " + std::to_string(cam.width) + "x" + std::to_string(cam.height) +
                       " b8 r16 quarter", "lambda " + std::to_string(lambda), us, roughness(f), "px |dv|", note});
  }
}

void predictive_rows(const Picture& pic, bool quick, Report& report) {
  const Camera cam{-19.6, 9.3, 1.015, 2, quick ? 320 : 640, quick ? 180 : 360, pic.width / 2.0 - 20,
                   pic.height / 2.0 - 10};
  std::mt19937_64 rng(11);
  const Frame a = cam.frame(pic, 0, rng), b = cam.frame(pic, 1, rng);
  dump(a, "pred_0");
  dump(b, "pred_1");
  for (int range : {32, 64}) {
    double full_us, fast_us;
    const MotionField full = estimate(b, a, params(16, range, MotionSubpel::kNone, MotionSearch::kFull, 0), &full_us);
    const MotionField fast = estimate(b, a, params(16, range, MotionSubpel::kNone, MotionSearch::kPredictive, 0), &fast_us);
    std::size_t same = 0;
    for (std::size_t i = 0; i < full.vectors.size(); ++i) same += fast.vectors[i].sad <= full.vectors[i].sad;
    const std::string section = "motion quality predictive " + std::to_string(cam.width) + "x" +
                                std::to_string(cam.height) + " b16 r" + std::to_string(range);
    char note[160];
    std::snprintf(note, sizeof note,
                  "%.1f%% of blocks at the full-search minimum SAD; pan (-19.6,9.3) zoom 1.5%%; picture %s",
                  100.0 * same / full.vectors.size(), pic.name.c_str());
    report.add(Row{section, "full", full_us, 100.0, "% at min", "cpu"});
    report.add(Row{section, "predictive", fast_us, 100.0 * same / full.vectors.size(), "% at min",
                   std::string(note) + "; " + ratio(full_us, fast_us) + " faster (cpu)"});
  }
}

}  // namespace

int run_motion_quality(const Options& opts, Report& report) {
  dump_dir = opts.dump;
  const Picture pic = source_picture(opts);
  std::printf("motion quality picture: %s (%dx%d)\n", pic.name.c_str(), pic.width, pic.height);
  endpoint_error_rows(pic, opts.quick, report);
  lambda_rows(pic, opts.quick, report);
  predictive_rows(pic, opts.quick, report);
  return 0;
}

}  // namespace bench
}  // namespace dpx
