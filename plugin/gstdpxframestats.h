// Where an element's frames spend their time on the streaming thread, for the `stats` property:
// getting the output buffer, mapping the input and output (for CUDA memory the map waits for the
// producer's stream), processing (the CPU work, or enqueueing the CUDA work) and, on CUDA, waiting
// for a frame's work when it completes. Sums since the element started; written by the streaming
// thread, read from any.
#pragma once

#include <gst/gst.h>

#include <atomic>
#include <chrono>
#include <cstdint>

namespace gstdpx {

class FrameStats {
 public:
  enum Stage { kAllocate, kMapInput, kMapOutput, kProcess, kWait, kStageCount };

  // Times one stage from construction to destruction.
  class Timer {
   public:
    Timer(FrameStats& stats, Stage stage) : stats_(stats), stage_(stage), start_(Clock::now()) {}
    ~Timer() { stats_.add(stage_, Clock::now() - start_); }
    Timer(const Timer&) = delete;
    Timer& operator=(const Timer&) = delete;

   private:
    FrameStats& stats_;
    Stage stage_;
    std::chrono::steady_clock::time_point start_;
  };

  void frame_completed() { frames_.fetch_add(1, std::memory_order_relaxed); }
  void reset();
  // A new GstStructure "dpx-frame-stats": `frames` (guint64) and each stage's mean per completed
  // frame in microseconds (gdouble): allocate-us, map-input-us, map-output-us, process-us, wait-us.
  GstStructure* snapshot() const;

 private:
  using Clock = std::chrono::steady_clock;
  void add(Stage stage, Clock::duration d) {
    nanoseconds_[stage].fetch_add(static_cast<std::uint64_t>(std::chrono::nanoseconds(d).count()),
                                  std::memory_order_relaxed);
  }

  std::atomic<std::uint64_t> frames_{0};
  std::atomic<std::uint64_t> nanoseconds_[kStageCount] = {};
};

}  // namespace gstdpx
