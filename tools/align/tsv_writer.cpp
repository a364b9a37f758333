#include "tsv_writer.h"

#include <limits>

namespace dpx {
namespace cli {
namespace {

std::string position(std::int64_t p) { return p < 0 ? "." : std::to_string(p); }

}  // namespace

TsvWriter::TsvWriter(std::FILE* out, const char* value_name) : out_(out) {
  ok_ = std::fprintf(out_, "query\ttarget\t%s\tquery_start\tquery_end\ttarget_start\ttarget_end\tcigar\n", value_name) > 0;
}

void TsvWriter::row(const std::string& query, const std::string& target, std::int64_t value, bool infinite,
                    std::int64_t query_start, std::int64_t query_end, std::int64_t target_start, std::int64_t target_end,
                    const std::string& cigar) {
  write(query, target, infinite ? "inf" : std::to_string(value).c_str(), query_start, query_end, target_start,
        target_end, cigar);
}

void TsvWriter::float_row(const std::string& query, const std::string& target, float value, std::int64_t query_start,
                          std::int64_t query_end, std::int64_t target_start, std::int64_t target_end,
                          const std::string& cigar) {
  char text[32] = "inf";
  if (value != std::numeric_limits<float>::infinity()) std::snprintf(text, sizeof text, "%.9g", static_cast<double>(value));
  write(query, target, text, query_start, query_end, target_start, target_end, cigar);
}

void TsvWriter::write(const std::string& query, const std::string& target, const char* value, std::int64_t query_start,
                      std::int64_t query_end, std::int64_t target_start, std::int64_t target_end,
                      const std::string& cigar) {
  if (!ok_) return;
  ok_ = std::fprintf(out_, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", query.c_str(), target.c_str(), value,
                     position(query_start).c_str(), position(query_end).c_str(), position(target_start).c_str(),
                     position(target_end).c_str(), cigar.empty() ? "." : cigar.c_str()) > 0;
}

}  // namespace cli
}  // namespace dpx
