// The stabiliser on the CPU: the robust fit against known transforms (exact
// without noise, robust with 30% outlier blocks), the analyser on frames of a
// scene seen through known cameras, the smoothed path (a steady pan passes
// unchanged, shake is removed, cuts restart it, limits hold), the zoom that
// hides borders, and the warp against a plain reference at every border mode.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "dpx/stabilise.h"
#include "stabilise_test_util.h"
#include "test_util.h"

namespace {

using dpx::Correspondence;
using dpx::FitResult;
using dpx::Similarity;
using dpx::test::HostImage;

constexpr double kPi = 3.14159265358979323846;

// Where `s` (about (cx, cy)) maps (x, y).
void apply(const Similarity& s, double cx, double cy, double x, double y, double* u, double* v) {
  const double c = s.scale * std::cos(s.angle), n = s.scale * std::sin(s.angle);
  *u = c * (x - cx) - n * (y - cy) + cx + s.tx;
  *v = n * (x - cx) + c * (y - cy) + cy + s.ty;
}

Similarity random_similarity(std::mt19937_64& rng, double shift, double angle, double scale) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Similarity s;
  s.tx = shift * u(rng);
  s.ty = shift * u(rng);
  s.angle = angle * u(rng);
  s.scale = 1.0 + scale * u(rng);
  return s;
}

// Block centres of a 40 x 22 grid (a 640 x 360 frame of 16-pixel blocks) mapped
// by `s`.
std::vector<Correspondence> grid_points(const Similarity& s, double cx, double cy) {
  std::vector<Correspondence> pts;
  for (int r = 0; r < 22; ++r)
    for (int c = 0; c < 40; ++c) {
      Correspondence p;
      p.x = c * 16 + 7.5;
      p.y = r * 16 + 7.5;
      apply(s, cx, cy, p.x, p.y, &p.u, &p.v);
      pts.push_back(p);
    }
  return pts;
}

void expect_near(const Similarity& want, const Similarity& got, double shift_tol, double angle_tol) {
  EXPECT_NEAR(want.tx, got.tx, shift_tol);
  EXPECT_NEAR(want.ty, got.ty, shift_tol);
  EXPECT_NEAR(want.angle, got.angle, angle_tol);
  EXPECT_NEAR(want.scale, got.scale, angle_tol);
}

TEST(StabiliseFit, ExactOnSyntheticShiftsAndRotations) {
  auto rng = dpx::test::seeded_rng();
  const double cx = 319.5, cy = 179.5;
  for (int i = 0; i < 20; ++i) {
    const Similarity truth = i < 5 ? random_similarity(rng, 8, 0, 0) : random_similarity(rng, 8, 0.03, 0.02);
    const auto pts = grid_points(truth, cx, cy);
    FitResult r;
    ASSERT_TRUE(dpx::fit_similarity(pts.data(), pts.size(), cx, cy, dpx::FitParams(), &r).is_ok());
    ASSERT_TRUE(r.reliable);
    EXPECT_EQ(r.inliers, static_cast<int>(pts.size()));
    expect_near(truth, r.motion, 1e-9, 1e-12);
    EXPECT_LT(r.residual_rms, 1e-9);
  }
}

TEST(StabiliseFit, RobustWithThirtyPercentOutlierBlocks) {
  auto rng = dpx::test::seeded_rng();
  const double cx = 319.5, cy = 179.5;
  std::normal_distribution<double> noise(0.0, 0.25);
  std::uniform_real_distribution<double> wild(-20.0, 20.0);
  for (int i = 0; i < 10; ++i) {
    const Similarity truth = random_similarity(rng, 8, 0.02, 0.01);
    auto pts = grid_points(truth, cx, cy);
    // A moving object: a rectangle of blocks 30% of the frame with its own
    // motion, plus noise.
    const double ox = wild(rng), oy = wild(rng);
    int outliers = 0;
    for (std::size_t k = 0; k < pts.size(); ++k) {
      const int c = static_cast<int>(k % 40), r = static_cast<int>(k / 40);
      if (c < 16 && r < 17) {  // 272 of 880 blocks
        pts[k].u = pts[k].x + ox;
        pts[k].v = pts[k].y + oy;
        ++outliers;
      } else {
        pts[k].u += noise(rng);
        pts[k].v += noise(rng);
      }
    }
    ASSERT_GE(outliers * 10, static_cast<int>(pts.size()) * 3);
    FitResult r;
    ASSERT_TRUE(dpx::fit_similarity(pts.data(), pts.size(), cx, cy, dpx::FitParams(), &r).is_ok());
    ASSERT_TRUE(r.reliable);
    EXPECT_GE(r.inliers, static_cast<int>(pts.size()) - outliers - 10);
    expect_near(truth, r.motion, 0.05, 2e-4);
  }
}

