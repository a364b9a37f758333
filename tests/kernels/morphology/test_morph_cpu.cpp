// The CPU morphology against the brute-force definition, the masks against OpenCV's, and the
// argument checks.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "dpx/morphology.h"
#include "morph_test_util.h"
#include "test_util.h"

namespace dpx {
namespace test {
namespace {

// Runs morph_cpu on a poisoned destination of the same geometry and checks it against the
// reference, and that nothing outside the rows was written.
void expect_cpu_matches_reference(const HostPlane& src, const MorphParams& params, int threads,
                                  const std::string& what) {
  HostPlane dst = make_plane(src.width, src.height, src.channels, src.type,
                             (src.pitch - src.row_bytes()) / sample_bytes(src.type) + 3, 1);
  const Status s = morph_cpu(src.view(), dst.mutable_view(), params, threads);
  ASSERT_TRUE(s.is_ok()) << what << ": " << s.message();
  const HostPlane want = reference_morph(src, params);
  const std::string diff = first_difference(want, dst);
  EXPECT_EQ(diff, "") << what;
  EXPECT_TRUE(padding_untouched(dst)) << what << ": wrote outside its rows";
}

class MorphCpuMatrix : public ::testing::TestWithParam<MorphCase> {};

TEST_P(MorphCpuMatrix, MatchesDefinitionOnEdgeGeometries) {
  std::mt19937_64 rng = seeded_rng();
  MorphCase c = GetParam();
  for (const Geometry& g : edge_geometries()) {
    HostPlane src = make_plane(g, c.channels, c.type);
    fill_random(src, rng);
    for (int iterations : {1, 2, 3}) {
      c.params.iterations = iterations;
      expect_cpu_matches_reference(src, c.params, 0,
                                   describe(c) + " " + std::to_string(g.width) + "x" + std::to_string(g.height));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllCases, MorphCpuMatrix, ::testing::ValuesIn(all_morph_cases()));

// Every operation, shape, size class and border against the definition.
class MorphCpuOperations : public ::testing::TestWithParam<MorphCase> {};

TEST_P(MorphCpuOperations, MatchDefinition) {
  std::mt19937_64 rng = seeded_rng();
  MorphCase c = GetParam();
  for (const Geometry& g : operation_geometries(c.params)) {
    HostPlane src = make_plane(g, c.channels, c.type);
    fill_random(src, rng);
    // Two iterations where the definition stays cheap.
    const int max_iterations = morph_width(c.params) * morph_height(c.params) > 300 ? 1 : 2;
    for (int iterations = 1; iterations <= max_iterations; ++iterations) {
      c.params.iterations = iterations;
      expect_cpu_matches_reference(src, c.params, 0,
                                   describe(c) + " " + std::to_string(g.width) + "x" + std::to_string(g.height));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllOperations, MorphCpuOperations, ::testing::ValuesIn(operation_cases()));

// What the CUDA register kernel (morph_rows.cuh) rests on: for the square 3x3 and 5x5 masks of
// every shape, dilate and erode under the replicate and reflect-101 rules equal the neutral rule,
// so that kernel fills the outside with the neutral sample whatever the border. The reference
// resolves every outside coordinate on its own, so this holds the rules themselves to it.
TEST(MorphCpu, SmallSquareElementsIgnoreTheBorderRule) {
  std::mt19937_64 rng = seeded_rng();
  for (const Geometry& g : edge_geometries()) {
    for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
      for (int channels : {1, 2, 4}) {
        HostPlane src = make_plane(g, channels, type);
        fill_random(src, rng);
        for (MorphOp op : {MorphOp::kDilate, MorphOp::kErode}) {
          for (MorphShape shape : {MorphShape::kRect, MorphShape::kCross, MorphShape::kEllipse}) {
            for (int size : {3, 5}) {
              MorphParams p;
              p.op = op;
              p.shape = shape;
              p.size = size;
              p.border = BorderMode::kNeutral;
              const HostPlane neutral = reference_morph(src, p);
              for (BorderMode border : {BorderMode::kReplicate, BorderMode::kReflect101}) {
                p.border = border;
                EXPECT_EQ(first_difference(neutral, reference_morph(src, p)), "")
                    << g.width << "x" << g.height << " op " << static_cast<int>(op) << " shape "
                    << static_cast<int>(shape) << " size " << size << " border " << static_cast<int>(border);
              }
            }
          }
        }
      }
    }
  }
}

// The wide-window path on frames wider and taller than the element, where a row holds whole
// windows away from its ends (the frames of the cases above are mostly narrower than the
// element): long bars and a square, every format and border, against the definition.
TEST(MorphCpu, WideWindowsInsideWideFrames) {
  std::mt19937_64 rng = seeded_rng();
  const int elements[][2] = {{31, 31}, {63, 1}, {1, 63}, {127, 3}, {7, 9}};
  const int formats[][2] = {{1, 1}, {2, 2}, {4, 1}, {1, 2}};  // channels, bytes a sample
  int k = 0;
  for (const auto& e : elements)
    for (BorderMode border : {BorderMode::kReplicate, BorderMode::kReflect101, BorderMode::kNeutral}) {
      const auto& f = formats[k++ % 4];
      HostPlane src = make_plane(173, 71, f[0], f[1] == 1 ? SampleType::kU8 : SampleType::kU16, 5, 1);
      fill_random(src, rng);
      MorphParams p;
      p.op = k % 2 ? MorphOp::kDilate : MorphOp::kErode;
      p.width = e[0];
      p.height = e[1];
      p.border = border;
      expect_cpu_matches_reference(src, p, 0,
                                   std::to_string(e[0]) + "x" + std::to_string(e[1]) + " channels " +
                                       std::to_string(f[0]) + " bytes " + std::to_string(f[1]) + " border " +
                                       std::to_string(static_cast<int>(border)));
    }
}

// Band seams of the wide-window path: windows taller than a band. The frame is large enough for
// ten bands, so the definition would be slow; one thread's result (held to the definition by the
// cases above) is the reference.
TEST(MorphCpu, WideWindowsAcrossBands) {
  std::mt19937_64 rng = seeded_rng();
  HostPlane src = make_plane(1031, 640, 1, SampleType::kU8, 5, 1);
  fill_random(src, rng);
  MorphParams p;
  p.width = 41;
  p.height = 97;
  p.op = MorphOp::kTopHat;
  for (BorderMode border : {BorderMode::kReplicate, BorderMode::kReflect101, BorderMode::kNeutral}) {
    p.border = border;
    HostPlane one = make_plane(src.width, src.height, 1, SampleType::kU8);
    ASSERT_TRUE(morph_cpu(src.view(), one.mutable_view(), p, 1).is_ok());
    for (int threads : {4, 10}) {
      HostPlane many = make_plane(src.width, src.height, 1, SampleType::kU8, 2);
      ASSERT_TRUE(morph_cpu(src.view(), many.mutable_view(), p, threads).is_ok());
      EXPECT_EQ(first_difference(one, many), "") << "border " << static_cast<int>(border) << " threads " << threads;
      EXPECT_TRUE(padding_untouched(many));
    }
  }
}

// Large enough for several bands: the band seams must not show, whatever the thread count.
TEST(MorphCpu, BandsAndThreadCountsAgree) {
  std::mt19937_64 rng = seeded_rng();
  for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
    HostPlane src = make_plane(517, 301, 2, type, 9, 1);
    fill_random(src, rng);
    MorphParams p;
    p.size = 5;
    p.shape = MorphShape::kEllipse;
    p.border = BorderMode::kReflect101;
    p.iterations = 2;
    for (int threads : {1, 3, 7, 0}) {
      expect_cpu_matches_reference(src, p, threads, "threads " + std::to_string(threads));
    }
  }
}

// Hand-copied from OpenCV's getStructuringElement output.
TEST(MorphMask, MatchesOpenCvMasks) {
  struct Known {
    MorphShape shape;
    int width, height;
    const char* rows;
  };
  const Known known[] = {
      {MorphShape::kRect, 3, 3, "111" "111" "111"},
      {MorphShape::kCross, 3, 3, "010" "111" "010"},
      {MorphShape::kEllipse, 3, 3, "010" "111" "010"},
      {MorphShape::kRect, 5, 5, "11111" "11111" "11111" "11111" "11111"},
      {MorphShape::kCross, 5, 5, "00100" "00100" "11111" "00100" "00100"},
      {MorphShape::kEllipse, 5, 5, "00100" "11111" "11111" "11111" "00100"},
      {MorphShape::kEllipse, 7, 7, "0001000" "0111110" "1111111" "1111111" "1111111" "0111110" "0001000"},
      {MorphShape::kEllipse, 7, 3, "0001000" "1111111" "0001000"},
      {MorphShape::kEllipse, 5, 1, "00100"},
      {MorphShape::kEllipse, 1, 5, "1" "1" "1" "1" "1"},
      {MorphShape::kCross, 5, 3, "00100" "11111" "00100"},
      {MorphShape::kCross, 1, 1, "1"},
      {MorphShape::kEllipse, 1, 1, "1"},
  };
  for (const Known& k : known) {
    std::vector<std::uint8_t> mask(3, 0x77);
    ASSERT_TRUE(morph_mask(k.shape, k.width, k.height, &mask).is_ok());
    ASSERT_EQ(mask.size(), std::strlen(k.rows));
    for (int i = 0; i < k.width * k.height; ++i) {
      EXPECT_EQ(mask[i], k.rows[i] - '0') << "shape " << static_cast<int>(k.shape) << " " << k.width << "x"
                                          << k.height << " row " << i / k.width << " col " << i % k.width;
    }
  }
}

TEST(MorphMask, RejectsEvenAndOversizedElements) {
  std::vector<std::uint8_t> mask;
  struct Bad {
    MorphShape shape;
    int width, height;
    const char* needle;
  };
  const Bad bad[] = {
      {MorphShape::kRect, 0, 3, "width 0"},       {MorphShape::kRect, -3, 3, "width -3"},
      {MorphShape::kRect, 4, 3, "width 4"},       {MorphShape::kRect, 3, 2, "height 2"},
      {MorphShape::kRect, 257, 3, "width 257"},   {MorphShape::kRect, 3, 256, "height 256"},
      {MorphShape::kCross, 65, 3, "width 65"},    {MorphShape::kEllipse, 3, 65, "height 65"},
      {MorphShape::kEllipse, 63, 64, "height 64"},
  };
  for (const Bad& b : bad) {
    const Status s = morph_mask(b.shape, b.width, b.height, &mask);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << b.needle;
    EXPECT_NE(s.message().find(b.needle), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("odd"), std::string::npos) << s.message();
  }
  EXPECT_TRUE(morph_mask(MorphShape::kRect, 255, 1, &mask).is_ok());
  EXPECT_TRUE(morph_mask(MorphShape::kEllipse, 63, 63, &mask).is_ok());
}

// Each bad call must fail with kInvalidArgument, a message naming the problem, and leave dst as
// it was. Validation comes before any memory access, so host planes serve for both backends.
using MorphFn = Status (*)(const PlaneView&, const MutablePlaneView&, const MorphParams&);
Status run_cpu(const PlaneView& s, const MutablePlaneView& d, const MorphParams& p) { return morph_cpu(s, d, p); }
Status run_cuda(const PlaneView& s, const MutablePlaneView& d, const MorphParams& p) {
  return morph_cuda(s, d, p, nullptr);
}

class MorphBadInput : public ::testing::TestWithParam<MorphFn> {
 protected:
  void SetUp() override {
    std::mt19937_64 rng = seeded_rng();
    src = make_plane(16, 8, 1, SampleType::kU8);
    fill_random(src, rng);
    dst = make_plane(16, 8, 1, SampleType::kU8);
  }
  void expect_rejected(const PlaneView& s, const MutablePlaneView& d, const MorphParams& q, const char* needle) {
    const std::vector<std::uint8_t> src_before = src.bytes, dst_before = dst.bytes;
    const Status st = GetParam()(s, d, q);
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << needle << ": " << st.message();
    EXPECT_NE(st.message().find(needle), std::string::npos) << "message: " << st.message();
    EXPECT_EQ(dst.bytes, dst_before) << "dst changed on failure (" << needle << ")";
    EXPECT_EQ(src.bytes, src_before) << "src changed on failure (" << needle << ")";
  }
  HostPlane src, dst;
  MorphParams p;
};

TEST_P(MorphBadInput, NullPointers) {
  PlaneView s = src.view();
  s.data = nullptr;
  expect_rejected(s, dst.mutable_view(), p, "null");
  MutablePlaneView d = dst.mutable_view();
  d.data = nullptr;
  expect_rejected(src.view(), d, p, "null");
}

TEST_P(MorphBadInput, ZeroAndNegativeSizes) {
  for (int v : {0, -4}) {
    PlaneView s = src.view();
    MutablePlaneView d = dst.mutable_view();
    s.width = d.width = v;
    expect_rejected(s, d, p, "size");
    s = src.view();
    d = dst.mutable_view();
    s.height = d.height = v;
    expect_rejected(s, d, p, "size");
  }
}

TEST_P(MorphBadInput, BadGeometry) {
  PlaneView s = src.view();
  s.pitch = 15;
  expect_rejected(s, dst.mutable_view(), p, "pitch");
  s = src.view();
  s.width = 15;
  expect_rejected(s, dst.mutable_view(), p, "differ");
  s = src.view();
  MutablePlaneView d = dst.mutable_view();
  s.channels = d.channels = 3;
  expect_rejected(s, d, p, "channels");
}

TEST_P(MorphBadInput, UnsupportedParameters) {
  MorphParams q = p;
  q.size = 4;
  expect_rejected(src.view(), dst.mutable_view(), q, "width 4");
  q = p;
  q.height = 7;
  q.width = 256;
  expect_rejected(src.view(), dst.mutable_view(), q, "width 256");
  q = p;
  q.shape = MorphShape::kEllipse;
  q.height = 65;
  expect_rejected(src.view(), dst.mutable_view(), q, "height 65");
  q = p;
  q.iterations = 0;
  expect_rejected(src.view(), dst.mutable_view(), q, "iterations");
  q.iterations = kMorphMaxIterations + 1;
  expect_rejected(src.view(), dst.mutable_view(), q, "iterations");
  q = p;
  q.shape = static_cast<MorphShape>(9);
  expect_rejected(src.view(), dst.mutable_view(), q, "shape");
  q = p;
  q.border = static_cast<BorderMode>(9);
  expect_rejected(src.view(), dst.mutable_view(), q, "border");
  q = p;
  q.op = static_cast<MorphOp>(9);
  expect_rejected(src.view(), dst.mutable_view(), q, "operation");
}

TEST_P(MorphBadInput, OverlappingPlanes) {
  // dst starting inside src's last row, and fully in place.
  PlaneView s = src.view();
  s.data = src.view().row(7);
  s.width = 8;
  s.height = 1;
  MutablePlaneView d{const_cast<std::uint8_t*>(src.view().row(7)) + 3, 8, 1, src.pitch, 1, SampleType::kU8};
  expect_rejected(s, d, p, "overlap");
  MutablePlaneView same{src.bytes.data(), src.width, src.height, src.pitch, 1, SampleType::kU8};
  expect_rejected(src.view(), same, p, "overlap");
}

TEST_P(MorphBadInput, MisalignedU16) {
  src = make_plane(8, 4, 1, SampleType::kU16);
  dst = make_plane(8, 4, 1, SampleType::kU16);
  PlaneView s = src.view();
  s.data = src.bytes.data() + 1;
  s.pitch = 17;
  s.width = 7;
  MutablePlaneView d = dst.mutable_view();
  d.width = 7;
  expect_rejected(s, d, p, "aligned");
}

INSTANTIATE_TEST_SUITE_P(Backends, MorphBadInput, ::testing::Values(&run_cpu, &run_cuda),
                         [](const ::testing::TestParamInfo<MorphFn>& info) {
                           return std::string(info.param == &run_cpu ? "cpu" : "cuda");
                         });

#if !DPX_HAVE_CUDA
// Without the CUDA backend a valid call still gets a status that says why, and dst stays as it was.
TEST(MorphCudaEntry, SaysNotBuiltWithoutCuda) {
  HostPlane src = make_plane(4, 4, 1, SampleType::kU8), dst = make_plane(4, 4, 1, SampleType::kU8);
  const std::vector<std::uint8_t> before = dst.bytes;
  const Status st = morph_cuda(src.view(), dst.mutable_view(), MorphParams{}, nullptr);
  EXPECT_EQ(st.code(), StatusCode::kNotBuilt);
  EXPECT_NE(st.message().find("without CUDA"), std::string::npos) << st.message();
  EXPECT_EQ(dst.bytes, before);
}
#endif

TEST(MorphCpu, RejectsNegativeThreadCount) {
  HostPlane src = make_plane(4, 4, 1, SampleType::kU8), dst = make_plane(4, 4, 1, SampleType::kU8);
  const Status st = morph_cpu(src.view(), dst.mutable_view(), MorphParams{}, -1);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("threads"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace test
}  // namespace dpx
