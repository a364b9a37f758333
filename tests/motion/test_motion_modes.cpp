// The settings beyond the default on the CPU: sub-pel refinement and the lambda cost against the
// slow reference (reference_motion), quarter-pel accuracy on exact sub-pixel translations, the
// smoothing of lambda, the predictive search against the full one and at ranges the full search
// refuses, frame edges, tiny frames and the checks on bad values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "dpx/motion.h"
#include "motion_test_util.h"
#include "test_util.h"

namespace {

using dpx::MotionField;
using dpx::MotionParams;
using dpx::MotionSearch;
using dpx::MotionSubpel;
using dpx::MotionVector;
using dpx::SampleType;
using dpx::test::TestPlane;

MotionParams with(int block, int range, MotionSubpel subpel, int lambda,
                  MotionSearch search = MotionSearch::kFull) {
  MotionParams p = dpx::test::motion_params(block, range);
  p.subpel = subpel;
  p.lambda = lambda;
  p.search = search;
  return p;
}

std::string describe(const MotionParams& p) {
  return "block " + std::to_string(p.block_size) + " range " + std::to_string(p.search_range) + " scale " +
         std::to_string(static_cast<int>(p.subpel)) + " lambda " + std::to_string(p.lambda) +
         (p.search == MotionSearch::kPredictive ? " predictive" : " full");
}

// Sum over neighbouring block pairs (right and below) of the L1 difference of their vectors.
long roughness(const MotionField& f) {
  long total = 0;
  for (int r = 0; r < f.grid.rows; ++r)
    for (int c = 0; c < f.grid.columns; ++c) {
      const MotionVector& v = f.at(c, r);
      if (c + 1 < f.grid.columns) total += std::abs(v.dx - f.at(c + 1, r).dx) + std::abs(v.dy - f.at(c + 1, r).dy);
      if (r + 1 < f.grid.rows) total += std::abs(v.dx - f.at(c, r + 1).dx) + std::abs(v.dy - f.at(c, r + 1).dy);
    }
  return total;
}

TEST(MotionModes, SubpelAndLambdaMatchTheReference) {
  auto rng = dpx::test::seeded_rng();
  struct Case {
    int w, h, block, range;
    SampleType type;
  };
  const Case cases[] = {{41, 27, 8, 4, SampleType::kU8}, {36, 36, 16, 3, SampleType::kU16},
                        {23, 18, 4, 3, SampleType::kU8}, {40, 33, 32, 2, SampleType::kU8},
                        {5, 3, 8, 2, SampleType::kU8},   {1, 1, 4, 1, SampleType::kU16}};
  for (const Case& c : cases) {
    const int top = c.type == SampleType::kU8 ? 255 : 65535;
    const TestPlane ref = dpx::test::random_plane(rng, c.w, c.h, c.type, top, 4);
    const TestPlane cur = dpx::test::random_plane(rng, c.w, c.h, c.type, top, 2);
    for (MotionSubpel subpel : {MotionSubpel::kNone, MotionSubpel::kHalf, MotionSubpel::kQuarter})
      for (int lambda : {0, 5, 300}) {
        const MotionParams p = with(c.block, c.range, subpel, lambda);
        SCOPED_TRACE(std::to_string(c.w) + "x" + std::to_string(c.h) + " " + describe(p));
        EXPECT_EQ(dpx::test::first_difference(dpx::test::reference_motion(cur, ref, p),
                                              dpx::test::run_motion_cpu(cur, ref, p)),
                  "");
      }
  }
}

// Frames moved by exact quarter pixels: the quarter-pel vectors land on the motion, the integer
// ones cannot, and the error shrinks integer -> half -> quarter.
TEST(MotionModes, QuarterPelFindsExactSubpixelShifts) {
  auto rng = dpx::test::seeded_rng();
  const int w = 96, h = 64;
  const dpx::test::Texture fine(rng, 4 * w + 160, 4 * h + 160, SampleType::kU8);
  const TestPlane ref = dpx::test::quarter_shifted_frame(fine, w, h, 0, 0);
  const int shifts[][2] = {{5, -3}, {-10, 7}, {2, 1}};
  for (const auto& q : shifts) {
    const TestPlane cur = dpx::test::quarter_shifted_frame(fine, w, h, q[0], q[1]);
    double error[3] = {0, 0, 0};
    int exact = 0, blocks = 0;
    int i = 0;
    for (MotionSubpel subpel : {MotionSubpel::kNone, MotionSubpel::kHalf, MotionSubpel::kQuarter}) {
      const MotionField f = dpx::test::run_motion_cpu(cur, ref, with(16, 8, subpel, 0));
      const int s = static_cast<int>(subpel);
      for (int r = 1; r + 1 < f.grid.rows; ++r)  // inner blocks: every neighbour inside the frame
        for (int c = 1; c + 1 < f.grid.columns; ++c) {
          const MotionVector& v = f.at(c, r);
          error[i] += std::hypot(double(v.dx) / s - q[0] / 4.0, double(v.dy) / s - q[1] / 4.0);
          if (s == 4) exact += v.dx == q[0] && v.dy == q[1], ++blocks;
        }
      ++i;
    }
    SCOPED_TRACE("shift " + std::to_string(q[0]) + "/4, " + std::to_string(q[1]) + "/4");
    EXPECT_LT(error[2], error[1]);
    EXPECT_LE(error[1], error[0]);
    EXPECT_GE(exact * 10, blocks * 9) << exact << " of " << blocks << " blocks exact";
  }
}

// Noise in flat areas scatters pure-SAD vectors; lambda pulls them to their neighbours' while
// reporting the SAD, never the cost.
TEST(MotionModes, LambdaSmoothsTheFieldAndReportsTheSad) {
  auto rng = dpx::test::seeded_rng();
  const int w = 128, h = 96;
  const TestPlane ref = dpx::test::random_plane(rng, w, h, SampleType::kU8, 12);
  const TestPlane cur = dpx::test::random_plane(rng, w, h, SampleType::kU8, 12);
  const MotionField plain = dpx::test::run_motion_cpu(cur, ref, with(8, 6, MotionSubpel::kNone, 0));
  const MotionField smooth = dpx::test::run_motion_cpu(cur, ref, with(8, 6, MotionSubpel::kNone, 8));
  EXPECT_LT(roughness(smooth) * 4, roughness(plain) * 3) << roughness(smooth) << " vs " << roughness(plain);
  for (int r = 0; r < smooth.grid.rows; ++r)
    for (int c = 0; c < smooth.grid.columns; ++c) {
      const MotionVector& v = smooth.at(c, r);
      long sad = 0;
      for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) sad += std::abs(cur.get(8 * c + x, 8 * r + y) - ref.get(8 * c + x + v.dx, 8 * r + y + v.dy));
      ASSERT_EQ(v.sad, static_cast<std::uint32_t>(sad)) << "block " << c << ", " << r;
      EXPECT_GE(v.sad, plain.at(c, r).sad);
    }
}

