#include "gstdpxmotionreport.h"

namespace gstdpx {

namespace {
void append_time(std::string* s, GstClockTime t) {
  *s += GST_CLOCK_TIME_IS_VALID(t) ? std::to_string(static_cast<std::uint64_t>(t)) : "null";
}
}  // namespace

std::string motion_json_line(const MotionReport& r) {
  std::string s;
  s.reserve(128 + r.grid.count() * 16);
  s += "{\"frame\":" + std::to_string(r.frame_number) + ",\"pts\":";
  append_time(&s, r.pts);
  s += ",\"reference_pts\":";
  append_time(&s, r.reference_pts);
  s += ",\"block_size\":" + std::to_string(r.grid.block_size) + ",\"columns\":" + std::to_string(r.grid.columns) +
       ",\"rows\":" + std::to_string(r.grid.rows) + ",\"vectors\":[";
  for (std::size_t i = 0; i < r.grid.count(); ++i) {
    const dpx::MotionVector& v = r.vectors[i];
    if (i) s += ',';
    s += '[' + std::to_string(v.dx) + ',' + std::to_string(v.dy) + ',' + std::to_string(v.sad) + ']';
  }
  s += "]}\n";
  return s;
}

GstStructure* motion_message_structure(const MotionReport& r, double threshold) {
  const dpx::MotionStats stats = dpx::motion_stats(r.vectors, r.grid.count(), threshold);
  return gst_structure_new("dpx-motion", "frame-number", G_TYPE_UINT64, static_cast<guint64>(r.frame_number), "pts",
                           G_TYPE_UINT64, static_cast<guint64>(r.pts), "reference-pts", G_TYPE_UINT64,
                           static_cast<guint64>(r.reference_pts), "block-size", G_TYPE_UINT,
                           static_cast<guint>(r.grid.block_size), "columns", G_TYPE_UINT,
                           static_cast<guint>(r.grid.columns), "rows", G_TYPE_UINT, static_cast<guint>(r.grid.rows),
                           "mean-length", G_TYPE_DOUBLE, stats.mean_length, "moving-fraction", G_TYPE_DOUBLE,
                           stats.moving_fraction, "motion-threshold", G_TYPE_DOUBLE, threshold, nullptr);
}

}  // namespace gstdpx
