#include "gstdpxmotionreport.h"

#include <charconv>

namespace gstdpx {

namespace {

// Numbers only, so the line is written directly: a tree of JSON nodes cost about 5 ms for a
// 1080p frame's 8,160 vectors on a desktop core, 23 ms for 4K.
template <typename Integer>
void append_number(std::string& line, Integer value) {
  char digits[24];
  const std::to_chars_result r = std::to_chars(digits, digits + sizeof digits, value);
  line.append(digits, r.ptr);
}

void append_key(std::string& line, const char* name) {
  line += '"';
  line += name;
  line += "\":";
}

void append_member(std::string& line, const char* name, long long value) {
  append_key(line, name);
  append_number(line, value);
  line += ',';
}

void append_time(std::string& line, const char* name, GstClockTime t) {
  append_key(line, name);
  if (GST_CLOCK_TIME_IS_VALID(t))
    append_number(line, static_cast<unsigned long long>(t));
  else
    line += "null";
  line += ',';
}

}  // namespace

std::string motion_json_line(const MotionReport& r) {
  std::string line;
  line.reserve(160 + r.grid.count() * 16);
  line += '{';
  append_member(line, "frame", static_cast<long long>(r.frame_number));
  append_time(line, "pts", r.pts);
  append_time(line, "reference_pts", r.reference_pts);
  append_member(line, "block_size", r.grid.block_size);
  append_member(line, "columns", r.grid.columns);
  append_member(line, "rows", r.grid.rows);
  append_member(line, "scale", r.grid.scale);
  append_key(line, "vectors");
  line += '[';
  for (std::size_t i = 0; i < r.grid.count(); ++i) {
    const dpx::MotionVector& v = r.vectors[i];
    line += i == 0 ? "[" : ",[";
    append_number(line, v.dx);
    line += ',';
    append_number(line, v.dy);
    line += ',';
    append_number(line, v.sad);
    line += ']';
  }
  line += "]}\n";
  return line;
}

GstStructure* motion_message_structure(const MotionReport& r, double threshold) {
  const dpx::MotionStats stats = dpx::motion_stats(r.vectors, r.grid.count(), threshold, r.grid.scale);
  return gst_structure_new(
      "dpx-motion", "frame-number", G_TYPE_UINT64, static_cast<guint64>(r.frame_number), "pts", G_TYPE_UINT64,
      static_cast<guint64>(r.pts), "reference-pts", G_TYPE_UINT64, static_cast<guint64>(r.reference_pts),
      "block-size", G_TYPE_UINT, static_cast<guint>(r.grid.block_size), "columns", G_TYPE_UINT,
      static_cast<guint>(r.grid.columns), "rows", G_TYPE_UINT, static_cast<guint>(r.grid.rows), "scale",
      G_TYPE_UINT, static_cast<guint>(r.grid.scale), "mean-length", G_TYPE_DOUBLE, stats.mean_length,
      "moving-fraction", G_TYPE_DOUBLE, stats.moving_fraction, "motion-threshold", G_TYPE_DOUBLE, threshold,
      nullptr);
}

}  // namespace gstdpx
