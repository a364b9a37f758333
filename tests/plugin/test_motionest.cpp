// dpxmotionest through GstHarness: its meta, JSON-lines file and messages agree with libdpxmotion
// on a panned texture in every luma format; frames without a reference (first, after caps change,
// DISCONT, flush) carry nothing; draw and pass-through; the meta's copy and scale behaviour; bad
// input. The meta is read through the application header alone (gstdpxmotionmeta.h).
#include <gtest/gtest.h>

#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "dpx/motion.h"
#include "gstdpxmotionmeta.h"
#include "motion_frames.h"
#include "motion_test_util.h"
#include "plugin_env.h"
#include "test_util.h"

namespace dpx {
namespace test {
namespace {

class MotionEst : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (std::string(GetParam()) == "cuda") DPX_REQUIRE_GPU();
  }
};

TEST_P(MotionEst, MetaMatchesTheLibraryInEveryFormat) {
  auto rng = seeded_rng();
  const GstVideoFormat formats[] = {GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_I420,
                                    GST_VIDEO_FORMAT_YV12,  GST_VIDEO_FORMAT_NV12,      GST_VIDEO_FORMAT_NV21,
                                    GST_VIDEO_FORMAT_Y42B,  GST_VIDEO_FORMAT_Y444,      GST_VIDEO_FORMAT_P010_10LE,
                                    GST_VIDEO_FORMAT_P016_LE};
  for (GstVideoFormat format : formats) {
    SCOPED_TRACE(gst_video_format_to_string(format));
    GstVideoInfo info;
    gst_video_info_set_format(&info, format, kW, kH);
    const SampleType type = GST_VIDEO_FORMAT_INFO_DEPTH(info.finfo, 0) > 8 ? SampleType::kU16 : SampleType::kU8;
    const std::vector<TestPlane> frames = panned_frames(rng, type, 4);
    Harness hz("dpxmotionest");
    gst_util_set_object_arg(G_OBJECT(hz.h->element), "backend", GetParam());
    g_object_set(hz.h->element, "block-size", 8, "search-range", 6, nullptr);
    GstCaps* caps = caps_of(format, kW, kH);
    gst_harness_set_src_caps(hz.h, caps);
    Pushed pushed;
    push_all(hz, format, frames, &pushed);
    ASSERT_EQ(pushed.out.size(), frames.size());
    EXPECT_EQ(gst_buffer_get_dpx_motion_meta(pushed.out[0]), nullptr) << "the first frame has no reference";
    for (std::size_t t = 1; t < frames.size(); ++t) {
      const GstDpxMotionMeta* meta = gst_buffer_get_dpx_motion_meta(pushed.out[t]);
      ASSERT_NE(meta, nullptr) << "frame " << t;
      EXPECT_EQ(meta->reference_pts, GST_BUFFER_PTS(pushed.out[t - 1]));
      const MotionField want = run_motion_cpu(frames[t], frames[t - 1], motion_params(8, 6));
      EXPECT_EQ(first_difference(want, field_of(meta)), "") << "frame " << t;
      // The pan itself, wherever the block's displaced window stays in the frame.
      const GstDpxMotionVector* mid = gst_dpx_motion_meta_get_vector(meta, meta->columns / 2, meta->rows / 2);
      EXPECT_EQ(mid->dx, kVx);
      EXPECT_EQ(mid->dy, kVy);
      EXPECT_EQ(mid->sad, 0u);
      // Pixels pass through unchanged.
      EXPECT_EQ(luma_of(pushed.out[t], format, kW, kH).bytes(), frames[t].bytes());
    }
    EXPECT_EQ(hz.pop_error(), "");
  }
}

TEST_P(MotionEst, FileAndMessagesAgreeWithTheMeta) {
  auto rng = seeded_rng();
  const std::vector<TestPlane> frames = panned_frames(rng, SampleType::kU8, 5);
  const std::string file = temporary_file();
  ASSERT_FALSE(file.empty());
  const char* path = file.c_str();
  std::vector<MotionField> metas;
  std::vector<GstClockTime> pts;
  {
    Harness hz("dpxmotionest");
    gst_util_set_object_arg(G_OBJECT(hz.h->element), "backend", GetParam());
    g_object_set(hz.h->element, "block-size", 16, "search-range", 5, "location", path,
                 "post-messages", TRUE, "motion-threshold", 3.2, nullptr);
    gst_harness_set_src_caps(hz.h, caps_of(GST_VIDEO_FORMAT_GRAY8, kW, kH));
    Pushed pushed;
    push_all(hz, GST_VIDEO_FORMAT_GRAY8, frames, &pushed);
    for (std::size_t t = 1; t < pushed.out.size(); ++t) {
      const GstDpxMotionMeta* meta = gst_buffer_get_dpx_motion_meta(pushed.out[t]);
      ASSERT_NE(meta, nullptr);
      metas.push_back(field_of(meta));
      pts.push_back(GST_BUFFER_PTS(pushed.out[t]));
    }
    // One message per frame with vectors, in order.
    for (std::size_t i = 0; i < metas.size(); ++i) {
      GstMessage* msg = gst_bus_pop_filtered(hz.bus, GST_MESSAGE_ELEMENT);
      ASSERT_NE(msg, nullptr) << "message " << i;
      const GstStructure* s = gst_message_get_structure(msg);
      EXPECT_TRUE(gst_structure_has_name(s, "dpx-motion"));
      guint64 number = 0, msg_pts = 0;
      double mean = -1, moving = -1, threshold = -1;
      EXPECT_TRUE(gst_structure_get(s, "frame-number", G_TYPE_UINT64, &number, "pts", G_TYPE_UINT64, &msg_pts,
                                    "mean-length", G_TYPE_DOUBLE, &mean, "moving-fraction", G_TYPE_DOUBLE, &moving,
                                    "motion-threshold", G_TYPE_DOUBLE, &threshold, nullptr));
      const MotionStats want = motion_stats(metas[i].vectors.data(), metas[i].vectors.size(), 3.2);
      EXPECT_EQ(number, i + 1);
      EXPECT_EQ(msg_pts, pts[i]);
      EXPECT_DOUBLE_EQ(mean, want.mean_length);
      EXPECT_DOUBLE_EQ(moving, want.moving_fraction);
      EXPECT_DOUBLE_EQ(threshold, 3.2);
      EXPECT_GT(mean, 3.0);  // the pan is sqrt(13) pixels long almost everywhere
      gst_message_unref(msg);
    }
    EXPECT_EQ(gst_bus_pop_filtered(hz.bus, GST_MESSAGE_ELEMENT), nullptr);
  }  // teardown stops the element, which closes the file
  std::ifstream in(path);
  std::string line;
  std::size_t n = 0;
  while (std::getline(in, line)) {
    ASSERT_LT(n, metas.size());
    const JsonLine j = parse_line(line);
    EXPECT_EQ(j.frame, static_cast<long long>(n + 1));
    EXPECT_EQ(j.pts, static_cast<long long>(pts[n]));
    EXPECT_EQ(j.reference_pts, static_cast<long long>(n == 0 ? 0 : pts[n - 1]));
    EXPECT_EQ(j.block_size, 16);
    EXPECT_EQ(j.columns, metas[n].grid.columns);
    EXPECT_EQ(j.rows, metas[n].grid.rows);
    ASSERT_EQ(j.values.size(), 3 * metas[n].vectors.size());
    for (std::size_t i = 0; i < metas[n].vectors.size(); ++i) {
      EXPECT_EQ(j.values[3 * i], metas[n].vectors[i].dx);
      EXPECT_EQ(j.values[3 * i + 1], metas[n].vectors[i].dy);
      EXPECT_EQ(j.values[3 * i + 2], static_cast<int>(metas[n].vectors[i].sad));
    }
    ++n;
  }
  EXPECT_EQ(n, metas.size());
  std::remove(path);
}

bool has_meta(GstBuffer* b) { return gst_buffer_get_dpx_motion_meta(b) != nullptr; }

TEST_P(MotionEst, NoMetaWithoutAReference) {
  auto rng = seeded_rng();
  const std::vector<TestPlane> frames = panned_frames(rng, SampleType::kU8, 3);
  Harness hz("dpxmotionest");
  gst_util_set_object_arg(G_OBJECT(hz.h->element), "backend", GetParam());
  gst_harness_set_src_caps(hz.h, caps_of(GST_VIDEO_FORMAT_GRAY8, kW, kH));
  Pushed a;
  push_all(hz, GST_VIDEO_FORMAT_GRAY8, frames, &a);
  EXPECT_FALSE(has_meta(a.out[0]));
  EXPECT_TRUE(has_meta(a.out[1]));
  EXPECT_TRUE(has_meta(a.out[2]));

  // A DISCONT buffer starts over; the one after it is searched against it.
  GstBuffer* discont = make_buffer(GST_VIDEO_FORMAT_GRAY8, frames[0], 10);
  GST_BUFFER_FLAG_SET(discont, GST_BUFFER_FLAG_DISCONT);
  ASSERT_EQ(gst_harness_push(hz.h, discont), GST_FLOW_OK);
  a.out.push_back(gst_harness_pull(hz.h));
  EXPECT_FALSE(has_meta(a.out.back()));
  ASSERT_EQ(gst_harness_push(hz.h, make_buffer(GST_VIDEO_FORMAT_GRAY8, frames[1], 11)), GST_FLOW_OK);
  a.out.push_back(gst_harness_pull(hz.h));
  EXPECT_TRUE(has_meta(a.out.back()));

  // A flush starts over.
  ASSERT_TRUE(gst_harness_push_event(hz.h, gst_event_new_flush_start()));
  ASSERT_TRUE(gst_harness_push_event(hz.h, gst_event_new_flush_stop(TRUE)));
  GstSegment segment;
  gst_segment_init(&segment, GST_FORMAT_TIME);
  ASSERT_TRUE(gst_harness_push_event(hz.h, gst_event_new_segment(&segment)));
  Pushed b;
  push_all(hz, GST_VIDEO_FORMAT_GRAY8, {frames[1], frames[2]}, &b, 20);
  EXPECT_FALSE(has_meta(b.out[0]));
  EXPECT_TRUE(has_meta(b.out[1]));

  // New caps (another size) start over too.
  const std::vector<TestPlane> larger = panned_frames(rng, SampleType::kU8, 2, kW + 16, kH + 8);
  gst_harness_set_src_caps(hz.h, caps_of(GST_VIDEO_FORMAT_GRAY8, kW + 16, kH + 8));
  Pushed c;
  push_all(hz, GST_VIDEO_FORMAT_GRAY8, larger, &c, 30);
  EXPECT_FALSE(has_meta(c.out[0]));
  ASSERT_TRUE(has_meta(c.out[1]));
  EXPECT_EQ(first_difference(run_motion_cpu(larger[1], larger[0], motion_params(16, 16)),
                             field_of(gst_buffer_get_dpx_motion_meta(c.out[1]))),
            "");
  EXPECT_EQ(hz.pop_error(), "");
}

// Sub-pel, lambda and predictive settings reach the library (the last frame's field as the
// predictive start), the meta and the JSON line say the unit, and a change applies from the
// next frame.
TEST_P(MotionEst, SearchSettingsAndScaleFollowTheProperties) {
  auto rng = seeded_rng();
  const std::vector<TestPlane> frames = panned_frames(rng, SampleType::kU8, 5);
  const std::string file = temporary_file();
  ASSERT_FALSE(file.empty());
  const char* path = file.c_str();
  Harness hz("dpxmotionest");
  gst_util_set_object_arg(G_OBJECT(hz.h->element), "backend", GetParam());
  gst_util_set_object_arg(G_OBJECT(hz.h->element), "subpel", "quarter");
  gst_util_set_object_arg(G_OBJECT(hz.h->element), "search", "predictive");
  gst_util_set_object_arg(G_OBJECT(hz.h->element), "interpolation", "h264");
  g_object_set(hz.h->element, "block-size", 8, "search-range", 100, "lambda", 3, "location", path, nullptr);
  gst_harness_set_src_caps(hz.h, caps_of(GST_VIDEO_FORMAT_GRAY8, kW, kH));
  Pushed pushed;
  push_all(hz, GST_VIDEO_FORMAT_GRAY8, {frames[0], frames[1], frames[2]}, &pushed);
  MotionParams p = motion_params(8, 100);
  p.subpel = MotionSubpel::kQuarter;
  p.search = MotionSearch::kPredictive;
  p.lambda = 3;
  p.interpolation = dpx::MotionInterpolation::kH264;
  MotionField want1, want2;
  ASSERT_TRUE(motion_estimate_cpu(frames[1].view(), frames[0].view(), p, &want1).is_ok());
  ASSERT_TRUE(motion_estimate_cpu(frames[2].view(), frames[1].view(), p, &want2, 0,
                                  MotionPrevious{want1.vectors.data(), 4}).is_ok());
  const GstDpxMotionMeta* m1 = gst_buffer_get_dpx_motion_meta(pushed.out[1]);
  const GstDpxMotionMeta* m2 = gst_buffer_get_dpx_motion_meta(pushed.out[2]);
  ASSERT_TRUE(m1 != nullptr && m2 != nullptr);
  EXPECT_EQ(m1->scale, 4u);
  EXPECT_EQ(first_difference(want1, field_of(m1)), "");
  EXPECT_EQ(first_difference(want2, field_of(m2)), "");
  const GstDpxMotionVector* mid = gst_dpx_motion_meta_get_vector(m2, m2->columns / 2, m2->rows / 2);
  EXPECT_EQ(mid->dx, 4 * kVx);
  EXPECT_EQ(mid->dy, 4 * kVy);

  // Back to the default while playing: whole pixels from the next frame on.
  gst_util_set_object_arg(G_OBJECT(hz.h->element), "subpel", "none");
  gst_util_set_object_arg(G_OBJECT(hz.h->element), "search", "full");
  g_object_set(hz.h->element, "search-range", 6, "lambda", 0, nullptr);
  push_all(hz, GST_VIDEO_FORMAT_GRAY8, {frames[3]}, &pushed, 3);
  const GstDpxMotionMeta* m3 = gst_buffer_get_dpx_motion_meta(pushed.out[3]);
  ASSERT_NE(m3, nullptr);
  EXPECT_EQ(m3->scale, 1u);
  EXPECT_EQ(first_difference(run_motion_cpu(frames[3], frames[2], motion_params(8, 6)), field_of(m3)), "");

  // A range only the predictive search takes is an element error under the full search.
  g_object_set(hz.h->element, "search-range", 100, nullptr);
  EXPECT_EQ(gst_harness_push(hz.h, make_buffer(GST_VIDEO_FORMAT_GRAY8, frames[4], 4)), GST_FLOW_ERROR);
  EXPECT_NE(hz.pop_error().find("predictive"), std::string::npos);

  std::ifstream in(path);
  std::string line;
  std::vector<std::string> lines;
  while (std::getline(in, line)) lines.push_back(line);
  std::remove(path);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_NE(lines[0].find("\"scale\":4"), std::string::npos) << lines[0];
  EXPECT_NE(lines[2].find("\"scale\":1"), std::string::npos) << lines[2];
}

TEST_P(MotionEst, DrawsTheLibrarysSegmentsOnlyWhenAsked) {
  auto rng = seeded_rng();
  const std::vector<TestPlane> frames = panned_frames(rng, SampleType::kU8, 2);
  Harness hz("dpxmotionest");
  gst_util_set_object_arg(G_OBJECT(hz.h->element), "backend", GetParam());
    g_object_set(hz.h->element, "draw", TRUE, "block-size", 16, "search-range", 8, nullptr);
  gst_harness_set_src_caps(hz.h, caps_of(GST_VIDEO_FORMAT_I420, kW, kH));
  Pushed pushed;
  push_all(hz, GST_VIDEO_FORMAT_I420, frames, &pushed);
  // The first frame has no vectors and is left alone; the second gets the library's drawing.
  EXPECT_EQ(luma_of(pushed.out[0], GST_VIDEO_FORMAT_I420, kW, kH).bytes(), frames[0].bytes());
  TestPlane want = frames[1];
  const MotionField field = run_motion_cpu(frames[1], frames[0], motion_params(16, 8));
  ASSERT_TRUE(draw_motion_cpu(want.mutable_view(), field.grid, field.vectors.data()).is_ok());
  const TestPlane got = luma_of(pushed.out[1], GST_VIDEO_FORMAT_I420, kW, kH);
  EXPECT_EQ(got.bytes(), want.bytes());
  EXPECT_NE(got.bytes(), frames[1].bytes());
  EXPECT_EQ(hz.pop_error(), "");
}

INSTANTIATE_TEST_SUITE_P(Backends, MotionEst, ::testing::Values("cpu", "cuda"));

// Pushes NV12 `frames` through appsrc ! cudaupload ! (CUDA memory) `chain` ! appsink, then EOS, and
// returns the output buffers in order (empty on failure, which is reported).
std::vector<GstBuffer*> run_on_cuda_memory(const std::vector<TestPlane>& frames, const std::string& chain) {
  std::vector<GstBuffer*> out;
  GError* err = nullptr;
  const std::string desc =
      "appsrc name=src format=time ! cudaupload ! video/x-raw(memory:CUDAMemory) ! " + chain + " ! appsink name=sink sync=false";
  GstElement* pipeline = gst_parse_launch(desc.c_str(), &err);
  EXPECT_NE(pipeline, nullptr) << (err ? err->message : "");
  if (pipeline == nullptr) return out;
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  GstCaps* caps = caps_of(GST_VIDEO_FORMAT_NV12, kW, kH);
  g_object_set(src, "caps", caps, nullptr);
  gst_caps_unref(caps);
  EXPECT_NE(gst_element_set_state(pipeline, GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE);
  for (std::size_t t = 0; t < frames.size(); ++t) {
    GstFlowReturn ret = GST_FLOW_ERROR;
    GstBuffer* buffer = make_buffer(GST_VIDEO_FORMAT_NV12, frames[t], static_cast<int>(t));
    g_signal_emit_by_name(src, "push-buffer", buffer, &ret);  // the signal takes a reference of its own
    gst_buffer_unref(buffer);
    EXPECT_EQ(ret, GST_FLOW_OK) << "frame " << t;
  }
  GstFlowReturn eos = GST_FLOW_ERROR;
  g_signal_emit_by_name(src, "end-of-stream", &eos);
  EXPECT_EQ(eos, GST_FLOW_OK);
  for (std::size_t t = 0; t < frames.size(); ++t) {
    GstSample* sample = nullptr;
    g_signal_emit_by_name(sink, "pull-sample", &sample);
    EXPECT_NE(sample, nullptr) << "frame " << t;
    if (sample == nullptr) break;
    out.push_back(gst_buffer_ref(gst_sample_get_buffer(sample)));
    gst_sample_unref(sample);
  }
  gst_element_set_state(pipeline, GST_STATE_NULL);
  for (GstElement* e : {src, sink, pipeline}) gst_object_unref(e);
  return out;
}

// Frames in CUDA memory (cudaupload) are searched in place; the vectors equal the CPU library's.
TEST(MotionEstCudaMemory, MetaOnCudaMemoryMatchesTheLibrary) {
  DPX_REQUIRE_GPU();
  if (!have_factory("cudaupload")) GTEST_SKIP() << "no cudaupload (gst-plugins-bad nvcodec)";
  auto rng = seeded_rng();
  const std::vector<TestPlane> frames = panned_frames(rng, SampleType::kU8, 4);
  const std::vector<GstBuffer*> out = run_on_cuda_memory(frames, "dpxmotionest backend=cuda block-size=8 search-range=6");
  ASSERT_EQ(out.size(), frames.size());
  for (std::size_t t = 0; t < frames.size(); ++t) {
    const GstDpxMotionMeta* meta = gst_buffer_get_dpx_motion_meta(out[t]);
    if (t == 0) {
      EXPECT_EQ(meta, nullptr);
    } else {
      ASSERT_NE(meta, nullptr) << "frame " << t;
      EXPECT_EQ(first_difference(run_motion_cpu(frames[t], frames[t - 1], motion_params(8, 6)), field_of(meta)), "");
    }
  }
  for (GstBuffer* b : out) gst_buffer_unref(b);
}

// draw=true on frames in CUDA memory draws on the GPU (draw_motion_cuda): the downloaded luma
// equals the CPU library's drawing of the CPU library's vectors.
TEST(MotionEstCudaMemory, DrawsOnTheGpuLikeTheLibrary) {
  DPX_REQUIRE_GPU();
  if (!have_factory("cudaupload") || !have_factory("cudadownload")) GTEST_SKIP() << "no nvcodec upload/download";
  auto rng = seeded_rng();
  const std::vector<TestPlane> frames = panned_frames(rng, SampleType::kU8, 3);
  const std::vector<GstBuffer*> out = run_on_cuda_memory(
      frames, "dpxmotionest backend=cuda draw=true block-size=8 search-range=6 ! video/x-raw(memory:CUDAMemory) ! "
              "cudadownload ! video/x-raw");
  ASSERT_EQ(out.size(), frames.size());
  for (std::size_t t = 0; t < frames.size(); ++t) {
    TestPlane want = frames[t];
    if (t > 0) {
      const MotionField field = run_motion_cpu(frames[t], frames[t - 1], motion_params(8, 6));
      ASSERT_TRUE(draw_motion_cpu(want.mutable_view(), field.grid, field.vectors.data()).is_ok());
    }
    EXPECT_EQ(luma_of(out[t], GST_VIDEO_FORMAT_NV12, kW, kH).bytes(), want.bytes()) << "frame " << t;
  }
  for (GstBuffer* b : out) gst_buffer_unref(b);
}

TEST(MotionEstMeta, CopiesKeepTheVectorsAndScalesDropThem) {
  auto rng = seeded_rng();
  const std::vector<TestPlane> frames = panned_frames(rng, SampleType::kU8, 2);
  Harness hz("dpxmotionest");
  gst_util_set_object_arg(G_OBJECT(hz.h->element), "backend", "cpu");
  gst_harness_set_src_caps(hz.h, caps_of(GST_VIDEO_FORMAT_GRAY8, kW, kH));
  Pushed pushed;
  push_all(hz, GST_VIDEO_FORMAT_GRAY8, frames, &pushed);
  const GstDpxMotionMeta* meta = gst_buffer_get_dpx_motion_meta(pushed.out[1]);
  ASSERT_NE(meta, nullptr);
  EXPECT_NE(gst_dpx_motion_meta_api_type(), 0u);
  EXPECT_EQ(gst_dpx_motion_meta_get_vector(meta, meta->columns, 0), nullptr);

  GstBuffer* copy = gst_buffer_copy(pushed.out[1]);
  const GstDpxMotionMeta* copied = gst_buffer_get_dpx_motion_meta(copy);
  ASSERT_NE(copied, nullptr);
  EXPECT_NE(copied->vectors, meta->vectors);  // its own array
  EXPECT_EQ(first_difference(field_of(meta), field_of(copied)), "");
  EXPECT_EQ(copied->reference_pts, meta->reference_pts);

  const GstMetaInfo* info = gst_meta_get_info(GST_DPX_MOTION_META_IMPL_NAME);
  ASSERT_NE(info, nullptr);
  GstVideoInfo in_info, same, half;
  gst_video_info_set_format(&in_info, GST_VIDEO_FORMAT_GRAY8, kW, kH);
  gst_video_info_set_format(&same, GST_VIDEO_FORMAT_GRAY8, kW, kH);
  gst_video_info_set_format(&half, GST_VIDEO_FORMAT_GRAY8, kW / 2, kH / 2);
  GstVideoMetaTransform to_half = {&in_info, &half}, to_same = {&in_info, &same};
  GstBuffer* scaled = gst_buffer_new();
  EXPECT_FALSE(info->transform_func(scaled, const_cast<GstMeta*>(&meta->meta), pushed.out[1],
                                    gst_video_meta_transform_scale_get_quark(), &to_half));
  EXPECT_EQ(gst_buffer_get_dpx_motion_meta(scaled), nullptr);
  EXPECT_TRUE(info->transform_func(scaled, const_cast<GstMeta*>(&meta->meta), pushed.out[1],
                                   gst_video_meta_transform_scale_get_quark(), &to_same));
  EXPECT_NE(gst_buffer_get_dpx_motion_meta(scaled), nullptr);
  gst_buffer_unref(scaled);
  gst_buffer_unref(copy);
}

TEST(MotionEstProperties, RangesAndDefaults) {
  GstElement* e = gst_element_factory_make("dpxmotionest", nullptr);
  ASSERT_NE(e, nullptr);
  GObjectClass* klass = G_OBJECT_GET_CLASS(e);
  auto spec = [klass](const char* name) { return g_object_class_find_property(klass, name); };
  for (const char* name : {"block-size", "search-range", "backend", "cuda-device-id", "draw", "location",
                           "motion-threshold", "post-messages", "subpel", "search", "lambda", "interpolation"}) {
    GParamSpec* p = spec(name);
    ASSERT_NE(p, nullptr) << name;
    EXPECT_TRUE(p->flags & G_PARAM_STATIC_NAME) << name;
    EXPECT_NE(std::string(g_param_spec_get_blurb(p)), "") << name;
    // The search and reporting settings follow GstControlBindings; the file and device do not.
    const std::string n(name);
    const bool controllable = n != "backend" && n != "cuda-device-id" && n != "location";
    EXPECT_EQ(bool(p->flags & GST_PARAM_CONTROLLABLE), controllable) << name;
  }
  const GParamSpecInt* range = G_PARAM_SPEC_INT(spec("search-range"));
  EXPECT_EQ(range->minimum, 1);
  EXPECT_EQ(range->maximum, kMotionMaxPredictiveRange);
  EXPECT_EQ(G_PARAM_SPEC_ENUM(spec("subpel"))->default_value, 1);  // none
  EXPECT_EQ(G_PARAM_SPEC_ENUM(spec("search"))->default_value, 0);  // full
  // The interpolation measured best on real photographs, the library's default too.
  EXPECT_EQ(G_PARAM_SPEC_ENUM(spec("interpolation"))->default_value,
            static_cast<gint>(dpx::MotionParams{}.interpolation));
  EXPECT_EQ(G_PARAM_SPEC_ENUM(spec("interpolation"))->default_value, 2);  // hevc
  const GParamSpecInt* lambda = G_PARAM_SPEC_INT(spec("lambda"));
  EXPECT_EQ(lambda->default_value, 0);
  EXPECT_EQ(lambda->maximum, kMotionMaxLambda);
  EXPECT_EQ(range->default_value, 16);
  EXPECT_EQ(G_PARAM_SPEC_ENUM(spec("block-size"))->default_value, 16);
  EXPECT_DOUBLE_EQ(G_PARAM_SPEC_DOUBLE(spec("motion-threshold"))->default_value, 1.0);
  EXPECT_FALSE(G_PARAM_SPEC_BOOLEAN(spec("draw"))->default_value);
  EXPECT_FALSE(G_PARAM_SPEC_BOOLEAN(spec("post-messages"))->default_value);
  EXPECT_EQ(G_PARAM_SPEC_STRING(spec("location"))->default_value, nullptr);
  // Block sizes by their names, as gst-launch passes them.
  gst_util_set_object_arg(G_OBJECT(e), "block-size", "32");
  gint block = 0;
  g_object_get(e, "block-size", &block, nullptr);
  EXPECT_EQ(block, 32);
  gst_object_unref(e);
}

// Drawing writes into the frame: a buffer too small for the caps, or a video meta pointing past
// its end, is an element error before anything is read or written.
TEST(MotionEstBadInput, DrawOnABufferTooSmallIsAnError) {
  auto rng = seeded_rng();
  const std::vector<TestPlane> frames = panned_frames(rng, SampleType::kU8, 1);
  for (int bad = 0; bad < 2; ++bad) {
    Harness hz("dpxmotionest");
    gst_util_set_object_arg(G_OBJECT(hz.h->element), "backend", "cpu");
    g_object_set(hz.h->element, "draw", TRUE, "block-size", 8, "search-range", 4, nullptr);
    gst_harness_set_src_caps(hz.h, caps_of(GST_VIDEO_FORMAT_GRAY8, kW, kH));
    ASSERT_EQ(gst_harness_push(hz.h, make_buffer(GST_VIDEO_FORMAT_GRAY8, frames[0], 0)), GST_FLOW_OK);
    gst_buffer_unref(gst_harness_pull(hz.h));
    GstBuffer* buf = make_buffer(GST_VIDEO_FORMAT_GRAY8, frames[0], 1);
    if (bad == 0) {
      gst_buffer_resize(buf, 0, kW * kH - kW / 2);  // the last row cut in half
    } else {
      gst_buffer_add_video_meta(buf, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_GRAY8, kW, kH);
      gst_buffer_get_video_meta(buf)->stride[0] = 2 * kW;  // rows twice as far apart as they are
    }
    EXPECT_EQ(gst_harness_push(hz.h, buf), GST_FLOW_ERROR) << (bad ? "video meta" : "truncated");
    EXPECT_NE(hz.pop_error(), "") << (bad ? "video meta" : "truncated");
  }
}

TEST(MotionEstBadInput, ShortBufferAndUnwritableFileAreErrorsNotCrashes) {
  {
    Harness hz("dpxmotionest");
    gst_util_set_object_arg(G_OBJECT(hz.h->element), "backend", "cpu");
    gst_harness_set_src_caps(hz.h, caps_of(GST_VIDEO_FORMAT_NV12, kW, kH));
    GstBuffer* tiny = gst_buffer_new_allocate(nullptr, 100, nullptr);
    EXPECT_EQ(gst_harness_push(hz.h, tiny), GST_FLOW_ERROR);
    EXPECT_NE(hz.pop_error(), "");
  }
  {
    auto rng = seeded_rng();
    const std::vector<TestPlane> frames = panned_frames(rng, SampleType::kU8, 2);
    Harness hz("dpxmotionest");
    gst_util_set_object_arg(G_OBJECT(hz.h->element), "backend", "cpu");
    g_object_set(hz.h->element, "location", "/nonexistent-dir/vectors.jsonl", nullptr);
    gst_harness_set_src_caps(hz.h, caps_of(GST_VIDEO_FORMAT_GRAY8, kW, kH));
    ASSERT_EQ(gst_harness_push(hz.h, make_buffer(GST_VIDEO_FORMAT_GRAY8, frames[0], 0)), GST_FLOW_OK);
    gst_buffer_unref(gst_harness_pull(hz.h));
    EXPECT_EQ(gst_harness_push(hz.h, make_buffer(GST_VIDEO_FORMAT_GRAY8, frames[1], 1)), GST_FLOW_ERROR);
    EXPECT_NE(hz.pop_error().find("nonexistent-dir"), std::string::npos);
  }
}

// The location file opens when the element starts: an unwritable path fails the READY to PAUSED
// change (before any frame), and a one-frame stream (no vectors) still leaves an empty file.
TEST(MotionEstBadInput, FileOpensWhenTheElementStarts) {
  if (!have_factory("videotestsrc")) GTEST_SKIP() << "no videotestsrc";
  char tmpl[] = "/tmp/dpx-motion-file-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl, path = dir + "/vectors.jsonl";
  auto pipeline_to = [](const std::string& location) {
    const std::string desc = "videotestsrc num-buffers=1 ! video/x-raw,format=GRAY8,width=64,height=48 ! "
                             "dpxmotionest backend=cpu location=" + location + " ! fakesink";
    GError* err = nullptr;
    GstElement* p = gst_parse_launch(desc.c_str(), &err);
    EXPECT_NE(p, nullptr) << (err ? err->message : "");
    if (err != nullptr) g_error_free(err);
    return p;
  };
  auto error_of = [](GstElement* p) {
    GstBus* bus = gst_element_get_bus(p);
    GstMessage* m = gst_bus_timed_pop_filtered(bus, 10 * GST_SECOND,
                                               static_cast<GstMessageType>(GST_MESSAGE_ERROR | GST_MESSAGE_EOS));
    std::string text = m == nullptr ? "timeout" : GST_MESSAGE_TYPE(m) == GST_MESSAGE_EOS ? "" : "error";
    if (m != nullptr && GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR) text = error_text(m);
    if (m != nullptr) gst_message_unref(m);
    gst_object_unref(bus);
    return text;
  };

  GstElement* bad = pipeline_to(dir + "/nonexistent-dir/vectors.jsonl");
  ASSERT_NE(bad, nullptr);
  EXPECT_EQ(gst_element_set_state(bad, GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE);
  EXPECT_NE(error_of(bad).find("nonexistent-dir"), std::string::npos);
  gst_element_set_state(bad, GST_STATE_NULL);
  gst_object_unref(bad);

  GstElement* one = pipeline_to(path);
  ASSERT_NE(one, nullptr);
  EXPECT_NE(gst_element_set_state(one, GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE);
  EXPECT_EQ(error_of(one), "");
  gst_element_set_state(one, GST_STATE_NULL);
  gst_object_unref(one);
  std::ifstream file(path, std::ios::binary);
  EXPECT_TRUE(file.good()) << path << " was not created";
  EXPECT_EQ(file.peek(), std::ifstream::traits_type::eof());
  std::system(("rm -rf '" + dir + "'").c_str());
}

}  // namespace
}  // namespace test
}  // namespace dpx
