// The result table of dpx-align: a header line, then one tab-separated row per pair.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace dpx {
namespace cli {

class TsvWriter {
 public:
  // `value_name`: "score", "distance" or "cost".
  TsvWriter(std::FILE* out, const char* value_name);
  // value: printed as a number, or "inf" when `infinite`. Negative positions and an empty CIGAR
  // print as '.'.
  void row(const std::string& query, const std::string& target, std::int64_t value, bool infinite,
           std::int64_t query_start, std::int64_t query_end, std::int64_t target_start, std::int64_t target_end,
           const std::string& cigar);
  // value: printed with 9 significant digits (enough to read back the same float), or "inf".
  void float_row(const std::string& query, const std::string& target, float value, std::int64_t query_start,
                 std::int64_t query_end, std::int64_t target_start, std::int64_t target_end, const std::string& cigar);
  // False once a write failed (a full disk, a closed pipe).
  bool ok() const { return ok_; }

 private:
  void write(const std::string& query, const std::string& target, const char* value, std::int64_t query_start,
             std::int64_t query_end, std::int64_t target_start, std::int64_t target_end, const std::string& cigar);

  std::FILE* out_;
  bool ok_ = true;
};

}  // namespace cli
}  // namespace dpx
