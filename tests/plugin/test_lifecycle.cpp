// dpxdilate / dpxerode over time: state changes, caps and property changes while playing (they
// apply from the next frame), the backend failing to start, and bad buffers.
#include <gtest/gtest.h>

#include <gst/check/gstharness.h>

#include "frames.h"
#include "plugin_env.h"

namespace dpx {
namespace test {
namespace {

class Lifecycle : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (std::string(GetParam()) == "cuda") DPX_REQUIRE_GPU();
  }
};

// Pushes one random frame through `hz` (caps already set) and checks it against libdpx.
void push_and_check(Harness& hz, std::mt19937_64& rng, const FormatCase& fc, int w, int h,
                    const MorphParams& p, unsigned planes, const std::string& what) {
  const Frame in = random_frame(rng, fc, w, h, 6);
  ASSERT_EQ(gst_harness_push(hz.h, frame_to_buffer(in, fc.format, w, h)), GST_FLOW_OK) << what << ": " << hz.pop_error();
  GstBuffer* out = gst_harness_pull(hz.h);
  GstCaps* caps = caps_for(fc.format, w, h);
  GstVideoInfo info;
  gst_video_info_from_caps(&info, caps);
  gst_caps_unref(caps);
  const Frame got = buffer_to_frame(out, info, fc);
  gst_buffer_unref(out);
  std::string why;
  EXPECT_TRUE(frames_equal(got, reference(in, p, planes), &why)) << what << ": " << why;
}

GstStateChangeReturn wait_state(GstElement* pipeline, GstState state) {
  gst_element_set_state(pipeline, state);
  return gst_element_get_state(pipeline, nullptr, nullptr, 30 * GST_SECOND);
}

TEST_P(Lifecycle, StateChangesAndRunsToEos) {
  const std::string desc = std::string("videotestsrc num-buffers=6 pattern=ball ! "
                                       "video/x-raw,format=I420,width=96,height=64 ! dpxdilate backend=") +
                           GetParam() + " size=5 ! dpxerode backend=" + GetParam() + " ! fakesink sync=false";
  GError* err = nullptr;
  GstElement* pipeline = gst_parse_launch(desc.c_str(), &err);
  ASSERT_NE(pipeline, nullptr) << (err ? err->message : "");
  GstBus* bus = gst_element_get_bus(pipeline);
  for (int round = 0; round < 3; ++round) {
    ASSERT_NE(wait_state(pipeline, GST_STATE_READY), GST_STATE_CHANGE_FAILURE);
    ASSERT_NE(wait_state(pipeline, GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE);
    ASSERT_NE(wait_state(pipeline, GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE);
    GstMessage* msg = gst_bus_timed_pop_filtered(bus, 60 * GST_SECOND,
                                                 static_cast<GstMessageType>(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
    ASSERT_NE(msg, nullptr) << "round " << round << ": no EOS";
    EXPECT_EQ(GST_MESSAGE_TYPE(msg), GST_MESSAGE_EOS) << "round " << round;
    gst_message_unref(msg);
    ASSERT_NE(wait_state(pipeline, GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE);
    ASSERT_EQ(wait_state(pipeline, round == 1 ? GST_STATE_NULL : GST_STATE_READY), GST_STATE_CHANGE_SUCCESS);
  }
  wait_state(pipeline, GST_STATE_NULL);
  gst_object_unref(bus);
  gst_object_unref(pipeline);
}

// A harness's element, restarted and run, is freed with the harness: nothing it posted (state
// changes, a have-context message with its CUDA context) keeps it or what it holds alive.
TEST_P(Lifecycle, ElementFreedWithItsHarness) {
  GWeakRef weak;
  {
    Harness hz("dpxdilate", GetParam());
    g_weak_ref_init(&weak, hz.h->element);
    auto rng = seeded_rng();
    const FormatCase& fc = format_case(GST_VIDEO_FORMAT_NV12);
    for (int round = 0; round < 2; ++round) {
      ASSERT_EQ(gst_element_set_state(hz.h->element, GST_STATE_READY), GST_STATE_CHANGE_SUCCESS);
      ASSERT_EQ(gst_element_set_state(hz.h->element, GST_STATE_PLAYING), GST_STATE_CHANGE_SUCCESS);
      gst_harness_set_src_caps(hz.h, caps_for(fc.format, 32, 24));
      push_and_check(hz, rng, fc, 32, 24, MorphParams{}, 0xF, "round " + std::to_string(round));
    }
  }
  auto* left = static_cast<GObject*>(g_weak_ref_get(&weak));
  EXPECT_EQ(left, nullptr) << "the element outlived its harness";
  if (left != nullptr) g_object_unref(left);
  g_weak_ref_clear(&weak);
}

TEST_P(Lifecycle, PropertyChangesApplyFromTheNextFrame) {
  auto rng = seeded_rng();
  const FormatCase& fc = format_case(GST_VIDEO_FORMAT_NV12);
  Harness hz("dpxdilate", GetParam());
  gst_harness_set_src_caps(hz.h, caps_for(fc.format, 45, 31));
  gst_harness_play(hz.h);
  MorphParams p;
  push_and_check(hz, rng, fc, 45, 31, p, 0xF, "defaults");
  p.size = 5;
  p.shape = MorphShape::kEllipse;
  p.iterations = 3;
  p.border = BorderMode::kNeutral;
  hz.set_params(p);
  g_object_set(hz.h->element, "planes", 2u, nullptr);
  push_and_check(hz, rng, fc, 45, 31, p, 2u, "after the change");
  g_object_set(hz.h->element, "size", 4, nullptr);  // refused: the frame keeps size 5
  push_and_check(hz, rng, fc, 45, 31, p, 2u, "after size=4");
}

TEST_P(Lifecycle, CapsChangeMidStream) {
  auto rng = seeded_rng();
  Harness hz("dpxerode", GetParam());
  MorphParams p;
  p.op = MorphOp::kErode;
  const GstVideoFormat formats[] = {GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_NV12};
  const int sizes[][2] = {{64, 48}, {33, 21}, {7, 5}, {1920, 1080}};
  for (int i = 0; i < 4; ++i) {
    gst_harness_set_src_caps(hz.h, caps_for(formats[i], sizes[i][0], sizes[i][1]));
    push_and_check(hz, rng, format_case(formats[i]), sizes[i][0], sizes[i][1], p, 0xF, format_name(formats[i]));
  }
}

// The settings change from other threads while frames flow: every output must be one of the
// four combinations, never a mix within a frame, never a crash.
TEST_P(Lifecycle, PropertiesStressedWhileStreaming) {
  auto rng = seeded_rng();
  const FormatCase& fc = format_case(GST_VIDEO_FORMAT_I420);
  Harness hz("dpxdilate", GetParam());
  gst_harness_set_src_caps(hz.h, caps_for(fc.format, 32, 24));
  GValue s3 = G_VALUE_INIT, s5 = G_VALUE_INIT, rect = G_VALUE_INIT, ell = G_VALUE_INIT;
  g_value_init(&s3, G_TYPE_INT);
  g_value_init(&s5, G_TYPE_INT);
  g_value_set_int(&s3, 3);
  g_value_set_int(&s5, 5);
  GParamSpec* shape = g_object_class_find_property(G_OBJECT_GET_CLASS(hz.h->element), "shape");
  g_value_init(&rect, shape->value_type);
  g_value_init(&ell, shape->value_type);
  ASSERT_TRUE(gst_value_deserialize_with_pspec(&rect, "rect", shape));
  ASSERT_TRUE(gst_value_deserialize_with_pspec(&ell, "ellipse", shape));
  GstHarnessThread* threads[] = {
      gst_harness_stress_property_start_full(hz.h, "size", &s3, 50),
      gst_harness_stress_property_start_full(hz.h, "size", &s5, 70),
      gst_harness_stress_property_start_full(hz.h, "shape", &rect, 60),
      gst_harness_stress_property_start_full(hz.h, "shape", &ell, 40),
  };
  GstVideoInfo info;
  gst_video_info_set_format(&info, fc.format, 32, 24);
  for (int frame = 0; frame < 200; ++frame) {
    const Frame in = random_frame(rng, fc, 32, 24);
    ASSERT_EQ(gst_harness_push(hz.h, frame_to_buffer(in, fc.format, 32, 24)), GST_FLOW_OK) << hz.pop_error();
    GstBuffer* out = gst_harness_pull(hz.h);
    const Frame got = buffer_to_frame(out, info, fc);
    gst_buffer_unref(out);
    bool matched = false;
    for (int size : {3, 5})
      for (MorphShape sh : {MorphShape::kRect, MorphShape::kEllipse}) {
        MorphParams p;
        p.size = size;
        p.shape = sh;
        std::string why;
        matched = matched || frames_equal(got, reference(in, p), &why);
      }
    ASSERT_TRUE(matched) << "frame " << frame << " matches no combination of the settings";
  }
  for (GstHarnessThread* t : threads) gst_harness_stress_thread_stop(t);
  for (GValue* v : {&s3, &s5, &rect, &ell}) g_value_unset(v);
}

TEST_P(Lifecycle, BackendChangeWhilePlaying) {
  auto rng = seeded_rng();
  const FormatCase& fc = format_case(GST_VIDEO_FORMAT_Y444);
  Harness hz("dpxerode", "cpu");
  gst_harness_set_src_caps(hz.h, caps_for(fc.format, 50, 30));
  MorphParams p;
  p.op = MorphOp::kErode;
  push_and_check(hz, rng, fc, 50, 30, p, 0xF, "cpu");
  gst_util_set_object_arg(G_OBJECT(hz.h->element), "backend", GetParam());
  push_and_check(hz, rng, fc, 50, 30, p, 0xF, GetParam());
  gst_util_set_object_arg(G_OBJECT(hz.h->element), "backend", "auto");
  push_and_check(hz, rng, fc, 50, 30, p, 0xF, "auto");
}

TEST_P(Lifecycle, ShortBufferIsAFlowErrorWithAnElementError) {
  Harness hz("dpxdilate", GetParam());
  gst_harness_set_src_caps(hz.h, caps_for(GST_VIDEO_FORMAT_I420, 64, 48));
  const gsize full = 64 * 48 * 3 / 2;
  for (gsize size : {gsize(0), gsize(1), gsize(100), full - 1}) {
    GstBuffer* buf = gst_buffer_new_allocate(nullptr, size, nullptr);
    if (size) gst_buffer_memset(buf, 0, 0x33, size);
    EXPECT_EQ(gst_harness_push(hz.h, buf), GST_FLOW_ERROR) << size << " bytes";
    EXPECT_NE(hz.pop_error(), "") << size << " bytes: no error message";
  }
}

TEST_P(Lifecycle, VideoMetaPointingPastTheBufferIsAnError) {
  auto rng = seeded_rng();
  const FormatCase& fc = format_case(GST_VIDEO_FORMAT_NV12);
  Harness hz("dpxerode", GetParam());
  gst_harness_set_src_caps(hz.h, caps_for(fc.format, 64, 48));
  const Frame in = random_frame(rng, fc, 64, 48);
  GstBuffer* buf = frame_to_buffer(in, fc.format, 64, 48);
  // Claim a stride twice as large as the rows that exist.
  GstVideoMeta* meta = gst_buffer_get_video_meta(buf);
  meta->stride[1] *= 2;
  EXPECT_EQ(gst_harness_push(hz.h, buf), GST_FLOW_ERROR);
  const std::string err = hz.pop_error();
  EXPECT_NE(err.find("plane 1"), std::string::npos) << err;
}

// backend=cuda where CUDA cannot be used: no device on this machine, or a device id that does
// not exist on a GPU machine. The change to PAUSED fails with an element error.
TEST(LifecycleCuda, UnusableCudaFailsTheChangeToPaused) {
  GstElement* pipeline = gst_parse_launch(
      "videotestsrc num-buffers=1 ! video/x-raw,format=GRAY8,width=16,height=16 ! dpxdilate name=d backend=cuda ! fakesink", nullptr);
  ASSERT_NE(pipeline, nullptr);
  if (gpu_available()) {
    GstElement* d = gst_bin_get_by_name(GST_BIN(pipeline), "d");
    g_object_set(d, "cuda-device-id", 9999, nullptr);
    gst_object_unref(d);
  }
  EXPECT_EQ(wait_state(pipeline, GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE);
  GstBus* bus = gst_element_get_bus(pipeline);
  GstMessage* msg = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  ASSERT_NE(msg, nullptr) << "no element error";
  GError* err = nullptr;
  gst_message_parse_error(msg, &err, nullptr);
  EXPECT_NE(std::string(err->message).find("CUDA"), std::string::npos) << err->message;
  g_clear_error(&err);
  gst_message_unref(msg);
  gst_object_unref(bus);
  wait_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
}

// backend=cuda set while playing where CUDA cannot be used: the frames that follow are element
// errors — none runs on a backend the user did not ask for, or on a subclass left reset — until
// the property names a usable backend again; auto then falls back to the CPU.
TEST(LifecycleCuda, FailedSwitchToCudaKeepsFailingUntilTheBackendChanges) {
  if (gpu_available()) GTEST_SKIP() << DPX_ONLY_WITHOUT_CUDA "a usable device is present";
  auto rng = seeded_rng();
  const FormatCase& fc = format_case(GST_VIDEO_FORMAT_NV12);
  Harness hz("dpxdilate", "cpu");
  gst_harness_set_src_caps(hz.h, caps_for(fc.format, 20, 14));
  const MorphParams p;
  push_and_check(hz, rng, fc, 20, 14, p, 0xF, "cpu");
  gst_util_set_object_arg(G_OBJECT(hz.h->element), "backend", "cuda");
  for (int frame = 0; frame < 3; ++frame) {
    const Frame in = random_frame(rng, fc, 20, 14);
    EXPECT_EQ(gst_harness_push(hz.h, frame_to_buffer(in, fc.format, 20, 14)), GST_FLOW_ERROR) << "frame " << frame;
    EXPECT_NE(hz.pop_error().find("CUDA"), std::string::npos) << "frame " << frame << ": no element error";
  }
  gst_util_set_object_arg(G_OBJECT(hz.h->element), "backend", "auto");
  push_and_check(hz, rng, fc, 20, 14, p, 0xF, "auto after the failure");
  EXPECT_EQ(hz.pop_error(), "");
}

INSTANTIATE_TEST_SUITE_P(Backends, Lifecycle, ::testing::Values("cpu", "cuda"),
                         [](const ::testing::TestParamInfo<const char*>& info) { return std::string(info.param); });

}  // namespace
}  // namespace test
}  // namespace dpx
