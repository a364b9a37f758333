// dpx-bench pipeline: dpxdilate inside GStreamer pipelines, 4K NV12, 3x3 rectangle.
//
//  (a) system memory in and out:  appsrc ! dpxdilate backend=cuda ! fakesink, input frames in
//      pinned memory (as from the pool the element proposes) and in pageable memory (registered
//      once it recurs, else staged), with the default frames in flight and with none (one frame at
//      a time); anchor: the PCIe copies in both directions at once on two streams (duplex).
//  (b) CUDA memory, NV12, I420 and Y444:  appsrc ! cudaupload ! dpxdilate ! cudadownload ! fakesink
//      against appsrc ! cudaupload ! cudadownload ! fakesink, the two run in turn five times (the
//      time added is the median of the rounds' own ratios); and the chain dpxdilate ! dpxerode !
//      dpxmotionest on CUDA memory, whose cost over the bare pipeline is shown per element. Where
//      the added time goes: the element's `stats` (its streaming thread's stages per frame) and its
//      GPU work alone (morph_cuda_planes on device frames of the format, CUDA events) beside a
//      device copy of the same bytes.
//  (c) cvdilate (OpenCV, GRAY8) where the opencv plugin is installed, beside dpxdilate on GRAY8.
//
// Per pipeline: frames/s over the timed frames (wall clock at the sink) and the median time a
// frame spends inside dpxdilate (pad probes on its sink and src pads). Input frames rotate over
// more than 60 MB so the GPU's L2 does not hold them. Before timing, a small frame through
// backend=cuda is checked against libdpx's CPU result.
#include <gst/app/app.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bench.h"
#include "dpx/morph_planes.h"
#include "dpx/morphology.h"

