#include "app_pipeline.h"

#include <gst/app/app.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

#include <unistd.h>

#include "dpx/device.h"
#include "motion_test_util.h"
#include "plugin_env.h"

namespace dpx {
namespace test {

std::vector<Frame> panned_nv12_frames(std::mt19937_64& rng, int count, int width, int height) {
  const FormatCase& fc = format_case(GST_VIDEO_FORMAT_NV12);
  const Texture tex(rng, width + 4 * count + 16, height + 2 * count + 16, SampleType::kU8);
  std::vector<Frame> frames;
  for (int i = 0; i < count; ++i) {
    Frame f = random_frame(rng, fc, width, height);
    const TestPlane luma = tex.frame(width, height, 8 + 3 * i, 8 + (i % 3));
    for (int y = 0; y < height; ++y)
      std::memcpy(f[0].bytes.data() + y * f[0].pitch, luma.bytes().data() + y * luma.pitch(), width);
    frames.push_back(std::move(f));
  }
  return frames;
}

AppPipeline::AppPipeline(const std::string& chain, bool cuda_memory, int width, int height,
                         GstContext* context) {
  const std::string body = cuda_memory ? "cudaupload ! video/x-raw(memory:CUDAMemory) ! " + chain +
                                             " ! video/x-raw(memory:CUDAMemory) ! cudadownload ! video/x-raw"
                                       : chain;
  const std::string desc =
      "appsrc name=src format=time ! " + body + " ! appsink name=sink sync=false wait-on-eos=false";
  GError* err = nullptr;
  pipeline_ = gst_parse_launch(desc.c_str(), &err);
  EXPECT_NE(pipeline_, nullptr) << desc << ": " << (err ? err->message : "");
  g_clear_error(&err);
  if (pipeline_ == nullptr) return;
  if (context != nullptr) gst_element_set_context(pipeline_, context);
  src_ = gst_bin_get_by_name(GST_BIN(pipeline_), "src");
  sink_ = gst_bin_get_by_name(GST_BIN(pipeline_), "sink");
  GstCaps* caps = caps_for(GST_VIDEO_FORMAT_NV12, width, height);
  gst_caps_set_simple(caps, "framerate", GST_TYPE_FRACTION, 30, 1, nullptr);
  gst_video_info_from_caps(&info_, caps);
  gst_app_src_set_caps(GST_APP_SRC(src_), caps);
  gst_caps_unref(caps);
}

AppPipeline::~AppPipeline() {
  if (pipeline_ == nullptr) return;
  gst_element_set_state(pipeline_, GST_STATE_NULL);
  gst_object_unref(src_);
  gst_object_unref(sink_);
  gst_object_unref(pipeline_);
}

AppRun AppPipeline::play(const std::vector<Frame>& frames, Watch* watch) {
  AppRun run;
  if (pipeline_ == nullptr) return run;
  const guint64 this_run = ++runs_;
  gst_element_set_state(pipeline_, GST_STATE_PLAYING);  // a failure shows as an error on the bus
  for (std::size_t i = 0; i < frames.size(); ++i) {
    GstBuffer* buf = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info_), nullptr);
    fill_buffer(buf, info_, frames[i]);
    GST_BUFFER_PTS(buf) = i * GST_SECOND / 30;
    GST_BUFFER_DURATION(buf) = GST_SECOND / 30;
    GST_BUFFER_OFFSET(buf) = this_run * kRunOffsetStride + i;
    if (watch != nullptr) watch->watch(buf);
    if (gst_app_src_push_buffer(GST_APP_SRC(src_), buf) != GST_FLOW_OK) break;
  }
  gst_app_src_end_of_stream(GST_APP_SRC(src_));
  GstBus* bus = gst_element_get_bus(pipeline_);
  const auto ends = static_cast<GstMessageType>(GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  // After an error the source still sends EOS, and the elements push the frames they hold before
  // passing it on: a playing pipeline's run is read once that EOS is in (or 5 s after the error),
  // so none of its frames reaches the sink after the read. (A sink that has not had EOS is still
  // prerolling when the pipeline is stopped, and the bin skips it: what it holds would show in the
  // next run.) An error before the pipeline reached PLAYING fails its state change: the sink
  // prerolls on that EOS and renders nothing, and the bin posts no EOS.
  for (GstMessage* m = gst_bus_timed_pop_filtered(bus, 60 * GST_SECOND, ends); m != nullptr;
       m = run.eos || !playing() ? nullptr : gst_bus_timed_pop_filtered(bus, 5 * GST_SECOND, ends)) {
    if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_EOS) {
      run.eos = true;
      run.eos_before_error = run.errors.empty();
    } else {
      run.errors.push_back({GST_OBJECT_NAME(GST_MESSAGE_SRC(m)), error_text(m)});
    }
    gst_message_unref(m);
  }
  gst_object_unref(bus);
  const FormatCase& fc = format_case(GST_VIDEO_FORMAT_NV12);
  std::map<GstClockTime, guint64> offsets;  // of the outputs collected, by PTS
  while (GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink_), 0)) {
    GstBuffer* buf = gst_sample_get_buffer(sample);
    const guint64 offset = GST_BUFFER_OFFSET(buf);
    const auto run_of = [](guint64 o) { return o == GST_BUFFER_OFFSET_NONE ? 0 : o / kRunOffsetStride; };
    EXPECT_TRUE(offset == GST_BUFFER_OFFSET_NONE || run_of(offset) == this_run)
        << "an output of run " << run_of(offset) << " (input " << offset % kRunOffsetStride << ") in run "
        << this_run;
    EXPECT_EQ(run.out.count(GST_BUFFER_PTS(buf)), 0u)
        << "two outputs at " << GST_BUFFER_PTS(buf) << " in run " << this_run << ": offsets "
        << offsets[GST_BUFFER_PTS(buf)] << " and " << offset;
    offsets[GST_BUFFER_PTS(buf)] = offset;
    run.out[GST_BUFFER_PTS(buf)] = buffer_to_frame(buf, info_, fc);
    if (watch != nullptr) watch->watch(buf);  // an output too must be freed once the pipeline is gone
    gst_sample_unref(sample);
  }
  return run;
}

