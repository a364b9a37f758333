// dpxdeshake through GstHarness: a steady pan passes unchanged in every format (pixels and
// meta); shake is measured and corrected; held frames all come out, in order, at EOS, caps
// change, segment and property change, and a flush drops them; the latency of the lookahead;
// scene cuts; the JSON-lines file and messages; bad input. The meta is read through the
// application header alone (gstdpxdeshakemeta.h).
#include <gtest/gtest.h>

#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "gstdpxdeshakemeta.h"
#include "motion_test_util.h"
#include "plugin_env.h"
#include "test_util.h"

namespace dpx {
namespace test {
namespace {

constexpr int kW = 160, kH = 96, kMargin = 48;

class Deshake : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (std::string(GetParam()) == "cuda") DPX_REQUIRE_GPU();
  }
};

GstCaps* caps_of(GstVideoFormat format, int w, int h) {
  return gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, gst_video_format_to_string(format),
                             "width", G_TYPE_INT, w, "height", G_TYPE_INT, h, "framerate", GST_TYPE_FRACTION,
                             30, 1, nullptr);
}

// A buffer of `format` whose motion plane (luma; green of RGB) shows `picture` and whose other
// samples are a fixed pattern; PTS = index * 10 ms.
GstBuffer* make_buffer(GstVideoFormat format, const TestPlane& picture, int index) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, format, picture.width(), picture.height());
  GstBuffer* buf = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  GstVideoFrame f;
  // Every byte gets a fixed pattern first, so the planes' other samples are known.
  GstMapInfo map;
  EXPECT_TRUE(gst_buffer_map(buf, &map, GST_MAP_WRITE));
  for (gsize i = 0; i < map.size; ++i) map.data[i] = static_cast<std::uint8_t>(0x40 + (i * 7 + i / 333) % 61);
  gst_buffer_unmap(buf, &map);
  const guint motion = GST_VIDEO_INFO_IS_RGB(&info) ? GST_VIDEO_COMP_G : GST_VIDEO_COMP_Y;
  EXPECT_TRUE(gst_video_frame_map(&f, &info, buf, GST_MAP_WRITE));
  const int bytes = GST_VIDEO_FORMAT_INFO_DEPTH(info.finfo, motion) > 8 ? 2 : 1;
  for (int y = 0; y < picture.height(); ++y)
    for (int x = 0; x < picture.width(); ++x) {
      auto* p = static_cast<std::uint8_t*>(GST_VIDEO_FRAME_COMP_DATA(&f, motion)) +
                y * GST_VIDEO_FRAME_COMP_STRIDE(&f, motion) + x * GST_VIDEO_FRAME_COMP_PSTRIDE(&f, motion);
      const int v = picture.get(x, y);
      p[0] = static_cast<std::uint8_t>(v & 0xFF);
      if (bytes == 2) p[1] = static_cast<std::uint8_t>(v >> 8);
    }
  gst_video_frame_unmap(&f);
  GST_BUFFER_PTS(buf) = static_cast<GstClockTime>(index) * 10 * GST_MSECOND;
  GST_BUFFER_DURATION(buf) = 10 * GST_MSECOND;
  return buf;
}

// Frames of a texture seen by a camera at whole-pixel positions `at` (the texture's canvas origin
// of each frame).
std::vector<TestPlane> frames_at(const Texture& tex, const std::vector<std::pair<int, int>>& at) {
  std::vector<TestPlane> frames;
  for (const auto& p : at) frames.push_back(tex.frame(kW, kH, p.first, p.second));
  return frames;
}

std::vector<std::pair<int, int>> pan(int count, int vx, int vy) {
  std::vector<std::pair<int, int>> at;
  for (int t = 0; t < count; ++t) at.emplace_back(kMargin + t * vx, kMargin + t * vy);
  return at;
}

struct Outputs {
  std::vector<GstBuffer*> buffers;
  ~Outputs() {
    for (GstBuffer* b : buffers) gst_buffer_unref(b);
  }
  void pull_all(GstHarness* h) {
    while (GstBuffer* b = gst_harness_try_pull(h)) buffers.push_back(b);
  }
};

Harness* new_harness(const char* backend, GstVideoFormat format = GST_VIDEO_FORMAT_GRAY8) {
  auto* hz = new Harness("dpxdeshake", backend);
  gst_harness_set_src_caps(hz->h, caps_of(format, kW, kH));
  return hz;
}

