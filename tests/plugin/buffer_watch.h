// Counts the buffers a test hands to an element until each is freed, and the GLib warnings and
// criticals logged meanwhile: none may outlive the pipeline (no leak), none may be logged.
#pragma once

#include <gst/gst.h>

#include <atomic>
#include <string>
#include <vector>

namespace dpx {
namespace test {

// One at a time: it replaces GLib's default log handler while it exists.
class Watch {
 public:
  Watch();
  ~Watch();
  Watch(const Watch&) = delete;
  Watch& operator=(const Watch&) = delete;
  // A watched buffer: counted until it is freed.
  GstBuffer* watch(GstBuffer* buf);
  int alive() const { return alive_; }
  const std::vector<std::string>& logged() const { return logged_; }

 private:
  static void on_free(gpointer self, GstMiniObject*);
  static void on_log(const gchar* domain, GLogLevelFlags level, const gchar* message, gpointer);
  static Watch* counter_;
  GLogFunc previous_;
  std::atomic<int> alive_{0};
  std::vector<std::string> logged_;
};

}  // namespace test
}  // namespace dpx