#if DPX_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace dpx {
namespace bench {
namespace {

using Clock = std::chrono::steady_clock;

// The plugin built beside this program: build/tools/dpx-bench -> build/plugin.
bool register_plugin() {
  char exe[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return false;
  exe[n] = '\0';
  std::string dir(exe);
  dir = dir.substr(0, dir.find_last_of('/')) + "/../plugin";
  gst_registry_scan_path(gst_registry_get(), dir.c_str());
  GstElementFactory* f = gst_element_factory_find("dpxdilate");
  if (f == nullptr) {
    std::fprintf(stderr, "pipeline: dpxdilate not found (looked in %s)\n", dir.c_str());
    return false;
  }
  gst_object_unref(f);
  return true;
}

bool have(const char* factory) {
  GstElementFactory* f = gst_element_factory_find(factory);
  if (f) gst_object_unref(f);
  return f != nullptr;
}

// Input frames, filled with random bytes once; pinned (cudaHostAlloc) or pageable.
class FrameSet {
 public:
  FrameSet(const GstVideoInfo& info, int count, bool pinned) : pinned_(pinned) {
    std::mt19937_64 rng(20261129);
    const gsize size = GST_VIDEO_INFO_SIZE(&info);
    for (int i = 0; i < count; ++i) {
      void* data = nullptr;
#if DPX_HAVE_CUDA
      if (pinned && cudaHostAlloc(&data, size, cudaHostAllocPortable) != cudaSuccess) data = nullptr;
#endif
      if (!pinned) data = g_malloc(size);
      if (data == nullptr) break;
      auto* bytes = static_cast<std::uint64_t*>(data);
      for (gsize w = 0; w < size / 8; ++w) bytes[w] = rng();
      blocks_.push_back(data);
      buffers_.push_back(gst_buffer_new_wrapped_full(GST_MEMORY_FLAG_READONLY, data, size, 0, size, nullptr, nullptr));
    }
  }
  ~FrameSet() {
    for (GstBuffer* b : buffers_) gst_buffer_unref(b);
    for (void* p : blocks_) {
#if DPX_HAVE_CUDA
      if (pinned_) {
        cudaFreeHost(p);
        continue;
      }
#endif
      g_free(p);
    }
  }
  FrameSet(const FrameSet&) = delete;
  FrameSet& operator=(const FrameSet&) = delete;
  bool ok(int count) const { return static_cast<int>(buffers_.size()) == count; }
  GstBuffer* get(int i) const { return buffers_[i % buffers_.size()]; }

 private:
  bool pinned_;
  std::vector<void*> blocks_;
  std::vector<GstBuffer*> buffers_;
};

// Arrival times of buffers at a pad, in order.
struct PadClock {
  std::vector<Clock::time_point> t;
  static GstPadProbeReturn probe(GstPad*, GstPadProbeInfo*, gpointer self) {
    static_cast<PadClock*>(self)->t.push_back(Clock::now());
    return GST_PAD_PROBE_OK;
  }
  void attach(GstElement* element, const char* pad) {
    GstPad* p = gst_element_get_static_pad(element, pad);
    gst_pad_add_probe(p, GST_PAD_PROBE_TYPE_BUFFER, probe, this, nullptr);
    gst_object_unref(p);
  }
};

struct PipelineTime {
  bool ok = false;
  double frame_us = 0;    // wall clock per frame at the sink, timed frames only
  double element_us = 0;  // median time inside the element named "el" (0 when absent)
  double stages_us = 0;   // the sum of the stages in the `stats` of "el", per frame
  std::string stages;     // those stages, one by one
  std::string error;
};

// The stages of a dpx element's `stats`, as "allocate 1.2 / map-input 0.4 / ... us"; their sum
// in *sum_us. Empty for elements without `stats`.
std::string element_stages(GstElement* el, double* sum_us) {
  *sum_us = 0;
  if (el == nullptr || g_object_class_find_property(G_OBJECT_GET_CLASS(el), "stats") == nullptr) return "";
  GstStructure* stats = nullptr;
  g_object_get(el, "stats", &stats, nullptr);
  std::string out;
  for (const char* stage : {"allocate", "map-input", "map-output", "process", "wait"}) {
    double us = 0;
    gst_structure_get_double(stats, (std::string(stage) + "-us").c_str(), &us);
    char part[64];
    std::snprintf(part, sizeof part, "%s%s %.1f", out.empty() ? "" : " / ", stage, us);
    out += part;
    *sum_us += us;
  }
  gst_structure_free(stats);
  return out + " us";
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Pushes warmup + reps frames through `desc` (which starts with "appsrc name=src" and ends in
// "fakesink name=sink"; the element to time, if any, is named "el").
PipelineTime run_pipeline(const std::string& desc, const GstVideoInfo& info, const FrameSet& frames, int warmup, int reps) {
  PipelineTime r;
  GError* err = nullptr;
  GstElement* pipeline = gst_parse_launch(desc.c_str(), &err);
  if (pipeline == nullptr) {
    r.error = err ? err->message : "parse failed";
    g_clear_error(&err);
    return r;
  }
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  GstElement* el = gst_bin_get_by_name(GST_BIN(pipeline), "el");
  GstCaps* caps = gst_video_info_to_caps(&info);
  g_object_set(src, "caps", caps, "format", GST_FORMAT_TIME, "block", TRUE,
               "max-bytes", static_cast<guint64>(3 * GST_VIDEO_INFO_SIZE(&info)), nullptr);
  gst_caps_unref(caps);
  PadClock at_sink, el_in, el_out;
  at_sink.attach(sink, "sink");
  if (el) {
    el_in.attach(el, "sink");
    el_out.attach(el, "src");
  }
  const int total = warmup + reps;
  for (PadClock* c : {&at_sink, &el_in, &el_out}) c->t.reserve(total);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  for (int i = 0; i < total; ++i) {
    GstBuffer* b = gst_buffer_copy(frames.get(i));  // shares the memory; own timestamps
    GST_BUFFER_PTS(b) = i * GST_SECOND / 60;
    GST_BUFFER_DURATION(b) = GST_SECOND / 60;
    if (gst_app_src_push_buffer(GST_APP_SRC(src), b) != GST_FLOW_OK) break;
  }
  gst_app_src_end_of_stream(GST_APP_SRC(src));
  GstBus* bus = gst_element_get_bus(pipeline);
  GstMessage* msg = gst_bus_timed_pop_filtered(bus, 600 * GST_SECOND,
                                               static_cast<GstMessageType>(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  if (msg && GST_MESSAGE_TYPE(msg) == GST_MESSAGE_ERROR) {
    gchar* dbg = nullptr;
    gst_message_parse_error(msg, &err, &dbg);
    r.error = std::string(err->message) + " | " + (dbg ? dbg : "");
    g_clear_error(&err);
    g_free(dbg);
  } else if (msg == nullptr) {
    r.error = "no EOS within 600 s";
  }
  if (msg) gst_message_unref(msg);
  r.stages = element_stages(el, &r.stages_us);  // before NULL: stopping keeps them, starting clears them
  gst_element_set_state(pipeline, GST_STATE_NULL);
  if (r.error.empty() && static_cast<int>(at_sink.t.size()) == total && reps > 1) {
    r.ok = true;
    r.frame_us = std::chrono::duration<double, std::micro>(at_sink.t[total - 1] - at_sink.t[warmup]).count() / (reps - 1);
    std::vector<double> inside;
    for (int i = warmup; el && i < total && i < static_cast<int>(el_out.t.size()); ++i)
      inside.push_back(std::chrono::duration<double, std::micro>(el_out.t[i] - el_in.t[i]).count());
    r.element_us = median(inside);
  } else if (r.error.empty()) {
    r.error = std::to_string(at_sink.t.size()) + " of " + std::to_string(total) + " frames arrived";
  }
  gst_object_unref(bus);
  for (GstElement* e : {src, sink, el}) if (e) gst_object_unref(e);
  gst_object_unref(pipeline);
  return r;
}

// How many distinct frames of `info` to rotate over so that they exceed the GPU's 60 MB L2.
int frames_past_l2(const GstVideoInfo& info) { return static_cast<int>(64e6 / GST_VIDEO_INFO_SIZE(&info)) + 1; }

std::string caps_string(const GstVideoInfo& info) {
  GstCaps* caps = gst_video_info_to_caps(&info);
  gchar* s = gst_caps_to_string(caps);
  std::string out(s);
  g_free(s);
  gst_caps_unref(caps);
  return out;
}

#if DPX_HAVE_CUDA
// Plane `p` of a frame of `info` at `data` as libdpx takes it: the size of its first component
// and the components interleaved in it (NV12's chroma: 2).
PlaneView plane_of(const GstVideoInfo& info, guint p, const void* data) {
  gint comps[GST_VIDEO_MAX_COMPONENTS];
  gst_video_format_info_component(info.finfo, p, comps);
  int channels = 0;
  while (channels < GST_VIDEO_MAX_COMPONENTS && comps[channels] >= 0) ++channels;
  return PlaneView{data, GST_VIDEO_INFO_COMP_WIDTH(&info, comps[0]), GST_VIDEO_INFO_COMP_HEIGHT(&info, comps[0]),
                   static_cast<std::size_t>(GST_VIDEO_INFO_PLANE_STRIDE(&info, p)), channels, SampleType::kU8};
}

// One small NV12 frame through dpxdilate backend=cuda compared with morph_cpu per plane, so a
// wrong element cannot post a fast number.
bool check_cuda_once(std::string* why) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_NV12, 67, 35);
  FrameSet frames(info, 1, false);
  GstElement* pipeline = gst_parse_launch("appsrc name=src format=time ! dpxdilate backend=cuda ! appsink name=sink", nullptr);
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  GstCaps* caps = gst_video_info_to_caps(&info);
  g_object_set(src, "caps", caps, nullptr);
  gst_caps_unref(caps);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  gst_app_src_push_buffer(GST_APP_SRC(src), gst_buffer_ref(frames.get(0)));
  gst_app_src_end_of_stream(GST_APP_SRC(src));  // the element releases frames in flight at EOS
  GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), 30 * GST_SECOND);
  bool ok = sample != nullptr;
  *why = ok ? "" : "no output from dpxdilate backend=cuda";
  if (ok) {
    GstVideoFrame in, out;
    gst_video_frame_map(&in, &info, frames.get(0), GST_MAP_READ);
    gst_video_frame_map(&out, &info, gst_sample_get_buffer(sample), GST_MAP_READ);
    for (guint p = 0; ok && p < 2; ++p) {
      const PlaneView src_view = plane_of(info, p, GST_VIDEO_FRAME_PLANE_DATA(&in, p));
      const int w = src_view.width, h = src_view.height, ch = src_view.channels;
      std::vector<std::uint8_t> want(static_cast<std::size_t>(w) * ch * h);
      MutablePlaneView dst{want.data(), w, h, static_cast<std::size_t>(w) * ch, ch, SampleType::kU8};
      morph_cpu(src_view, dst, MorphParams{});
      const auto* got = static_cast<const std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&out, p));
      for (int y = 0; ok && y < h; ++y)
        ok = std::memcmp(got + y * GST_VIDEO_FRAME_PLANE_STRIDE(&out, p), want.data() + y * w * ch, w * ch) == 0;
      if (!ok) *why = "dpxdilate backend=cuda differs from morph_cpu on plane " + std::to_string(p);
    }
    gst_video_frame_unmap(&out);
    gst_video_frame_unmap(&in);
    gst_sample_unref(sample);
  }
  gst_element_set_state(pipeline, GST_STATE_NULL);
  for (GstElement* e : {src, sink, pipeline}) gst_object_unref(e);
  return ok;
}

// The PCIe anchor: H2D then D2H of one frame from pinned memory on one stream (what a filter
// that copies in and out must pay per frame), and both directions at once on two streams.
void copy_anchors(const Options& opts, std::size_t bytes, int frames, double* serial_us, double* duplex_us) {
  *serial_us = *duplex_us = -1;
  void *host_in = nullptr, *host_out = nullptr, *dev = nullptr, *dev2 = nullptr;
  cudaStream_t s1 = nullptr, s2 = nullptr;
  if (cudaHostAlloc(&host_in, bytes * frames, cudaHostAllocPortable) == cudaSuccess &&
      cudaHostAlloc(&host_out, bytes, cudaHostAllocPortable) == cudaSuccess && cudaMalloc(&dev, bytes) == cudaSuccess &&
      cudaMalloc(&dev2, bytes) == cudaSuccess && cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking) == cudaSuccess &&
      cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking) == cudaSuccess) {
    auto* in = static_cast<std::uint8_t*>(host_in);
    *serial_us = time_cuda_us(opts, s1, [&](int i) {
      cudaMemcpyAsync(dev, in + (i % frames) * bytes, bytes, cudaMemcpyHostToDevice, s1);
      cudaMemcpyAsync(host_out, dev, bytes, cudaMemcpyDeviceToHost, s1);
    });
    cudaEvent_t joined;
    cudaEventCreateWithFlags(&joined, cudaEventDisableTiming);
    *duplex_us = time_cuda_us(opts, s1, [&](int i) {
      cudaMemcpyAsync(dev, in + (i % frames) * bytes, bytes, cudaMemcpyHostToDevice, s1);
      cudaMemcpyAsync(host_out, dev2, bytes, cudaMemcpyDeviceToHost, s2);
      cudaEventRecord(joined, s2);
      cudaStreamWaitEvent(s1, joined, 0);
    });
    cudaEventDestroy(joined);
  }
  cudaGetLastError();
  if (s1) cudaStreamDestroy(s1);
  if (s2) cudaStreamDestroy(s2);
  cudaFree(dev);
  cudaFree(dev2);
  cudaFreeHost(host_in);
  cudaFreeHost(host_out);
}
#endif

