// dpxdilate / dpxerode on system memory against libdpx, plane by plane, byte for byte: every
// format, edge sizes, padded strides, iterations, plane masks, shapes and borders, 4K. Each test
// runs on the CPU backend and, where a CUDA device exists, on the CUDA backend.
#include <gtest/gtest.h>

#include <gst/check/gstharness.h>

#include "frames.h"
#include "plugin_env.h"

namespace dpx {
namespace test {
namespace {

class MorphFrames : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (std::string(GetParam()) == "cuda") DPX_REQUIRE_GPU();
  }

  // Pushes `in` (a buffer with GstVideoMeta at the frame's pitches) through a new element and
  // returns the output planes; `planes` is the element's plane mask.
  Frame run(const FormatCase& fc, int width, int height, const Frame& in, const MorphParams& p,
            unsigned planes = 0xF, std::size_t gap = 0) {
    Harness hz(factory_for(p.op), GetParam());
    g_object_set(hz.h->element, "planes", planes, nullptr);
    hz.set_params(p);
    GstCaps* caps = caps_for(fc.format, width, height);
    gst_harness_set_src_caps(hz.h, gst_caps_ref(caps));
    GstVideoInfo info;
    gst_video_info_from_caps(&info, caps);
    gst_caps_unref(caps);
    const GstFlowReturn flow = gst_harness_push(hz.h, frame_to_buffer(in, fc.format, width, height, gap));
    EXPECT_EQ(flow, GST_FLOW_OK) << hz.pop_error();
    if (flow != GST_FLOW_OK) return {};
    GstBuffer* out = gst_harness_pull(hz.h);
    Frame got = buffer_to_frame(out, info, fc);
    gst_buffer_unref(out);
    EXPECT_EQ(hz.pop_error(), "");
    return got;
  }

  void expect_matches(const FormatCase& fc, int width, int height, const MorphParams& p,
                      std::mt19937_64& rng, unsigned planes = 0xF, std::size_t extra_pitch = 0,
                      std::size_t gap = 0) {
    const Frame in = random_frame(rng, fc, width, height, extra_pitch);
    const Frame got = run(fc, width, height, in, p, planes, gap);
    const Frame want = reference(in, p, planes);
    std::string why;
    EXPECT_TRUE(frames_equal(got, want, &why))
        << format_name(fc.format) << " " << width << "x" << height << " " << factory_for(p.op) << " op "
        << int(p.op) << " " << morph_width(p) << "x" << morph_height(p) << " shape " << int(p.shape) << " border " << int(p.border) << " iterations "
        << p.iterations << " planes " << planes << " pitch +" << extra_pitch << ": " << why;
  }
};

TEST_P(MorphFrames, EveryFormatMatchesLibdpxPerPlane) {
  auto rng = seeded_rng();
  for (const FormatCase& fc : all_formats()) {
    for (MorphOp op : {MorphOp::kDilate, MorphOp::kErode}) {
      const Frame in = random_frame(rng, fc, 37, 23);
      const MorphParams p = morph_params(op, 5, MorphShape::kEllipse);
      const Frame got = run(fc, 37, 23, in, p);
      std::string why;
      EXPECT_TRUE(frames_equal(got, reference(in, p), &why)) << format_name(fc.format) << ": " << why;
      EXPECT_FALSE(frames_equal(got, in, &why)) << format_name(fc.format) << ": output equals the input";
    }
  }
}

// dpxmorph's compound operations and the larger elements of all three elements, on formats of
// every sample type and layout.
TEST_P(MorphFrames, OperationsAndLargeElementsMatchLibdpx) {
  auto rng = seeded_rng();
  const GstVideoFormat formats[] = {GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_I420,
                                    GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_NV12};
  struct Element {
    MorphShape shape;
    int width, height;
  };
  const Element elements[] = {{MorphShape::kRect, 3, 3}, {MorphShape::kEllipse, 9, 5}, {MorphShape::kRect, 1, 15},
                              {MorphShape::kCross, 7, 7}, {MorphShape::kRect, 31, 31}};
  int k = 0;
  for (MorphOp op : {MorphOp::kOpen, MorphOp::kClose, MorphOp::kGradient, MorphOp::kTopHat, MorphOp::kBlackHat}) {
    for (const Element& e : elements) {
      MorphParams p = morph_params(op, 3, e.shape, BorderMode::kReflect101, 1 + k % 2);
      p.width = e.width;
      p.height = e.height;
      expect_matches(format_case(formats[k++ % 6]), 45, 29, p, rng);
    }
  }
  for (MorphOp op : {MorphOp::kDilate, MorphOp::kErode}) {
    for (int size : {7, 31, 255}) {
      expect_matches(format_case(formats[k++ % 6]), 41, 27, morph_params(op, size), rng);
    }
    expect_matches(format_case(GST_VIDEO_FORMAT_Y444), 41, 27, morph_params(op, 63, MorphShape::kEllipse), rng);
  }
}

// An independent check that the element computes a dilation at all: 3x3 rectangle, replicated
// border, by brute force on a GRAY8 frame.
TEST_P(MorphFrames, GrayDilateMatchesBruteForce) {
  auto rng = seeded_rng();
  const FormatCase& fc = format_case(GST_VIDEO_FORMAT_GRAY8);
  const int w = 19, h = 11;
  const Frame in = random_frame(rng, fc, w, h);
  const Frame got = run(fc, w, h, in, morph_params(MorphOp::kDilate));
  ASSERT_EQ(got.size(), 1u);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      int m = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int sy = std::min(std::max(y + dy, 0), h - 1), sx = std::min(std::max(x + dx, 0), w - 1);
          m = std::max<int>(m, in[0].view().row(sy)[sx]);
        }
      ASSERT_EQ(got[0].view().row(y)[x], m) << "at " << x << "," << y;
    }
  }
}

