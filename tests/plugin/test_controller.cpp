// Controllable properties follow GstControlBindings: the element syncs them to each buffer's
// stream time, so a control source changing `iterations` and `planes` over time changes the
// frames from the buffer at that time on.
#include <gtest/gtest.h>

#include <gst/check/gstharness.h>
#include <gst/controller/gstdirectcontrolbinding.h>
#include <gst/controller/gstinterpolationcontrolsource.h>

#include "frames.h"
#include "plugin_env.h"

namespace dpx {
namespace test {
namespace {

// A step-wise (no interpolation) control source bound to `property` with absolute values.
GstControlSource* bind_steps(GstElement* element, const char* property) {
  GstControlSource* cs = gst_interpolation_control_source_new();
  g_object_set(cs, "mode", GST_INTERPOLATION_MODE_NONE, nullptr);
  gst_object_add_control_binding(GST_OBJECT(element),
                                 gst_direct_control_binding_new_absolute(GST_OBJECT(element), property, cs));
  return cs;
}

class Controller : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (std::string(GetParam()) == "cuda") DPX_REQUIRE_GPU();
  }
};

TEST_P(Controller, IterationsAndPlanesFollowTheirControlSources) {
  auto rng = seeded_rng();
  const FormatCase& fc = format_case(GST_VIDEO_FORMAT_I420);
  constexpr int kW = 40, kH = 30;
  Harness hz("dpxdilate", GetParam());
  GstControlSource* iterations = bind_steps(hz.h->element, "iterations");
  GstControlSource* planes = bind_steps(hz.h->element, "planes");
  auto* it = GST_TIMED_VALUE_CONTROL_SOURCE(iterations);
  auto* pl = GST_TIMED_VALUE_CONTROL_SOURCE(planes);
  ASSERT_TRUE(gst_timed_value_control_source_set(it, 0, 1));
  ASSERT_TRUE(gst_timed_value_control_source_set(it, 2 * GST_SECOND, 4));
  ASSERT_TRUE(gst_timed_value_control_source_set(pl, 0, 7));
  ASSERT_TRUE(gst_timed_value_control_source_set(pl, 1 * GST_SECOND, 1));
  ASSERT_TRUE(gst_timed_value_control_source_set(pl, 3 * GST_SECOND, 6));
  gst_harness_set_src_caps(hz.h, caps_for(fc.format, kW, kH));
  GstVideoInfo info;
  gst_video_info_set_format(&info, fc.format, kW, kH);

  struct Expected {
    int iterations;
    unsigned planes;
  };
  const Expected expected[] = {{1, 7}, {1, 1}, {4, 1}, {4, 6}};
  for (int t = 0; t < 4; ++t) {
    const Frame in = random_frame(rng, fc, kW, kH);
    GstBuffer* buf = frame_to_buffer(in, fc.format, kW, kH);
    GST_BUFFER_PTS(buf) = t * GST_SECOND;
    GST_BUFFER_DURATION(buf) = GST_SECOND;
    ASSERT_EQ(gst_harness_push(hz.h, buf), GST_FLOW_OK) << hz.pop_error();
    GstBuffer* out = gst_harness_pull(hz.h);
    const Frame got = buffer_to_frame(out, info, fc);
    gst_buffer_unref(out);
    MorphParams p;
    p.iterations = expected[t].iterations;
    std::string why;
    EXPECT_TRUE(frames_equal(got, reference(in, p, expected[t].planes), &why))
        << "frame at " << t << " s (iterations " << p.iterations << ", planes " << expected[t].planes << "): " << why;
  }
  gint last_iterations = 0;
  g_object_get(hz.h->element, "iterations", &last_iterations, nullptr);
  EXPECT_EQ(last_iterations, 4);
  gst_object_unref(iterations);
  gst_object_unref(planes);
}

INSTANTIATE_TEST_SUITE_P(Backends, Controller, ::testing::Values("cpu", "cuda"),
                         [](const ::testing::TestParamInfo<const char*>& info) { return std::string(info.param); });

}  // namespace
}  // namespace test
}  // namespace dpx
