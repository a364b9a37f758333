// The length limit every command checks before any work, named by record.
#pragma once

#include <string>
#include <vector>

namespace dpx {
namespace cli {

// Fails, naming the first record of `batch` longer than `limit` by its name and line.
template <class Batch>
bool check_record_lengths(const std::vector<std::string>& names, const std::vector<std::size_t>& lines,
                          const Batch& batch, const std::string& source, const char* what, const char* unit,
                          std::size_t limit, std::string* error) {
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (batch.length(i) > limit) {
      *error = source + ":" + std::to_string(lines[i]) + ": " + what + " '" + names[i] + "' has " +
               std::to_string(batch.length(i)) + " " + unit + "; the limit is " + std::to_string(limit);
      return false;
    }
  }
  return true;
}

}  // namespace cli
}  // namespace dpx
