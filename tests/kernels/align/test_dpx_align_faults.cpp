// dpx-align when the GPU fails (GPU only): with DPX_FAULT_INJECT each CUDA allocation, copy and
// kernel launch of an sw, an nw and a search run fails in turn, and every one of those runs ends with
// exit status 1 and a message naming the CUDA error, never a crash, no row on standard output and
// --output left as it was (no temporary file behind); once N passes the last such call the run
// gives the table of a run without faults.
#include <gtest/gtest.h>
#include <dirent.h>

#include <cstdlib>
#include <random>
#include <string>

#include "dpx/device.h"
#include "dpx_align_cli_fixture.h"
#include "test_util.h"

namespace dpx {
namespace {

class DpxAlignFaults : public DpxAlignCli {
 protected:
  void SetUp() override {
    DpxAlignCli::SetUp();
    if (IsSkipped()) return;
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
    auto rng = test::seeded_rng();
    queries_ = write("q.fa", proteins(rng, "q", 4));
    targets_ = write("t.fa", proteins(rng, "t", 40));
  }
  void TearDown() override {
    unsetenv("DPX_FAULT_INJECT");
    DpxAlignCli::TearDown();
  }

  static std::string proteins(std::mt19937_64& rng, const char* prefix, int count) {
    const std::string residues = "ARNDCQEGHILKMFPSTWYV";
    std::string text;
    for (int k = 0; k < count; ++k) {
      text += ">" + std::string(prefix) + std::to_string(k) + "\n";
      const std::size_t length = 30 + rng() % 300;
      for (std::size_t i = 0; i < length; ++i) text += residues[rng() % residues.size()];
      text += "\n";
    }
    return text;
  }

  bool temporary_left() {
    bool found = false;
    DIR* d = opendir(dir_.c_str());
    for (const dirent* e; d != nullptr && (e = readdir(d)) != nullptr;) found |= std::string(e->d_name).find(".tmp.") != std::string::npos;
    if (d != nullptr) closedir(d);
    return found;
  }

  std::string queries_, targets_;
};

TEST_F(DpxAlignFaults, EveryFailingCallEndsTheRunCleanly) {
  const struct {
    const char* kind;
    const char* error;
  } kinds[] = {{"alloc", "cudaErrorMemoryAllocation"}, {"copy", "cudaErrorUnknown"}, {"launch", "cudaErrorLaunchFailure"}};
  const std::string out = dir_ + "/out.tsv";
  for (const std::string command : {"sw --cigar", "nw", "search --top 5", "search --top 0 --outfmt blast6 --gap-open 12"}) {
    const std::string args = command + " --quiet --backend cuda --output " + out + " " + queries_ + " " + targets_;
    ASSERT_EQ(run(args).status, 0) << command;
    const std::string clean = file_text(out);
    ASSERT_GT(clean.size(), 100u) << command;
    for (const auto& k : kinds) {
      int failed = 0;
      bool passed_the_last = false;
      for (int n = 1; n <= 60 && !passed_the_last; ++n) {
        write("out.tsv", "old\n");
        setenv("DPX_FAULT_INJECT", (std::string(k.kind) + ":" + std::to_string(n)).c_str(), 1);
        const Outcome r = run(args);
        unsetenv("DPX_FAULT_INJECT");
        const std::string what = command + " with " + k.kind + ":" + std::to_string(n);
        ASSERT_GE(r.status, 0) << what << ": ended by a signal\n" << r.err;
        EXPECT_TRUE(r.out.empty()) << what;
        EXPECT_FALSE(temporary_left()) << what;
        if (r.status == 0) {
          EXPECT_EQ(file_text(out), clean) << what;
          passed_the_last = true;
          continue;
        }
        ++failed;
        EXPECT_EQ(r.status, 1) << what << "\n" << r.err;
        EXPECT_NE(r.err.find(k.error), std::string::npos) << what << "\n" << r.err;
        EXPECT_EQ(file_text(out), "old\n") << what;
      }
      EXPECT_GE(failed, 1) << command << ": no " << k.kind << " to fail";
      EXPECT_TRUE(passed_the_last) << command << ": more than 60 of " << k.kind;
    }
  }
}

}  // namespace
}  // namespace dpx
