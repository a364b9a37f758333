// dpxdilate / dpxerode on memory:CUDAMemory between nvcodec's cudaupload and cudadownload: the
// frames stay on the GPU through the elements and the output still equals libdpx byte for byte.
#include <gtest/gtest.h>

#include <gst/app/app.h>

#include <atomic>
#include <cstring>
#include <string>
#include <vector>

#include "frames.h"
#include "motion_test_util.h"
#include "plugin_env.h"

namespace dpx {
namespace test {
namespace {

// The formats cudaupload takes (its sink template) among those the elements take.
std::vector<FormatCase> uploadable_formats() {
  GstElementFactory* f = gst_element_factory_find("cudaupload");
  std::vector<FormatCase> out;
  if (f == nullptr) return out;
  GstCaps* upload = nullptr;
  for (const GList* l = gst_element_factory_get_static_pad_templates(f); l; l = l->next) {
    auto* t = static_cast<GstStaticPadTemplate*>(l->data);
    if (t->direction == GST_PAD_SINK) upload = gst_static_caps_get(&t->static_caps);
  }
  for (const FormatCase& fc : all_formats()) {
    GstCaps* c = caps_for(fc.format, 64, 48);
    if (upload && gst_caps_can_intersect(c, upload)) out.push_back(fc);
    gst_caps_unref(c);
  }
  if (upload) gst_caps_unref(upload);
  gst_object_unref(f);
  return out;
}

// Counts the frames the base class logs as processed in place in CUDA memory (input and output
// both in device memory of the element's context, shared with cudaupload/cudadownload).
std::atomic<int> frames_in_device_memory{0};

void count_device_frames(GstDebugCategory* category, GstDebugLevel, const gchar*, const gchar*, gint, GObject*,
                         GstDebugMessage* message, gpointer) {
  if (std::strcmp(gst_debug_category_get_name(category), "dpxfilter") != 0) return;
  const gchar* text = gst_debug_message_get(message);
  if (text && std::strstr(text, "input in device memory, output in device memory")) ++frames_in_device_memory;
}

class CudaMemory : public ::testing::Test {
 protected:
  void SetUp() override {
    DPX_REQUIRE_GPU();
    if (!have_factory("cudaupload") || !have_factory("cudadownload"))
      GTEST_SKIP() << "nvcodec's cudaupload/cudadownload are not available (no nvcodec plugin or no CUDA driver)";
    gst_debug_set_threshold_for_name("dpxfilter", GST_LEVEL_LOG);
    gst_debug_add_log_function(count_device_frames, nullptr, nullptr);
    frames_in_device_memory = 0;
  }
  void TearDown() override {
    gst_debug_remove_log_function(count_device_frames);
    gst_debug_set_threshold_for_name("dpxfilter", GST_LEVEL_NONE);
  }

  // Runs `frames` through appsrc ! cudaupload ! <chain> ! cudadownload ! appsink and returns the
  // outputs. `chain` names its first element "first". The caps filters hold the chain to device
  // memory: unfiltered, GStreamer 1.22's cudaupload prefers passing system memory through.
  std::vector<Frame> run(const FormatCase& fc, int w, int h, const std::vector<Frame>& frames, const std::string& chain) {
    const std::string desc = "appsrc name=src format=time ! cudaupload ! video/x-raw(memory:CUDAMemory) ! " + chain +
                             " ! video/x-raw(memory:CUDAMemory) ! cudadownload ! video/x-raw ! appsink name=sink sync=false";
    GError* err = nullptr;
    GstElement* pipeline = gst_parse_launch(desc.c_str(), &err);
    EXPECT_NE(pipeline, nullptr) << (err ? err->message : "");
    if (pipeline == nullptr) return {};
    GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
    GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
    GstElement* first = gst_bin_get_by_name(GST_BIN(pipeline), "first");
    GstCaps* caps = caps_for(fc.format, w, h);
    GstVideoInfo info;
    gst_video_info_from_caps(&info, caps);
    gst_app_src_set_caps(GST_APP_SRC(src), caps);
    gst_caps_unref(caps);
    EXPECT_NE(gst_element_set_state(pipeline, GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE);

    // Every frame, then EOS: the elements keep frames in flight on CUDA and release the last
    // ones at EOS.
    for (std::size_t i = 0; i < frames.size(); ++i) {
      GstBuffer* buf = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
      fill_buffer(buf, info, frames[i]);
      GST_BUFFER_PTS(buf) = i * GST_SECOND / 30;
      gst_app_src_push_buffer(GST_APP_SRC(src), buf);
    }
    gst_app_src_end_of_stream(GST_APP_SRC(src));
    std::vector<Frame> out;
    for (std::size_t i = 0; i < frames.size(); ++i) {
      GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), 30 * GST_SECOND);
      if (sample == nullptr) {
        ADD_FAILURE() << "no output for frame " << i << ": " << bus_error(pipeline);
        break;
      }
      out.push_back(buffer_to_frame(gst_sample_get_buffer(sample), info, fc));
      gst_sample_unref(sample);
      if (i == 0) expect_cuda_memory_caps(first);
    }
    gst_element_set_state(pipeline, GST_STATE_NULL);
    for (GstElement* e : {src, sink, first, pipeline}) gst_object_unref(e);
    return out;
  }

