// dpx-bench --help (the built program, found next to this test binary's build folder): every
// subcommand is listed once.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>

namespace {

std::string program() {
  std::array<char, 4096> buf{};
  const ssize_t n = readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  std::string self = n > 0 ? std::string(buf.data(), static_cast<std::size_t>(n)) : "";
  return self.substr(0, self.rfind('/')) + "/../../tools/dpx-bench";  // from build/tests/kernels
}

TEST(DpxBenchCli, HelpListsEachSubcommandOnce) {
  if (access(program().c_str(), X_OK) != 0) GTEST_SKIP() << "dpx-bench not built at " << program();
  FILE* p = popen((program() + " --help 2>&1").c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  std::array<char, 512> chunk{};
  while (std::fgets(chunk.data(), chunk.size(), p) != nullptr) out += chunk.data();
  EXPECT_EQ(pclose(p), 0) << out;
  std::map<std::string, int> listed;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  ", 0) != 0) continue;  // subcommands are indented
    std::istringstream words(line);
    std::string name;
    words >> name;
    ++listed[name];
  }
  EXPECT_EQ(listed.count("align"), 1u) << out;
  for (const auto& [name, times] : listed) EXPECT_EQ(times, 1) << name << " listed " << times << " times:\n" << out;
}

}  // namespace