Row fps_row(const std::string& section, const std::string& variant, double us, const std::string& note) {
  Row r;
  r.section = section;
  r.variant = variant;
  r.median_us = us;
  r.throughput = us > 0 ? 1e6 / us : 0;
  r.unit = "frames/s";
  r.note = note;
  return r;
}

// Adds the rows of one timed pipeline: its frame time (against anchor_us when given) and, when it
// has "el", the time inside the element and the element's stages. Returns the frame time (0 on failure).
double add_rows(Report& report, const std::string& section, const std::string& variant,
                const std::string& desc, const PipelineTime& t, double anchor_us, const char* anchor_name,
                const std::string& extra_note = "") {
  if (!t.ok) {
    std::fprintf(stderr, "pipeline %s/%s failed: %s\n  %s\n", section.c_str(), variant.c_str(), t.error.c_str(), desc.c_str());
    report.add(fps_row(section, variant, 0, "FAILED: " + t.error.substr(0, 60)));
    return 0;
  }
  const std::string vs = anchor_us > 0 ? ratio(1e6 / t.frame_us, 1e6 / anchor_us) + " of " + anchor_name + " fps" : "";
  report.add(fps_row(section, variant + " pipe", t.frame_us, vs + extra_note));
  if (t.element_us > 0) report.add(fps_row(section, variant + " elem", t.element_us, "time inside the element"));
  if (!t.stages.empty()) {
    Row stages = fps_row(section, variant + " stages", t.stages_us, t.stages + " (means since start)");
    stages.throughput = 0;  // a sum of the streaming thread's stages, not a rate
    report.add(stages);
  }
  return t.frame_us;
}

