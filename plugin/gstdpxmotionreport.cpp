#include "gstdpxmotionreport.h"

#include <json-glib/json-glib.h>

namespace gstdpx {

namespace {
void add_member(JsonBuilder* b, const char* name, gint64 value) {
  json_builder_set_member_name(b, name);
  json_builder_add_int_value(b, value);
}

void add_time(JsonBuilder* b, const char* name, GstClockTime t) {
  json_builder_set_member_name(b, name);
  if (GST_CLOCK_TIME_IS_VALID(t))
    json_builder_add_int_value(b, static_cast<gint64>(t));
  else
    json_builder_add_null_value(b);
}
}  // namespace

std::string motion_json_line(const MotionReport& r) {
  JsonBuilder* b = json_builder_new();
  json_builder_begin_object(b);
  add_member(b, "frame", static_cast<gint64>(r.frame_number));
  add_time(b, "pts", r.pts);
  add_time(b, "reference_pts", r.reference_pts);
  add_member(b, "block_size", r.grid.block_size);
  add_member(b, "columns", r.grid.columns);
  add_member(b, "rows", r.grid.rows);
  add_member(b, "scale", r.grid.scale);
  json_builder_set_member_name(b, "vectors");
  json_builder_begin_array(b);
  for (std::size_t i = 0; i < r.grid.count(); ++i) {
    const dpx::MotionVector& v = r.vectors[i];
    json_builder_begin_array(b);
    json_builder_add_int_value(b, v.dx);
    json_builder_add_int_value(b, v.dy);
    json_builder_add_int_value(b, v.sad);
    json_builder_end_array(b);
  }
  json_builder_end_array(b);
  json_builder_end_object(b);

  JsonNode* root = json_builder_get_root(b);
  JsonGenerator* gen = json_generator_new();  // compact: no spaces, one line
  json_generator_set_root(gen, root);
  gsize length = 0;
  gchar* text = json_generator_to_data(gen, &length);
  std::string line(text, length);
  line += '\n';
  g_free(text);
  g_object_unref(gen);
  json_node_unref(root);
  g_object_unref(b);
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
