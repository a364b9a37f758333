#include "gstdpxinflight.h"

namespace gstdpx {

void InFlightQueue::set_depth(unsigned depth) {
  g_return_if_fail(frames_.empty());
  depth_ = depth;
  next_slot_ = 0;
}

void InFlightQueue::push(const InFlightFrame& frame) {
  frames_.push_back(frame);
  next_slot_ = (next_slot_ + 1) % slots();
}

InFlightFrame InFlightQueue::pop() {
  InFlightFrame f = frames_.front();
  frames_.pop_front();
  return f;
}

GstClockTime in_flight_latency(unsigned depth, const GstVideoInfo& info) {
  if (depth == 0 || GST_VIDEO_INFO_FPS_N(&info) <= 0 || GST_VIDEO_INFO_FPS_D(&info) <= 0) return 0;
  return gst_util_uint64_scale_int(depth * GST_SECOND, GST_VIDEO_INFO_FPS_D(&info),
                                   GST_VIDEO_INFO_FPS_N(&info));
}

}  // namespace gstdpx
