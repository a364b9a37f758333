// dpx-bench --help (the built program, found next to this test binary's build folder): every
// subcommand is listed once, on standard output; bad settings are refused before anything runs.
#include <gtest/gtest.h>
#include <sys/wait.h>
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
  FILE* p = popen((program() + " --help 2>/dev/null").c_str(), "r");
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

// Runs dpx-bench with `args`; returns its exit status and sets `err` to its standard error.
int run(const std::string& args, std::string* err) {
  FILE* p = popen((program() + " " + args + " 2>&1 >/dev/null").c_str(), "r");
  if (p == nullptr) return -1;
  std::array<char, 512> chunk{};
  err->clear();
  while (std::fgets(chunk.data(), chunk.size(), p) != nullptr) *err += chunk.data();
  const int raw = pclose(p);
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

TEST(DpxBenchCli, BadSettingsAreRefused) {
  if (access(program().c_str(), X_OK) != 0) GTEST_SKIP() << "dpx-bench not built at " << program();
  const struct {
    const char* args;
    const char* message;
  } cases[] = {
      {"epilogue --elements=-5", "--elements needs a whole number from 1"},
      {"epilogue --elements=0", "--elements needs a whole number from 1"},
      {"epilogue --elemnts=5", "unknown option '--elemnts'"},
      {"morph --width=abc", "--width needs a whole number"},
      {"morph --reps=0", "--reps needs a whole number from 1"},
      {"morph quick", "unrecognised argument 'quick'"},
      {"morph --cases=99x99", "no case's title holds '99x99'"},
      {"nosuch", "unknown benchmark"},
  };
  for (const auto& c : cases) {
    std::string err;
    EXPECT_EQ(run(c.args, &err), 2) << c.args << "\n" << err;
    EXPECT_NE(err.find(c.message), std::string::npos) << c.args << "\n" << err;
  }
}

}  // namespace