// A panned texture: the predictive search reaches the full search's minimum SAD on nearly every
// block, and finds motion beyond the full search's largest range.
TEST(MotionModes, PredictiveReachesTheFullSearchMinimum) {
  auto rng = dpx::test::seeded_rng();
  const int w = 256, h = 160, margin = 140;
  const dpx::test::Texture tex(rng, w + 2 * margin, h + 2 * margin, SampleType::kU8);
  const TestPlane ref = tex.frame(w, h, margin, margin);
  for (const auto& shift : {std::pair<int, int>{-23, 14}, std::pair<int, int>{41, -9}}) {
    const TestPlane cur = tex.frame(w, h, margin + shift.first, margin + shift.second);
    const MotionField full = dpx::test::run_motion_cpu(cur, ref, with(16, 48, MotionSubpel::kNone, 0));
    const MotionField fast =
        dpx::test::run_motion_cpu(cur, ref, with(16, 48, MotionSubpel::kNone, 0, MotionSearch::kPredictive));
    // Blocks whose content is still in the frame (full-search SAD 0) are found; the others hold
    // whatever minimum chance gives, which no start predicts.
    std::size_t same = 0, visible = 0, found = 0;
    for (std::size_t i = 0; i < full.vectors.size(); ++i) {
      same += fast.vectors[i].sad == full.vectors[i].sad;
      visible += full.vectors[i].sad == 0;
      found += full.vectors[i].sad == 0 && fast.vectors[i].sad == 0;
    }
    EXPECT_GE(found * 100, visible * 98) << found << " of " << visible;
    EXPECT_GE(same * 100, full.vectors.size() * 85) << same << " of " << full.vectors.size();
  }
  const TestPlane far = tex.frame(w, h, margin + 100, margin - 90);
  const MotionField f =
      dpx::test::run_motion_cpu(far, ref, with(16, 128, MotionSubpel::kQuarter, 0, MotionSearch::kPredictive));
  EXPECT_EQ(f.grid.scale, 4);
  const MotionVector& v = f.at(2, f.grid.rows - 2);  // a block whose match lies inside the frame
  EXPECT_EQ(v.dx, 400);
  EXPECT_EQ(v.dy, -360);
  EXPECT_EQ(v.sad, 0u);
}