  static void expect_cuda_memory_caps(GstElement* element) {
    GstPad* pad = gst_element_get_static_pad(element, "sink");
    GstCaps* caps = gst_pad_get_current_caps(pad);
    ASSERT_NE(caps, nullptr);
    GstCapsFeatures* f = gst_caps_get_features(caps, 0);
    EXPECT_TRUE(f && gst_caps_features_contains(f, "memory:CUDAMemory")) << "negotiated " << gst_caps_to_string(caps);
    gst_caps_unref(caps);
    gst_object_unref(pad);
  }

  static std::string bus_error(GstElement* pipeline) {
    GstBus* bus = gst_element_get_bus(pipeline);
    const std::string text = pop_bus_error(bus);
    gst_object_unref(bus);
    return text.empty() ? "no error message" : text;
  }

  // Runs frames through `chain` and compares each output with `expect(frame)`.
  template <typename Expect>
  void check(std::mt19937_64& rng, const FormatCase& fc, int w, int h, int n, const std::string& chain, Expect expect) {
    std::vector<Frame> in;
    for (int i = 0; i < n; ++i) in.push_back(random_frame(rng, fc, w, h));
    const std::vector<Frame> got = run(fc, w, h, in, chain);
    ASSERT_EQ(got.size(), in.size()) << format_name(fc.format) << " " << chain;
    for (int i = 0; i < n; ++i) {
      std::string why;
      EXPECT_TRUE(frames_equal(got[i], expect(in[i]), &why))
          << format_name(fc.format) << " " << w << "x" << h << " frame " << i << " [" << chain << "]: " << why;
    }
  }
};

TEST_F(CudaMemory, EveryUploadableFormat) {
  auto rng = seeded_rng();
  const std::vector<FormatCase> formats = uploadable_formats();
  std::printf("[   INFO   ] cudaupload takes %zu of the %zu formats\n", formats.size(), all_formats().size());
  ASSERT_FALSE(formats.empty());
  const MorphParams p = morph_params(MorphOp::kDilate, 5, MorphShape::kEllipse, BorderMode::kReflect101, 1);
  for (const FormatCase& fc : formats) {
    // GStreamer 1.22's GstCudaMemory places I420/YV12's V plane height/2 (rounded down) rows after
    // U, so odd heights overlap the two planes: those formats get even heights.
    const bool planar420 = fc.format == GST_VIDEO_FORMAT_I420 || fc.format == GST_VIDEO_FORMAT_YV12;
    const int odd = planar420 ? 1 : 0;
    for (const auto& s : std::vector<std::pair<int, int>>{{37, 23 - odd}, {1, 1 + odd}, {3, 2}}) {
      check(rng, fc, s.first, s.second, 2,
            "dpxdilate name=first backend=cuda size=5 shape=ellipse border=reflect101",
            [&](const Frame& in) { return reference(in, p); });
    }
  }
  // 2 frames at each of 3 sizes per format, all in device memory of the shared context.
  EXPECT_EQ(frames_in_device_memory.load(), 2 * 3 * static_cast<int>(formats.size()))
      << "frames that did not stay in device memory";
}

TEST_F(CudaMemory, OpeningStaysOnTheGpu) {
  auto rng = seeded_rng();
  const MorphParams dil = morph_params(MorphOp::kDilate, 3, MorphShape::kRect, BorderMode::kReplicate, 2);
  const MorphParams ero = morph_params(MorphOp::kErode, 3, MorphShape::kRect, BorderMode::kReplicate, 2);
  for (const FormatCase& fc : uploadable_formats()) {
    const bool nv12 = fc.format == GST_VIDEO_FORMAT_NV12;  // 4K for NV12, a small size for the rest
    check(rng, fc, nv12 ? 3840 : 97, nv12 ? 2160 : 54, 3, "dpxdilate name=first iterations=2 ! dpxerode iterations=2",
          [&](const Frame& in) { return reference(reference(in, dil), ero); });
  }
  // Two elements, three frames per format: every frame stayed in the shared CUDA context.
  EXPECT_EQ(frames_in_device_memory.load(), 2 * 3 * static_cast<int>(uploadable_formats().size()));
}

TEST_F(CudaMemory, PlaneMaskCopiesOnTheDevice) {
  auto rng = seeded_rng();
  const MorphParams p = morph_params(MorphOp::kErode, 5, MorphShape::kCross, BorderMode::kNeutral, 3);
  for (const FormatCase& fc : uploadable_formats()) {
    for (unsigned planes : {1u, 2u, 6u}) {
      check(rng, fc, 45, 34, 2,
            "dpxerode name=first size=5 shape=cross border=neutral iterations=3 planes=" + std::to_string(planes),
            [&](const Frame& in) { return reference(in, p, planes); });
    }
  }
}

TEST_F(CudaMemory, CpuBackendMapsCudaMemoryOnTheHost) {
  auto rng = seeded_rng();
  const MorphParams p = morph_params(MorphOp::kDilate, 3, MorphShape::kCross, BorderMode::kReplicate, 1);
  for (const FormatCase& fc : uploadable_formats()) {
    check(rng, fc, 64, 36, 2, "dpxdilate name=first backend=cpu shape=cross",
          [&](const Frame& in) { return reference(in, p); });
  }
}

TEST_F(CudaMemory, DeshakeOnCudaMemoryEqualsTheCpu) {
  auto rng = seeded_rng();
  std::uniform_int_distribution<int> shake(-3, 3);
  for (const FormatCase& fc : uploadable_formats()) {
    if (fc.type != SampleType::kU8 || fc.planes[0].channels != 1) continue;  // the textured luma is 8-bit
    const int w = 160, h = 96;
    const Texture tex(rng, w + 80, h + 40, SampleType::kU8);
    const Frame base = random_frame(rng, fc, w, h);
    std::vector<Frame> in;
    for (int i = 0; i < 8; ++i) {
      Frame f = base;
      const TestPlane luma = tex.frame(w, h, 10 + 3 * i + shake(rng), 10 + shake(rng));
      for (int y = 0; y < h; ++y)
        std::memcpy(f[0].bytes.data() + y * f[0].pitch, luma.bytes().data() + y * luma.pitch(), w);
      in.push_back(f);
    }
    const std::vector<Frame> gpu = run(fc, w, h, in, "dpxdeshake name=first backend=cuda smoothing=3 border=replicate");
    const std::vector<Frame> cpu = run(fc, w, h, in, "dpxdeshake name=first backend=cpu smoothing=3 border=replicate");
    ASSERT_EQ(gpu.size(), in.size());
    ASSERT_EQ(cpu.size(), in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
      std::string why;
      EXPECT_TRUE(frames_equal(gpu[i], cpu[i], &why)) << format_name(fc.format) << " frame " << i << ": " << why;
    }
  }
  EXPECT_GT(frames_in_device_memory.load(), 0);
}

}  // namespace
}  // namespace test
}  // namespace dpx
