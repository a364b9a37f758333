#include "frames.h"

#include <gtest/gtest.h>

#include <cstring>

namespace dpx {
namespace test {
namespace {

int sub(int size, int shift) { return (size + (1 << shift) - 1) >> shift; }

}  // namespace

const std::vector<FormatCase>& all_formats() {
  using T = SampleType;
  static const std::vector<FormatCase> formats = {
      {GST_VIDEO_FORMAT_GRAY8, T::kU8, {{1, 0, 0}}},
      {GST_VIDEO_FORMAT_GRAY16_LE, T::kU16, {{1, 0, 0}}},
      {GST_VIDEO_FORMAT_I420, T::kU8, {{1, 0, 0}, {1, 1, 1}, {1, 1, 1}}},
      {GST_VIDEO_FORMAT_YV12, T::kU8, {{1, 0, 0}, {1, 1, 1}, {1, 1, 1}}},
      {GST_VIDEO_FORMAT_Y42B, T::kU8, {{1, 0, 0}, {1, 1, 0}, {1, 1, 0}}},
      {GST_VIDEO_FORMAT_Y444, T::kU8, {{1, 0, 0}, {1, 0, 0}, {1, 0, 0}}},
      {GST_VIDEO_FORMAT_NV12, T::kU8, {{1, 0, 0}, {2, 1, 1}}},
      {GST_VIDEO_FORMAT_NV21, T::kU8, {{1, 0, 0}, {2, 1, 1}}},
      {GST_VIDEO_FORMAT_P010_10LE, T::kU16, {{1, 0, 0}, {2, 1, 1}}},
      {GST_VIDEO_FORMAT_P016_LE, T::kU16, {{1, 0, 0}, {2, 1, 1}}},
      {GST_VIDEO_FORMAT_Y444_16LE, T::kU16, {{1, 0, 0}, {1, 0, 0}, {1, 0, 0}}},
      {GST_VIDEO_FORMAT_RGBA, T::kU8, {{4, 0, 0}}},
      {GST_VIDEO_FORMAT_BGRA, T::kU8, {{4, 0, 0}}},
      {GST_VIDEO_FORMAT_RGBx, T::kU8, {{4, 0, 0}}},
      {GST_VIDEO_FORMAT_BGRx, T::kU8, {{4, 0, 0}}},
      {GST_VIDEO_FORMAT_ARGB, T::kU8, {{4, 0, 0}}},
      {GST_VIDEO_FORMAT_ABGR, T::kU8, {{4, 0, 0}}},
  };
  return formats;
}

const FormatCase& format_case(GstVideoFormat format) {
  for (const FormatCase& fc : all_formats())
    if (fc.format == format) return fc;
  ADD_FAILURE() << format_name(format) << " is not in the format table";
  return all_formats().front();
}

MorphParams morph_params(MorphOp op, int size, MorphShape shape, BorderMode border, int iterations) {
  MorphParams p;
  p.op = op;
  p.size = size;
  p.shape = shape;
  p.border = border;
  p.iterations = iterations;
  return p;
}

std::string format_name(GstVideoFormat format) { return gst_video_format_to_string(format); }

PlaneView HostPlane::view() const { return PlaneView{bytes.data(), width, height, pitch, channels, type}; }

Frame random_frame(std::mt19937_64& rng, const FormatCase& fc, int width, int height, std::size_t extra_pitch) {
  Frame frame;
  for (const PlaneLayout& pl : fc.planes) {
    HostPlane p;
    p.width = sub(width, pl.wsub);
    p.height = sub(height, pl.hsub);
    p.channels = pl.channels;
    p.type = fc.type;
    p.pitch = p.view().row_bytes() + (extra_pitch + 1) / 2 * 2;
    p.bytes = random_bytes(rng, p.pitch * p.height);
    frame.push_back(std::move(p));
  }
  return frame;
}

GstBuffer* frame_to_buffer(const Frame& frame, GstVideoFormat format, int width, int height, std::size_t gap) {
  gsize offsets[GST_VIDEO_MAX_PLANES] = {};
  gint strides[GST_VIDEO_MAX_PLANES] = {};
  std::size_t total = 0;
  for (std::size_t i = 0; i < frame.size(); ++i) {
    offsets[i] = total;
    strides[i] = static_cast<gint>(frame[i].pitch);
    total += frame[i].bytes.size() + (gap + 1) / 2 * 2;
  }
  GstBuffer* buffer = gst_buffer_new_allocate(nullptr, total, nullptr);
  GstMapInfo map;
  gst_buffer_map(buffer, &map, GST_MAP_WRITE);
  std::memset(map.data, kPoisonByte, total);
  for (std::size_t i = 0; i < frame.size(); ++i) std::memcpy(map.data + offsets[i], frame[i].bytes.data(), frame[i].bytes.size());
  gst_buffer_unmap(buffer, &map);
  gst_buffer_add_video_meta_full(buffer, GST_VIDEO_FRAME_FLAG_NONE, format, width, height,
                                 static_cast<guint>(frame.size()), offsets, strides);
  return buffer;
}

void fill_buffer(GstBuffer* buffer, const GstVideoInfo& info, const Frame& frame) {
  GstVideoFrame vf;
  ASSERT_TRUE(gst_video_frame_map(&vf, &info, buffer, GST_MAP_WRITE));
  for (std::size_t i = 0; i < frame.size(); ++i) {
    const HostPlane& p = frame[i];
    auto* dst = static_cast<std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&vf, i));
    const std::size_t stride = GST_VIDEO_FRAME_PLANE_STRIDE(&vf, i);
    for (int y = 0; y < p.height; ++y) std::memcpy(dst + y * stride, p.bytes.data() + y * p.pitch, p.view().row_bytes());
  }
  gst_video_frame_unmap(&vf);
}