void push(Harness& hz, GstVideoFormat format, const std::vector<TestPlane>& frames, int first_index = 0) {
  for (std::size_t t = 0; t < frames.size(); ++t)
    ASSERT_EQ(gst_harness_push(hz.h, make_buffer(format, frames[t], first_index + static_cast<int>(t))),
              GST_FLOW_OK)
        << hz.pop_error();
}

void expect_in_order(const Outputs& out, int first_index, std::size_t count) {
  ASSERT_EQ(out.buffers.size(), count);
  for (std::size_t i = 0; i < count; ++i)
    EXPECT_EQ(GST_BUFFER_PTS(out.buffers[i]), static_cast<GstClockTime>(first_index + i) * 10 * GST_MSECOND)
        << i;
}

bool same_bytes(GstBuffer* a, GstBuffer* b) {
  GstMapInfo ma, mb;
  gst_buffer_map(a, &ma, GST_MAP_READ);
  gst_buffer_map(b, &mb, GST_MAP_READ);
  const bool same = ma.size == mb.size && std::memcmp(ma.data, mb.data, ma.size) == 0;
  gst_buffer_unmap(a, &ma);
  gst_buffer_unmap(b, &mb);
  return same;
}

TEST_P(Deshake, SteadyPanPassesUnchangedInEveryFormat) {
  auto rng = seeded_rng();
  const GstVideoFormat formats[] = {
      GST_VIDEO_FORMAT_GRAY8,   GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_I420,
      GST_VIDEO_FORMAT_YV12,    GST_VIDEO_FORMAT_Y42B,      GST_VIDEO_FORMAT_Y444,
      GST_VIDEO_FORMAT_NV12,    GST_VIDEO_FORMAT_NV21,      GST_VIDEO_FORMAT_P010_10LE,
      GST_VIDEO_FORMAT_P016_LE, GST_VIDEO_FORMAT_Y444_16LE, GST_VIDEO_FORMAT_RGBA,
      GST_VIDEO_FORMAT_BGRA,    GST_VIDEO_FORMAT_RGBx,      GST_VIDEO_FORMAT_BGRx,
      GST_VIDEO_FORMAT_ARGB,    GST_VIDEO_FORMAT_ABGR};
  for (GstVideoFormat format : formats) {
    SCOPED_TRACE(gst_video_format_to_string(format));
    GstVideoInfo info;
    gst_video_info_set_format(&info, format, kW, kH);
    const SampleType type =
        GST_VIDEO_FORMAT_INFO_DEPTH(info.finfo, 0) > 8 ? SampleType::kU16 : SampleType::kU8;
    const Texture tex(rng, kW + 2 * kMargin + 40, kH + 2 * kMargin + 40, type);
    const std::vector<TestPlane> frames = frames_at(tex, pan(12, 2, -1));
    std::unique_ptr<Harness> hz(new_harness(GetParam(), format));
    g_object_set(hz->h->element, "smoothing", 4, nullptr);
    push(*hz, format, frames);
    ASSERT_TRUE(gst_harness_push_event(hz->h, gst_event_new_eos()));
    Outputs out;
    out.pull_all(hz->h);
    expect_in_order(out, 0, frames.size());
    for (std::size_t t = 0; t < out.buffers.size(); ++t) {
      const GstDpxDeshakeMeta* m = gst_buffer_get_dpx_deshake_meta(out.buffers[t]);
      ASSERT_NE(m, nullptr) << t;
      EXPECT_EQ(m->measured_valid, t > 0) << t;
      if (t > 0) {
        // Frame t's content was 2 pixels right and 1 up in frame t - 1.
        EXPECT_NEAR(m->measured.tx, 2.0, 1e-9) << t;
        EXPECT_NEAR(m->measured.ty, -1.0, 1e-9) << t;
        EXPECT_NEAR(m->measured.angle, 0.0, 1e-12) << t;
      }
      EXPECT_NEAR(m->correction.tx, 0.0, 1e-9);
      EXPECT_NEAR(m->correction.ty, 0.0, 1e-9);
      GstBuffer* in = make_buffer(format, frames[t], static_cast<int>(t));
      EXPECT_TRUE(same_bytes(in, out.buffers[t])) << "frame " << t;
      gst_buffer_unref(in);
    }
    EXPECT_EQ(hz->pop_error(), "");
  }
}

