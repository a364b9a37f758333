// Every element on the CUDA backend when the GPU fails (GPU only): the Nth CUDA allocation, copy or
// launch of libdpx made to fail (dpx/fault_injection.h) at the first call, in the middle of the
// stream and at the last (with frames in flight, during the drain at EOS), on system memory and on
// CUDA memory. Each run must end in an error from the element naming the failed call, every output
// pushed before it must equal the CPU's (no half-written frame), and no buffer, input or output,
// may outlive the pipeline. The same pipeline, stopped and started again with the injection off,
// must then give every frame as the CPU does, and device memory must be back where it was. The
// injection is armed in the plugin's own copy of libdpx, through its exported hooks: the test
// binary's copy does not reach the elements.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app_pipeline.h"
#include "buffer_watch.h"
#include "dpx/device.h"
#include "gstdpxfaulthooks.h"
#include "plugin_env.h"
#include "test_util.h"

namespace dpx {
namespace test {
namespace {

constexpr int kWidth = 160, kHeight = 96, kFrames = 12;

struct FaultPath {
  const char* name;
  const char* chain;  // the element, named "el", with BACKEND in place of its backend
  bool cuda_memory;
};

std::string with_backend(const char* chain, const char* backend) {
  std::string s = chain;
  s.replace(s.find("BACKEND"), 7, backend);
  return s;
}

struct FaultKind {
  const char* name;                     // as DPX_FAULT_INJECT spells it
  std::vector<const char*> call_names;  // one of which the error must name
};

const FaultKind kKinds[] = {
    {"alloc", {"Malloc", "HostAlloc"}}, {"copy", {"Memcpy", "Memset"}}, {"launch", {"launch of"}}};

bool names_call(const std::string& text, const FaultKind& kind) {
  for (const char* c : kind.call_names)
    if (text.find(c) != std::string::npos) return true;
  return false;
}

// The loaded dpx plugin's fault injection hooks (gstdpxfaulthooks.h).
struct PluginFaults {
  decltype(&gst_dpx_set_fault_injection) set = nullptr;
  decltype(&gst_dpx_fault_injection_count) count = nullptr;
};

// Loads the dpx plugin and resolves its hooks; on failure both are null and `why` says why.
PluginFaults plugin_faults(std::string* why) {
  PluginFaults f;
  GstPlugin* found = gst_registry_find_plugin(gst_registry_get(), "dpx");
  if (found == nullptr) {
    *why = "the dpx plugin is not registered";
    return f;
  }
  GstPlugin* loaded = gst_plugin_load(found);
  gst_object_unref(found);
  if (loaded == nullptr) {
    *why = "the dpx plugin did not load";
    return f;
  }
  const std::string path = gst_plugin_get_filename(loaded);
  gst_object_unref(loaded);
  void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (module == nullptr) {
    const char* error = dlerror();
    *why = path + " is not loaded: " + (error != nullptr ? error : "dlopen failed");
    return f;
  }
  f.set = reinterpret_cast<decltype(f.set)>(dlsym(module, "gst_dpx_set_fault_injection"));
  f.count = reinterpret_cast<decltype(f.count)>(dlsym(module, "gst_dpx_fault_injection_count"));
  dlclose(module);  // GStreamer keeps the plugin loaded
  if (f.set == nullptr || f.count == nullptr) {
    *why = path + " does not export gst_dpx_set_fault_injection and gst_dpx_fault_injection_count";
    f = PluginFaults{};
  }
  return f;
}

class ElementFaults : public ::testing::TestWithParam<FaultPath> {
 protected:
  void SetUp() override {
    DPX_REQUIRE_GPU();
    std::string why;
    faults_ = plugin_faults(&why);
    ASSERT_NE(faults_.set, nullptr) << why;
    if (GetParam().cuda_memory && (!have_factory("cudaupload") || !have_factory("cudadownload")))
      GTEST_SKIP() << "nvcodec's cudaupload/cudadownload are not available";
    // One CUDA context for every pipeline of the test, as an application would share it (and a
    // context made per pipeline would cost more than the runs).
    context_ = new_cuda_context();
    ASSERT_NE(context_, nullptr) << "no CUDA context made";
  }
  void TearDown() override {
    if (faults_.set != nullptr) faults_.set(nullptr);
    if (context_ != nullptr) gst_context_unref(context_);
  }

