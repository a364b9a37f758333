// Flow robustness of every element (dpxdeshake with a lookahead of 2) with frames in flight, in the
// manner of gst-check: flushing seeks, EOS draining, caps renegotiated every few frames,
// READY <-> PLAYING cycled 1,000 times with frames held at each stop, properties changed from another
// thread while frames stream, a downstream that returns FLUSHING / NOT_LINKED / ERROR mid-stream, and
// appsrc with a BYTES segment. Every input buffer is watched: none may outlive the element (no leak),
// and no GLib warning or critical may be logged. The CPU runs each at a forced depth (the logic is the
// base class's on every backend); on a GPU the CUDA backend runs them at its automatic depth.
#include <gtest/gtest.h>

#include <gst/app/gstappsrc.h>
#include <gst/check/gstharness.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "app_pipeline.h"
#include "buffer_watch.h"
#include "frames.h"
#include "plugin_env.h"
#include "test_util.h"

namespace dpx {
namespace test {
namespace {

struct FlowCase {
  const char* factory;
  const char* backend;
  int depth;             // frames-in-flight; -1 the element's default
  const char* settings;  // "name=value" of the element's own, or nullptr
  int held;              // frames the element holds beyond those in flight (dpxdeshake's lookahead)
};

std::string flow_name(const ::testing::TestParamInfo<FlowCase>& info) {
  return std::string(info.param.factory) + "_" + info.param.backend + "_depth" +
         (info.param.depth < 0 ? std::string("auto") : std::to_string(info.param.depth));
}

class Flow : public ::testing::TestWithParam<FlowCase> {
 protected:
  void SetUp() override {
    if (std::string(GetParam().backend) == "cuda") DPX_REQUIRE_GPU();
  }
  // The case's depth and settings on `element`.
  void configure(GstElement* element) {
    g_object_set(element, "frames-in-flight", GetParam().depth, nullptr);
    if (GetParam().settings != nullptr) {
      const std::string kv = GetParam().settings;
      gst_util_set_object_arg(G_OBJECT(element), kv.substr(0, kv.find('=')).c_str(),
                              kv.substr(kv.find('=') + 1).c_str());
    }
  }
  // A harness around the element with the case's backend and depth.
  std::unique_ptr<Harness> make_harness() {
    auto hz = std::make_unique<Harness>(GetParam().factory, GetParam().backend);
    configure(hz->h->element);
    return hz;
  }
  GstBuffer* frame(int w, int h, GstVideoFormat format, int index) {
    const FormatCase& fc = format_case(format);
    GstBuffer* buf = watch_.watch(frame_to_buffer(random_frame(rng_, fc, w, h), format, w, h));
    GST_BUFFER_PTS(buf) = static_cast<GstClockTime>(index) * GST_SECOND / 30;
    GST_BUFFER_DURATION(buf) = GST_SECOND / 30;
    return buf;
  }
  GstCaps* caps(GstVideoFormat format, int w, int h) {
    GstCaps* c = caps_for(format, w, h);
    gst_caps_set_simple(c, "framerate", GST_TYPE_FRACTION, 30, 1, nullptr);
    return c;
  }
  // Pulls every output, checking that timestamps only grow; returns how many came.
  int pull_all(GstHarness* h, GstClockTime* last) {
    int n = 0;
    while (GstBuffer* out = gst_harness_try_pull(h)) {
      EXPECT_TRUE(*last == GST_CLOCK_TIME_NONE || GST_BUFFER_PTS(out) > *last)
          << "pts " << GST_BUFFER_PTS(out) << " after " << *last;
      *last = GST_BUFFER_PTS(out);
      gst_buffer_unref(out);
      ++n;
    }
    return n;
  }
  void expect_clean_end() {
    EXPECT_EQ(watch_.alive(), 0) << "input buffers leaked";
    for (const std::string& m : watch_.logged()) ADD_FAILURE() << "logged: " << m;
  }

