// Recurring pageable system memory on the CUDA backend is page-locked in place the second time it
// carries a frame (gstdpxhostregistry.h), and the frames still come out equal to libdpx.
#include <gtest/gtest.h>

#include <gst/check/gstharness.h>

#if DPX_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

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
#endif

}  // namespace
}  // namespace test
}  // namespace dpx