// Runs one pipeline and adds its rows (add_rows).
double add_pipeline(Report& report, const std::string& section, const std::string& variant,
                    const std::string& desc, const GstVideoInfo& info, const FrameSet& frames,
                    const Options& opts, int reps, double anchor_us, const char* anchor_name) {
  return add_rows(report, section, variant, desc, run_pipeline(desc, info, frames, opts.warmup, reps),
                  anchor_us, anchor_name);
}

#if DPX_HAVE_CUDA
// Runs an anchor pipeline and a pipeline with the element in turn, five rounds (one for --quick),
// so that the machine's drift between runs (a few per cent from one call to the next) touches both
// alike. Adds each one's rows from its run of median frame time; the element's pipeline's note gives the
// median over the rounds of the time it adds over the anchor of the same round. Returns the
// anchor's median frame time (0 on failure).
double add_paired_pipelines(Report& report, const std::string& section, const std::string& anchor_variant,
                            const std::string& anchor_desc, const char* anchor_name,
                            const std::string& variant, const std::string& desc, const GstVideoInfo& info,
                            const FrameSet& frames, const Options& opts, int reps) {
  const int rounds = opts.quick ? 1 : 5;
  std::vector<PipelineTime> anchors, runs;
  std::vector<double> added;  // per round, the element's frame time over the anchor's, less one
  for (int i = 0; i < rounds; ++i) {
    anchors.push_back(run_pipeline(anchor_desc, info, frames, opts.warmup, reps));
    runs.push_back(run_pipeline(desc, info, frames, opts.warmup, reps));
    if (!anchors.back().ok || !runs.back().ok) break;
    added.push_back(runs.back().frame_us / anchors.back().frame_us - 1);
  }
  const bool all_ok = static_cast<int>(added.size()) == rounds;
  const auto median_run = [](std::vector<PipelineTime> v) {
    std::sort(v.begin(), v.end(),
              [](const PipelineTime& a, const PipelineTime& b) { return a.frame_us < b.frame_us; });
    return v[v.size() / 2];
  };
  // After a failure, the rows of the failed round: its error is what they report.
  const PipelineTime anchor = all_ok ? median_run(anchors) : anchors.back();
  const PipelineTime with_element = all_ok ? median_run(runs) : runs.back();
  const double anchor_us = add_rows(report, section, anchor_variant, anchor_desc, anchor, 0, "");
  char note[96] = "";
  if (all_ok)
    std::snprintf(note, sizeof note, "; %+.1f %% a frame (median of %d paired rounds)", 100 * median(added),
                  rounds);
  add_rows(report, section, variant, desc, with_element, anchor_us, anchor_name, note);
  return anchor_us;
}

