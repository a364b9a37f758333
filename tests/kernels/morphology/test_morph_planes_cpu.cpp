// dpx::morph_cpu_planes and the checks both multi-plane entries share: every plane of a frame
// filtered as morph_cpu filters it on its own, and calls the multi-plane kernel cannot take refused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dpx/morph_planes.h"
#include "morph_test_util.h"
#include "test_util.h"

namespace dpx {
namespace test {
namespace {

// NV12-like: a one-channel plane and a half-size two-channel plane with other pitches.
struct TwoPlanes {
  HostPlane src[2], got[2];
  TwoPlanes(std::mt19937_64& rng, SampleType type) {
    src[0] = make_plane(Geometry{37, 23, 3, 1, false}, 1, type);
    src[1] = make_plane(Geometry{19, 12, 0, 0, true}, 2, type);
    for (int i = 0; i < 2; ++i) {
      fill_random(src[i], rng);
      got[i] = make_plane(src[i].width, src[i].height, src[i].channels, type, 5);
    }
  }
  std::vector<MorphPlane> planes() {
    return {{src[0].view(), got[0].mutable_view()}, {src[1].view(), got[1].mutable_view()}};
  }
};

TEST(MorphPlanesCpu, EachPlaneAsMorphCpu) {
  std::mt19937_64 rng = seeded_rng();
  for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
    for (int iterations : {1, 3}) {
      TwoPlanes f(rng, type);
      MorphParams p;
      p.op = MorphOp::kErode;
      p.shape = MorphShape::kCross;
      p.size = 5;
      p.iterations = iterations;
      std::vector<MorphPlane> planes = f.planes();
      const Status s = morph_cpu_planes(planes.data(), 2, p);
      ASSERT_TRUE(s.is_ok()) << s.message();
      for (int i = 0; i < 2; ++i) {
        EXPECT_EQ(first_difference(reference_morph(f.src[i], p), f.got[i]), "") << "plane " << i;
        EXPECT_TRUE(padding_untouched(f.got[i])) << "plane " << i;
      }
    }
  }
}

TEST(MorphPlanesCpu, RefusesBadCounts) {
  std::mt19937_64 rng = seeded_rng();
  TwoPlanes f(rng, SampleType::kU8);
  std::vector<MorphPlane> planes = f.planes();
  for (int count : {0, -1, kMorphMaxPlanes + 1}) {
    EXPECT_EQ(morph_cpu_planes(planes.data(), count, MorphParams{}).code(), StatusCode::kInvalidArgument) << count;
  }
  EXPECT_EQ(morph_cpu_planes(nullptr, 1, MorphParams{}).code(), StatusCode::kInvalidArgument);
}

TEST(MorphPlanesCpu, RefusesMixedSampleTypes) {
  std::mt19937_64 rng = seeded_rng();
  TwoPlanes f8(rng, SampleType::kU8), f16(rng, SampleType::kU16);
  std::vector<MorphPlane> planes = {f8.planes()[0], f16.planes()[1]};
  EXPECT_EQ(morph_planes_validate(planes.data(), 2, MorphParams{}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(morph_cuda_planes(planes.data(), 2, MorphParams{}, nullptr).code(), StatusCode::kInvalidArgument);
}

// Every plane goes through morph_validate: a bad second plane fails the call.
TEST(MorphPlanesCpu, ValidatesEveryPlane) {
  std::mt19937_64 rng = seeded_rng();
  TwoPlanes f(rng, SampleType::kU8);
  std::vector<MorphPlane> planes = f.planes();
  planes[1].dst.width -= 1;
  EXPECT_EQ(morph_cpu_planes(planes.data(), 2, MorphParams{}).code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace test
}  // namespace dpx
