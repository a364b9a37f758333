// Recurring pageable system memory on the CUDA backend is page-locked in place the second time it
// carries a frame (gstdpxhostregistry.h), and the frames still come out equal to libdpx.
#include <gtest/gtest.h>

#include <gst/check/gstharness.h>

#if DPX_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "frames.h"
#include "plugin_env.h"

namespace dpx {
namespace test {
namespace {

#if DPX_HAVE_CUDA
bool is_page_locked(GstBuffer* buffer) {
  GstMapInfo map;
  if (!gst_buffer_map(buffer, &map, GST_MAP_READ)) return false;
  cudaPointerAttributes attr{};
  const bool locked = cudaPointerGetAttributes(&attr, map.data) == cudaSuccess && attr.type == cudaMemoryTypeHost;
  cudaGetLastError();
  gst_buffer_unmap(buffer, &map);
  return locked;
}

TEST(HostRegistry, RecurringPageableBufferIsRegisteredOnItsSecondFrame) {
  DPX_REQUIRE_GPU();
  auto rng = seeded_rng();
  const FormatCase& fc = format_case(GST_VIDEO_FORMAT_NV12);
  const Frame in = random_frame(rng, fc, 96, 54);
  GstBuffer* frame = frame_to_buffer(in, fc.format, 96, 54);  // pageable (g_malloc)
  ASSERT_FALSE(is_page_locked(frame));
  {
    Harness hz("dpxdilate", "cuda");
    gst_harness_set_src_caps(hz.h, caps_for(fc.format, 96, 54));
    gst_harness_play(hz.h);
    GstVideoInfo info;
    gst_video_info_set_format(&info, fc.format, 96, 54);
    for (int i = 0; i < 3; ++i) {
      GstBuffer* again = gst_buffer_copy(frame);  // the same memory, as a source rotating buffers sends it
      GST_BUFFER_PTS(again) = i * GST_SECOND;
      ASSERT_EQ(gst_harness_push(hz.h, again), GST_FLOW_OK) << hz.pop_error();
      GstBuffer* out = gst_harness_pull(hz.h);
      std::string why;
      EXPECT_TRUE(frames_equal(buffer_to_frame(out, info, fc), reference(in, MorphParams{}), &why)) << i << ": " << why;
      gst_buffer_unref(out);
      EXPECT_EQ(is_page_locked(frame), i >= 1) << "after frame " << i;
    }
  }
  gst_buffer_unref(frame);  // unregistered before its block is freed (a weak reference)
}

// The messages of the registry's debug category while alive (the driver's refusals are logged).
class RegistryLog {
 public:
  RegistryLog() {
    gst_debug_set_threshold_for_name("dpxhostregistry", GST_LEVEL_DEBUG);
    gst_debug_add_log_function(&RegistryLog::collect, this, nullptr);
  }
  ~RegistryLog() {
    gst_debug_remove_log_function_by_data(this);
    gst_debug_unset_threshold_for_name("dpxhostregistry");
  }
  bool contains(const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const std::string& line : lines_)
      if (line.find(text) != std::string::npos) return true;
    return false;
  }

 private:
  static void collect(GstDebugCategory* category, GstDebugLevel, const gchar*, const gchar*, gint, GObject*,
                      GstDebugMessage* message, gpointer self) {
    if (std::strcmp(gst_debug_category_get_name(category), "dpxhostregistry") != 0) return;
    auto* log = static_cast<RegistryLog*>(self);
    std::lock_guard<std::mutex> lock(log->mutex_);
    log->lines_.emplace_back(gst_debug_message_get(message));
  }
  std::mutex mutex_;
  std::vector<std::string> lines_;
};

// Two small frames carved from one heap block share a page: once the first is registered, the
// second is known to be refused without a cudaHostRegister call that the driver would fail.
TEST(HostRegistry, MemorySharingAPageWithRegisteredMemoryIsStagedWithoutAskingTheDriver) {
  DPX_REQUIRE_GPU();
  RegistryLog log;
  auto rng = seeded_rng();
  const FormatCase& fc = format_case(GST_VIDEO_FORMAT_GRAY8);
  const int width = 97, height = 13;  // 1,261 bytes: both frames lie on one or two pages
  GstVideoInfo info;
  gst_video_info_set_format(&info, fc.format, width, height);
  const std::size_t frame_bytes = GST_VIDEO_INFO_SIZE(&info);
  auto* block = static_cast<guint8*>(g_malloc(2 * frame_bytes));
  const Frame in[2] = {random_frame(rng, fc, width, height), random_frame(rng, fc, width, height)};
  GstBuffer* frame[2];
  for (int k = 0; k < 2; ++k) {
    frame[k] = gst_buffer_new_wrapped_full(GstMemoryFlags(0), block + k * frame_bytes, frame_bytes, 0, frame_bytes,
                                           nullptr, nullptr);
    fill_buffer(frame[k], info, in[k]);
  }
  {
    Harness hz("dpxdilate", "cuda");
    gst_harness_set_src_caps(hz.h, caps_for(fc.format, width, height));
    gst_harness_play(hz.h);
    for (int i = 0; i < 6; ++i) {
      const int k = i / 3;  // the first memory three times (registered on its second), then the second
      GstBuffer* b = gst_buffer_copy(frame[k]);  // the same memory again
      GST_BUFFER_PTS(b) = i * GST_SECOND;
      ASSERT_EQ(gst_harness_push(hz.h, b), GST_FLOW_OK) << hz.pop_error();
      GstBuffer* out = gst_harness_pull(hz.h);
      std::string why;
      EXPECT_TRUE(frames_equal(buffer_to_frame(out, info, fc), reference(in[k], MorphParams{}), &why)) << i << ": " << why;
      gst_buffer_unref(out);
    }
    EXPECT_TRUE(log.contains("registered ")) << "the first memory was never registered";
    EXPECT_FALSE(log.contains("the driver refused")) << "the driver was asked to register a pinned page";
  }
  for (GstBuffer* b : frame) gst_buffer_unref(b);  // unregistered before the block is freed
  g_free(block);
}
#endif

}  // namespace
}  // namespace test
}  // namespace dpx
