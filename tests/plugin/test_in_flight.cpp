// Frames in flight (`frames-in-flight`, gstdpxinflight.h): the element holds frames while their
// work runs and must still give, frame for frame, what one frame at a time gives — across caps
// changes, flushes and EOS, with timestamps, flags and metas kept — and report the latency it adds.
// The queue logic is the same on every backend, so the CPU runs it here with depths forced by the
// property; on a GPU the CUDA backend runs it with its automatic depth and 1,000 frames.
#include <gtest/gtest.h>

#include <gst/check/gstharness.h>

#include <algorithm>
#include <map>
#include <string>

#include "frames.h"
#include "gstdpxinflight.h"
#include "plugin_env.h"

namespace dpx {
namespace test {
namespace {

// The queue itself: a frame never gets the slot of one still in flight, and frames leave in order.
TEST(InFlightQueue, SlotsNeverCollideAndFramesLeaveInOrder) {
  for (unsigned depth : {0u, 1u, 2u, 5u}) {
    gstdpx::InFlightQueue q;
    q.set_depth(depth);
    std::map<unsigned, int> busy;  // slot -> frame using it
    int next_out = 0;
    for (int frame = 0; frame < 40; ++frame) {
      gstdpx::InFlightFrame f;
      f.slot = q.next_slot();
      ASSERT_EQ(busy.count(f.slot), 0u) << "depth " << depth << " frame " << frame << " slot " << f.slot;
      busy[f.slot] = frame;
      f.out = reinterpret_cast<GstBuffer*>(static_cast<std::uintptr_t>(frame + 1));  // a tag, never used
      q.push(f);
      ASSERT_LE(q.size(), depth + 1u);
      while (q.over_depth()) {
        const gstdpx::InFlightFrame done = q.pop();
        ASSERT_EQ(reinterpret_cast<std::uintptr_t>(done.out), static_cast<std::uintptr_t>(next_out + 1));
        busy.erase(done.slot);
        ++next_out;
      }
      ASSERT_EQ(q.size(), std::min<std::size_t>(depth, frame + 1));
    }
  }
}

TEST(InFlightQueue, LatencyIsDepthFrameDurations) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_NV12, 64, 48);
  GST_VIDEO_INFO_FPS_N(&info) = 30000;
  GST_VIDEO_INFO_FPS_D(&info) = 1001;
  EXPECT_EQ(gstdpx::in_flight_latency(0, info), 0u);
  EXPECT_EQ(gstdpx::in_flight_latency(2, info), gst_util_uint64_scale_int(2 * GST_SECOND, 1001, 30000));
  GST_VIDEO_INFO_FPS_N(&info) = 0;  // variable rate: no duration to name
  EXPECT_EQ(gstdpx::in_flight_latency(2, info), 0u);
}

struct InFlightCase {
  const char* backend;
  int depth;  // the property; -1 automatic
  int frames;
};

std::string case_name(const ::testing::TestParamInfo<InFlightCase>& info) {
  return std::string(info.param.backend) + "_depth" +
         (info.param.depth < 0 ? std::string("auto") : std::to_string(info.param.depth));
}

class InFlight : public ::testing::TestWithParam<InFlightCase> {
 protected:
  void SetUp() override {
    if (std::string(GetParam().backend) == "cuda") DPX_REQUIRE_GPU();
  }
};

// What a pushed frame must come back as.
struct Expected {
  Frame frame;
  GstVideoInfo info;
  GstVideoFormat format;
  GstClockTime duration;
  bool discont;
};

GstCaps* caps_at(GstVideoFormat format, int w, int h) {
  GstCaps* caps = caps_for(format, w, h);
  gst_caps_set_simple(caps, "framerate", GST_TYPE_FRACTION, 30, 1, nullptr);
  return caps;
}

void push_segment(GstHarness* h) {
  GstSegment segment;
  gst_segment_init(&segment, GST_FORMAT_TIME);
  gst_harness_push_event(h, gst_event_new_segment(&segment));
}

// Pulls every output the harness holds and checks each against the frame pushed with its PTS:
// pixels, duration, flags and the reference-timestamp meta; outputs come in PTS order.
void check_outputs(Harness& hz, std::map<GstClockTime, Expected>& pending, GstClockTime* last_pts, int* seen) {
  GstBuffer* out;
  while ((out = gst_harness_try_pull(hz.h)) != nullptr) {
    const GstClockTime pts = GST_BUFFER_PTS(out);
    auto it = pending.find(pts);
    ASSERT_NE(it, pending.end()) << "output with pts " << pts << " was never pushed, or came twice";
    ASSERT_TRUE(*last_pts == GST_CLOCK_TIME_NONE || pts > *last_pts) << "out of order at pts " << pts;
    const Expected& e = it->second;
    const Frame got = buffer_to_frame(out, e.info, format_case(e.format));
    std::string why;
    EXPECT_TRUE(frames_equal(got, e.frame, &why)) << "pts " << pts << ": " << why;
    EXPECT_EQ(GST_BUFFER_DURATION(out), e.duration) << "pts " << pts;
    EXPECT_EQ(GST_BUFFER_FLAG_IS_SET(out, GST_BUFFER_FLAG_DISCONT), e.discont) << "pts " << pts;
    GstReferenceTimestampMeta* meta = gst_buffer_get_reference_timestamp_meta(out, nullptr);
    ASSERT_NE(meta, nullptr) << "pts " << pts << ": meta lost";
    EXPECT_EQ(meta->timestamp, pts + 7) << "pts " << pts;
    gst_buffer_unref(out);
    *last_pts = pts;
    pending.erase(it);
    ++*seen;
  }
}

// A sequence of frames through dpxerode with caps changes (format and size), flushes and EOS:
// every frame that is not dropped by a flush comes out once, in order, equal to libdpx's result.
TEST_P(InFlight, SequenceMatchesOneFrameAtATime) {
  const InFlightCase c = GetParam();
  auto rng = seeded_rng();
  Harness hz("dpxerode", c.backend);
  g_object_set(hz.h->element, "frames-in-flight", c.depth, "size", 5, nullptr);
  GstCaps* ref_caps = gst_caps_from_string("timestamp/x-test");
  const MorphParams p = morph_params(MorphOp::kErode, 5);
  const struct {
    GstVideoFormat format;
    int w, h;
  } shapes[] = {{GST_VIDEO_FORMAT_NV12, 64, 36}, {GST_VIDEO_FORMAT_I420, 47, 29}, {GST_VIDEO_FORMAT_RGBA, 33, 17},
                {GST_VIDEO_FORMAT_P010_10LE, 40, 22}};
  std::map<GstClockTime, Expected> pending;
  GstClockTime last_pts = GST_CLOCK_TIME_NONE;
  int seen = 0, dropped = 0, shape = -1, since_drain = 0;
  GstVideoInfo info;
  gst_harness_play(hz.h);
  for (int i = 0; i < c.frames; ++i) {
    if (i % 97 == 0) {  // a caps change: the frames in flight leave first
      shape = (shape + 1) % 4;
      gst_harness_set_src_caps(hz.h, caps_at(shapes[shape].format, shapes[shape].w, shapes[shape].h));
      GstCaps* caps = caps_at(shapes[shape].format, shapes[shape].w, shapes[shape].h);
      gst_video_info_from_caps(&info, caps);
      gst_caps_unref(caps);
      check_outputs(hz, pending, &last_pts, &seen);
      ASSERT_TRUE(pending.empty()) << "frame " << i << ": a caps change left " << pending.size() << " frames inside";
      since_drain = 0;
    }
    if (i % 131 == 130) {  // a flushing seek: the frames in flight are dropped
      gst_harness_push_event(hz.h, gst_event_new_flush_start());
      gst_harness_push_event(hz.h, gst_event_new_flush_stop(TRUE));
      push_segment(hz.h);
      check_outputs(hz, pending, &last_pts, &seen);
      dropped += static_cast<int>(pending.size());
      ASSERT_LE(pending.size(), 8u);
      pending.clear();
      since_drain = 0;
    }
    const FormatCase& fc = format_case(shapes[shape].format);
    const Frame in = random_frame(rng, fc, shapes[shape].w, shapes[shape].h, 4);
    GstBuffer* buf = frame_to_buffer(in, fc.format, shapes[shape].w, shapes[shape].h);
    const GstClockTime pts = static_cast<GstClockTime>(i) * GST_SECOND / 30;
    GST_BUFFER_PTS(buf) = pts;
    GST_BUFFER_DURATION(buf) = GST_SECOND / 30 + i;  // distinct per frame
    const bool discont = i % 13 == 5;
    if (discont) GST_BUFFER_FLAG_SET(buf, GST_BUFFER_FLAG_DISCONT);
    gst_buffer_add_reference_timestamp_meta(buf, ref_caps, pts + 7, GST_CLOCK_TIME_NONE);
    pending[pts] = Expected{reference(in, p), info, fc.format, GST_BUFFER_DURATION(buf), discont};
    ASSERT_EQ(gst_harness_push(hz.h, buf), GST_FLOW_OK) << "frame " << i << ": " << hz.pop_error();
    check_outputs(hz, pending, &last_pts, &seen);
    ++since_drain;
    if (c.depth >= 0) {
      ASSERT_EQ(pending.size(), static_cast<std::size_t>(std::min(c.depth, since_drain))) << "frame " << i;
    }
  }
  ASSERT_TRUE(gst_harness_push_event(hz.h, gst_event_new_eos()));
  check_outputs(hz, pending, &last_pts, &seen);
  EXPECT_TRUE(pending.empty()) << pending.size() << " frames never came out after EOS";
  EXPECT_EQ(seen + dropped, c.frames);
  EXPECT_EQ(hz.pop_error(), "");
  gst_caps_unref(ref_caps);
}

// The LATENCY query adds one frame duration per frame in flight to upstream's latency.
TEST_P(InFlight, LatencyQueryAddsTheFramesInFlight) {
  const InFlightCase c = GetParam();
  auto rng = seeded_rng();
  Harness hz("dpxdilate", c.backend);
  g_object_set(hz.h->element, "frames-in-flight", c.depth, nullptr);
  gst_harness_set_src_caps(hz.h, caps_at(GST_VIDEO_FORMAT_NV12, 32, 16));
  gst_harness_play(hz.h);
  const FormatCase& fc = format_case(GST_VIDEO_FORMAT_NV12);
  for (int i = 0; i < 3; ++i) {
    GstBuffer* buf = frame_to_buffer(random_frame(rng, fc, 32, 16), fc.format, 32, 16);
    GST_BUFFER_PTS(buf) = i * GST_SECOND / 30;
    ASSERT_EQ(gst_harness_push(hz.h, buf), GST_FLOW_OK) << hz.pop_error();
  }
  const int held = 3 - static_cast<int>(gst_harness_buffers_in_queue(hz.h));
  if (c.depth >= 0) {
    EXPECT_EQ(held, std::min(c.depth, 3));
  }
  GstQuery* q = gst_query_new_latency();
  ASSERT_TRUE(gst_pad_peer_query(hz.h->sinkpad, q));
  GstClockTime min = 0, max = 0;
  gboolean live = FALSE;
  gst_query_parse_latency(q, &live, &min, &max);
  gst_query_unref(q);
  EXPECT_EQ(min, gst_util_uint64_scale_int(held * GST_SECOND, 1, 30));
}

INSTANTIATE_TEST_SUITE_P(Cpu, InFlight,
                         ::testing::Values(InFlightCase{"cpu", 0, 300}, InFlightCase{"cpu", 1, 300},
                                           InFlightCase{"cpu", 3, 300}),
                         case_name);
INSTANTIATE_TEST_SUITE_P(Cuda, InFlight,
                         ::testing::Values(InFlightCase{"cuda", -1, 1000}, InFlightCase{"cuda", 0, 300},
                                           InFlightCase{"cuda", 2, 1000}),
                         case_name);

// The CPU backend's default keeps nothing in flight: each frame comes out as it goes in.
TEST(InFlightDefaults, CpuHoldsNothing) {
  auto rng = seeded_rng();
  Harness hz("dpxdilate", "cpu");
  gst_harness_set_src_caps(hz.h, caps_at(GST_VIDEO_FORMAT_I420, 20, 10));
  gst_harness_play(hz.h);
  const FormatCase& fc = format_case(GST_VIDEO_FORMAT_I420);
  ASSERT_EQ(gst_harness_push(hz.h, frame_to_buffer(random_frame(rng, fc, 20, 10), fc.format, 20, 10)), GST_FLOW_OK);
  EXPECT_EQ(gst_harness_buffers_in_queue(hz.h), 1u);
}

}  // namespace
}  // namespace test
}  // namespace dpx
