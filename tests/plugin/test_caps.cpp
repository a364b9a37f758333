// Caps of dpxdilate / dpxerode: the formats on both pads, memory:CUDAMemory where the build has
// CUDA, and caps the elements refuse.
#include <gtest/gtest.h>

#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include <set>
#include <string>

#include "frames.h"
#include "plugin_env.h"

namespace dpx {
namespace test {
namespace {

std::set<std::string> template_formats(GstElement* element, const char* pad, bool cuda_memory) {
  GstPad* p = gst_element_get_static_pad(element, pad);
  GstCaps* caps = gst_pad_get_pad_template_caps(p);
  std::set<std::string> out;
  for (guint i = 0; i < gst_caps_get_size(caps); ++i) {
    GstCapsFeatures* f = gst_caps_get_features(caps, i);
    const bool is_cuda = f && gst_caps_features_contains(f, "memory:CUDAMemory");
    if (is_cuda != cuda_memory) continue;
    const GValue* formats = gst_structure_get_value(gst_caps_get_structure(caps, i), "format");
    if (G_VALUE_HOLDS_STRING(formats)) {
      out.insert(g_value_get_string(formats));
      continue;
    }
    for (guint j = 0; j < gst_value_list_get_size(formats); ++j)
      out.insert(g_value_get_string(gst_value_list_get_value(formats, j)));
  }
  gst_caps_unref(caps);
  gst_object_unref(p);
  return out;
}

bool accepts(GstElement* element, GstCaps* caps) {
  GstPad* sink = gst_element_get_static_pad(element, "sink");
  const bool ok = gst_pad_query_accept_caps(sink, caps);
  gst_object_unref(sink);
  gst_caps_unref(caps);
  return ok;
}

class Caps : public ::testing::TestWithParam<const char*> {};

// GStreamer 1.22's GstCudaMemory has no layout for GRAY8 and GRAY16_LE (its allocator aborts), so
// CUDA-memory caps carry every other format.
TEST_P(Caps, BothPadsListEveryFormatOnSystemAndCudaMemory) {
  GstElement* e = gst_element_factory_make(GetParam(), nullptr);
  std::set<std::string> want;
  for (const FormatCase& fc : all_formats()) want.insert(format_name(fc.format));
  for (const char* pad : {"sink", "src"}) {
    EXPECT_EQ(template_formats(e, pad, false), want) << pad;
#if DPX_HAVE_CUDA
    std::set<std::string> want_cuda = want;
    want_cuda.erase("GRAY8");
    want_cuda.erase("GRAY16_LE");
    EXPECT_EQ(template_formats(e, pad, true), want_cuda) << pad << " memory:CUDAMemory";
#else
    EXPECT_TRUE(template_formats(e, pad, true).empty()) << "CUDA memory caps without the CUDA backend";
#endif
  }
  gst_object_unref(e);
}

TEST_P(Caps, AcceptsEveryFormatAndSize) {
  GstElement* e = gst_element_factory_make(GetParam(), nullptr);
  for (const FormatCase& fc : all_formats()) {
    EXPECT_TRUE(accepts(e, caps_for(fc.format, 1, 1))) << format_name(fc.format);
    EXPECT_TRUE(accepts(e, caps_for(fc.format, 4097, 2161))) << format_name(fc.format);
  }
  gst_object_unref(e);
}

TEST_P(Caps, RefusesOtherFormats) {
  GstElement* e = gst_element_factory_make(GetParam(), nullptr);
  for (GstVideoFormat f : {GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_GRAY16_BE,
                           GST_VIDEO_FORMAT_v210, GST_VIDEO_FORMAT_I420_10LE, GST_VIDEO_FORMAT_AYUV64}) {
    EXPECT_FALSE(accepts(e, caps_for(f, 64, 48))) << format_name(f);
  }
  EXPECT_FALSE(accepts(e, gst_caps_from_string("video/x-raw(memory:GLMemory),format=NV12,width=64,height=48,framerate=0/1")));
  EXPECT_FALSE(accepts(e, caps_for(GST_VIDEO_FORMAT_GRAY8, 64, 48, "memory:CUDAMemory")));
  EXPECT_FALSE(accepts(e, caps_for(GST_VIDEO_FORMAT_GRAY16_LE, 64, 48, "memory:CUDAMemory")));
  EXPECT_FALSE(accepts(e, gst_caps_from_string("audio/x-raw,format=S16LE,rate=48000,channels=2,layout=interleaved")));
  gst_object_unref(e);
}

TEST_P(Caps, PushingRefusedCapsIsNotNegotiated) {
  Harness hz(GetParam(), "cpu");
  gst_harness_set_src_caps(hz.h, caps_for(GST_VIDEO_FORMAT_YUY2, 16, 16));
  GstBuffer* buf = gst_buffer_new_allocate(nullptr, 16 * 16 * 2, nullptr);
  gst_buffer_memset(buf, 0, 0x5a, 16 * 16 * 2);
  EXPECT_EQ(gst_harness_push(hz.h, buf), GST_FLOW_NOT_NEGOTIATED);
}

INSTANTIATE_TEST_SUITE_P(Elements, Caps, ::testing::Values("dpxdilate", "dpxerode", "dpxmorph"),
                         [](const ::testing::TestParamInfo<const char*>& info) { return std::string(info.param); });

}  // namespace
}  // namespace test
}  // namespace dpx
