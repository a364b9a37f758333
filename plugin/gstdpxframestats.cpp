#include "gstdpxframestats.h"

namespace gstdpx {

namespace {
// The structure's field of each stage, in Stage order.
const char* const kStageFields[FrameStats::kStageCount] = {"allocate-us", "map-input-us", "map-output-us",
                                                           "process-us", "wait-us"};
}  // namespace

void FrameStats::reset() {
  frames_.store(0, std::memory_order_relaxed);
  for (auto& ns : nanoseconds_) ns.store(0, std::memory_order_relaxed);
}

GstStructure* FrameStats::snapshot() const {
  const std::uint64_t frames = frames_.load(std::memory_order_relaxed);
  GstStructure* s =
      gst_structure_new("dpx-frame-stats", "frames", G_TYPE_UINT64, static_cast<guint64>(frames), nullptr);
  for (int i = 0; i < kStageCount; ++i) {
    const double ns = static_cast<double>(nanoseconds_[i].load(std::memory_order_relaxed));
    gst_structure_set(s, kStageFields[i], G_TYPE_DOUBLE,
                      frames > 0 ? ns / 1e3 / static_cast<double>(frames) : 0.0, nullptr);
  }
  return s;
}

}  // namespace gstdpx
