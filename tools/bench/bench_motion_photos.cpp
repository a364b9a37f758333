// dpx-bench motion, real-photo sub-pel rows (CPU; the GPU returns the same bits): the photographs
// of --photos=DIR (default tests/data/photos) moved by exact quarter pixels (quality/photo_shift.h),
// scored on the textured half of the interior blocks — the share within 1/4 pixel of the true
// shift on both axes — per interpolation, sub-pel step and search, beside the anchor: a full
// search over a bicubic 4x upsample of the reference, every quarter-pixel vector within the range.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench.h"
#include "bench_motion.h"
#include "dpx/motion.h"
#include "photo_shift.h"

namespace dpx {
namespace bench {

namespace {

namespace q = quality;

constexpr int kBlock = 16, kRange = 4;
constexpr int kShifts[][2] = {{5, -3}, {-10, 7}, {2, 1}, {13, -14}};  // quarter pixels, within the range

struct PhotoCase {
  std::string name;
  q::GreyImage reference;
  std::vector<q::GreyImage> moved;                 // one a shift
  std::vector<std::vector<std::size_t>> textured;  // the moved frames' textured blocks
};

// Keys' cubic convolution weight (a = -0.5) at distance t.
double cubic(double t) {
  t = std::abs(t);
  if (t < 1) return (1.5 * t - 2.5) * t * t + 1;
  if (t < 2) return ((-0.5 * t + 2.5) * t - 4) * t + 2;
  return 0;
}

// The reference upsampled 4x by bicubic convolution (sample (u, v) at (u / 4, v / 4), edges
// repeated), rounded to 8 bits as an upsampled picture would be.
std::vector<int> bicubic_4x(const q::GreyImage& f) {
  const int w = 4 * f.width, h = 4 * f.height;
  double k[4][4];
  for (int p = 0; p < 4; ++p)
    for (int i = 0; i < 4; ++i) k[p][i] = cubic(p / 4.0 - (i - 1));
  auto at = [&](int x, int y) { return f.at(std::clamp(x, 0, f.width - 1), std::clamp(y, 0, f.height - 1)); };
  std::vector<int> out(static_cast<std::size_t>(w) * h);
  for (int v = 0; v < h; ++v)
    for (int u = 0; u < w; ++u) {
      const int x = u >> 2, y = v >> 2, px = u & 3, py = v & 3;
      double s = 0;
      for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 4; ++i) s += k[py][j] * k[px][i] * at(x - 1 + i, y - 1 + j);
      out[static_cast<std::size_t>(v) * w + u] = static_cast<int>(std::clamp(std::lround(s), 0L, 255L));
    }
  return out;
}

// The anchor's field on `blocks` (the others stay (0, 0)): for each block the quarter-pixel vector
// v, |v| <= 4 R, whose block stays inside the frame, with the smallest SAD of the block against
// the upsample at (4 x + vx, 4 y + vy); ties to the smaller |vx| + |vy|.
MotionField bicubic_search(const q::GreyImage& cur, const q::GreyImage& ref,
                           const std::vector<std::size_t>& blocks) {
  const std::vector<int> up = bicubic_4x(ref);
  const int uw = 4 * ref.width;
  MotionField field;
  field.resize(motion_grid(cur.width, cur.height, kBlock));
  field.grid.scale = 4;
  for (std::size_t i : blocks) {
    const int c = static_cast<int>(i) % field.grid.columns, r = static_cast<int>(i) / field.grid.columns;
    const int x0 = c * kBlock, y0 = r * kBlock;
    long best = -1;
    int bx = 0, by = 0;
    for (int vy = -4 * kRange; vy <= 4 * kRange; ++vy)
      for (int vx = -4 * kRange; vx <= 4 * kRange; ++vx) {
        if (4 * x0 + vx < 0 || 4 * (x0 + kBlock - 1) + vx > 4 * (cur.width - 1)) continue;
        if (4 * y0 + vy < 0 || 4 * (y0 + kBlock - 1) + vy > 4 * (cur.height - 1)) continue;
        long sad = 0;
        for (int y = y0; y < y0 + kBlock; ++y)
          for (int x = x0; x < x0 + kBlock; ++x)
            sad += std::abs(cur.at(x, y) - up[static_cast<std::size_t>(4 * y + vy) * uw + 4 * x + vx]);
        if (best < 0 || sad < best ||
            (sad == best && std::abs(vx) + std::abs(vy) < std::abs(bx) + std::abs(by)))
          best = sad, bx = vx, by = vy;
      }
    field.vectors[i].dx = static_cast<std::int16_t>(bx);
    field.vectors[i].dy = static_cast<std::int16_t>(by);
  }
  return field;
}

std::vector<PhotoCase> photo_cases(const std::string& dir, bool quick) {
  std::vector<q::GreyImage> photos;
  std::vector<std::string> names;
  const Status s = q::read_photos(dir, &photos, &names);
  if (!s.is_ok()) {
    std::fprintf(stderr, "motion quality: %s; real-photo rows skipped (--photos=DIR)\n", s.message().c_str());
    return {};
  }
  const int w = quick ? 256 : 384, h = quick ? 192 : 256;
  std::vector<PhotoCase> out;
  for (std::size_t p = 0; p < photos.size(); ++p) {
    const q::GreyImage& photo = photos[p];
    if (photo.width < w + 12 || photo.height < h + 12) continue;  // the shifts and the upsample's reach
    PhotoCase c;
    c.name = names[p];
    const int ox = (photo.width - w) / 2, oy = (photo.height - h) / 2;
    c.reference = q::quarter_shifted(photo, ox, oy, w, h, 0, 0);
    for (const auto& shift : kShifts) {
      c.moved.push_back(q::quarter_shifted(photo, ox, oy, w, h, shift[0], shift[1]));
      c.textured.push_back(q::textured_blocks(c.moved.back(), kBlock));
    }
    out.push_back(std::move(c));
  }
  return out;
}

const char* interpolation_name(MotionInterpolation i) {
  return i == MotionInterpolation::kBilinear ? "bilinear"
                                             : (i == MotionInterpolation::kH264 ? "h264" : "hevc");
}

}  // namespace

int run_motion_photo_rows(const Options& opts, Report& report) {
  const std::vector<PhotoCase> cases = photo_cases(opts.photos, opts.quick);
  if (cases.empty()) return 0;
  std::string names;
  for (const PhotoCase& c : cases) names += (names.empty() ? "" : ", ") + c.name;
  const std::string frame =
      std::to_string(cases[0].reference.width) + "x" + std::to_string(cases[0].reference.height);
  const std::string note = std::to_string(cases.size()) + " photos (" + names + "), 4 shifts in 1/4 px";
  auto add = [&](const std::string& section, const std::string& variant, const q::ShiftScore& s, double us) {
    char text[200];
    std::snprintf(text, sizeof text, "%s; %zu textured blocks, mean error %.3f px", note.c_str(), s.blocks,
                  s.mean_error());
    report.add(Row{section, variant, us, 100 * s.fraction(), "% within 1/4 px", text});
  };
  for (MotionSearch search : {MotionSearch::kFull, MotionSearch::kPredictive})
    for (MotionSubpel subpel : {MotionSubpel::kHalf, MotionSubpel::kQuarter}) {
      const std::string section = std::string("motion quality photos ") + frame + " b16 " +
                                  (search == MotionSearch::kFull ? "full r4 " : "predictive r8 ") +
                                  (subpel == MotionSubpel::kHalf ? "half" : "quarter");
      for (MotionInterpolation interp :
           {MotionInterpolation::kBilinear, MotionInterpolation::kH264, MotionInterpolation::kHevc}) {
        const MotionParams p =
            MotionCase{0,      0,      kBlock, search == MotionSearch::kFull ? kRange : 2 * kRange,
                       subpel, search, 0,      interp}
                .params();
        q::ShiftScore total;
        double us = 0;
        for (const PhotoCase& c : cases)
          for (std::size_t i = 0; i < c.moved.size(); ++i) {
            MotionField f;
            const auto t0 = std::chrono::steady_clock::now();
            const Status s = motion_estimate_cpu(c.moved[i].view(), c.reference.view(), p, &f);
            us += std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
            if (!s.is_ok()) {
              std::fprintf(stderr, "motion quality: %s\n", s.message().c_str());
              return 1;
            }
            total.add(q::score_shift(f, c.textured[i], kShifts[i][0], kShifts[i][1]));
          }
        add(section, interpolation_name(interp), total, us / (cases.size() * std::size(kShifts)));
      }
    }
  // The anchor: the vectors a bicubic 4x upsample's full search finds (quarter pixels, +-4 px).
  q::ShiftScore anchor;
  double us = 0;
  for (const PhotoCase& c : cases)
    for (std::size_t i = 0; i < c.moved.size(); ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      const MotionField f = bicubic_search(c.moved[i], c.reference, c.textured[i]);
      us += std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      anchor.add(q::score_shift(f, c.textured[i], kShifts[i][0], kShifts[i][1]));
    }
  add("motion quality photos " + frame + " b16 anchor r4 quarter", "bicubic 4x full search", anchor,
      us / (cases.size() * std::size(kShifts)));
  return 0;
}

}  // namespace bench
}  // namespace dpx