// The element's GPU work alone: morph_cuda_planes (3x3 dilate, every plane in one launch) on
// device frames of `info`, rotating over `frames` of them, beside a device copy of the same bytes.
void kernel_rows(Report& report, const std::string& section, const GstVideoInfo& info, const Options& opts,
                 int frames) {
  const std::size_t bytes = GST_VIDEO_INFO_SIZE(&info);
  void *src_block = nullptr, *dst_block = nullptr;
  cudaStream_t stream = nullptr;
  if (cudaMalloc(&src_block, bytes * frames) == cudaSuccess && cudaMalloc(&dst_block, bytes * frames) == cudaSuccess &&
      cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess &&
      cudaMemset(src_block, 0x5a, bytes * frames) == cudaSuccess) {
    auto* src = static_cast<std::uint8_t*>(src_block);
    auto* dst = static_cast<std::uint8_t*>(dst_block);
    const guint n = GST_VIDEO_INFO_N_PLANES(&info);
    Status st;
    const double kernel_us = time_cuda_us(opts, stream, [&](int i) {
      const std::size_t frame = (i % frames) * bytes;
      MorphPlane planes[kMorphMaxPlanes];
      for (guint p = 0; p < n; ++p) {
        const PlaneView in = plane_of(info, p, src + frame + GST_VIDEO_INFO_PLANE_OFFSET(&info, p));
        planes[p] = {in, MutablePlaneView{dst + frame + GST_VIDEO_INFO_PLANE_OFFSET(&info, p), in.width, in.height,
                                          in.pitch, in.channels, in.type}};
      }
      if (st.is_ok()) st = morph_cuda_planes(planes, static_cast<int>(n), MorphParams{}, stream);
    });
    const double copy_us = time_cuda_us(opts, stream, [&](int i) {
      const std::size_t frame = (i % frames) * bytes;
      cudaMemcpyAsync(dst + frame, src + frame, bytes, cudaMemcpyDeviceToDevice, stream);
    });
    report.add(fps_row(section, "device copy", copy_us, "the frame's bytes, device to device (anchor)"));
    report.add(fps_row(section, "kernel", st.is_ok() ? kernel_us : 0,
                       st.is_ok() ? ratio(kernel_us, copy_us) + " the device copy's time: the element's GPU work alone"
                                  : "FAILED: " + st.message()));
  } else {
    std::fprintf(stderr, "pipeline %s: cannot allocate %d device frames\n", section.c_str(), frames);
  }
  cudaGetLastError();
  if (stream) cudaStreamDestroy(stream);
  cudaFree(src_block);
  cudaFree(dst_block);
}