TEST_P(Deshake, ShakeIsMeasuredAndCorrected) {
  auto rng = seeded_rng();
  std::uniform_int_distribution<int> shake(-4, 4);
  const Texture tex(rng, kW + 2 * kMargin + 80, kH + 2 * kMargin + 20, SampleType::kU8);
  std::vector<std::pair<int, int>> at;
  for (int t = 0; t < 40; ++t) at.emplace_back(kMargin + t + shake(rng), kMargin + shake(rng));
  std::unique_ptr<Harness> hz(new_harness(GetParam()));
  g_object_set(hz->h->element, "smoothing", 8, nullptr);
  push(*hz, GST_VIDEO_FORMAT_GRAY8, frames_at(tex, at));
  ASSERT_TRUE(gst_harness_push_event(hz->h, gst_event_new_eos()));
  Outputs out;
  out.pull_all(hz->h);
  expect_in_order(out, 0, at.size());
  // Each measured step is the camera's; the corrected camera (position + correction) keeps far
  // closer to the steady pan than the shaken one.
  double raw = 0, left = 0;
  for (std::size_t t = 1; t < at.size(); ++t) {
    const GstDpxDeshakeMeta* m = gst_buffer_get_dpx_deshake_meta(out.buffers[t]);
    ASSERT_TRUE(m != nullptr && m->measured_valid) << t;
    EXPECT_NEAR(m->measured.tx, at[t].first - at[t - 1].first, 1e-9) << t;
    EXPECT_NEAR(m->measured.ty, at[t].second - at[t - 1].second, 1e-9) << t;
    if (t >= 10 && t < 30) {
      const double ex = at[t].first - (kMargin + static_cast<double>(t)), ey = at[t].second - kMargin;
      raw += ex * ex + ey * ey;
      const double cx = ex + m->correction.tx, cy = ey + m->correction.ty;
      left += cx * cx + cy * cy;
    }
  }
  EXPECT_LT(left, 0.15 * raw);
}

TEST_P(Deshake, HeldFramesLeaveAtEosAndTheLatencyIsTheLookahead) {
  auto rng = seeded_rng();
  const Texture tex(rng, kW + 2 * kMargin + 40, kH + 2 * kMargin + 40, SampleType::kU8);
  std::unique_ptr<Harness> hz(new_harness(GetParam()));
  g_object_set(hz->h->element, "smoothing", 6, nullptr);
  push(*hz, GST_VIDEO_FORMAT_GRAY8, frames_at(tex, pan(5, 1, 1)));
  EXPECT_EQ(gst_harness_buffers_received(hz->h), 0u) << "five frames are held for a lookahead of six";
  EXPECT_EQ(gst_harness_query_latency(hz->h), 6 * GST_SECOND / 30);
  push(*hz, GST_VIDEO_FORMAT_GRAY8, frames_at(tex, pan(3, 1, 1)), 5);
  EXPECT_EQ(gst_harness_buffers_received(hz->h), 2u);
  ASSERT_TRUE(gst_harness_push_event(hz->h, gst_event_new_eos()));
  Outputs out;
  out.pull_all(hz->h);
  expect_in_order(out, 0, 8);
  // The frames come before the EOS.
  GstEvent* ev;
  bool eos = false;
  while ((ev = gst_harness_try_pull_event(hz->h)) != nullptr) {
    eos = eos || GST_EVENT_TYPE(ev) == GST_EVENT_EOS;
    gst_event_unref(ev);
  }
  EXPECT_TRUE(eos);
}

