// Allocation: the pool and metadata the elements propose upstream, and, on the CUDA backend,
// page-locked host memory on both sides so that copies to the GPU are asynchronous.
#include <gtest/gtest.h>

#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "frames.h"
#include "plugin_env.h"

#if DPX_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace dpx {
namespace test {
namespace {

class Allocation : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (std::string(GetParam()) == "cuda") DPX_REQUIRE_GPU();
  }
};

TEST_P(Allocation, ProposesAVideoPoolWithVideoMeta) {
  Harness hz("dpxdilate", GetParam());
  gst_harness_set_src_caps(hz.h, caps_for(GST_VIDEO_FORMAT_NV12, 320, 240));
  GstCaps* caps = gst_pad_get_current_caps(hz.h->srcpad);
  GstQuery* query = gst_query_new_allocation(caps, TRUE);
  gst_caps_unref(caps);
  GstPad* sink = gst_element_get_static_pad(hz.h->element, "sink");
  ASSERT_TRUE(gst_pad_query(sink, query));
  EXPECT_TRUE(gst_query_find_allocation_meta(query, GST_VIDEO_META_API_TYPE, nullptr));
  ASSERT_GE(gst_query_get_n_allocation_pools(query), 1u);
  GstBufferPool* pool = nullptr;
  guint size = 0;
  gst_query_parse_nth_allocation_pool(query, 0, &pool, &size, nullptr, nullptr);
  ASSERT_NE(pool, nullptr);
  EXPECT_GE(size, 320u * 240 * 3 / 2);
  gst_object_unref(pool);
  gst_object_unref(sink);
  gst_query_unref(query);
}

#if DPX_HAVE_CUDA
bool memory_is_pinned(GstBuffer* buffer) {
  GstMapInfo map;
  if (!gst_buffer_map(buffer, &map, GST_MAP_READ)) return false;
  cudaPointerAttributes attr{};
  const bool pinned = cudaPointerGetAttributes(&attr, map.data) == cudaSuccess && attr.type == cudaMemoryTypeHost;
  cudaGetLastError();
  gst_buffer_unmap(buffer, &map);
  return pinned;
}

// On the CUDA backend the buffers upstream allocates from the proposal, and the element's own
// output buffers (downstream offers no pool here), are page-locked.
TEST(AllocationCuda, PinnedInputAndOutputBuffers) {
  DPX_REQUIRE_GPU();
  auto rng = seeded_rng();
  const FormatCase& fc = format_case(GST_VIDEO_FORMAT_I420);
  Harness hz("dpxerode", "cuda");
  GstCaps* caps = caps_for(fc.format, 1280, 720);
  GstVideoInfo info;
  gst_video_info_from_caps(&info, caps);
  gst_harness_set_src_caps(hz.h, caps);
  const Frame in = random_frame(rng, fc, 1280, 720);
  GstBuffer* buf = gst_harness_create_buffer(hz.h, GST_VIDEO_INFO_SIZE(&info));
  fill_buffer(buf, info, in);
  EXPECT_TRUE(memory_is_pinned(buf)) << "the proposed pool or allocator is not pinned";
  ASSERT_EQ(gst_harness_push(hz.h, buf), GST_FLOW_OK) << hz.pop_error();
  GstBuffer* out = gst_harness_pull(hz.h);
  EXPECT_TRUE(memory_is_pinned(out)) << "the element's output is not pinned";
  std::string why;
  EXPECT_TRUE(frames_equal(buffer_to_frame(out, info, fc), reference(in, morph_params(MorphOp::kErode)), &why)) << why;
  gst_buffer_unref(out);
}
#endif

INSTANTIATE_TEST_SUITE_P(Backends, Allocation, ::testing::Values("cpu", "cuda"),
                         [](const ::testing::TestParamInfo<const char*>& info) { return std::string(info.param); });

}  // namespace
}  // namespace test
}  // namespace dpx
