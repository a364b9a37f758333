// A pipeline of elements between appsrc and appsink, on system memory or on CUDA memory (cudaupload
// and cudadownload around it), fed NV12 frames of a panned texture and run to EOS or to its first
// error; what reached appsink is kept by timestamp, so each output can be compared with the CPU's.
#pragma once

#include <gst/gst.h>

#include <cstddef>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "buffer_watch.h"
#include "frames.h"

namespace dpx {
namespace test {

// What one run gave: the outputs by PTS and the error messages posted (none when EOS came).
struct AppRun {
  std::map<GstClockTime, Frame> out;
  struct Error {
    std::string source;  // the posting element's name
    std::string text;    // message | debug
  };
  std::vector<Error> errors;
  bool eos = false;
  // EOS came before any error. A source whose downstream failed posts its own error and then sends
  // EOS (GstBaseSrc does), so a failed run may still reach EOS, but only after the error.
  bool eos_before_error = false;
  // "source: text" of the first error, "" when none.
  std::string first_error() const { return errors.empty() ? "" : errors[0].source + ": " + errors[0].text; }
};

// NV12 frames whose luma is a texture panned a few pixels per frame (motion to find, a picture to
// stabilise) and whose chroma is random.
std::vector<Frame> panned_nv12_frames(std::mt19937_64& rng, int count, int width, int height);

class AppPipeline {
 public:
  static constexpr guint64 kRunOffsetStride = 1000000;

  // "appsrc ! `chain` ! appsink"; with `cuda_memory`, "appsrc ! cudaupload ! `chain` ! cudadownload !
  // appsink", caps filters holding `chain` to memory:CUDAMemory on both sides. `context` (a
  // gst.cuda.context GstContext), when given, is set on the pipeline before it starts.
  AppPipeline(const std::string& chain, bool cuda_memory, int width, int height,
              GstContext* context = nullptr);
  ~AppPipeline();
  AppPipeline(const AppPipeline&) = delete;
  AppPipeline& operator=(const AppPipeline&) = delete;

  bool ok() const { return pipeline_ != nullptr; }
  // Sets PLAYING, pushes `frames` and EOS, and waits up to 60 s for EOS or an error (after an error
  // in a playing pipeline, for its EOS too); then collects what reached appsink. Input i of run r
  // carries offset r * kRunOffsetStride + i (the elements copy offsets to their outputs), so an
  // output carried over from an earlier run, or one pushed twice, is a failure that names its run. Every
  // input and output buffer is watched by `watch` when given (a pooled output once each time it comes: the
  // count holds, each watch ending when the buffer is freed). The pipeline stays PLAYING.
  AppRun play(const std::vector<Frame>& frames, Watch* watch = nullptr);
  // To NULL or READY, dropping what is left on the bus: the end of a run, after which play() starts
  // a new one.
  void stop(GstState state);
  // An element of the pipeline by name (a new reference), nullptr when none.
  GstElement* element(const char* name) const;

 private:
  bool playing() const;  // the pipeline's current state is PLAYING

  GstElement* pipeline_ = nullptr;
  GstElement* src_ = nullptr;
  GstElement* sink_ = nullptr;
  GstVideoInfo info_;
  guint64 runs_ = 0;  // play() calls so far: each run's inputs carry it in their offsets
};

// A gst.cuda.context GstContext made as a lone dpxdilate makes it when it starts on CUDA, for an
// application to hand to its pipelines (a new reference; nullptr when none could be made).
GstContext* new_cuda_context();

// The GstCudaContext object a gst.cuda.context GstContext holds (nullptr when none); not a new
// reference.
GObject* cuda_context_object(const GstContext* context);

// The GstCudaContext object of the gst.cuda.context GstContext set on `element` (nullptr when
// none); not a new reference: the element's context list holds it.
GObject* element_cuda_context(GstElement* element);

// Compares every output of `got` with the output of the same timestamp in `reference`; a frame
// missing from the reference is a difference. Describes the first difference in `why`.
bool outputs_match(const AppRun& got, const AppRun& reference, std::string* why);

// Device memory in use, measured once the process holds a CUDA context: this process's from
// nvidia-smi (-1 when nvidia-smi is missing, fails or does not list this process), and
// the whole device's (which other processes on the GPU move, e.g. parallel test shards).
struct DeviceMemory {
  long long process_mib = -1;
  long long device_mib = 0;
};
DeviceMemory device_memory_in_use();

// Fails when the device memory in use grew by more than 32 MiB since `before`: this process's,
// or the whole device's where nvidia-smi could not say this process's (the INFO line printed
// under `name` says which).
void expect_device_memory_given_back(const DeviceMemory& before, const char* name);

}  // namespace test
}  // namespace dpx
