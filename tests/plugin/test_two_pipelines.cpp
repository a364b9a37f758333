// Two pipelines in one process at once, each run from its own thread. On a GPU, "appsrc ! cudaupload
// ! ELEMENT ! cudadownload ! appsink" once sharing one GstCudaContext set on both by the application,
// once each finding its own: every frame equals the CPU's, each pipeline ran in the context it
// should, and once both are gone no buffer is left and device memory is back where it was
// (dpxdilate, and dpxmotionest with frames in flight). On the CPU backend, two pipelines on system
// memory at once give what one alone gives.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "app_pipeline.h"
#include "buffer_watch.h"
#include "dpx/device.h"
#include "plugin_env.h"
#include "test_util.h"

namespace dpx {
namespace test {
namespace {

constexpr int kWidth = 320, kHeight = 192, kFrames = 40, kRuns = 3;

struct TwoCase {
  const char* name;
  const char* chain;  // the element, named "el", without its backend
  bool shared;        // one context set on both pipelines, else each finds its own
};

// The GstCudaContext the pipeline's element "el" ran in.
GObject* context_of(const AppPipeline& p) {
  GstElement* el = p.element("el");
  GObject* object = el != nullptr ? element_cuda_context(el) : nullptr;
  if (el != nullptr) gst_object_unref(el);
  return object;  // still held by the element's context list while the pipeline exists
}

// Runs `frames` kRuns times through each of `a` and `b`, each from its own thread at the same time,
// every output compared with `reference`.
void run_at_once(AppPipeline& a, AppPipeline& b, const std::vector<Frame>& frames, const AppRun& reference,
                 Watch& watch) {
  auto stream = [&](AppPipeline* p, const char* which) {
    for (int run = 0; run < kRuns; ++run) {
      const AppRun got = p->play(frames, &watch);
      std::string why;
      EXPECT_TRUE(got.eos && got.errors.empty()) << which << " run " << run << ": " << got.first_error();
      EXPECT_EQ(got.out.size(), frames.size()) << which << " run " << run;
      EXPECT_TRUE(outputs_match(got, reference, &why)) << which << " run " << run << ": " << why;
      p->stop(GST_STATE_READY);
    }
  };
  std::thread ta(stream, &a, "pipeline A");
  std::thread tb(stream, &b, "pipeline B");
  ta.join();
  tb.join();
}

class TwoPipelines : public ::testing::TestWithParam<TwoCase> {
 protected:
  void SetUp() override {
    DPX_REQUIRE_GPU();
    if (!have_factory("cudaupload") || !have_factory("cudadownload"))
      GTEST_SKIP() << "nvcodec's cudaupload/cudadownload are not available";
  }
};

TEST_P(TwoPipelines, RunAtOnceFromTwoThreadsAndGiveEverythingBack) {
  auto rng = seeded_rng();
  const std::vector<Frame> frames = panned_nv12_frames(rng, kFrames, kWidth, kHeight);
  const std::string chain = std::string(GetParam().chain) + " backend=";
  AppRun cpu;
  {
    AppPipeline p(chain + "cpu", false, kWidth, kHeight);
    cpu = p.play(frames);
  }
  ASSERT_TRUE(cpu.eos && cpu.errors.empty()) << cpu.first_error();
  ASSERT_EQ(cpu.out.size(), frames.size());
  {
    AppPipeline warm(chain + "cuda", true, kWidth, kHeight);  // the device's first use, not counted
    ASSERT_TRUE(warm.play(frames).eos);
  }
  const DeviceMemory before = device_memory_in_use();

  Watch watch;
  {
    GstContext* shared = GetParam().shared ? new_cuda_context() : nullptr;
    if (GetParam().shared) {
      ASSERT_NE(shared, nullptr) << "no CUDA context made";
    }
    AppPipeline a(chain + "cuda", true, kWidth, kHeight, shared);
    AppPipeline b(chain + "cuda", true, kWidth, kHeight, shared);
    ASSERT_TRUE(a.ok() && b.ok());
    run_at_once(a, b, frames, cpu, watch);
    GObject* ca = context_of(a);
    GObject* cb = context_of(b);
    ASSERT_NE(ca, nullptr);
    ASSERT_NE(cb, nullptr);
    if (GetParam().shared) {
      EXPECT_EQ(ca, cuda_context_object(shared)) << "pipeline A did not run in the context it was given";
      EXPECT_EQ(cb, cuda_context_object(shared)) << "pipeline B did not run in the context it was given";
    } else {
      EXPECT_NE(ca, cb) << "two pipelines found one context without being given it";
    }
    if (shared != nullptr) gst_context_unref(shared);
  }
  EXPECT_EQ(watch.alive(), 0) << "buffers leaked (inputs or outputs)";
  for (const std::string& m : watch.logged()) ADD_FAILURE() << "logged: " << m;
  expect_device_memory_given_back(before, GetParam().name);
}

// The same on the CPU backend (one worker pool for both): each equals a single pipeline's run.
TEST(TwoPipelinesCpu, RunAtOnceFromTwoThreads) {
  auto rng = seeded_rng();
  const std::vector<Frame> frames = panned_nv12_frames(rng, 12, 96, 64);
  Watch watch;
  for (const char* chain : {"dpxdilate name=el size=5 backend=cpu frames-in-flight=2",
                            "dpxmotionest name=el draw=true block-size=8 frames-in-flight=3 backend=cpu"}) {
    SCOPED_TRACE(chain);
    AppRun alone;
    {
      AppPipeline p(chain, false, 96, 64);
      alone = p.play(frames);
    }
    ASSERT_TRUE(alone.eos && alone.errors.empty()) << alone.first_error();
    ASSERT_EQ(alone.out.size(), frames.size());
    AppPipeline a(chain, false, 96, 64);
    AppPipeline b(chain, false, 96, 64);
    ASSERT_TRUE(a.ok() && b.ok());
    run_at_once(a, b, frames, alone, watch);
  }
  EXPECT_EQ(watch.alive(), 0) << "buffers leaked (inputs or outputs)";
  for (const std::string& m : watch.logged()) ADD_FAILURE() << "logged: " << m;
}

std::string two_name(const ::testing::TestParamInfo<TwoCase>& info) {
  return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(
    Gpu, TwoPipelines,
    ::testing::Values(TwoCase{"dilate_shared_context", "dpxdilate name=el size=5", true},
                      TwoCase{"dilate_own_contexts", "dpxdilate name=el size=5", false},
                      TwoCase{"motionest_in_flight_shared_context",
                              "dpxmotionest name=el draw=true block-size=8 frames-in-flight=3", true},
                      TwoCase{"motionest_in_flight_own_contexts",
                              "dpxmotionest name=el draw=true block-size=8 frames-in-flight=3", false}),
    two_name);

}  // namespace
}  // namespace test
}  // namespace dpx