TEST(StabiliseFit, ScatteredVectorsAreNotReliableAndDrawsRepeat) {
  auto rng = dpx::test::seeded_rng();
  std::uniform_real_distribution<double> wild(-30.0, 30.0);
  auto pts = grid_points(Similarity(), 319.5, 179.5);
  for (auto& p : pts) {
    p.u = p.x + wild(rng);
    p.v = p.y + wild(rng);
  }
  FitResult a, b;
  ASSERT_TRUE(dpx::fit_similarity(pts.data(), pts.size(), 319.5, 179.5, dpx::FitParams(), &a).is_ok());
  ASSERT_TRUE(dpx::fit_similarity(pts.data(), pts.size(), 319.5, 179.5, dpx::FitParams(), &b).is_ok());
  EXPECT_FALSE(a.reliable);
  EXPECT_EQ(a.inliers, b.inliers);
  EXPECT_EQ(a.residual_rms, b.residual_rms);
  // Bad parameters are refused; nothing to fit is simply not reliable.
  dpx::FitParams bad;
  bad.inlier_threshold = 0;
  EXPECT_EQ(dpx::fit_similarity(pts.data(), pts.size(), 0, 0, bad, &a).code(),
            dpx::StatusCode::kInvalidArgument);
  EXPECT_EQ(dpx::fit_similarity(nullptr, 3, 0, 0, dpx::FitParams(), &a).code(),
            dpx::StatusCode::kInvalidArgument);
  ASSERT_TRUE(dpx::fit_similarity(pts.data(), 1, 0, 0, dpx::FitParams(), &a).is_ok());
  EXPECT_FALSE(a.reliable);
}

TEST(StabiliseSimilarity, ComposeAndInverse) {
  auto rng = dpx::test::seeded_rng();
  for (int i = 0; i < 10; ++i) {
    const Similarity a = random_similarity(rng, 20, 0.5, 0.2), b = random_similarity(rng, 20, 0.5, 0.2);
    double u1, v1, u2, v2, u3, v3;
    apply(b, 10, 20, 123, -45, &u1, &v1);
    apply(a, 10, 20, u1, v1, &u2, &v2);
    apply(dpx::compose(a, b), 10, 20, 123, -45, &u3, &v3);
    EXPECT_NEAR(u2, u3, 1e-9);
    EXPECT_NEAR(v2, v3, 1e-9);
    const Similarity id = dpx::compose(dpx::inverse(a), a);
    expect_near(Similarity(), id, 1e-9, 1e-12);
  }
}

// ---------------------------------------------------------------------------------------------

