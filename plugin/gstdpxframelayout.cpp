#include "gstdpxframelayout.h"

namespace gstdpx {
namespace {

// The layout of plane `p`: the components stored in it share one depth and subsampling and
// take one sample each per pixel (no 4:2:2 packed formats, where chroma spans two lumas).
bool describe_plane(const GstVideoInfo& info, unsigned p, PlaneShape* shape, std::string* why) {
  const GstVideoFormatInfo* f = info.finfo;
  const unsigned depth = GST_VIDEO_FORMAT_INFO_DEPTH(f, 0);
  const int bytes = depth <= 8 ? 1 : 2;
  int first = -1;
  for (unsigned c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS(f); ++c) {
    if (GST_VIDEO_FORMAT_INFO_PLANE(f, c) != p) continue;
    if (GST_VIDEO_FORMAT_INFO_DEPTH(f, c) != depth) {
      *why = "components of different depths";
      return false;
    }
    if (first < 0) {
      first = static_cast<int>(c);
    } else if (GST_VIDEO_FORMAT_INFO_W_SUB(f, c) != GST_VIDEO_FORMAT_INFO_W_SUB(f, first) ||
               GST_VIDEO_FORMAT_INFO_H_SUB(f, c) != GST_VIDEO_FORMAT_INFO_H_SUB(f, first)) {
      *why = "components of one plane subsampled differently";
      return false;
    }
  }
  const int pstride = first < 0 ? 0 : GST_VIDEO_FORMAT_INFO_PSTRIDE(f, first);
  const int channels = pstride / bytes;
  if (first < 0 || pstride % bytes != 0 || (channels != 1 && channels != 2 && channels != 4)) {
    *why = "plane " + std::to_string(p) + " is not 1, 2 or 4 interleaved samples per pixel";
    return false;
  }
  shape->width = GST_VIDEO_INFO_COMP_WIDTH(&info, first);
  shape->height = GST_VIDEO_INFO_COMP_HEIGHT(&info, first);
  shape->channels = channels;
  shape->type = bytes == 1 ? dpx::SampleType::kU8 : dpx::SampleType::kU16;
  return true;
}

}  // namespace

bool FrameLayout::set(const GstVideoInfo& info, std::string* why) {
  n_planes_ = 0;
  const GstVideoFormatInfo* f = info.finfo;
  if (f == nullptr || GST_VIDEO_FORMAT_INFO_IS_COMPLEX(f) || GST_VIDEO_FORMAT_INFO_HAS_PALETTE(f) ||
      GST_VIDEO_FORMAT_INFO_IS_TILED(f)) {
    *why = "not a planar or packed format of plain samples";
    return false;
  }
  if (GST_VIDEO_FORMAT_INFO_DEPTH(f, 0) > 8 && !GST_VIDEO_FORMAT_INFO_IS_LE(f)) {
    *why = "16-bit samples that are not little-endian";
    return false;
  }
  for (unsigned p = 0; p < GST_VIDEO_INFO_N_PLANES(&info); ++p) {
    if (!describe_plane(info, p, &planes_[p], why)) return false;
  }
  info_ = info;
  n_planes_ = GST_VIDEO_INFO_N_PLANES(&info);
  return true;
}

dpx::MutablePlaneView FrameLayout::view(const GstVideoFrame* frame, unsigned p) const {
  const PlaneShape& s = planes_[p];
  return dpx::MutablePlaneView{GST_VIDEO_FRAME_PLANE_DATA(frame, p),
                               s.width,
                               s.height,
                               static_cast<std::size_t>(GST_VIDEO_FRAME_PLANE_STRIDE(frame, p)),
                               s.channels,
                               s.type};
}

bool FrameLayout::fits(const GstVideoFrame* frame, std::string* why) const {
  const gsize size = gst_buffer_get_size(frame->buffer);
  for (unsigned p = 0; p < n_planes_; ++p) {
    const gint stride = GST_VIDEO_FRAME_PLANE_STRIDE(frame, p);
    const std::size_t row = view(frame, p).row_bytes();
    if (stride < 0 || static_cast<std::size_t>(stride) < row) {
      *why = "plane " + std::to_string(p) + " has stride " + std::to_string(stride) + " for rows of " +
             std::to_string(row) + " bytes";
      return false;
    }
    const std::size_t end = GST_VIDEO_FRAME_PLANE_OFFSET(frame, p) +
                            static_cast<std::size_t>(stride) * (planes_[p].height - 1) + row;
    if (end > size) {
      *why = "buffer of " + std::to_string(size) + " bytes ends before plane " + std::to_string(p) +
             " (which needs " + std::to_string(end) + " bytes)";
      return false;
    }
  }
  return true;
}

bool FrameLayout::map(GstVideoFrame* frame, GstBuffer* buffer, GstMapFlags flags, std::string* why) const {
  if (!gst_video_frame_map(frame, &info_, buffer, flags)) {
    *why = "cannot map a buffer of " + std::to_string(gst_buffer_get_size(buffer)) + " bytes as " +
           GST_VIDEO_INFO_NAME(&info_) + " " + std::to_string(GST_VIDEO_INFO_WIDTH(&info_)) + "x" +
           std::to_string(GST_VIDEO_INFO_HEIGHT(&info_)) + " (" +
           std::to_string(GST_VIDEO_INFO_SIZE(&info_)) + " bytes)";
    return false;
  }
  if (!fits(frame, why)) {
    gst_video_frame_unmap(frame);
    return false;
  }
  return true;
}

}  // namespace gstdpx