TEST_P(MorphFrames, EdgeSizesWithSubsampledChroma) {
  auto rng = seeded_rng();
  const int sizes[][2] = {{1, 1}, {3, 2}, {2, 3}, {1, 17}, {17, 1}, {5, 5}, {33, 15}, {31, 7}};
  for (const FormatCase& fc : all_formats()) {
    for (const auto& s : sizes) {
      expect_matches(fc, s[0], s[1], morph_params(MorphOp::kDilate, 5, MorphShape::kRect, BorderMode::kReflect101), rng);
      expect_matches(fc, s[0], s[1], morph_params(MorphOp::kErode, 3, MorphShape::kCross, BorderMode::kNeutral), rng);
    }
  }
}

TEST_P(MorphFrames, PaddedStridesAndPlaneGapsFromVideoMeta) {
  auto rng = seeded_rng();
  for (const FormatCase& fc : all_formats()) {
    for (std::size_t extra : {2u, 62u, 130u}) {
      expect_matches(fc, 29, 17, morph_params(MorphOp::kDilate), rng, 0xF, extra, 4096 + extra);
      expect_matches(fc, 29, 17, morph_params(MorphOp::kErode, 5), rng, 0xF, extra, 6);
    }
  }
}

TEST_P(MorphFrames, Iterations) {
  auto rng = seeded_rng();
  for (GstVideoFormat f : {GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_BGRA}) {
    for (int it : {1, 2, 5, 64}) {
      expect_matches(format_case(f), 41, 27, morph_params(MorphOp::kDilate, 3, MorphShape::kRect, BorderMode::kReplicate, it), rng);
      expect_matches(format_case(f), 41, 27, morph_params(MorphOp::kErode, 5, MorphShape::kEllipse, BorderMode::kNeutral, it), rng);
    }
  }
}

TEST_P(MorphFrames, PlaneMaskCopiesTheOtherPlanes) {
  auto rng = seeded_rng();
  for (GstVideoFormat f : {GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_Y444_16LE, GST_VIDEO_FORMAT_RGBx}) {
    for (unsigned planes : {0u, 1u, 2u, 4u, 5u, 6u, 15u}) {
      expect_matches(format_case(f), 23, 19, morph_params(MorphOp::kDilate, 5), rng, planes, 10);
    }
  }
}

TEST_P(MorphFrames, ShapesSizesAndBorders) {
  auto rng = seeded_rng();
  for (MorphOp op : {MorphOp::kDilate, MorphOp::kErode})
    for (int size : {3, 5})
      for (MorphShape shape : {MorphShape::kRect, MorphShape::kCross, MorphShape::kEllipse})
        for (BorderMode border : {BorderMode::kReplicate, BorderMode::kReflect101, BorderMode::kNeutral})
          expect_matches(format_case(GST_VIDEO_FORMAT_Y42B), 21, 13, morph_params(op, size, shape, border), rng);
}

TEST_P(MorphFrames, FourKNv12) {
  auto rng = seeded_rng();
  expect_matches(format_case(GST_VIDEO_FORMAT_NV12), 3840, 2160, morph_params(MorphOp::kDilate), rng);
  expect_matches(format_case(GST_VIDEO_FORMAT_P010_10LE), 3840, 2160, morph_params(MorphOp::kErode, 5, MorphShape::kEllipse), rng);
}

// Buffers from the pool the element proposes upstream (pinned host memory on the CUDA backend),
// several frames in a row through one element.
TEST_P(MorphFrames, BuffersFromTheProposedPool) {
  auto rng = seeded_rng();
  for (GstVideoFormat f : {GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_P016_LE, GST_VIDEO_FORMAT_ABGR}) {
    const FormatCase& fc = format_case(f);
    const MorphParams p = morph_params(MorphOp::kErode, 5, MorphShape::kCross);
    Harness hz(factory_for(p.op), GetParam());
    hz.set_params(p);
    GstCaps* caps = caps_for(f, 640, 360);
    GstVideoInfo info;
    gst_video_info_from_caps(&info, caps);
    gst_harness_set_src_caps(hz.h, caps);
    for (int frame = 0; frame < 4; ++frame) {
      const Frame in = random_frame(rng, fc, 640, 360);
      GstBuffer* buf = gst_harness_create_buffer(hz.h, GST_VIDEO_INFO_SIZE(&info));
      fill_buffer(buf, info, in);
      ASSERT_EQ(gst_harness_push(hz.h, buf), GST_FLOW_OK) << hz.pop_error();
      GstBuffer* out = gst_harness_pull(hz.h);
      const Frame got = buffer_to_frame(out, info, fc);
      gst_buffer_unref(out);
      std::string why;
      EXPECT_TRUE(frames_equal(got, reference(in, p), &why)) << format_name(f) << " frame " << frame << ": " << why;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, MorphFrames, ::testing::Values("cpu", "cuda"),
                         [](const ::testing::TestParamInfo<const char*>& info) { return std::string(info.param); });

}  // namespace
}  // namespace test
}  // namespace dpx
