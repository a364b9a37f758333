#include "bench_json.h"

#include <json-glib/json-glib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace dpx {
namespace bench {
namespace {

void add_number(JsonBuilder* b, const char* name, double v) {
  json_builder_set_member_name(b, name);
  if (std::isfinite(v)) {
    json_builder_add_double_value(b, v);
  } else {
    json_builder_add_null_value(b);
  }
}

void add_string(JsonBuilder* b, const char* name, const std::string& v) {
  json_builder_set_member_name(b, name);
  json_builder_add_string_value(b, v.c_str());
}

}  // namespace

std::string json_path_problem(const std::string& path) {
  if (path.empty()) return "--json needs a file name";
  const std::size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return "--json=" + path + ": no folder " + dir;
  if (access(dir.c_str(), W_OK) != 0) return "--json=" + path + ": folder " + dir + " is not writable";
  if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return "--json=" + path + " is a folder";
  return "";
}

std::string reports_json(const std::vector<Report>& reports) {
  JsonBuilder* b = json_builder_new();
  json_builder_begin_object(b);
  json_builder_set_member_name(b, "benchmarks");
  json_builder_begin_array(b);
  for (const Report& report : reports) {
    json_builder_begin_object(b);
    add_string(b, "benchmark", report.name());
    json_builder_set_member_name(b, "rows");
    json_builder_begin_array(b);
    for (const Row& r : report.rows()) {
      json_builder_begin_object(b);
      add_string(b, "case", r.section);
      add_string(b, "variant", r.variant);
      add_number(b, "median_us", r.median_us);
      add_number(b, "throughput", r.throughput);
      add_string(b, "unit", r.unit);
      add_string(b, "note", r.note);
      json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
  json_builder_end_object(b);

  JsonNode* root = json_builder_get_root(b);
  JsonGenerator* gen = json_generator_new();
  json_generator_set_pretty(gen, TRUE);
  json_generator_set_root(gen, root);
  gchar* text = json_generator_to_data(gen, nullptr);
  // json-glib 1.6 leaves 0x1f unescaped. A byte below 0x20 in the output can only be inside a string
  // (the layout uses spaces and newlines, and UTF-8 puts no such byte inside a character), where
  // JSON wants it as \u00XX.
  std::string out;
  for (const char* c = text; *c != '\0'; ++c) {
    if (static_cast<unsigned char>(*c) < 0x20 && *c != '\n') {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(*c));
      out += escaped;
    } else {
      out += *c;
    }
  }
  out += '\n';
  g_free(text);
  g_object_unref(gen);
  json_node_unref(root);
  g_object_unref(b);
  return out;
}

bool write_reports_json(const std::vector<Report>& reports, const std::string& path, std::string* error) {
  // Written in place, not renamed over: the path may be a device (/dev/stdout) or a link.
  const std::string text = reports_json(reports);
  FILE* f = std::fopen(path.c_str(), "w");
  const bool ok = f != nullptr && std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const int saved = errno;
  const bool closed = f != nullptr && std::fclose(f) == 0;
  if (!ok || !closed) {
    *error = "could not write " + path + ": " + std::strerror(ok ? errno : saved);
    return false;
  }
  return true;
}

}  // namespace bench
}  // namespace dpx
