// The CPU block matcher against the brute-force definition, on textured frames shifted by known
// vectors, on hand-made ties, at the edges and ranges, and on bad input.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "dpx/motion.h"
#include "motion_test_util.h"
#include "test_util.h"

namespace {

using dpx::MotionField;
using dpx::MotionParams;
using dpx::MotionVector;
using dpx::SampleType;
using dpx::test::TestPlane;

MotionParams params(int block, int range) { return dpx::test::motion_params(block, range); }

MotionField run_cpu(const TestPlane& cur, const TestPlane& ref, const MotionParams& p, int threads = 0) {
  return dpx::test::run_motion_cpu(cur, ref, p, threads);
}

// Every vector stays in range and keeps the block inside the reference.
void expect_inside(const MotionField& f, int width, int height, int range) {
  const int b = f.grid.block_size;
  for (int r = 0; r < f.grid.rows; ++r)
    for (int c = 0; c < f.grid.columns; ++c) {
      const MotionVector& v = f.at(c, r);
      const int x0 = c * b, y0 = r * b, bw = std::min(b, width - x0), bh = std::min(b, height - y0);
      EXPECT_LE(std::abs(v.dx), range);
      EXPECT_LE(std::abs(v.dy), range);
      EXPECT_GE(x0 + v.dx, 0);
      EXPECT_LE(x0 + v.dx + bw, width);
      EXPECT_GE(y0 + v.dy, 0);
      EXPECT_LE(y0 + v.dy + bh, height);
    }
}

TEST(MotionGrid, CoversThePlaneWithPartialBlocks) {
  const dpx::MotionGrid g = dpx::motion_grid(1920, 1080, 16);
  EXPECT_EQ(g.columns, 120);
  EXPECT_EQ(g.rows, 68);  // 1080 = 67 * 16 + 8: the last row is partial
  EXPECT_EQ(g.count(), 8160u);
  const dpx::MotionGrid t = dpx::motion_grid(5, 3, 8);
  EXPECT_EQ(t.columns, 1);
  EXPECT_EQ(t.rows, 1);
  EXPECT_EQ(dpx::motion_grid(0, 10, 8).count(), 0u);
}

TEST(MotionCpu, MatchesBruteForceOnRandomFrames) {
  auto rng = dpx::test::seeded_rng();
  struct Case {
    int w, h, block, range, pad;
    SampleType type;
  };
  const Case cases[] = {
      {37, 29, 8, 5, 3, SampleType::kU8},   {64, 48, 16, 7, 0, SampleType::kU8},
      {50, 41, 4, 3, 9, SampleType::kU8},   {70, 66, 32, 9, 1, SampleType::kU8},
      {33, 35, 8, 16, 2, SampleType::kU16}, {40, 24, 16, 4, 6, SampleType::kU16},
      {9, 7, 4, 2, 0, SampleType::kU16},    {5, 3, 8, 1, 0, SampleType::kU8},
      {1, 1, 4, 1, 0, SampleType::kU8},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.w) + "x" + std::to_string(c.h) + " block " + std::to_string(c.block) + " range " +
                 std::to_string(c.range));
    const int top = c.type == SampleType::kU8 ? 255 : 65535;
    const TestPlane ref = dpx::test::random_plane(rng, c.w, c.h, c.type, top, c.pad);
    const TestPlane cur = dpx::test::random_plane(rng, c.w, c.h, c.type, top, c.pad);
    const MotionParams p = params(c.block, c.range);
    const MotionField got = run_cpu(cur, ref, p);
    EXPECT_EQ(dpx::test::first_difference(dpx::test::brute_force_motion(cur, ref, p), got), "");
    expect_inside(got, c.w, c.h, c.range);
  }
}

// Samples in {0, 1} make equal SADs everywhere, so the tie rule decides most blocks.
TEST(MotionCpu, MatchesBruteForceWhereTiesAbound) {
  auto rng = dpx::test::seeded_rng();
  for (SampleType type : {SampleType::kU8, SampleType::kU16})
    for (int block : {4, 8, 16}) {
      const TestPlane ref = dpx::test::random_plane(rng, 45, 38, type, 1);
      const TestPlane cur = dpx::test::random_plane(rng, 45, 38, type, 1);
      const MotionParams p = params(block, 6);
      EXPECT_EQ(dpx::test::first_difference(dpx::test::brute_force_motion(cur, ref, p), run_cpu(cur, ref, p)), "")
          << "block " << block;
    }
}