TEST(StabiliseAnalyser, MeasuresKnownCameraMotion) {
  auto rng = dpx::test::seeded_rng();
  const HostImage scene = dpx::test::random_scene(rng, 720, 480);
  dpx::MotionAnalyser analyser;
  dpx::AnalyseParams params;
  params.subpel = dpx::MotionSubpel::kQuarter;
  analyser.set_params(params);
  // Whole-pixel shifts are exact; a turn and a zoom come out within a small
  // fraction.
  const Similarity cams[] = {
      {0, 0, 0, 1}, {3, -2, 0, 1}, {-4, 5, 0, 1}, {-4, 5, 0.01, 1}, {-2, 4, 0.0, 1.01}};
  Similarity last;
  for (std::size_t i = 0; i < sizeof cams / sizeof cams[0]; ++i) {
    const HostImage frame = dpx::test::view_of(scene, cams[i], 150, 100, 352, 240);
    dpx::FrameMotion m;
    ASSERT_TRUE(analyser.analyse_cpu(frame.view(), 0, &m).is_ok());
    EXPECT_EQ(m.measured, i > 0);
    if (i > 0) {
      ASSERT_TRUE(m.fit.reliable) << "frame " << i;
      const Similarity want = dpx::compose(dpx::inverse(last), cams[i]);
      const bool whole = cams[i].angle == 0 && cams[i].scale == 1 && last.angle == 0 && last.scale == 1;
      expect_near(want, m.motion(), whole ? 1e-9 : 0.1, whole ? 1e-12 : 3e-4);
    }
    last = cams[i];
  }
  // A frame of another scene is not explained: a cut.
  const HostImage other = dpx::test::random_scene(rng, 720, 480);
  dpx::FrameMotion m;
  ASSERT_TRUE(analyser.analyse_cpu(dpx::test::view_of(other, Similarity(), 150, 100, 352, 240).view(), 0, &m)
                  .is_ok());
  EXPECT_TRUE(m.measured);
  EXPECT_FALSE(m.fit.reliable);
}

TEST(StabiliseAnalyser, FlatFramesAreNotReliableAndSmallFramesAreRefused) {
  dpx::MotionAnalyser analyser;
  HostImage flat(128, 96, 1, dpx::SampleType::kU8);
  dpx::FrameMotion m;
  ASSERT_TRUE(analyser.analyse_cpu(flat.view(), 0, &m).is_ok());
  ASSERT_TRUE(analyser.analyse_cpu(flat.view(), 0, &m).is_ok());
  EXPECT_TRUE(m.measured);
  EXPECT_FALSE(m.fit.reliable);
  EXPECT_EQ(m.fit.candidates, 0);
  HostImage small(dpx::kStabiliseMinWidth - 1, 96, 1, dpx::SampleType::kU8);
  EXPECT_EQ(analyser.analyse_cpu(small.view(), 0, &m).code(), dpx::StatusCode::kInvalidArgument);
  EXPECT_EQ(analyser.analyse_cpu(flat.view(), 1, &m).code(), dpx::StatusCode::kInvalidArgument);
  EXPECT_EQ(dpx::analyse_downscale(640, {}), 1);
  EXPECT_EQ(dpx::analyse_downscale(1920, {}), 2);
  EXPECT_EQ(dpx::analyse_downscale(3840, {}), 4);
}

// ---------------------------------------------------------------------------------------------

std::vector<dpx::PathFrame> run_path(dpx::CameraPath& path, const std::vector<Similarity>& motions,
                                     const std::vector<bool>& cuts) {
  std::vector<dpx::PathFrame> out;
  for (std::size_t i = 0; i < motions.size(); ++i) {
    path.push(motions[i], cuts[i]);
    while (path.ready()) out.push_back(path.pop());
    // A frame leaves once `smoothing` frames follow it (or its segment ends).
    EXPECT_LE(path.pending(), static_cast<std::size_t>(path.params().smoothing) + 1);
  }
  path.finish();
  while (path.ready()) out.push_back(path.pop());
  EXPECT_EQ(path.pending(), 0u);
  return out;
}

TEST(StabilisePath, SteadyPanAndZoomPassUnchanged) {
  for (const Similarity step : {Similarity{2.5, -1.0, 0, 1}, Similarity{0, 0, 0, 1.004}}) {
    dpx::CameraPath path;
    path.set_params(dpx::PathParams());
    const std::vector<Similarity> motions(80, step);
    std::vector<bool> cuts(80, false);
    cuts[0] = true;
    const auto out = run_path(path, motions, cuts);
    ASSERT_EQ(out.size(), 80u);
    for (const auto& f : out) expect_near(Similarity(), f.correction, 1e-9, 1e-12);
  }
}