bool AppPipeline::playing() const {
  GstState current = GST_STATE_VOID_PENDING;
  gst_element_get_state(pipeline_, &current, nullptr, 0);
  return current == GST_STATE_PLAYING;
}

// The children not in `state` after a stop to it, with their states and last returns (empty when
// none), for a failed stop's message.
static std::string children_not_in(GstElement* pipeline, GstState state) {
  std::string out;
  GstIterator* it = gst_bin_iterate_elements(GST_BIN(pipeline));
  GValue item = G_VALUE_INIT;
  while (gst_iterator_next(it, &item) == GST_ITERATOR_OK) {
    auto* child = GST_ELEMENT(g_value_get_object(&item));
    GstState current = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING;
    const GstStateChangeReturn last = gst_element_get_state(child, &current, &pending, 0);
    if (current != state) {
      out += std::string(" ") + GST_OBJECT_NAME(child) + " (" + gst_element_state_get_name(current) +
             ", pending " + gst_element_state_get_name(pending) + ", " +
             gst_element_state_change_return_get_name(last) + ")";
    }
    g_value_reset(&item);
  }
  g_value_unset(&item);
  gst_iterator_free(it);
  return out;
}

// Whether the pipeline itself is in `state` with nothing pending.
static bool pipeline_in(GstElement* pipeline, GstState state) {
  GstState current = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING;
  gst_element_get_state(pipeline, &current, &pending, 0);
  return current == state && pending == GST_STATE_VOID_PENDING;
}

void AppPipeline::stop(GstState state) {
  if (pipeline_ == nullptr) return;
  // A stop can answer FAILURE with every element in the state asked for: seen after a failed CUDA
  // call, with the source's "streaming stopped" error posted during the stop (a bin marks its state
  // change failed on each ERROR message a child posts, gstbin.c). So the stop is judged by where the
  // pipeline and its elements are; an element whose own change fails stays out of the state.
  const bool answered_failure = gst_element_set_state(pipeline_, state) == GST_STATE_CHANGE_FAILURE;
  const std::string children = answered_failure ? children_not_in(pipeline_, state) : "";
  const bool pipeline_there = !answered_failure || pipeline_in(pipeline_, state);
  const bool failed = answered_failure && (!children.empty() || !pipeline_there);
  // The streaming threads have stopped: what they posted after the run ended (an upstream element's
  // error following the one that ended it) is dropped, so the next run starts with an empty bus
  // (a failed stop names the errors among it).
  std::string errors;
  GstBus* bus = gst_element_get_bus(pipeline_);
  while (GstMessage* m = gst_bus_pop(bus)) {
    if (failed && GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR) {
      errors += std::string(" ") + GST_OBJECT_NAME(GST_MESSAGE_SRC(m)) + ": " + error_text(m) + ";";
    }
    gst_message_unref(m);
  }
  gst_object_unref(bus);
  EXPECT_FALSE(failed) << "stopping to " << gst_element_state_get_name(state)
                       << " failed; the pipeline there: " << (pipeline_there ? "yes" : "no")
                       << "; children not there:" << (children.empty() ? " none" : children)
                       << "; errors left on the bus:" << (errors.empty() ? " none" : errors);
}

