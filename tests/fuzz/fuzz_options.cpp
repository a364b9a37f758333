// dpx-align's command line: the input split at NUL bytes into arguments (the first the command).
// Any arguments give options, help or a message that says what was wrong. Each input is parsed
// twice, from fresh copies of its words, so state one call leaves behind shows on the second.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "options.h"

namespace {

void parse(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> words{"dpx-align"};
  std::string word;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      words.push_back(word);
      word.clear();
    } else {
      word += static_cast<char>(data[i]);
    }
  }
  if (!word.empty()) words.push_back(word);
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(&w[0]);
  argv.push_back(nullptr);
  dpx::cli::CliOptions o;
  std::string error;
  if (dpx::cli::parse_options(static_cast<int>(words.size()), argv.data(), &o, &error) == dpx::cli::ParseResult::kError &&
      error.empty()) {
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  parse(data, size);
  parse(data, size);
  return 0;
}