TEST_P(Deshake, CapsChangeSegmentAndPropertyChangeLoseNoFrame) {
  auto rng = seeded_rng();
  const Texture tex(rng, 2 * kW + 2 * kMargin, 2 * kH + 2 * kMargin, SampleType::kU8);
  std::unique_ptr<Harness> hz(new_harness(GetParam()));
  g_object_set(hz->h->element, "smoothing", 10, nullptr);
  push(*hz, GST_VIDEO_FORMAT_GRAY8, frames_at(tex, pan(6, 1, 0)));
  // A new size: the six held frames leave first, at the old size.
  gst_harness_set_src_caps(hz->h, caps_of(GST_VIDEO_FORMAT_I420, kW + 32, kH + 16));
  Outputs out;
  out.pull_all(hz->h);
  expect_in_order(out, 0, 6);
  std::vector<TestPlane> bigger;
  for (int t = 0; t < 6; ++t) bigger.push_back(tex.frame(kW + 32, kH + 16, kMargin + t, kMargin));
  push(*hz, GST_VIDEO_FORMAT_I420, bigger, 6);
  // A segment lets the held frames out too.
  GstSegment segment;
  gst_segment_init(&segment, GST_FORMAT_TIME);
  ASSERT_TRUE(gst_harness_push_event(hz->h, gst_event_new_segment(&segment)));
  out.pull_all(hz->h);
  expect_in_order(out, 0, 12);
  // A shorter window while playing: the frames held for the longer one leave first.
  push(*hz, GST_VIDEO_FORMAT_I420, bigger, 12);
  g_object_set(hz->h->element, "smoothing", 2, "max-shift", 5.0, "border", 1, "interpolation", 1, nullptr);
  push(*hz, GST_VIDEO_FORMAT_I420, bigger, 18);
  out.pull_all(hz->h);
  expect_in_order(out, 0, 22);  // 18 + (6 pushed - 2 held)
  ASSERT_TRUE(gst_harness_push_event(hz->h, gst_event_new_eos()));
  out.pull_all(hz->h);
  expect_in_order(out, 0, 24);
  EXPECT_EQ(hz->pop_error(), "");
}

TEST_P(Deshake, FlushDropsHeldFramesAndRestartsThePath) {
  auto rng = seeded_rng();
  const Texture tex(rng, kW + 2 * kMargin + 40, kH + 2 * kMargin + 40, SampleType::kU8);
  std::unique_ptr<Harness> hz(new_harness(GetParam()));
  g_object_set(hz->h->element, "smoothing", 5, nullptr);
  push(*hz, GST_VIDEO_FORMAT_GRAY8, frames_at(tex, pan(4, 1, 0)));
  ASSERT_TRUE(gst_harness_push_event(hz->h, gst_event_new_flush_start()));
  ASSERT_TRUE(gst_harness_push_event(hz->h, gst_event_new_flush_stop(TRUE)));
  GstSegment segment;
  gst_segment_init(&segment, GST_FORMAT_TIME);
  ASSERT_TRUE(gst_harness_push_event(hz->h, gst_event_new_segment(&segment)));
  push(*hz, GST_VIDEO_FORMAT_GRAY8, frames_at(tex, pan(7, 1, 0)), 100);
  ASSERT_TRUE(gst_harness_push_event(hz->h, gst_event_new_eos()));
  Outputs out;
  out.pull_all(hz->h);
  expect_in_order(out, 100, 7);
  EXPECT_FALSE(gst_buffer_get_dpx_deshake_meta(out.buffers[0])->measured_valid);
  EXPECT_TRUE(gst_buffer_get_dpx_deshake_meta(out.buffers[1])->measured_valid);
}

TEST_P(Deshake, SceneCutStartsANewPath) {
  auto rng = seeded_rng();
  const Texture a(rng, kW + 2 * kMargin + 40, kH + 2 * kMargin + 40, SampleType::kU8);
  const Texture b(rng, kW + 2 * kMargin + 40, kH + 2 * kMargin + 40, SampleType::kU8);
  std::unique_ptr<Harness> hz(new_harness(GetParam()));
  g_object_set(hz->h->element, "smoothing", 3, nullptr);
  push(*hz, GST_VIDEO_FORMAT_GRAY8, frames_at(a, pan(5, 1, 0)));
  push(*hz, GST_VIDEO_FORMAT_GRAY8, frames_at(b, pan(5, 1, 0)), 5);
  ASSERT_TRUE(gst_harness_push_event(hz->h, gst_event_new_eos()));
  Outputs out;
  out.pull_all(hz->h);
  expect_in_order(out, 0, 10);
  for (std::size_t t = 0; t < 10; ++t)
    EXPECT_EQ(gst_buffer_get_dpx_deshake_meta(out.buffers[t])->measured_valid, t != 0 && t != 5) << t;
}

std::string temporary_file() {
  char path[] = "/tmp/dpxdeshake-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return "";
  close(fd);
  return path;
}