TEST(MotionCpu, ShiftedTextureGivesTheShiftWhereverTheWindowHoldsIt) {
  auto rng = dpx::test::seeded_rng();
  const int w = 160, h = 120, margin = 40;
  for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
    const dpx::test::Texture tex(rng, w + 2 * margin, h + 2 * margin, type);
    const TestPlane ref = tex.frame(w, h, margin, margin);
    for (int block : {8, 16, 32}) {
      const int shifts[][2] = {{3, -2}, {-7, 5}, {0, 11}, {-13, -16}, {1, 0}};
      for (const auto& s : shifts) {
        const int dx = s[0], dy = s[1];
        // cur(x, y) = ref(x + dx, y + dy): every block's content sits at (dx, dy) in the reference.
        const TestPlane cur = tex.frame(w, h, margin + dx, margin + dy);
        const MotionParams p = params(block, 16);
        const MotionField f = run_cpu(cur, ref, p);
        int checked = 0;
        for (int r = 0; r < f.grid.rows; ++r)
          for (int c = 0; c < f.grid.columns; ++c) {
            const int x0 = c * block, y0 = r * block;
            const int bw = std::min(block, w - x0), bh = std::min(block, h - y0);
            if (x0 + dx < 0 || x0 + dx + bw > w || y0 + dy < 0 || y0 + dy + bh > h) continue;
            const MotionVector& v = f.at(c, r);
            EXPECT_EQ(v.dx, dx) << "block " << c << "," << r;
            EXPECT_EQ(v.dy, dy) << "block " << c << "," << r;
            EXPECT_EQ(v.sad, 0u);
            ++checked;
          }
        EXPECT_GT(checked, f.grid.columns * f.grid.rows / 3);
        expect_inside(f, w, h, 16);
      }
    }
  }
}

// A pattern with period 4 along one direction, and the current frame shifted along it: SAD 0 for
// every candidate congruent to the shift, so the tie rule alone picks the answer.
TestPlane periodic(int w, int h, int (*phase)(int x, int y), int shift) {
  const int values[4] = {10, 200, 60, 130};
  TestPlane p(w, h, SampleType::kU8);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) p.set(x, y, values[(phase(x, y) + shift) % 4]);
  return p;
}

TEST(MotionTieRule, EqualManhattanAndDyPicksTheSmallerDx) {
  // Stripes along x; cur = ref shifted by 2: SAD 0 at dx = -2 and dx = +2 (R = 3).
  auto along_x = [](int x, int) { return x; };
  const TestPlane ref = periodic(32, 8, along_x, 0), cur = periodic(32, 8, along_x, 2);
  const MotionField f = run_cpu(cur, ref, params(8, 3));
  EXPECT_EQ(f.at(0, 0).dx, 2);  // the left edge admits only dx >= 0
  for (int c = 1; c < 4; ++c) {
    EXPECT_EQ(f.at(c, 0).dx, -2) << c;
    EXPECT_EQ(f.at(c, 0).dy, 0);
    EXPECT_EQ(f.at(c, 0).sad, 0u);
  }
}

TEST(MotionTieRule, EqualManhattanPicksTheSmallerDy) {
  // Stripes along the diagonal; SAD 0 wherever dx + dy = +-2: (0,-2), (-1,-1), (-2,0), (2,0), (1,1),
  // (0,2) within R = 2, all |dx| + |dy| = 2: the smallest dy is -2.
  auto diagonal = [](int x, int y) { return x + y; };
  const TestPlane ref = periodic(40, 40, diagonal, 0), cur = periodic(40, 40, diagonal, 2);
  const MotionField f = run_cpu(cur, ref, params(8, 2));
  for (int r = 1; r < 4; ++r)
    for (int c = 1; c < 4; ++c) {
      EXPECT_EQ(f.at(c, r).dx, 0);
      EXPECT_EQ(f.at(c, r).dy, -2);
      EXPECT_EQ(f.at(c, r).sad, 0u);
    }
}

TEST(MotionTieRule, SmallerManhattanBeatsSmallerDy) {
  // Stripes along y, shift 1: SAD 0 at dy = +1 and dy = -3 (R = 3); |dy| = 1 wins.
  auto along_y = [](int, int y) { return y; };
  const TestPlane ref = periodic(8, 40, along_y, 0), cur = periodic(8, 40, along_y, 1);
  const MotionField f = run_cpu(cur, ref, params(8, 3));
  for (int r = 1; r < 4; ++r) {
    EXPECT_EQ(f.at(0, r).dx, 0);
    EXPECT_EQ(f.at(0, r).dy, 1);
  }
}

TEST(MotionTieRule, FlatAndStaticFramesGiveZeroVectors) {
  TestPlane flat(48, 40, SampleType::kU8);
  for (int y = 0; y < 40; ++y)
    for (int x = 0; x < 48; ++x) flat.set(x, y, 77);
  for (const MotionVector& v : run_cpu(flat, flat, params(16, 8)).vectors) {
    EXPECT_EQ(v.dx, 0);
    EXPECT_EQ(v.dy, 0);
    EXPECT_EQ(v.sad, 0u);
  }
  auto rng = dpx::test::seeded_rng();
  const TestPlane still = dpx::test::random_plane(rng, 48, 40, SampleType::kU16, 65535);
  for (const MotionVector& v : run_cpu(still, still, params(8, 8)).vectors) {
    EXPECT_EQ(v.dx, 0);
    EXPECT_EQ(v.dy, 0);
    EXPECT_EQ(v.sad, 0u);
  }
}

