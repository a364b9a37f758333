#include <gtest/gtest.h>

#include "dpx/device.h"
#include "dpx/plane.h"
#include "dpx/status.h"

namespace {

TEST(Status, DefaultIsOk) {
  dpx::Status s;
  EXPECT_TRUE(s.is_ok());
  EXPECT_EQ(s.code(), dpx::StatusCode::kOk);
  EXPECT_STREQ(dpx::status_code_name(dpx::StatusCode::kCudaError), "CUDA error");
}

dpx::Status fails_then_unreached(bool* reached) {
  DPX_RETURN_IF_ERROR(dpx::invalid_argument("bad"));
  *reached = true;
  return dpx::Status::ok();
}

TEST(Status, ReturnIfErrorStopsEarly) {
  bool reached = false;
  dpx::Status s = fails_then_unreached(&reached);
  EXPECT_FALSE(reached);
  EXPECT_EQ(s.code(), dpx::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "bad");
}

TEST(Plane, ValidateRejectsEachBadField) {
  unsigned char pixels[64] = {};
  dpx::PlaneView ok{pixels, 4, 4, 4, 1, dpx::SampleType::kU8};
  EXPECT_TRUE(dpx::validate_plane(ok, "src").is_ok());

  dpx::PlaneView p = ok;
  p.data = nullptr;
  EXPECT_NE(dpx::validate_plane(p, "src").message().find("null"), std::string::npos);
  p = ok;
  p.width = 0;
  EXPECT_EQ(dpx::validate_plane(p, "src").code(), dpx::StatusCode::kInvalidArgument);
  p = ok;
  p.height = -3;
  EXPECT_EQ(dpx::validate_plane(p, "src").code(), dpx::StatusCode::kInvalidArgument);
  p = ok;
  p.channels = 3;
  EXPECT_NE(dpx::validate_plane(p, "dst").message().find("dst: 3 channels"), std::string::npos);
  p = ok;
  p.type = dpx::SampleType::kU16;  // 4 px * 2 bytes = 8 > pitch 4
  EXPECT_NE(dpx::validate_plane(p, "src").message().find("pitch 4"), std::string::npos);
}

TEST(Plane, SameShape) {
  unsigned char pixels[64] = {};
  dpx::PlaneView a{pixels, 4, 4, 4, 1, dpx::SampleType::kU8};
  dpx::PlaneView b = a;
  b.pitch = 16;  // pitch may differ
  EXPECT_TRUE(dpx::validate_same_shape(a, b).is_ok());
  b.width = 3;
  EXPECT_FALSE(dpx::validate_same_shape(a, b).is_ok());
}

TEST(Backend, ResolveCpuAndAuto) {
  dpx::Backend b = dpx::Backend::kCuda;
  ASSERT_TRUE(dpx::resolve_backend(dpx::Backend::kCpu, &b).is_ok());
  EXPECT_EQ(b, dpx::Backend::kCpu);
  ASSERT_TRUE(dpx::resolve_backend(dpx::Backend::kAuto, &b).is_ok());
  EXPECT_EQ(b, dpx::cuda_device_count() > 0 ? dpx::Backend::kCuda : dpx::Backend::kCpu);
  dpx::Status s = dpx::resolve_backend(dpx::Backend::kCuda, &b);
  EXPECT_EQ(s.is_ok(), dpx::cuda_device_count() > 0);
  if (!s.is_ok()) {
    EXPECT_FALSE(s.message().empty());
  }
}

}  // namespace