// The co-located vector of the previous field is a start: with the coarse search unable to see
// a fine-grained shift, the previous vector still leads the search to it.
TEST(MotionModes, PreviousFieldIsAStart) {
  auto rng = dpx::test::seeded_rng();
  const int w = 64, h = 64;
  const TestPlane ref = dpx::test::random_plane(rng, w + 80, h, SampleType::kU8, 255);
  TestPlane cur(w, h, SampleType::kU8), reference(w, h, SampleType::kU8);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) cur.set(x, y, ref.get(x + 30, y)), reference.set(x, y, ref.get(x, y));
  // cur(x) = reference(x + 30): white noise, which the 4x box average blurs into near-flat planes.
  const MotionParams p = with(16, 40, MotionSubpel::kNone, 0, MotionSearch::kPredictive);
  std::vector<MotionVector> last(dpx::motion_grid(w, h, 16).count());
  for (MotionVector& v : last) v.dx = 121, v.dy = -1;  // 30.25 pixels in quarter units: rounds to 30
  MotionField f;
  ASSERT_TRUE(dpx::motion_estimate_cpu(cur.view(), reference.view(), p, &f, 0, dpx::MotionPrevious{last.data(), 4})
                  .is_ok());
  EXPECT_EQ(f.at(0, 1).dx, 30);
  EXPECT_EQ(f.at(0, 1).sad, 0u);
}

// Blocks at the frame edges and frames smaller than a block: every mode keeps every pixel the
// interpolation reads inside the frame and agrees with the reference where one exists.
TEST(MotionModes, EdgesAndTinyFramesInEveryMode) {
  auto rng = dpx::test::seeded_rng();
  for (int block : {4, 8, 16, 32})
    for (const auto& size : {std::pair<int, int>{1, 1}, std::pair<int, int>{3, 5}, std::pair<int, int>{block + 3, 7},
                             std::pair<int, int>{2 * block + 1, block + 2}}) {
      const TestPlane ref = dpx::test::random_plane(rng, size.first, size.second, SampleType::kU8, 255, 2);
      const TestPlane cur = dpx::test::random_plane(rng, size.first, size.second, SampleType::kU8, 255, 2);
      for (const MotionParams& p : dpx::test::mode_variants(block, 5)) {
        SCOPED_TRACE(std::to_string(size.first) + "x" + std::to_string(size.second) + " " + describe(p));
        const MotionField f = dpx::test::run_motion_cpu(cur, ref, p);
        const int s = static_cast<int>(p.subpel);
        for (int r = 0; r < f.grid.rows; ++r)
          for (int c = 0; c < f.grid.columns; ++c) {
            const MotionVector& v = f.at(c, r);
            const int x0 = c * block, y0 = r * block;
            const int bw = std::min(block, size.first - x0), bh = std::min(block, size.second - y0);
            const int lx = static_cast<int>(std::floor(double(v.dx) / s)), ly = static_cast<int>(std::floor(double(v.dy) / s));
            EXPECT_GE(x0 + lx, 0);
            EXPECT_LE(x0 + lx + bw + (v.dx != lx * s), size.first);
            EXPECT_GE(y0 + ly, 0);
            EXPECT_LE(y0 + ly + bh + (v.dy != ly * s), size.second);
          }
        if (p.search == MotionSearch::kFull) {
          EXPECT_EQ(dpx::test::first_difference(dpx::test::reference_motion(cur, ref, p), f), "");
        }
      }
    }
}