TEST(StabilisePath, ShakeIsRemovedAndCutsRestart) {
  auto rng = dpx::test::seeded_rng();
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  // The camera pans 2 px a frame with a random offset of up to 5 px and 0.8
  // degrees.
  const int n = 120;
  std::vector<Similarity> cam(n);
  for (int i = 0; i < n; ++i)
    cam[i] = Similarity{2.0 * i + 5 * u(rng), 5 * u(rng), 0.8 * kPi / 180 * u(rng), 1};
  std::vector<Similarity> motions(n);
  std::vector<bool> cuts(n, false);
  cuts[0] = cuts[70] = true;
  for (int i = 1; i < n; ++i) motions[i] = dpx::compose(dpx::inverse(cam[i - 1]), cam[i]);
  dpx::CameraPath path;
  path.set_params(dpx::PathParams());
  const auto out = run_path(path, motions, cuts);
  ASSERT_EQ(out.size(), static_cast<std::size_t>(n));
  EXPECT_TRUE(out[70].cut);
  expect_near(Similarity(), out[70].path, 0, 0);
  // The stabilised camera cam_i o W_i: away from the segment ends its steps
  // follow the pan's 2 px within a fraction of the shake's.
  double shake = 0, left = 0;
  int count = 0;
  for (int i = 20; i < 50; ++i) {
    const Similarity seen = dpx::compose(cam[i], out[i].correction);
    const double dx = seen.tx - (dpx::compose(cam[i - 1], out[i - 1].correction).tx + 2.0);
    const double dx_raw = cam[i].tx - (cam[i - 1].tx + 2.0);
    left += dx * dx;
    shake += dx_raw * dx_raw;
    ++count;
  }
  EXPECT_LT(std::sqrt(left / count), 0.2 * std::sqrt(shake / count));
}

TEST(StabilisePath, LimitsHold) {
  dpx::PathParams p;
  p.max_shift = 3;
  p.max_angle = 0.001;
  dpx::CameraPath path;
  path.set_params(p);
  // One frame jumps 20 px and turns: its correction is cut to the limits.
  std::vector<Similarity> motions(40);
  std::vector<bool> cuts(40, false);
  cuts[0] = true;
  motions[20] = Similarity{20, -20, 0.1, 1};
  motions[21] = dpx::inverse(motions[20]);
  const auto out = run_path(path, motions, cuts);
  for (const auto& f : out) {
    EXPECT_LE(std::abs(f.correction.tx), 3 + 1e-12);
    EXPECT_LE(std::abs(f.correction.ty), 3 + 1e-12);
    EXPECT_LE(std::abs(f.correction.angle), 0.001 + 1e-15);
  }
  EXPECT_DOUBLE_EQ(std::abs(out[20].correction.tx), 3);
}

TEST(StabilisePath, ZoomHidesTheBorder) {
  EXPECT_DOUBLE_EQ(dpx::required_zoom(Similarity(), 640, 360), 1.0);
  for (const Similarity w :
       {Similarity{10, 0, 0, 1}, Similarity{-4, 7, 0.01, 1}, Similarity{0, 0, -0.02, 0.99}}) {
    const double z = dpx::required_zoom(w, 640, 360);
    EXPECT_GT(z, 1.0);
    // Every output corner reads inside the frame at z, and one reads outside
    // just below it.
    bool all_inside = true, one_outside = false;
    const dpx::WarpPlan at =
        dpx::warp_plan(w, z, 640, 360, 1, 1, dpx::WarpInterpolation::kBilinear, dpx::WarpBorder::kBlack);
    const dpx::WarpPlan below = dpx::warp_plan(w, z * 0.999, 640, 360, 1, 1,
                                               dpx::WarpInterpolation::kBilinear, dpx::WarpBorder::kBlack);
    for (int x : {0, 639})
      for (int y : {0, 359}) {
        const double one = 1 << dpx::kWarpFracBits;
        const double ax = (at.m00 * x + at.m01 * y + at.b0) / one,
                     ay = (at.m10 * x + at.m11 * y + at.b1) / one;
        const double bx = (below.m00 * x + below.m01 * y + below.b0) / one;
        const double by = (below.m10 * x + below.m11 * y + below.b1) / one;
        all_inside = all_inside && ax >= -0.01 && ax <= 639.01 && ay >= -0.01 && ay <= 359.01;
        one_outside = one_outside || bx < 0 || bx > 639 || by < 0 || by > 359;
      }
    EXPECT_TRUE(all_inside);
    EXPECT_TRUE(one_outside);
  }
  dpx::BorderZoom zoom;
  const double z1 = zoom.next(Similarity{10, 0, 0, 1}, 640, 360);
  EXPECT_DOUBLE_EQ(zoom.next(Similarity(), 640, 360), z1 - 0.002);
}