TEST(MotionCpu, SmallestAndLargestRangesAtTheEdges) {
  auto rng = dpx::test::seeded_rng();
  for (int range : {1, 64}) {
    const TestPlane ref = dpx::test::random_plane(rng, 70, 50, SampleType::kU8, 255, 5);
    const TestPlane cur = dpx::test::random_plane(rng, 70, 50, SampleType::kU8, 255, 5);
    const MotionParams p = params(8, range);
    const MotionField f = run_cpu(cur, ref, p);
    EXPECT_EQ(dpx::test::first_difference(dpx::test::brute_force_motion(cur, ref, p), f), "") << range;
    expect_inside(f, 70, 50, range);
  }
}

TEST(MotionCpu, ThreadCountDoesNotChangeTheResult) {
  auto rng = dpx::test::seeded_rng();
  const TestPlane ref = dpx::test::random_plane(rng, 90, 70, SampleType::kU8, 255);
  const TestPlane cur = dpx::test::random_plane(rng, 90, 70, SampleType::kU8, 255);
  const MotionField one = run_cpu(cur, ref, params(8, 6), 1);
  for (int threads : {2, 3, 64}) EXPECT_EQ(dpx::test::first_difference(one, run_cpu(cur, ref, params(8, 6), threads)), "");
}

TEST(MotionCpu, RejectsBadInput) {
  auto rng = dpx::test::seeded_rng();
  const TestPlane a = dpx::test::random_plane(rng, 32, 32, SampleType::kU8, 255);
  const TestPlane b = dpx::test::random_plane(rng, 32, 32, SampleType::kU8, 255);
  MotionField f;
  auto expect_invalid = [&](const dpx::PlaneView& cur, const dpx::PlaneView& ref, const MotionParams& p,
                            const char* needle) {
    const dpx::Status s = dpx::motion_estimate_cpu(cur, ref, p, &f);
    EXPECT_EQ(s.code(), dpx::StatusCode::kInvalidArgument) << needle;
    EXPECT_NE(s.message().find(needle), std::string::npos) << s.message();
  };
  dpx::PlaneView null_cur = a.view();
  null_cur.data = nullptr;
  expect_invalid(null_cur, b.view(), params(16, 8), "null");
  dpx::PlaneView two = a.view();
  two.channels = 2;
  two.width = 16;
  dpx::PlaneView two_ref = two;
  two_ref.data = b.view().data;
  expect_invalid(two, two_ref, params(16, 8), "channels");
  dpx::PlaneView narrow = b.view();
  narrow.width = 31;
  expect_invalid(a.view(), narrow, params(16, 8), "differ");
  const TestPlane wide = dpx::test::random_plane(rng, 32, 32, SampleType::kU16, 65535);
  expect_invalid(a.view(), wide.view(), params(16, 8), "differ");
  dpx::PlaneView short_pitch = a.view();
  short_pitch.pitch = 31;
  expect_invalid(short_pitch, b.view(), params(16, 8), "pitch");
  dpx::PlaneView odd = wide.view();
  odd.pitch = 65;
  expect_invalid(odd, wide.view(), params(16, 8), "odd");
  expect_invalid(a.view(), b.view(), params(12, 8), "block size");
  expect_invalid(a.view(), b.view(), params(0, 8), "block size");
  expect_invalid(a.view(), b.view(), params(16, 0), "search range");
  expect_invalid(a.view(), b.view(), params(16, 65), "search range");
  EXPECT_EQ(dpx::motion_estimate_cpu(a.view(), b.view(), params(16, 8), nullptr).code(),
            dpx::StatusCode::kInvalidArgument);
  EXPECT_EQ(dpx::motion_estimate_cpu(a.view(), b.view(), params(16, 8), &f, -1).code(),
            dpx::StatusCode::kInvalidArgument);
}

TEST(MotionStats, MeanLengthAndMovingFraction) {
  MotionVector v[4];
  v[0].dx = 3, v[0].dy = 4;  // 5
  v[1].dx = 0, v[1].dy = 0;  // 0
  v[2].dx = -1, v[2].dy = 0; // 1
  v[3].dx = 0, v[3].dy = -2; // 2
  const dpx::MotionStats s = dpx::motion_stats(v, 4, 1.5);
  EXPECT_DOUBLE_EQ(s.mean_length, 2.0);
  EXPECT_DOUBLE_EQ(s.moving_fraction, 0.5);
  EXPECT_DOUBLE_EQ(dpx::motion_stats(v, 4, 1.0).moving_fraction, 0.5);  // strictly longer
  EXPECT_DOUBLE_EQ(dpx::motion_stats(v, 0, 1.0).mean_length, 0.0);
}

}  // namespace