// Settings may change from one call to the next; each call answers for its own.
TEST(MotionModes, ChangingSettingsBetweenFrames) {
  auto rng = dpx::test::seeded_rng();
  const TestPlane ref = dpx::test::random_plane(rng, 48, 40, SampleType::kU8, 255);
  const TestPlane cur = dpx::test::random_plane(rng, 48, 40, SampleType::kU8, 255);
  MotionField f;
  for (const MotionParams& p : {with(8, 3, MotionSubpel::kQuarter, 2), with(16, 4, MotionSubpel::kNone, 0),
                                with(4, 2, MotionSubpel::kHalf, 0), with(8, 3, MotionSubpel::kQuarter, 2)}) {
    SCOPED_TRACE(describe(p));
    ASSERT_TRUE(dpx::motion_estimate_cpu(cur.view(), ref.view(), p, &f).is_ok());
    EXPECT_EQ(dpx::test::first_difference(dpx::test::reference_motion(cur, ref, p), f), "");
  }
}

TEST(MotionModes, RefusesBadValuesWithAClearMessage) {
  auto rng = dpx::test::seeded_rng();
  const TestPlane a = dpx::test::random_plane(rng, 32, 32, SampleType::kU8, 255);
  MotionField f;
  auto message = [&](const MotionParams& p, const dpx::MotionPrevious& prev = {}) {
    const dpx::Status s = dpx::motion_estimate_cpu(a.view(), a.view(), p, &f, 0, prev);
    EXPECT_EQ(s.code(), dpx::StatusCode::kInvalidArgument) << describe(p);
    return s.message();
  };
  EXPECT_NE(message(with(16, 65, MotionSubpel::kNone, 0)).find("predictive"), std::string::npos);
  EXPECT_NE(message(with(16, 129, MotionSubpel::kNone, 0, MotionSearch::kPredictive)).find("129"), std::string::npos);
  EXPECT_NE(message(with(16, 8, MotionSubpel::kNone, -1)).find("lambda -1"), std::string::npos);
  EXPECT_NE(message(with(16, 8, MotionSubpel::kNone, dpx::kMotionMaxLambda + 1)).find("lambda"), std::string::npos);
  EXPECT_NE(message(with(16, 8, static_cast<MotionSubpel>(3), 0)).find("subpel"), std::string::npos);
  EXPECT_NE(message(with(16, 8, MotionSubpel::kNone, 0, static_cast<MotionSearch>(7))).find("search"),
            std::string::npos);
  std::vector<MotionVector> prev(4);
  EXPECT_NE(message(with(16, 8, MotionSubpel::kNone, 0, MotionSearch::kPredictive), dpx::MotionPrevious{prev.data(), 3})
                .find("scale 3"),
            std::string::npos);
  EXPECT_TRUE(dpx::motion_estimate_cpu(a.view(), a.view(), with(16, 128, MotionSubpel::kQuarter, dpx::kMotionMaxLambda,
                                                                 MotionSearch::kPredictive),
                                       &f)
                  .is_ok());
}

}  // namespace