// CUDA-memory rows: cudaupload ! cudadownload alone, with dpxdilate between them and, for `chain`,
// with dpxdilate ! dpxerode ! dpxmotionest, each beside the bare pipeline.
void cuda_memory_rows(Report& report, const std::string& section, const GstVideoInfo& info, const FrameSet& frames,
                      const Options& opts, int reps, bool chain) {
  // The caps filters keep the frames in device memory between the elements; without them
  // cudaupload and cudadownload negotiate system memory and pass the frames through uncopied.
  const std::string on_device = " ! video/x-raw(memory:CUDAMemory) ! ";
  const std::string appsrc = "appsrc name=src ! cudaupload" + on_device;
  const std::string sink = "cudadownload ! fakesink name=sink sync=false";
  const double bare =
      add_paired_pipelines(report, section, "cuda bare", appsrc + sink, "bare upload/download", "cuda dpx",
                           appsrc + "dpxdilate name=el" + on_device + sink, info, frames, opts, reps);
  if (!chain) return;
  const double three = add_pipeline(
      report, section, "cuda chain",
      appsrc + "dpxdilate" + on_device + "dpxerode name=el" + on_device + "dpxmotionest" + on_device + sink, info,
      frames, opts, reps, bare, "bare upload/download");
  if (bare > 0 && three > 0) {
    Row r = fps_row(section, "cuda chain per element", (three - bare) / 3, "");
    r.note = "+" + std::to_string(static_cast<int>(100 * (three - bare) / 3 / bare + 0.5)) +
             " % of the bare frame time per element (target <= 5 %)";
    report.add(r);
  }
}
#endif

