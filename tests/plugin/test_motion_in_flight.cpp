// dpxmotionest with frames in flight: one scenario (a DISCONT, a flushing seek, a caps change to
// another format and size, settings and `draw` changed between frames, EOS) runs at every depth,
// and what the element reports must not depend on the depth: the JSON lines and the messages are
// byte for byte those of one frame at a time, and every buffer that comes out carries the same
// meta and pixels, in order, once. Only the frames in flight at the flush are not pushed (their
// lines and messages are still written). The logic is the base class's on every backend, so the CPU
// runs it at forced depths; on a GPU the CUDA backend runs it at its automatic depth and at 2 and
// must give the CPU's bytes.
#include <gtest/gtest.h>

#include <gst/check/gstharness.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "gstdpxmotionmeta.h"
#include "motion_frames.h"
#include "motion_test_util.h"
#include "plugin_env.h"
#include "test_util.h"

namespace dpx {
namespace test {
namespace {

constexpr int kFrames = 26;
constexpr int kDiscontAt = 6, kFlushAt = 10, kDrawFrom = 13, kCapsAt = 17, kSettingsAt = 21;
constexpr int kW2 = 80, kH2 = 64;  // the size after the caps change

// What came out of one run.
struct Outcome {
  std::vector<GstClockTime> pts;      // of each output buffer, in the order they came
  std::vector<std::string> outputs;   // per output: its meta and a digest of its bytes
  std::vector<std::string> messages;  // the dpx-motion messages, in order
  std::string file;                   // the JSON lines
  GstClockTime latency = 0;           // the LATENCY query's minimum after the first frames
};

std::string describe(GstBuffer* buf) {
  std::ostringstream out;
  const GstDpxMotionMeta* meta = gst_buffer_get_dpx_motion_meta(buf);
  if (meta == nullptr) {
    out << "no meta";
  } else {
    out << "meta " << meta->block_size << " " << meta->columns << "x" << meta->rows << " /" << meta->scale << " ref "
        << meta->reference_pts << ":";
    for (guint i = 0; i < meta->columns * meta->rows; ++i)
      out << " " << meta->vectors[i].dx << "," << meta->vectors[i].dy << "," << meta->vectors[i].sad;
  }
  GstMapInfo map;
  if (gst_buffer_map(buf, &map, GST_MAP_READ)) {
    out << " bytes " << std::hash<std::string>()(std::string(reinterpret_cast<const char*>(map.data), map.size));
    gst_buffer_unmap(buf, &map);
  }
  return out.str();
}

void pull_outputs(Harness& hz, Outcome* run) {
  while (GstBuffer* out = gst_harness_try_pull(hz.h)) {
    run->pts.push_back(GST_BUFFER_PTS(out));
    run->outputs.push_back(describe(out));
    gst_buffer_unref(out);
  }
}

void push_segment(Harness& hz) {
  GstSegment segment;
  gst_segment_init(&segment, GST_FORMAT_TIME);
  ASSERT_TRUE(gst_harness_push_event(hz.h, gst_event_new_segment(&segment)));
}

// The scenario on `backend` with `depth` frames in flight (-1: the element's default), frames made
// from `seed`.
Outcome run_scenario(const char* backend, int depth, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<TestPlane> gray = panned_frames(rng, SampleType::kU8, kCapsAt);
  const std::vector<TestPlane> yuv = panned_frames(rng, SampleType::kU8, kFrames - kCapsAt, kW2, kH2);
  const std::string path = temporary_file();
  EXPECT_FALSE(path.empty());
  Outcome run;
  {
    Harness hz("dpxmotionest", backend);
    g_object_set(hz.h->element, "frames-in-flight", depth, "location", path.c_str(), "post-messages", TRUE,
                 "search-range", 6, nullptr);
    gst_harness_set_src_caps(hz.h, caps_of(GST_VIDEO_FORMAT_GRAY8, kW, kH));
    for (int i = 0; i < kFrames; ++i) {
      if (i == kFlushAt) {
        EXPECT_TRUE(gst_harness_push_event(hz.h, gst_event_new_flush_start()));
        EXPECT_TRUE(gst_harness_push_event(hz.h, gst_event_new_flush_stop(TRUE)));
        push_segment(hz);
      }
      if (i == kDrawFrom) g_object_set(hz.h->element, "draw", TRUE, nullptr);
      if (i == kCapsAt) gst_harness_set_src_caps(hz.h, caps_of(GST_VIDEO_FORMAT_I420, kW2, kH2));
      if (i == kSettingsAt)
        g_object_set(hz.h->element, "block-size", 8, "subpel", 2 /* quarter */, "lambda", 3, nullptr);
      GstBuffer* buf = i < kCapsAt ? make_buffer(GST_VIDEO_FORMAT_GRAY8, gray[i], i)
                                   : make_buffer(GST_VIDEO_FORMAT_I420, yuv[i - kCapsAt], i);
      if (i == kDiscontAt) GST_BUFFER_FLAG_SET(buf, GST_BUFFER_FLAG_DISCONT);
      EXPECT_EQ(gst_harness_push(hz.h, buf), GST_FLOW_OK) << "frame " << i << ": " << hz.pop_error();
      pull_outputs(hz, &run);
      if (i == 3) {
        GstQuery* q = gst_query_new_latency();
        EXPECT_TRUE(gst_pad_peer_query(hz.h->sinkpad, q));
        gboolean live = FALSE;
        GstClockTime max = 0;
        gst_query_parse_latency(q, &live, &run.latency, &max);
        gst_query_unref(q);
      }
    }
    EXPECT_TRUE(gst_harness_push_event(hz.h, gst_event_new_eos()));
    pull_outputs(hz, &run);
    while (GstMessage* msg = gst_bus_pop_filtered(hz.bus, GST_MESSAGE_ELEMENT)) {
      gchar* text = gst_structure_to_string(gst_message_get_structure(msg));
      run.messages.push_back(text);
      g_free(text);
      gst_message_unref(msg);
    }
    EXPECT_EQ(hz.pop_error(), "");
  }  // teardown stops the element, which closes the file
  run.file = read_file(path);
  std::remove(path.c_str());
  return run;
}

GstClockTime frame_pts(int i) { return static_cast<GstClockTime>(i) * 10 * GST_MSECOND; }

// One frame at a time gives every frame once, in order, with a line for each frame that has a
// reference: the baseline the other depths are held to.
TEST(MotionInFlight, OneFrameAtATimeReportsEveryFrameWithAReference) {
  const std::uint64_t seed = seeded_rng()();  // both runs make the same frames from it
  const Outcome base = run_scenario("cpu", 0, seed);
  ASSERT_EQ(base.pts.size(), static_cast<std::size_t>(kFrames));
  for (int i = 0; i < kFrames; ++i) EXPECT_EQ(base.pts[i], frame_pts(i));
  // No reference: frame 0, the DISCONT frame, the first after the flush and after the caps change.
  const int without = 4;
  std::vector<long long> numbers;
  std::istringstream lines(base.file);
  for (std::string line; std::getline(lines, line);) numbers.push_back(parse_line(line).frame);
  ASSERT_EQ(numbers.size(), static_cast<std::size_t>(kFrames - without));
  for (std::size_t i = 1; i < numbers.size(); ++i) EXPECT_LT(numbers[i - 1], numbers[i]);
  EXPECT_EQ(numbers.back(), kFrames - 1);
  EXPECT_EQ(base.messages.size(), numbers.size());
  EXPECT_EQ(base.latency, 0u);
}

class MotionInFlightDepth : public ::testing::TestWithParam<std::pair<const char*, int>> {
 protected:
  void SetUp() override {
    if (std::string(GetParam().first) == "cuda") DPX_REQUIRE_GPU();
  }
};

TEST_P(MotionInFlightDepth, ReportsAreThoseOfOneFrameAtATime) {
  const char* backend = GetParam().first;
  const int depth = GetParam().second;
  const std::uint64_t seed = seeded_rng()();  // both runs make the same frames from it
  const Outcome base = run_scenario("cpu", 0, seed);
  const Outcome run = run_scenario(backend, depth, seed);

  EXPECT_EQ(run.file, base.file) << "the JSON lines differ from one frame at a time";
  EXPECT_EQ(run.messages, base.messages) << "the messages differ from one frame at a time";

  // The outputs: those of one frame at a time, less the frames in flight at the flush.
  const int held = depth >= 0 ? depth : static_cast<int>(run.latency / (GST_SECOND / 30));
  if (depth >= 0) {
    EXPECT_EQ(run.latency, gst_util_uint64_scale_int(depth * GST_SECOND, 1, 30));
  }
  EXPECT_GE(held, 0);
  std::size_t b = 0;
  for (std::size_t r = 0; r < run.pts.size(); ++r) {
    while (b < base.pts.size() && base.pts[b] != run.pts[r]) {
      // Only frames in flight when the flush came may be missing.
      EXPECT_GE(base.pts[b], frame_pts(kFlushAt - held)) << "frame at " << base.pts[b] << " lost";
      EXPECT_LT(base.pts[b], frame_pts(kFlushAt)) << "frame at " << base.pts[b] << " lost";
      ++b;
    }
    ASSERT_LT(b, base.pts.size()) << "output " << r << " (pts " << run.pts[r] << ") is out of order or duplicated";
    EXPECT_EQ(run.outputs[r], base.outputs[b]) << "pts " << run.pts[r];
    ++b;
  }
  EXPECT_EQ(b, base.pts.size()) << "frames missing at the end";
  EXPECT_EQ(run.pts.size(), base.pts.size() - static_cast<std::size_t>(held));
}

std::string depth_name(const ::testing::TestParamInfo<std::pair<const char*, int>>& info) {
  return std::string(info.param.first) + "_depth" +
         (info.param.second < 0 ? std::string("auto") : std::to_string(info.param.second));
}

INSTANTIATE_TEST_SUITE_P(Cpu, MotionInFlightDepth,
                         ::testing::Values(std::make_pair("cpu", 0), std::make_pair("cpu", 1),
                                           std::make_pair("cpu", 2), std::make_pair("cpu", 3)),
                         depth_name);
INSTANTIATE_TEST_SUITE_P(Cuda, MotionInFlightDepth,
                         ::testing::Values(std::make_pair("cuda", -1), std::make_pair("cuda", 0),
                                           std::make_pair("cuda", 2)),
                         depth_name);

}  // namespace
}  // namespace test
}  // namespace dpx
