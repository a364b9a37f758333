#include "buffer_watch.h"

namespace dpx {
namespace test {

Watch* Watch::counter_ = nullptr;

Watch::Watch() {
  counter_ = this;
  previous_ = g_log_set_default_handler(&Watch::on_log, nullptr);
}

Watch::~Watch() {
  g_log_set_default_handler(previous_, nullptr);
  counter_ = nullptr;
}

GstBuffer* Watch::watch(GstBuffer* buf) {
  ++alive_;
  gst_mini_object_weak_ref(GST_MINI_OBJECT_CAST(buf), &Watch::on_free, this);
  return buf;
}

void Watch::on_free(gpointer self, GstMiniObject*) {
  --static_cast<Watch*>(self)->alive_;
}

void Watch::on_log(const gchar* domain, GLogLevelFlags level, const gchar* message, gpointer) {
  if (counter_ != nullptr && (level & (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING)) != 0)
    counter_->logged_.push_back(std::string(domain ? domain : "") + ": " + message);
}

}  // namespace test
}  // namespace dpx