// ---------------------------------------------------------------------------------------------

// The warp computed the plain way in doubles from the plan: the value within
// one step of rounding.
double reference_sample(const HostImage& src, const dpx::WarpPlan& plan, int x, int y, int c) {
  const double one = 1 << dpx::kWarpFracBits;
  const double sx = (plan.m00 * x + plan.m01 * y + plan.b0) / one,
               sy = (plan.m10 * x + plan.m11 * y + plan.b1) / one;
  const int ix = static_cast<int>(std::floor(sx)), iy = static_cast<int>(std::floor(sy));
  const double fx = std::floor((sx - ix) * 256) / 256, fy = std::floor((sy - iy) * 256) / 256;
  auto tap = [&](int px, int py) -> double {
    if (px < 0 || py < 0 || px >= src.width || py >= src.height) {
      if (plan.border == dpx::WarpBorder::kBlack) return plan.fill[c];
      px = std::min(std::max(px, 0), src.width - 1);
      py = std::min(std::max(py, 0), src.height - 1);
    }
    return src.get(px, py, c);
  };
  auto cubic = [](double t, double w[4]) {
    w[0] = (-t + 2 * t * t - t * t * t) / 2;
    w[1] = (2 - 5 * t * t + 3 * t * t * t) / 2;
    w[2] = (t + 4 * t * t - 3 * t * t * t) / 2;
    w[3] = (-t * t + t * t * t) / 2;
  };
  double v = 0;
  if (plan.interpolation == dpx::WarpInterpolation::kBilinear) {
    v = (tap(ix, iy) * (1 - fx) + tap(ix + 1, iy) * fx) * (1 - fy) +
        (tap(ix, iy + 1) * (1 - fx) + tap(ix + 1, iy + 1) * fx) * fy;
  } else {
    double wx[4], wy[4];
    cubic(fx, wx);
    cubic(fy, wy);
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 4; ++i) v += wx[i] * wy[j] * tap(ix - 1 + i, iy - 1 + j);
  }
  const double hi = src.type == dpx::SampleType::kU8 ? 255 : 65535;
  return std::min(std::max(v, 0.0), hi);
}

TEST(StabiliseWarp, MatchesThePlainReferenceAtEveryBorderMode) {
  auto rng = dpx::test::seeded_rng();
  for (const auto type : {dpx::SampleType::kU8, dpx::SampleType::kU16})
    for (const int channels : {1, 2, 4})
      for (const auto interp : {dpx::WarpInterpolation::kBilinear, dpx::WarpInterpolation::kBicubic})
        for (const auto border : {dpx::WarpBorder::kBlack, dpx::WarpBorder::kReplicate}) {
          const int w = 61, h = 37;
          const HostImage src =
              dpx::test::random_image(rng, w, h, channels, type, type == dpx::SampleType::kU8 ? 3 : 4);
          HostImage dst(w, h, channels, type, type == dpx::SampleType::kU8 ? 5 : 6);
          const Similarity s = random_similarity(rng, 6, 0.1, 0.05);
          dpx::WarpPlan plan = dpx::warp_plan(s, 1.0, w, h, 1, 1, interp, border);
          for (int c = 0; c < 4; ++c) plan.fill[c] = static_cast<std::uint16_t>(1000 * c + 17);
          ASSERT_TRUE(dpx::warp_plane_cpu(src.view(), dst.mutable_view(), plan).is_ok());
          // The fixed-point weights round: a 16-bit sample may be off by the
          // weight step.
          const double tol = (type == dpx::SampleType::kU8 ? 1.0 : 260.0) *
                             (interp == dpx::WarpInterpolation::kBicubic ? 2 : 1);
          for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
              for (int c = 0; c < channels; ++c)
                ASSERT_NEAR(dst.get(x, y, c), reference_sample(src, plan, x, y, c), tol)
                    << "pixel " << x << "," << y << " channel " << c << " channels " << channels;
        }
}

