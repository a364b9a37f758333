/* The frames a dpx element has started but not yet pushed, oldest first. A frame is started when
 * its input arrives and completed when more than `depth` frames are in flight, at a drain (EOS,
 * caps, any serialized event) or dropped on a flush; so frame N+1 is uploaded while frame N
 * computes and downloads. Each frame gets one of depth + 1 slots of per-frame resources, never
 * the slot of a frame still in flight. No GPU here: the element drives it the same way on every
 * backend (on the CPU a frame is complete when started). */
#pragma once

#include <gst/video/video.h>

#include <deque>

namespace gstdpx {

struct InFlightFrame {
  GstBuffer* out = nullptr; /* the output buffer, owned while in flight */
  GstVideoFrame in_map{};   /* the input, mapped (holds a reference) */
  GstVideoFrame out_map{};  /* the output, mapped */
  unsigned slot = 0;
};

class InFlightQueue {
 public:
  /* Frames held before the oldest is completed; 0: each frame completes as it is started.
   * Only while empty. */
  void set_depth(unsigned depth);
  unsigned depth() const { return depth_; }
  unsigned slots() const { return depth_ + 1; }

  /* The slot the next started frame uses. */
  unsigned next_slot() const { return next_slot_; }
  void push(const InFlightFrame& frame);
  /* TRUE when the oldest frame must be completed before the next input. */
  bool over_depth() const { return frames_.size() > depth_; }
  bool empty() const { return frames_.empty(); }
  std::size_t size() const { return frames_.size(); }
  InFlightFrame pop();

 private:
  std::deque<InFlightFrame> frames_;
  unsigned depth_ = 0;
  unsigned next_slot_ = 0;
};

/* The latency `depth` frames in flight add at the frame rate of `info`: depth frame durations;
 * 0 for a variable or unknown rate (the element then holds frames without a duration to name). */
GstClockTime in_flight_latency(unsigned depth, const GstVideoInfo& info);

}  // namespace gstdpx
