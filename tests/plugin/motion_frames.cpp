#include "motion_frames.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace dpx {
namespace test {

GstCaps* caps_of(GstVideoFormat format, int w, int h) {
  return gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, gst_video_format_to_string(format), "width",
                             G_TYPE_INT, w, "height", G_TYPE_INT, h, "framerate", GST_TYPE_FRACTION, 30, 1, nullptr);
}

GstBuffer* make_buffer(GstVideoFormat format, const TestPlane& luma, int index) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, format, luma.width(), luma.height());
  GstBuffer* buf = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  GstVideoFrame f;
  EXPECT_TRUE(gst_video_frame_map(&f, &info, buf, GST_MAP_WRITE));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES(&f); ++p) {
    auto* base = static_cast<std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&f, p));
    const int stride = GST_VIDEO_FRAME_PLANE_STRIDE(&f, p);
    const int rows = GST_VIDEO_FRAME_COMP_HEIGHT(&f, p == 0 ? 0 : 1);
    for (int y = 0; y < rows; ++y)
      for (int x = 0; x < stride; ++x) base[y * stride + x] = static_cast<std::uint8_t>(0x40 + 7 * p + x + y);
  }
  auto* y0 = static_cast<std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&f, 0));
  const int stride = GST_VIDEO_FRAME_PLANE_STRIDE(&f, 0);
  for (int y = 0; y < luma.height(); ++y)
    std::copy_n(luma.bytes().data() + y * luma.pitch(), luma.width() * sample_bytes(luma.type()), y0 + y * stride);
  gst_video_frame_unmap(&f);
  GST_BUFFER_PTS(buf) = static_cast<GstClockTime>(index) * 10 * GST_MSECOND;
  GST_BUFFER_DURATION(buf) = 10 * GST_MSECOND;
  return buf;
}

TestPlane luma_of(GstBuffer* buf, GstVideoFormat format, int w, int h) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, format, w, h);
  const SampleType type = GST_VIDEO_FORMAT_INFO_DEPTH(info.finfo, 0) > 8 ? SampleType::kU16 : SampleType::kU8;
  TestPlane p(w, h, type);
  GstVideoFrame f;
  EXPECT_TRUE(gst_video_frame_map(&f, &info, buf, GST_MAP_READ));
  const auto* y0 = static_cast<const std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&f, 0));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::uint8_t* s = y0 + y * GST_VIDEO_FRAME_PLANE_STRIDE(&f, 0) + x * sample_bytes(type);
      p.set(x, y, type == SampleType::kU8 ? s[0] : s[0] | s[1] << 8);
    }
  gst_video_frame_unmap(&f);
  return p;
}

MotionField field_of(const GstDpxMotionMeta* meta) {
  MotionField f;
  MotionGrid g;
  g.block_size = static_cast<int>(meta->block_size);
  g.columns = static_cast<int>(meta->columns);
  g.rows = static_cast<int>(meta->rows);
  f.resize(g);
  f.grid.scale = static_cast<int>(meta->scale);
  for (std::size_t i = 0; i < g.count(); ++i) {
    f.vectors[i].dx = meta->vectors[i].dx;
    f.vectors[i].dy = meta->vectors[i].dy;
    f.vectors[i].sad = meta->vectors[i].sad;
  }
  return f;
}

std::vector<TestPlane> panned_frames(std::mt19937_64& rng, SampleType type, int count, int w, int h) {
  const Texture tex(rng, w + 2 * kMargin + count * 3, h + 2 * kMargin + count * 3, type);
  std::vector<TestPlane> frames;
  for (int t = 0; t < count; ++t) frames.push_back(tex.frame(w, h, kMargin + t * kVx, kMargin + t * kVy));
  return frames;
}

void push_all(Harness& hz, GstVideoFormat format, const std::vector<TestPlane>& frames, Pushed* pushed,
              int first_index) {
  for (std::size_t t = 0; t < frames.size(); ++t) {
    ASSERT_EQ(gst_harness_push(hz.h, make_buffer(format, frames[t], first_index + static_cast<int>(t))), GST_FLOW_OK)
        << hz.pop_error();
    pushed->out.push_back(gst_harness_pull(hz.h));
  }
}

JsonLine parse_line(const std::string& line) {
  JsonLine j;
  auto number_after = [&line](const char* key) {
    const std::size_t at = line.find(std::string("\"") + key + "\":");
    if (at == std::string::npos) return -2LL;
    const std::string rest = line.substr(at + std::strlen(key) + 3);
    return rest.rfind("null", 0) == 0 ? -1LL : std::stoll(rest);
  };
  j.frame = number_after("frame");
  j.pts = number_after("pts");
  j.reference_pts = number_after("reference_pts");
  j.block_size = static_cast<int>(number_after("block_size"));
  j.columns = static_cast<int>(number_after("columns"));
  j.rows = static_cast<int>(number_after("rows"));
  std::string vec = line.substr(line.find("\"vectors\":") + 10);
  for (char& c : vec)
    if (c == '[' || c == ']' || c == ',' || c == '}') c = ' ';
  std::istringstream in(vec);
  for (int v; in >> v;) j.values.push_back(v);
  return j;
}

std::string temporary_file() {
  char path[] = "/tmp/dpxmotionest-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return "";
  close(fd);
  return path;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace test
}  // namespace dpx