  PluginFaults faults_;
  GstContext* context_ = nullptr;
};

TEST_P(ElementFaults, EachFailureIsAnElementErrorAndTheElementRecovers) {
  auto rng = seeded_rng();
  const std::vector<Frame> frames = panned_nv12_frames(rng, kFrames, kWidth, kHeight);
  const FaultPath& path = GetParam();
  AppRun cpu;
  {
    AppPipeline p(with_backend(path.chain, "cpu"), false, kWidth, kHeight);
    ASSERT_TRUE(p.ok());
    cpu = p.play(frames);
  }
  ASSERT_TRUE(cpu.eos && cpu.errors.empty()) << "the CPU run failed: " << cpu.first_error();
  ASSERT_EQ(cpu.out.size(), frames.size());

  const std::string chain = with_backend(path.chain, "cuda");
  DeviceMemory before;
  bool measured = false;
  int runs_with_calls = 0;
  Watch watch;
  for (const FaultKind& kind : kKinds) {
    SCOPED_TRACE(kind.name);
    // A run with the kind counted but never failed: how many calls a stream makes, where to fail.
    long calls = 0;
    {
      AppPipeline p(chain, path.cuda_memory, kWidth, kHeight, context_);
      faults_.set((std::string(kind.name) + ":1000000000").c_str());
      const AppRun run = p.play(frames, &watch);
      calls = faults_.count();
      faults_.set(nullptr);
      std::string why;
      ASSERT_TRUE(run.eos && run.errors.empty()) << run.first_error();
      ASSERT_EQ(run.out.size(), frames.size());
      EXPECT_TRUE(outputs_match(run, cpu, &why)) << why;
    }
    if (!measured) {  // after the first run's warm-up
      before = device_memory_in_use();
      measured = true;
    }
    std::printf("[   INFO   ] %s: %ld %s calls in %d frames\n", path.name, calls, kind.name, kFrames);
    if (calls == 0) continue;  // nothing of this kind to fail on this path
    ++runs_with_calls;
    std::vector<long> targets = {1};
    if (calls > 2) targets.push_back((calls + 1) / 2);
    if (calls > 1) targets.push_back(calls);  // the last: with frames in flight, in the drain at EOS
    for (long n : targets) {
      SCOPED_TRACE("failing call " + std::to_string(n) + " of " + std::to_string(calls));
      AppPipeline p(chain, path.cuda_memory, kWidth, kHeight, context_);
      ASSERT_TRUE(p.ok());
      faults_.set((std::string(kind.name) + ":" + std::to_string(n)).c_str());
      const AppRun failed = p.play(frames, &watch);
      const long made = faults_.count();
      faults_.set(nullptr);
      std::string why;
      EXPECT_TRUE(outputs_match(failed, cpu, &why)) << "a frame pushed before the error: " << why;
      if (made < n) {
        // A run may make fewer calls than the counted one (pools reused sooner): nothing failed.
        EXPECT_TRUE(failed.eos && failed.errors.empty()) << failed.first_error();
        EXPECT_EQ(failed.out.size(), frames.size());
      } else {
        EXPECT_FALSE(failed.eos_before_error) << "EOS before the error of a failed CUDA call";
        ASSERT_FALSE(failed.errors.empty()) << "no error after a failed CUDA call";
        EXPECT_EQ(failed.errors[0].source, "el")
            << "the first error is not the element's: " << failed.first_error();
        bool from_element = false;
        for (const AppRun::Error& e : failed.errors) {
          if (e.source != "el") continue;
          from_element = true;
          EXPECT_TRUE(names_call(e.text, kind)) << "the error does not name the failed call: " << e.text;
        }
        EXPECT_TRUE(from_element) << "no error from the element; first error: " << failed.first_error();
        EXPECT_LT(failed.out.size(), frames.size());
      }
      // Recovery: the same pipeline stopped (to NULL or READY in turn) and started again.
      p.stop(n % 2 == 1 ? GST_STATE_NULL : GST_STATE_READY);
      const AppRun again = p.play(frames, &watch);
      ASSERT_TRUE(again.eos && again.errors.empty()) << "after the failure: " << again.first_error();
      EXPECT_EQ(again.out.size(), frames.size());
      EXPECT_TRUE(outputs_match(again, cpu, &why)) << "after the failure: " << why;
    }
    EXPECT_EQ(watch.alive(), 0) << "buffers leaked (inputs or outputs)";
  }
  EXPECT_GT(runs_with_calls, 0) << "the element made no checked CUDA call at all";
  for (const std::string& m : watch.logged()) ADD_FAILURE() << "logged: " << m;
  expect_device_memory_given_back(before, path.name);
}

// On the CPU backend no element makes a CUDA call libdpx checks: with every kind armed to fail at
// the first call, each path still gives every frame, and nothing was counted.
TEST(ElementFaultsCpu, TheCpuBackendMakesNoCheckedCudaCall) {
  auto rng = seeded_rng();
  const std::vector<Frame> frames = panned_nv12_frames(rng, 6, 64, 48);
  std::string why;
  const PluginFaults faults = plugin_faults(&why);
  ASSERT_NE(faults.set, nullptr) << why;
  Watch watch;
  for (const char* chain : {"dpxdilate name=el backend=cpu frames-in-flight=2",
                            "dpxerode name=el backend=cpu", "dpxmorph name=el backend=cpu operation=gradient",
                            "dpxmotionest name=el backend=cpu draw=true frames-in-flight=2",
                            "dpxdeshake name=el backend=cpu smoothing=2"}) {
    for (const FaultKind& kind : kKinds) {
      SCOPED_TRACE(std::string(chain) + ", " + kind.name);
      AppPipeline p(chain, false, 64, 48);
      ASSERT_TRUE(p.ok());
      faults.set((std::string(kind.name) + ":1").c_str());
      const AppRun run = p.play(frames, &watch);
      EXPECT_EQ(faults.count(), 0);
      faults.set(nullptr);
      EXPECT_TRUE(run.eos && run.errors.empty()) << run.first_error();
      EXPECT_EQ(run.out.size(), frames.size());
    }
  }
  EXPECT_EQ(watch.alive(), 0) << "buffers leaked (inputs or outputs)";
  for (const std::string& m : watch.logged()) ADD_FAILURE() << "logged: " << m;
}

std::string path_name(const ::testing::TestParamInfo<FaultPath>& info) {
  return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(
    Gpu, ElementFaults,
    ::testing::Values(
        FaultPath{"dilate_system_memory", "dpxdilate name=el backend=BACKEND size=5 frames-in-flight=2",
                  false},
        FaultPath{"dilate_cuda_memory", "dpxdilate name=el backend=BACKEND size=5", true},
        FaultPath{"erode_system_memory", "dpxerode name=el backend=BACKEND shape=ellipse size=7", false},
        FaultPath{"erode_cuda_memory", "dpxerode name=el backend=BACKEND shape=ellipse size=7", true},
        FaultPath{"morph_system_memory",
                  "dpxmorph name=el backend=BACKEND operation=gradient frames-in-flight=3", false},
        FaultPath{"morph_cuda_memory", "dpxmorph name=el backend=BACKEND operation=open", true},
        FaultPath{"motionest_system_memory",
                  "dpxmotionest name=el backend=BACKEND draw=true block-size=8 frames-in-flight=3", false},
        FaultPath{"motionest_cuda_memory", "dpxmotionest name=el backend=BACKEND draw=true block-size=8",
                  true},
        FaultPath{"deshake_system_memory", "dpxdeshake name=el backend=BACKEND smoothing=2", false},
        FaultPath{"deshake_cuda_memory", "dpxdeshake name=el backend=BACKEND smoothing=2", true}),
    path_name);

}  // namespace
}  // namespace test
}  // namespace dpx