TEST_P(Deshake, FileAndMessagesAgreeWithTheMeta) {
  auto rng = seeded_rng();
  const Texture tex(rng, kW + 2 * kMargin + 40, kH + 2 * kMargin + 40, SampleType::kU8);
  const std::string file = temporary_file();
  ASSERT_FALSE(file.empty());
  std::vector<double> tx;
  {
    std::unique_ptr<Harness> hz(new_harness(GetParam()));
    g_object_set(hz->h->element, "smoothing", 2, "location", file.c_str(), "post-messages", TRUE, nullptr);
    push(*hz, GST_VIDEO_FORMAT_GRAY8, frames_at(tex, pan(6, 3, 1)));
    ASSERT_TRUE(gst_harness_push_event(hz->h, gst_event_new_eos()));
    Outputs out;
    out.pull_all(hz->h);
    expect_in_order(out, 0, 6);
    for (std::size_t t = 0; t < 6; ++t) {
      GstMessage* msg = gst_bus_pop_filtered(hz->bus, GST_MESSAGE_ELEMENT);
      ASSERT_NE(msg, nullptr);
      const GstStructure* s = gst_message_get_structure(msg);
      EXPECT_TRUE(gst_structure_has_name(s, "dpx-deshake"));
      guint64 number = 0, pts = 0;
      double mtx = -1;
      gboolean measured = FALSE;
      EXPECT_TRUE(gst_structure_get(s, "frame-number", G_TYPE_UINT64, &number, "pts", G_TYPE_UINT64, &pts,
                                    "measured-tx", G_TYPE_DOUBLE, &mtx, "measured", G_TYPE_BOOLEAN, &measured,
                                    nullptr));
      const GstDpxDeshakeMeta* m = gst_buffer_get_dpx_deshake_meta(out.buffers[t]);
      EXPECT_EQ(number, t);
      EXPECT_EQ(pts, GST_BUFFER_PTS(out.buffers[t]));
      EXPECT_EQ(mtx, m->measured.tx);
      EXPECT_EQ(measured, m->measured_valid);
      tx.push_back(m->measured.tx);
      gst_message_unref(msg);
    }
  }
  std::ifstream in(file);
  std::string line;
  std::size_t n = 0;
  for (; std::getline(in, line); ++n) {
    ASSERT_LT(n, tx.size());
    EXPECT_NE(line.find("\"frame_number\":" + std::to_string(n) + ","), std::string::npos) << line;
    EXPECT_NE(line.find("\"measured_tx\":"), std::string::npos) << line;
    EXPECT_NE(line.find("\"zoom\":"), std::string::npos) << line;
    EXPECT_NEAR(std::atof(line.c_str() + line.find("\"measured_tx\":") + 14), tx[n], 1e-9);
  }
  EXPECT_EQ(n, tx.size());
  std::remove(file.c_str());
}

TEST_P(Deshake, BadInputIsRefused) {
  // Below the block grid: the caps are refused.
  {
    Harness hz("dpxdeshake", GetParam());
    gst_harness_set_src_caps(hz.h, caps_of(GST_VIDEO_FORMAT_GRAY8, 48, 32));
    TestPlane small(48, 32, SampleType::kU8);
    EXPECT_NE(gst_harness_push(hz.h, make_buffer(GST_VIDEO_FORMAT_GRAY8, small, 0)), GST_FLOW_OK);
  }
  // An unwritable file fails the start.
  {
    GstElement* e = gst_element_factory_make("dpxdeshake", nullptr);
    g_object_set(e, "location", "/nonexistent-dir/x.jsonl", nullptr);
    EXPECT_EQ(gst_element_set_state(e, GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE);
    gst_element_set_state(e, GST_STATE_NULL);
    gst_object_unref(e);
  }
  // Property ranges.
  GstElement* e = gst_element_factory_make("dpxdeshake", nullptr);
  GParamSpecInt* smoothing =
      G_PARAM_SPEC_INT(g_object_class_find_property(G_OBJECT_GET_CLASS(e), "smoothing"));
  EXPECT_EQ(smoothing->minimum, 0);
  EXPECT_EQ(smoothing->maximum, 120);
  GParamSpecDouble* angle =
      G_PARAM_SPEC_DOUBLE(g_object_class_find_property(G_OBJECT_GET_CLASS(e), "max-angle"));
  EXPECT_EQ(angle->minimum, 0.0);
  EXPECT_EQ(angle->maximum, 45.0);
  gst_object_unref(e);
}

INSTANTIATE_TEST_SUITE_P(Backends, Deshake, ::testing::Values("cpu", "cuda"));

}  // namespace
}  // namespace test
}  // namespace dpx
