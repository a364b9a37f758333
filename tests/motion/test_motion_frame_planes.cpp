// The frame-wide phase planes (frame_planes.h) built by the kernel's own steps on the host
// (frame_planes_on_host.h) against the filter functor evaluated per sample: HEVC and H.264, 8- and
// 16-bit samples over their whole range (clipping), frames from 1x1 to several tiles each way with
// sizes that divide nothing, padded rows, and the one-sample margin past every edge. The GPU runs
// the same steps (MotionCuda.FramePlanesMatchTheFilter).
#include <gtest/gtest.h>

#include <string>

#include "frame_planes_on_host.h"
#include "motion_test_util.h"
#include "test_util.h"

namespace {

using dpx::MotionInterpolation;
using dpx::SampleType;
using dpx::test::TestPlane;

TEST(MotionFramePlanes, EverySampleMatchesTheFilter) {
  auto rng = dpx::test::seeded_rng();
  struct Size {
    int w, h, pad;
  };
  const Size sizes[] = {{1, 1, 0}, {2, 3, 1}, {17, 9, 3}, {62, 30, 0}, {63, 33, 5}, {130, 67, 2}};
  for (SampleType type : {SampleType::kU8, SampleType::kU16})
    for (const Size& s : sizes) {
      const int top = type == SampleType::kU8 ? 255 : 65535, bytes = type == SampleType::kU8 ? 1 : 2;
      const TestPlane ref = dpx::test::random_plane(rng, s.w, s.h, type, top, s.pad * bytes);
      for (MotionInterpolation mode : {MotionInterpolation::kHevc, MotionInterpolation::kH264}) {
        SCOPED_TRACE(std::to_string(s.w) + "x" + std::to_string(s.h) + (bytes == 1 ? " u8 " : " u16 ") +
                     (mode == MotionInterpolation::kHevc ? "hevc" : "h264"));
        dpx::test::HostFramePlanes planes(s.w, s.h, bytes);
        if (bytes == 1)
          dpx::test::build_frame_planes_on_host<std::uint8_t>(ref.bytes().data(), ref.pitch(), s.w, s.h, mode,
                                                              planes.planes);
        else
          dpx::test::build_frame_planes_on_host<std::uint16_t>(ref.bytes().data(), ref.pitch(), s.w, s.h,
                                                               mode, planes.planes);
        EXPECT_EQ(dpx::test::first_plane_difference(ref, mode, planes.bytes, planes.planes.layout), "");
      }
    }
}

}  // namespace