Frame buffer_to_frame(GstBuffer* buffer, const GstVideoInfo& info, const FormatCase& fc) {
  Frame frame;
  GstVideoFrame vf;
  if (!gst_video_frame_map(&vf, &info, buffer, GST_MAP_READ)) {
    ADD_FAILURE() << "cannot map an output buffer";
    return frame;
  }
  for (std::size_t i = 0; i < fc.planes.size(); ++i) {
    HostPlane p;
    p.width = sub(GST_VIDEO_INFO_WIDTH(&info), fc.planes[i].wsub);
    p.height = sub(GST_VIDEO_INFO_HEIGHT(&info), fc.planes[i].hsub);
    p.channels = fc.planes[i].channels;
    p.type = fc.type;
    p.pitch = p.view().row_bytes();
    p.bytes.resize(p.pitch * p.height);
    const auto* src = static_cast<const std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&vf, i));
    const std::size_t stride = GST_VIDEO_FRAME_PLANE_STRIDE(&vf, i);
    for (int y = 0; y < p.height; ++y) std::memcpy(p.bytes.data() + y * p.pitch, src + y * stride, p.pitch);
    frame.push_back(std::move(p));
  }
  gst_video_frame_unmap(&vf);
  return frame;
}

Frame reference(const Frame& in, const MorphParams& params, unsigned planes) {
  Frame out = in;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (!(planes & (1u << i))) continue;
    HostPlane& o = out[i];
    MutablePlaneView dst{o.bytes.data(), o.width, o.height, o.pitch, o.channels, o.type};
    const Status st = morph_cpu(in[i].view(), dst, params);
    EXPECT_TRUE(st.is_ok()) << st.message();
  }
  return out;
}

bool frames_equal(const Frame& a, const Frame& b, std::string* why) {
  if (a.size() != b.size()) {
    *why = "plane count " + std::to_string(a.size()) + " vs " + std::to_string(b.size());
    return false;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    const PlaneView va = a[i].view(), vb = b[i].view();
    if (va.width != vb.width || va.height != vb.height || va.row_bytes() != vb.row_bytes()) {
      *why = "plane " + std::to_string(i) + " geometry differs";
      return false;
    }
    for (int y = 0; y < va.height; ++y) {
      const int cmp = std::memcmp(va.row(y), vb.row(y), va.row_bytes());
      if (cmp == 0) continue;
      std::size_t x = 0;
      while (va.row(y)[x] == vb.row(y)[x]) ++x;
      *why = "plane " + std::to_string(i) + " row " + std::to_string(y) + " byte " + std::to_string(x) +
             ": " + std::to_string(va.row(y)[x]) + " vs " + std::to_string(vb.row(y)[x]);
      return false;
    }
  }
  return true;
}

GstCaps* caps_for(GstVideoFormat format, int width, int height, const char* feature) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, format, width, height);
  GstCaps* caps = gst_video_info_to_caps(&info);
  if (feature != nullptr) gst_caps_set_features(caps, 0, gst_caps_features_new(feature, nullptr));
  return caps;
}

}  // namespace test
}  // namespace dpx