  std::mt19937_64 rng_ = seeded_rng();
  Watch watch_;
};

void push_segment(GstHarness* h) {
  GstSegment segment;
  gst_segment_init(&segment, GST_FORMAT_TIME);
  ASSERT_TRUE(gst_harness_push_event(h, gst_event_new_segment(&segment)));
}

TEST_P(Flow, FlushingSeeksAndEosWithFramesInFlight) {
  {
    auto hz = make_harness();
    gst_harness_set_src_caps(hz->h, caps(GST_VIDEO_FORMAT_NV12, 64, 48));
    GstClockTime last = GST_CLOCK_TIME_NONE;
    int out = 0, in = 0;
    for (int seek = 0; seek < 5; ++seek) {
      for (int i = 0; i < 4 + seek; ++i, ++in)
        ASSERT_EQ(gst_harness_push(hz->h, frame(64, 48, GST_VIDEO_FORMAT_NV12, in)), GST_FLOW_OK) << hz->pop_error();
      out += pull_all(hz->h, &last);
      ASSERT_TRUE(gst_harness_push_event(hz->h, gst_event_new_flush_start()));
      ASSERT_TRUE(gst_harness_push_event(hz->h, gst_event_new_flush_stop(TRUE)));
      push_segment(hz->h);
      EXPECT_EQ(pull_all(hz->h, &last), 0) << "a frame in flight was pushed after the flush";
      if (GetParam().depth >= 0) {
        EXPECT_EQ(out, in - std::min(GetParam().depth + GetParam().held, 4 + seek)) << "seek " << seek;
      }
      out = in;  // the dropped frames are accounted for
    }
    for (int i = 0; i < 6; ++i, ++in)
      ASSERT_EQ(gst_harness_push(hz->h, frame(64, 48, GST_VIDEO_FORMAT_NV12, in)), GST_FLOW_OK) << hz->pop_error();
    ASSERT_TRUE(gst_harness_push_event(hz->h, gst_event_new_eos()));
    out += pull_all(hz->h, &last);
    EXPECT_EQ(out, in) << "frames missing after EOS";
    EXPECT_EQ(hz->pop_error(), "");
  }
  expect_clean_end();
}

TEST_P(Flow, CapsRenegotiatedEveryFewFrames) {
  const struct {
    GstVideoFormat format;
    int w, h;
  } shapes[] = {{GST_VIDEO_FORMAT_NV12, 64, 48}, {GST_VIDEO_FORMAT_I420, 79, 55}, {GST_VIDEO_FORMAT_NV12, 96, 64}};
  {
    auto hz = make_harness();
    GstClockTime last = GST_CLOCK_TIME_NONE;
    int out = 0;
    const int frames = 60;
    std::vector<gsize> in_sizes;
    for (int i = 0; i < frames; ++i) {
      const auto& s = shapes[(i / 3) % 3];
      if (i % 3 == 0) gst_harness_set_src_caps(hz->h, caps(s.format, s.w, s.h));
      GstBuffer* buf = frame(s.w, s.h, s.format, i);
      in_sizes.push_back(gst_buffer_get_size(buf));
      ASSERT_EQ(gst_harness_push(hz->h, buf), GST_FLOW_OK) << "frame " << i << ": " << hz->pop_error();
      while (GstBuffer* o = gst_harness_try_pull(hz->h)) {
        // Each output has its input's shape (its bytes passed through, or a new frame laid out by
        // its caps): frames never cross a caps change.
        const int from = static_cast<int>(gst_util_uint64_scale_round(GST_BUFFER_PTS(o), 30, GST_SECOND));
        const auto& was = shapes[(from / 3) % 3];
        GstVideoInfo info;
        gst_video_info_set_format(&info, was.format, was.w, was.h);
        const gsize size = gst_buffer_get_size(o);
        EXPECT_TRUE(size == in_sizes[from] || size == GST_VIDEO_INFO_SIZE(&info)) << "output of frame " << from;
        EXPECT_TRUE(last == GST_CLOCK_TIME_NONE || GST_BUFFER_PTS(o) > last);
        last = GST_BUFFER_PTS(o);
        gst_buffer_unref(o);
        ++out;
      }
    }
    ASSERT_TRUE(gst_harness_push_event(hz->h, gst_event_new_eos()));
    out += pull_all(hz->h, &last);
    EXPECT_EQ(out, frames);
    EXPECT_EQ(hz->pop_error(), "");
  }
  expect_clean_end();
}

// Also: every start on CUDA runs in the context of the first (none is made per start).
TEST_P(Flow, ReadyPlayingCycledAThousandTimesWithFramesHeld) {
  {
    auto hz = make_harness();
    // Held, so that no later context can take its address.
    GObject* context = element_cuda_context(hz->h->element);
    if (std::string(GetParam().backend) == "cuda") {
      ASSERT_NE(context, nullptr) << "no CUDA context after the start";
    }
    if (context != nullptr) g_object_ref(context);
    GstClockTime last = GST_CLOCK_TIME_NONE;
    for (int cycle = 0; cycle < 1000; ++cycle) {
      ASSERT_EQ(gst_element_set_state(hz->h->element, GST_STATE_PLAYING), GST_STATE_CHANGE_SUCCESS) << cycle;
      ASSERT_EQ(element_cuda_context(hz->h->element), context) << "cycle " << cycle << ": another CUDA context";
      gst_harness_push_event(hz->h, gst_event_new_stream_start("cycle"));
      gst_harness_set_src_caps(hz->h, caps(GST_VIDEO_FORMAT_NV12, 64, 48));
      push_segment(hz->h);
      for (int i = 0; i < 2; ++i)
        ASSERT_EQ(gst_harness_push(hz->h, frame(64, 48, GST_VIDEO_FORMAT_NV12, i)), GST_FLOW_OK)
            << "cycle " << cycle << ": " << hz->pop_error();
      last = GST_CLOCK_TIME_NONE;
      pull_all(hz->h, &last);
      ASSERT_EQ(gst_element_set_state(hz->h->element, GST_STATE_READY), GST_STATE_CHANGE_SUCCESS) << cycle;
      ASSERT_EQ(watch_.alive(), 0) << "cycle " << cycle << ": frames held across a stop";
    }
    if (context != nullptr) g_object_unref(context);
    EXPECT_EQ(hz->pop_error(), "");
  }
  expect_clean_end();
}

// The CUDA context an element makes at its first start serves every later READY <-> PLAYING cycle,
// and once the element is back in NULL and freed nothing holds it any more: no buffer pool, pinned
// block, host registration or message. The element finds its own context here (a harness without
// the shared one). A suite of its own, of the CUDA cases only: the CPU backend has no context.
class CudaFlow : public Flow {};

TEST_P(CudaFlow, CudaContextKeptAcrossCyclesAndFreedWithTheElement) {
  GstElement* element = gst_element_factory_make(GetParam().factory, nullptr);
  gst_util_set_object_arg(G_OBJECT(element), "backend", "cuda");
  configure(element);
  GstHarness* h = gst_harness_new_with_element(element, "sink", "src");  // started, PLAYING
  gst_object_unref(element);
  GObject* context = element_cuda_context(h->element);
  ASSERT_NE(context, nullptr) << "no CUDA context after the start";
  GWeakRef weak;
  g_weak_ref_init(&weak, context);
  // The first context is still alive and still the element's (a weak reference: a new context
  // may take a freed one's address).
  const auto first_context_kept = [&] {
    GObject* first = static_cast<GObject*>(g_weak_ref_get(&weak));
    const bool kept = first != nullptr && first == element_cuda_context(h->element);
    if (first != nullptr) g_object_unref(first);
    return kept;
  };
  for (int cycle = 0; cycle < 3; ++cycle) {
    if (cycle > 0) {
      ASSERT_EQ(gst_element_set_state(h->element, GST_STATE_PLAYING), GST_STATE_CHANGE_SUCCESS) << cycle;
    }
    gst_harness_push_event(h, gst_event_new_stream_start("cycle"));
    gst_harness_set_src_caps(h, caps(GST_VIDEO_FORMAT_NV12, 64, 48));
    push_segment(h);
    for (int i = 0; i < 2; ++i)
      ASSERT_EQ(gst_harness_push(h, frame(64, 48, GST_VIDEO_FORMAT_NV12, i)), GST_FLOW_OK) << "cycle " << cycle;
    EXPECT_TRUE(first_context_kept()) << "cycle " << cycle << ": another CUDA context";
    GstClockTime last = GST_CLOCK_TIME_NONE;
    pull_all(h, &last);
    ASSERT_EQ(gst_element_set_state(h->element, GST_STATE_READY), GST_STATE_CHANGE_SUCCESS) << cycle;
  }
  gst_harness_teardown(h);  // to NULL, and the element freed
  auto* left = static_cast<GObject*>(g_weak_ref_get(&weak));
  EXPECT_EQ(left, nullptr) << "the CUDA context outlived its element";
  if (left != nullptr) g_object_unref(left);
  g_weak_ref_clear(&weak);
  expect_clean_end();
}

// Settings and frames-in-flight changed from another thread while frames stream.
TEST_P(Flow, PropertiesChangedFromAnotherThreadWhilePlaying) {
  {
    auto hz = make_harness();
    gst_harness_set_src_caps(hz->h, caps(GST_VIDEO_FORMAT_NV12, 64, 48));
    GstElement* element = hz->h->element;
    const std::string factory = GetParam().factory;
    std::atomic<bool> done{false};
    std::thread changer([&] {
      for (int k = 0; !done; ++k) {
        g_object_set(element, "frames-in-flight", k % 4 == 3 ? -1 : k % 4, nullptr);
        if (factory == "dpxmotionest")
          g_object_set(element, "block-size", k % 2 == 0 ? 8 : 16, "search-range", 1 + k % 7, "draw", k % 3 == 0,
                       nullptr);
        else if (factory == "dpxdeshake")
          g_object_set(element, "smoothing", k % 4, "max-shift", 1.0 + k % 9, nullptr);
        else
          g_object_set(element, "iterations", 1 + k % 2, nullptr);
        std::this_thread::yield();
      }
    });
    GstClockTime last = GST_CLOCK_TIME_NONE;
    int out = 0;
    const int frames = 300;
    for (int i = 0; i < frames; ++i) {
      ASSERT_EQ(gst_harness_push(hz->h, frame(64, 48, GST_VIDEO_FORMAT_NV12, i)), GST_FLOW_OK) << hz->pop_error();
      out += pull_all(hz->h, &last);
    }
    done = true;
    changer.join();
    ASSERT_TRUE(gst_harness_push_event(hz->h, gst_event_new_eos()));
    out += pull_all(hz->h, &last);
    EXPECT_EQ(out, frames);
    EXPECT_EQ(hz->pop_error(), "");
  }
  expect_clean_end();
}

// The element's src pad linked to a pad whose chain returns `ret` (OK until changed).
struct Downstream {
  GstPad* pad = nullptr;
  std::atomic<GstFlowReturn> ret{GST_FLOW_OK};
  std::atomic<int> got{0};
  static GstFlowReturn chain(GstPad* pad, GstObject*, GstBuffer* buf) {
    auto* self = static_cast<Downstream*>(g_object_get_data(G_OBJECT(pad), "downstream"));
    gst_buffer_unref(buf);
    const GstFlowReturn r = self->ret;
    if (r == GST_FLOW_OK) ++self->got;
    return r;
  }
};

TEST_P(Flow, DownstreamFlowErrorsMidStream) {
  for (GstFlowReturn failure : {GST_FLOW_FLUSHING, GST_FLOW_NOT_LINKED, GST_FLOW_ERROR}) {
    SCOPED_TRACE(gst_flow_get_name(failure));
    {
      auto hz = make_harness();
      // Replace the harness's sink: our pad answers with the flow under test.
      Downstream down;
      down.pad = gst_pad_new("sink", GST_PAD_SINK);
      g_object_set_data(G_OBJECT(down.pad), "downstream", &down);
      gst_pad_set_chain_function(down.pad, &Downstream::chain);
      GstPad* src = gst_element_get_static_pad(hz->h->element, "src");
      GstPad* peer = gst_pad_get_peer(src);
      gst_pad_unlink(src, peer);
      gst_pad_set_active(down.pad, TRUE);
      ASSERT_EQ(gst_pad_link(src, down.pad), GST_PAD_LINK_OK);
      gst_harness_set_src_caps(hz->h, caps(GST_VIDEO_FORMAT_NV12, 64, 48));
      int in = 0;
      for (; in < 6; ++in) EXPECT_EQ(gst_harness_push(hz->h, frame(64, 48, GST_VIDEO_FORMAT_NV12, in)), GST_FLOW_OK);
      down.ret = failure;
      GstFlowReturn seen = GST_FLOW_OK;
      for (int i = 0; i < 6 && seen == GST_FLOW_OK; ++i, ++in)
        seen = gst_harness_push(hz->h, frame(64, 48, GST_VIDEO_FORMAT_NV12, in));
      EXPECT_EQ(seen, failure) << "the downstream flow must reach upstream";
      // Downstream recovers (after a flush for FLUSHING, as a seek would): frames flow again.
      down.ret = GST_FLOW_OK;
      gst_harness_push_event(hz->h, gst_event_new_flush_start());
      gst_harness_push_event(hz->h, gst_event_new_flush_stop(TRUE));
      push_segment(hz->h);
      const int before = down.got;
      for (int i = 0; i < 4; ++i, ++in)
        EXPECT_EQ(gst_harness_push(hz->h, frame(64, 48, GST_VIDEO_FORMAT_NV12, in)), GST_FLOW_OK) << hz->pop_error();
      EXPECT_TRUE(gst_harness_push_event(hz->h, gst_event_new_eos()));
      EXPECT_EQ(down.got - before, 4);
      gst_element_set_state(hz->h->element, GST_STATE_NULL);
      gst_pad_unlink(src, down.pad);
      gst_pad_link(src, peer);
      gst_object_unref(peer);
      gst_object_unref(src);
      gst_pad_set_active(down.pad, FALSE);
      gst_object_unref(down.pad);
      hz->pop_error();  // ERROR from downstream may come with an element error of upstream's
    }
    EXPECT_EQ(watch_.alive(), 0) << "input buffers leaked";
  }
  for (const std::string& m : watch_.logged()) ADD_FAILURE() << "logged: " << m;
}

// appsrc in BYTES format (a raw file read as bytes): the element runs and logs nothing.
TEST_P(Flow, AppsrcWithABytesSegmentLogsNothing) {
  if (!have_factory("appsrc")) GTEST_SKIP() << "no appsrc";
  const std::string desc = std::string("appsrc name=src format=bytes ! ") + GetParam().factory +
                           " backend=" + GetParam().backend + " frames-in-flight=" +
                           std::to_string(GetParam().depth) + " " + (GetParam().settings ? GetParam().settings : "") +
                           " ! fakesink name=sink";
  GError* err = nullptr;
  GstElement* pipeline = gst_parse_launch(desc.c_str(), &err);
  ASSERT_NE(pipeline, nullptr) << (err ? err->message : "");
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  GstCaps* c = caps(GST_VIDEO_FORMAT_NV12, 64, 48);
  gst_app_src_set_caps(GST_APP_SRC(src), c);
  gst_caps_unref(c);
  ASSERT_NE(gst_element_set_state(pipeline, GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE);
  GstVideoInfo info;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_NV12, 64, 48);
  for (int i = 0; i < 10; ++i) {
    // Plain bytes without timestamps or video meta, as a file reader gives them.
    GstBuffer* buf = watch_.watch(gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr));
    gst_buffer_memset(buf, 0, static_cast<guint8>(0x40 + 9 * i), GST_VIDEO_INFO_SIZE(&info));
    ASSERT_EQ(gst_app_src_push_buffer(GST_APP_SRC(src), buf), GST_FLOW_OK);
  }
  gst_app_src_end_of_stream(GST_APP_SRC(src));
  GstBus* bus = gst_element_get_bus(pipeline);
  GstMessage* m = gst_bus_timed_pop_filtered(bus, 10 * GST_SECOND,
                                             static_cast<GstMessageType>(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  ASSERT_NE(m, nullptr) << "no EOS";
  EXPECT_EQ(GST_MESSAGE_TYPE(m), GST_MESSAGE_EOS);
  gst_message_unref(m);
  gst_object_unref(bus);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(src);
  gst_object_unref(pipeline);
  expect_clean_end();
}

std::vector<FlowCase> cases(const char* backend, int depth) {
  return {{"dpxdilate", backend, depth, nullptr, 0},
          {"dpxerode", backend, depth, nullptr, 0},
          {"dpxmorph", backend, depth, "operation=open", 0},
          {"dpxmotionest", backend, depth, nullptr, 0},
          {"dpxdeshake", backend, depth, "smoothing=2", 2}};
}

INSTANTIATE_TEST_SUITE_P(Cpu, Flow, ::testing::ValuesIn(cases("cpu", 2)), flow_name);
INSTANTIATE_TEST_SUITE_P(Cuda, Flow, ::testing::ValuesIn(cases("cuda", -1)), flow_name);
INSTANTIATE_TEST_SUITE_P(Cuda, CudaFlow, ::testing::ValuesIn(cases("cuda", -1)), flow_name);

}  // namespace
}  // namespace test
}  // namespace dpx
