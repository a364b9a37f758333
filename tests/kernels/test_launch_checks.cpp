// libdpx's sources, read as text: every kernel launch is checked by DPX_CUDA_CHECK_LAUNCH right
// after it (the check returns the failure from the launching function, and fault injection can
// fail it), and no other code reads cudaGetLastError, which would take a launch's error away from
// that check or report it past fault injection. A launch without the check would give a wrong
// result with a success status when the GPU refuses it. Runs without a GPU; reads the source tree
// the build was configured from, or else the one in the current folder (a build run elsewhere).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "source_root.h"

namespace dpx {
namespace {

namespace fs = std::filesystem;

struct Source {
  std::string path, text;  // text without its // comments
};

std::string without_line_comments(const std::string& text) {
  std::string out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const std::size_t at = line.find("//");
    out += (at == std::string::npos ? line : line.substr(0, at)) + "\n";
  }
  return out;
}

// The project's root: the configured one, else the current folder; empty when neither holds libdpx.
fs::path source_root() {
  for (const fs::path& root : {fs::path(DPX_SOURCE_ROOT), fs::current_path()}) {
    std::error_code ec;
    if (fs::is_regular_file(root / "kernels" / "runtime" / "cuda_check.h", ec)) return root;
  }
  return {};
}

std::vector<Source> kernel_sources(const fs::path& root) {
  std::vector<Source> sources;
  for (const auto& e : fs::recursive_directory_iterator(root / "kernels")) {
    const std::string ext = e.path().extension().string();
    if (!e.is_regular_file() || (ext != ".cu" && ext != ".cuh" && ext != ".cpp" && ext != ".h")) continue;
    std::ifstream f(e.path());
    std::stringstream ss;
    ss << f.rdbuf();
    sources.push_back({fs::relative(e.path(), root).string(), without_line_comments(ss.str())});
  }
  return sources;
}

std::size_t line_of(const std::string& text, std::size_t at) {
  return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

// Whether the launch whose "<<<" is at `at` is followed by its check: after the launch statement
// only the ends of blocks and lambdas, `else` and further launch statements (the branches of one
// launch) may come before DPX_CUDA_CHECK_LAUNCH.
bool checked(const std::string& text, std::size_t at) {
  std::size_t pos = text.find(';', at);
  while (pos != std::string::npos) {
    ++pos;
    while (pos < text.size() && (std::isspace(static_cast<unsigned char>(text[pos])) ||
                                 std::string("{});").find(text[pos]) != std::string::npos))
      ++pos;
    if (text.compare(pos, 21, "DPX_CUDA_CHECK_LAUNCH") == 0) return true;
    if (text.compare(pos, 4, "else") == 0) {
      pos += 3;  // the loop's ++pos steps past it
      continue;
    }
    const std::size_t end = text.find(';', pos);
    if (end == std::string::npos || text.find("<<<", pos) > end) return false;  // not another launch
    pos = end;
  }
  return false;
}

class LaunchChecks : public ::testing::Test {
 protected:
  void SetUp() override {
    const fs::path root = source_root();
    if (root.empty())
      GTEST_SKIP() << "libdpx's sources are neither at " << DPX_SOURCE_ROOT << " nor in the current folder";
    sources_ = kernel_sources(root);
    ASSERT_GT(sources_.size(), 50u) << "libdpx's sources not found under " << root;
  }
  std::vector<Source> sources_;
};

TEST_F(LaunchChecks, EveryKernelLaunchIsFollowedByItsCheck) {
  const std::vector<Source>& sources = sources_;
  int launches = 0;
  for (const Source& s : sources) {
    for (std::size_t at = s.text.find("<<<"); at != std::string::npos; at = s.text.find("<<<", at + 3)) {
      ++launches;
      EXPECT_TRUE(checked(s.text, at)) << s.path << ":" << line_of(s.text, at)
                                       << ": a kernel launch without DPX_CUDA_CHECK_LAUNCH right after it";
    }
  }
  EXPECT_GE(launches, 15) << "the launches were not found";
}

TEST_F(LaunchChecks, OnlyTheLaunchCheckReadsTheLastError) {
  // cuda_check.h: the check itself; device_cuda.cpp: clears the error a missing device leaves.
  const std::vector<std::string> allowed = {"kernels/runtime/cuda_check.h",
                                            "kernels/runtime/device_cuda.cpp"};
  for (const Source& s : sources_) {
    if (std::find(allowed.begin(), allowed.end(), s.path) != allowed.end()) continue;
    for (const char* call : {"cudaGetLastError", "cudaPeekAtLastError"}) {
      const std::size_t at = s.text.find(call);
      EXPECT_EQ(at, std::string::npos) << s.path << ":" << (at == std::string::npos ? 0 : line_of(s.text, at))
                                       << ": " << call << " outside DPX_CUDA_CHECK_LAUNCH";
    }
  }
}

// The check above cannot miss what it looks for: a launch without its check is found.
TEST(LaunchCheckScan, AnUncheckedLaunchIsFound) {
  const std::string checked_launch = "k<<<1, 32, 0, s>>>(a);\n  DPX_CUDA_CHECK_LAUNCH(\"k\");\n";
  const std::string branches =
      "if (x) {\n k<<<1, 1>>>(a);\n} else {\n j<<<1, 1>>>(a);\n}\nDPX_CUDA_CHECK_LAUNCH(\"k\");";
  const std::string unchecked = "k<<<1, 32, 0, s>>>(a);\n  return Status::ok();\n";
  const std::string later = "k<<<1, 32>>>(a);\n  n = 2;\n  DPX_CUDA_CHECK_LAUNCH(\"k\");\n";
  const std::string lambda = "run([&](auto r) {\n  k<<<1, 32>>>(a);\n});\nDPX_CUDA_CHECK_LAUNCH(\"k\");\n";
  EXPECT_TRUE(checked(checked_launch, checked_launch.find("<<<")));
  EXPECT_TRUE(checked(branches, branches.find("<<<")));
  EXPECT_TRUE(checked(branches, branches.rfind("<<<")));
  EXPECT_FALSE(checked(unchecked, unchecked.find("<<<")));
  EXPECT_FALSE(checked(later, later.find("<<<")));
  EXPECT_TRUE(checked(lambda, lambda.find("<<<")));
}

}  // namespace
}  // namespace dpx