int run_pipeline_bench(const Options& opts, Report& report) {
  gst_init(nullptr, nullptr);
  if (!register_plugin()) return 1;
  const int width = opts.quick ? 1920 : 3840, height = opts.quick ? 1080 : 2160;
  const int reps = opts.quick ? 10 : std::max(opts.reps, 100);
  GstVideoInfo nv12;
  gst_video_info_set_format(&nv12, GST_VIDEO_FORMAT_NV12, width, height);
  const std::size_t bytes = GST_VIDEO_INFO_SIZE(&nv12);
  const int rotate = frames_past_l2(nv12);
  const std::string section = "NV12 " + std::to_string(width) + "x" + std::to_string(height) + " 3x3 dilate";
  const std::string appsrc = "appsrc name=src ! ";
  const std::string sink = " ! fakesink name=sink sync=false";
  const bool cuda = cuda_device_count() > 0;
  std::printf("pipeline: %s, %d frames timed, %d distinct input frames (%.0f MB), CUDA device: %s\n",
              caps_string(nv12).c_str(), reps, rotate, rotate * bytes / 1e6, cuda ? "yes" : "no");

  FrameSet pageable(nv12, rotate, false);
  double serial_us = -1;
#if DPX_HAVE_CUDA
  if (cuda) {
    double duplex_us = -1;  // the anchor of the system-memory rows
    std::string why;
    if (!check_cuda_once(&why)) {
      std::fprintf(stderr, "pipeline: correctness check failed: %s\n", why.c_str());
      return 1;
    }
    std::printf("pipeline: dpxdilate backend=cuda matches morph_cpu on a 67x35 NV12 frame\n");
    copy_anchors(opts, bytes, rotate, &serial_us, &duplex_us);
    report.add(fps_row(section, "copy H2D+D2H", serial_us, "PCIe alone, one stream (anchor)"));
    report.add(fps_row(section, "copy duplex", duplex_us, "H2D || D2H on two streams"));
    FrameSet pinned(nv12, rotate, true);
    if (!pinned.ok(rotate)) {
      std::fprintf(stderr, "pipeline: cannot allocate pinned input frames\n");
      return 1;
    }
    // (a) system memory in and out, against the duplex copies; "0 in flight": one frame at a time
    for (const char* in_flight : {"", " frames-in-flight=0"}) {
      const std::string el = appsrc + "dpxdilate name=el backend=cuda" + in_flight + sink;
      const std::string tag = *in_flight ? " 0 in flight" : "";
      add_pipeline(report, section, "sys pinned" + tag, el, nv12, pinned, opts, reps, duplex_us, "duplex");
      add_pipeline(report, section, "sys pageable" + tag, el, nv12, pageable, opts, reps, duplex_us, "duplex");
    }
    // (b) CUDA memory
    if (have("cudaupload") && have("cudadownload")) {
      cuda_memory_rows(report, section, nv12, pinned, opts, reps, true);
      kernel_rows(report, section, nv12, opts, rotate);
      for (GstVideoFormat format : {GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_Y444}) {
        GstVideoInfo info;
        gst_video_info_set_format(&info, format, width, height);
        const int count = frames_past_l2(info);
        FrameSet other(info, count, true);
        const std::string other_section = std::string(gst_video_format_to_string(format)) + " " +
                                          std::to_string(width) + "x" + std::to_string(height) + " 3x3 dilate";
        if (!other.ok(count)) {
          std::fprintf(stderr, "pipeline %s: cannot allocate pinned input frames\n", other_section.c_str());
          continue;
        }
        cuda_memory_rows(report, other_section, info, other, opts, reps, false);
        kernel_rows(report, other_section, info, opts, count);
      }
    } else {
      std::printf("pipeline: cudaupload/cudadownload not available, CUDA-memory rows skipped\n");
    }
  }
#endif
  if (!cuda) std::printf("pipeline: no CUDA device, CUDA rows skipped\n");
  add_pipeline(report, section, "sys cpu", appsrc + "dpxdilate name=el backend=cpu" + sink, nv12, pageable, opts,
               opts.quick ? 5 : std::min(reps, 30), serial_us, "copy");

  // (c) GRAY8: cvdilate (OpenCV, 3x3, CPU) beside dpxdilate on the same frames.
  GstVideoInfo gray;
  gst_video_info_set_format(&gray, GST_VIDEO_FORMAT_GRAY8, width, height);
  FrameSet gray_frames(gray, rotate, false);
  const std::string gsection = "GRAY8 " + std::to_string(width) + "x" + std::to_string(height) + " 3x3 dilate";
  const int cpu_reps = opts.quick ? 5 : std::min(reps, 30);
  const double dpx_cpu = add_pipeline(report, gsection, "dpx cpu", appsrc + "dpxdilate name=el backend=cpu" + sink,
                                      gray, gray_frames, opts, cpu_reps, 0, "");
  if (cuda)
    add_pipeline(report, gsection, "dpx cuda pageable", appsrc + "dpxdilate name=el backend=cuda" + sink, gray, gray_frames, opts,
                 reps, 0, "");
  // One run, not paired rounds: the opencv plugin (1.22) crashes in cv::dilate on its second 4K
  // pipeline in a process.
  if (have("cvdilate")) {
    add_pipeline(report, gsection, "cvdilate", appsrc + "cvdilate name=el" + sink, gray, gray_frames, opts, cpu_reps,
                 dpx_cpu, "dpx cpu");
  } else {
    std::printf("pipeline: cvdilate not available (install gstreamer1.0-opencv), row skipped\n");
  }
  return 0;
}

Registration reg("pipeline", "dpxdilate in GStreamer pipelines: 4K NV12 on system memory, NV12/I420/Y444 on CUDA memory, cvdilate",
                 run_pipeline_bench);

}  // namespace
}  // namespace bench
}  // namespace dpx