GstElement* AppPipeline::element(const char* name) const {
  return pipeline_ != nullptr ? gst_bin_get_by_name(GST_BIN(pipeline_), name) : nullptr;
}

GstContext* new_cuda_context() {
  GstElement* e = gst_element_factory_make("dpxdilate", nullptr);
  gst_util_set_object_arg(G_OBJECT(e), "backend", "cuda");
  gst_element_set_state(e, GST_STATE_PAUSED);
  GstContext* context = gst_element_get_context(e, "gst.cuda.context");
  gst_element_set_state(e, GST_STATE_NULL);
  gst_object_unref(e);
  return context;
}

GObject* cuda_context_object(const GstContext* context) {
  if (context == nullptr) return nullptr;
  const GValue* v = gst_structure_get_value(gst_context_get_structure(context), "gst.cuda.context");
  return v != nullptr && G_VALUE_HOLDS_OBJECT(v) ? G_OBJECT(g_value_get_object(v)) : nullptr;
}

GObject* element_cuda_context(GstElement* element) {
  GstContext* context = gst_element_get_context(element, "gst.cuda.context");
  GObject* object = cuda_context_object(context);
  if (context != nullptr) gst_context_unref(context);
  return object;
}

bool outputs_match(const AppRun& got, const AppRun& reference, std::string* why) {
  for (const auto& [pts, frame] : got.out) {
    const auto ref = reference.out.find(pts);
    if (ref == reference.out.end()) {
      *why = "an output at " + std::to_string(pts) + " the reference does not have";
      return false;
    }
    std::string diff;
    if (!frames_equal(frame, ref->second, &diff)) {
      *why = "output at " + std::to_string(pts) + " ns: " + diff;
      return false;
    }
  }
  return true;
}

namespace {

// This process's device memory in MiB from nvidia-smi; false when nvidia-smi is missing, fails or
// lists no line of this pid. Callers measure once the process holds a CUDA context, so a missing
// line means nvidia-smi sees other pids (a container's own PID namespace), not 0 MiB: reading 0
// there would make every check pass. Other processes on the GPU (parallel test shards) leave it alone.
bool process_device_mib(long long* mib) {
  FILE* smi =
      popen("nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits 2>/dev/null", "r");
  if (smi == nullptr) return false;
  bool listed = false;
  *mib = 0;
  long long pid = 0, used = 0;
  char line[256];
  while (std::fgets(line, sizeof line, smi) != nullptr)
    if (std::sscanf(line, "%lld, %lld", &pid, &used) == 2 && pid == static_cast<long long>(getpid())) {
      *mib += used;
      listed = true;
    }
  return pclose(smi) == 0 && listed;
}

}  // namespace

// The device-wide figure is read first: the runtime makes the process's primary context for it the
// first time (some 500 MiB on a large GPU), which must already count in the process's figure read
// after it, or the first measurement of a process would see that context as memory not given back.
DeviceMemory device_memory_in_use() {
  DeviceMemory m;
  std::size_t free_bytes = 0, total = 0;
  EXPECT_TRUE(cuda_memory_info(&free_bytes, &total).is_ok());
  m.device_mib = static_cast<long long>((total - free_bytes) >> 20);
  if (!process_device_mib(&m.process_mib)) m.process_mib = -1;
  return m;
}

void expect_device_memory_given_back(const DeviceMemory& before, const char* name) {
  const DeviceMemory now = device_memory_in_use();
  const bool per_process = before.process_mib >= 0 && now.process_mib >= 0;
  const long long grown =
      per_process ? now.process_mib - before.process_mib : now.device_mib - before.device_mib;
  std::printf("[   INFO   ] %s: device memory in use grew by %lld MiB (%s)\n", name, grown,
              per_process ? "this process's, from nvidia-smi"
                          : "the whole device's: nvidia-smi could not say this process's");
  EXPECT_LE(grown, 32) << "device memory not given back";
}

}  // namespace test
}  // namespace dpx
