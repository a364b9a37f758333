#include "gstdpxdeshakereport.h"

#include <json-glib/json-glib.h>

#include <cmath>

namespace gstdpx {

namespace {

constexpr double kDegrees = 180.0 / 3.14159265358979323846;

gboolean add_field(GQuark field, const GValue* value, gpointer data) {
  JsonBuilder* b = static_cast<JsonBuilder*>(data);
  std::string name = g_quark_to_string(field);
  for (char& ch : name)
    if (ch == '-') ch = '_';
  json_builder_set_member_name(b, name.c_str());
  if (G_VALUE_HOLDS_UINT64(value)) {
    const guint64 v = g_value_get_uint64(value);
    if (name == "pts" && !GST_CLOCK_TIME_IS_VALID(v))
      json_builder_add_null_value(b);
    else
      json_builder_add_int_value(b, static_cast<gint64>(v));
  } else if (G_VALUE_HOLDS_UINT(value)) {
    json_builder_add_int_value(b, g_value_get_uint(value));
  } else if (G_VALUE_HOLDS_BOOLEAN(value)) {
    json_builder_add_boolean_value(b, g_value_get_boolean(value));
  } else {
    json_builder_add_double_value(b, g_value_get_double(value));
  }
  return TRUE;
}

}  // namespace

GstStructure* deshake_structure(const DeshakeFrame& f) {
  const dpx::Similarity& m = f.path.motion;
  const dpx::Similarity& c = f.path.correction;
  const bool measured = !f.path.cut;
  return gst_structure_new(
      "dpx-deshake", "frame-number", G_TYPE_UINT64, f.number, "pts", G_TYPE_UINT64,
      static_cast<guint64>(f.pts), "measured", G_TYPE_BOOLEAN, measured, "blocks", G_TYPE_UINT,
      static_cast<guint>(f.fit.candidates), "inliers", G_TYPE_UINT, static_cast<guint>(f.fit.inliers),
      "residual", G_TYPE_DOUBLE, f.fit.residual_rms, "measured-tx", G_TYPE_DOUBLE, m.tx, "measured-ty",
      G_TYPE_DOUBLE, m.ty, "measured-angle", G_TYPE_DOUBLE, m.angle * kDegrees, "measured-scale",
      G_TYPE_DOUBLE, m.scale, "cut", G_TYPE_BOOLEAN, f.path.cut, "correction-tx", G_TYPE_DOUBLE, c.tx,
      "correction-ty", G_TYPE_DOUBLE, c.ty, "correction-angle", G_TYPE_DOUBLE, c.angle * kDegrees,
      "correction-scale", G_TYPE_DOUBLE, c.scale, "zoom", G_TYPE_DOUBLE, f.zoom, nullptr);
}

std::string deshake_json_line(const GstStructure* s) {
  JsonBuilder* b = json_builder_new();
  json_builder_begin_object(b);
  gst_structure_foreach(s, add_field, b);
  json_builder_end_object(b);
  JsonNode* root = json_builder_get_root(b);
  gchar* text = json_to_string(root, FALSE);
  std::string line(text);
  line += '\n';
  g_free(text);
  json_node_unref(root);
  g_object_unref(b);
  return line;
}

}  // namespace gstdpx
