// The GStreamer side of the plugin tests: registration of the freshly built plugin (found next to
// this executable, never through an absolute build path) and small helpers around elements.
#pragma once

#include <gst/gst.h>
#include <gst/check/gstharness.h>

#include <string>

#include "dpx/morphology.h"

namespace dpx {
namespace test {

// A harness around a new `factory` ("dpxdilate", "dpxerode", "dpxmorph") with a bus to collect its
// messages; `backend` ("cpu", "cuda", "auto") is set when given, and `frames-in-flight` to 0 (each
// output is there as soon as its input is pushed).
struct Harness {
  explicit Harness(const char* factory, const char* backend = nullptr);
  ~Harness();
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;

  // Sets the element's morphology properties from `p`: the operation, width and height where the
  // element has them (dpxmorph), else `size` (the operation is the factory's).
  void set_params(const MorphParams& p);
  // The first error message posted so far, "" when none.
  std::string pop_error();

  GstHarness* h = nullptr;
  GstBus* bus = nullptr;
};

// An error message's text and debug string, as "text | debug".
std::string error_text(GstMessage* error);

// The first error message on `bus`, popped, as error_text gives it; "" when none.
std::string pop_bus_error(GstBus* bus);

// True when `factory` is registered (e.g. nvcodec's cudaupload, which needs a CUDA driver).
bool have_factory(const char* factory);

// The factory name for an operation: dpxdilate, dpxerode, or dpxmorph for the compound ones.
const char* factory_for(MorphOp op);

}  // namespace test
}  // namespace dpx
