#include "plugin_env.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>

namespace dpx {
namespace test {
namespace {

// build/tests/plugin/test-plugin -> build/plugin
std::string plugin_dir() {
  char exe[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return "";
  exe[n] = '\0';
  std::string path(exe);
  path = path.substr(0, path.find_last_of('/'));  // tests/plugin
  return path + "/../../plugin";
}

class GstEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    gst_init(nullptr, nullptr);
    const std::string dir = plugin_dir();
    gst_registry_scan_path(gst_registry_get(), dir.c_str());
    GstPlugin* plugin = gst_registry_find_plugin(gst_registry_get(), "dpx");
    ASSERT_NE(plugin, nullptr) << "the dpx plugin was not found in " << dir;
    std::printf("[   INFO   ] plugin: %s\n", gst_plugin_get_filename(plugin));
    gst_object_unref(plugin);
  }
};

const bool registered = [] {
  ::testing::AddGlobalTestEnvironment(new GstEnvironment);
  return true;
}();

}  // namespace

// The CUDA context of the first element that made one, handed to every later element as an
// application would (creating a CUDA context per harness costs far more than the test itself).
static GstContext* shared_cuda_context = nullptr;

Harness::Harness(const char* factory, const char* backend) {
  // The backend is set before the harness starts the element, so start() resolves that one.
  GstElement* element = gst_element_factory_make(factory, nullptr);
  if (backend != nullptr) gst_util_set_object_arg(G_OBJECT(element), "backend", backend);
  // A harness test pulls each output right after its push: the element holds no frames (the
  // frames-in-flight tests set their own depth).
  g_object_set(element, "frames-in-flight", 0, nullptr);
  if (shared_cuda_context != nullptr) gst_element_set_context(element, shared_cuda_context);
  h = gst_harness_new_with_element(element, "sink", "src");
  gst_object_unref(element);
  if (shared_cuda_context == nullptr) shared_cuda_context = gst_element_get_context(h->element, "gst.cuda.context");
  bus = gst_bus_new();
  gst_element_set_bus(h->element, bus);
}

// The bus goes first: each message on it holds its element, which holds the bus, so neither (nor
// a context a have-context message carries) would ever be freed.
Harness::~Harness() {
  gst_element_set_bus(h->element, nullptr);
  gst_bus_set_flushing(bus, TRUE);
  gst_harness_teardown(h);
  gst_object_unref(bus);
}

void Harness::set_params(const MorphParams& p) {
  g_object_set(h->element, "shape", static_cast<int>(p.shape), "iterations", p.iterations, "border",
               static_cast<int>(p.border), nullptr);
  if (g_object_class_find_property(G_OBJECT_GET_CLASS(h->element), "operation") != nullptr) {
    g_object_set(h->element, "operation", static_cast<int>(p.op), "width", morph_width(p), "height",
                 morph_height(p), nullptr);
  } else {
    g_object_set(h->element, "size", p.size, nullptr);
  }
}

std::string error_text(GstMessage* error) {
  GError* err = nullptr;
  gchar* debug = nullptr;
  gst_message_parse_error(error, &err, &debug);
  std::string text = std::string(err->message) + " | " + (debug ? debug : "");
  g_clear_error(&err);
  g_free(debug);
  return text;
}

std::string pop_bus_error(GstBus* bus) {
  GstMessage* msg = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  if (msg == nullptr) return "";
  std::string text = error_text(msg);
  gst_message_unref(msg);
  return text;
}

std::string Harness::pop_error() {
  return pop_bus_error(bus);
}

bool have_factory(const char* factory) {
  GstElementFactory* f = gst_element_factory_find(factory);
  if (f == nullptr) return false;
  gst_object_unref(f);
  return true;
}

const char* factory_for(MorphOp op) {
  return op == MorphOp::kDilate ? "dpxdilate" : op == MorphOp::kErode ? "dpxerode" : "dpxmorph";
}

}  // namespace test
}  // namespace dpx