TEST(StabiliseWarp, IdentityAndWholeShiftsAreExact) {
  auto rng = dpx::test::seeded_rng();
  for (const auto interp : {dpx::WarpInterpolation::kBilinear, dpx::WarpInterpolation::kBicubic})
    for (const auto border : {dpx::WarpBorder::kBlack, dpx::WarpBorder::kReplicate}) {
      const HostImage src = dpx::test::random_image(rng, 50, 30, 2, dpx::SampleType::kU16);
      HostImage dst(50, 30, 2, dpx::SampleType::kU16);
      dpx::WarpPlan plan = dpx::warp_plan(Similarity{3, -2, 0, 1}, 1.0, 50, 30, 1, 1, interp, border);
      plan.fill[0] = 7;
      plan.fill[1] = 9;
      ASSERT_TRUE(dpx::warp_plane_cpu(src.view(), dst.mutable_view(), plan).is_ok());
      for (int y = 0; y < 30; ++y)
        for (int x = 0; x < 50; ++x)
          for (int c = 0; c < 2; ++c) {
            const int sx = x + 3, sy = y - 2;
            const bool inside = sx >= 0 && sx < 50 && sy >= 0 && sy < 30;
            const int want = inside ? src.get(sx, sy, c)
                             : border == dpx::WarpBorder::kBlack
                                 ? plan.fill[c]
                                 : src.get(std::min(std::max(sx, 0), 49), std::min(std::max(sy, 0), 29), c);
            ASSERT_EQ(dst.get(x, y, c), want) << x << "," << y;
          }
    }
}

TEST(StabiliseWarp, SubsampledPlanesFollowTheLumaMap) {
  // A chroma pixel's source is the luma source of the luma pixels it covers, in
  // chroma units.
  const Similarity s{5.5, -3.25, 0.02, 1.01};
  const dpx::WarpPlan luma =
      dpx::warp_plan(s, 1.05, 640, 360, 1, 1, dpx::WarpInterpolation::kBilinear, dpx::WarpBorder::kBlack);
  for (const auto& sub : {std::pair<int, int>{2, 2}, {2, 1}, {4, 4}}) {
    const dpx::WarpPlan chroma = dpx::warp_plan(s, 1.05, 640, 360, sub.first, sub.second,
                                                dpx::WarpInterpolation::kBilinear, dpx::WarpBorder::kBlack);
    const double one = 1 << dpx::kWarpFracBits;
    for (int j = 0; j < 3; ++j) {
      const int cx = 17 + 40 * j, cy = 11 + 25 * j;
      const double lx = sub.first * cx + (sub.first - 1) / 2.0, ly = sub.second * cy + (sub.second - 1) / 2.0;
      const double ux = (luma.m00 * lx + luma.m01 * ly + luma.b0) / one,
                   uy = (luma.m10 * lx + luma.m11 * ly + luma.b1) / one;
      const double vx = (chroma.m00 * cx + chroma.m01 * cy + chroma.b0) / one;
      const double vy = (chroma.m10 * cx + chroma.m11 * cy + chroma.b1) / one;
      EXPECT_NEAR(vx, (ux - (sub.first - 1) / 2.0) / sub.first, 0.01);
      EXPECT_NEAR(vy, (uy - (sub.second - 1) / 2.0) / sub.second, 0.01);
    }
  }
}

TEST(StabiliseWarp, BadCallsAreRefused) {
  HostImage a(20, 10, 1, dpx::SampleType::kU8), b(21, 10, 1, dpx::SampleType::kU8);
  const dpx::WarpPlan plan;
  EXPECT_EQ(dpx::warp_plane_cpu(a.view(), b.mutable_view(), plan).code(), dpx::StatusCode::kInvalidArgument);
  EXPECT_EQ(dpx::warp_plane_cpu(a.view(), a.mutable_view(), plan).code(), dpx::StatusCode::kInvalidArgument);
  dpx::WarpPlan far = plan;
  far.b0 = std::int64_t(1) << 62;
  HostImage c(20, 10, 1, dpx::SampleType::kU8);
  EXPECT_EQ(dpx::warp_plane_cpu(a.view(), c.mutable_view(), far).code(), dpx::StatusCode::kInvalidArgument);
}

}  // namespace
