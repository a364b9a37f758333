#include "blast_tabular.h"

#include <cctype>

namespace dpx {
namespace cli {
namespace {

template <typename T>
std::string format(const char* spec, T value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, spec, value);
  return buf;
}

}  // namespace

AlignmentCounts count_alignment(const std::string& cigar) {
  AlignmentCounts c;
  std::int64_t run = 0;
  char previous = 0;
  for (char ch : cigar) {
    if (std::isdigit(static_cast<unsigned char>(ch))) {
      run = run * 10 + (ch - '0');
      continue;
    }
    c.length += run;
    if (ch == '=') c.identities += run;
    if (ch == 'X') c.mismatches += run;
    if ((ch == 'I' || ch == 'D') && ch != previous) ++c.gap_opens;
    previous = ch;
    run = 0;
  }
  return c;
}

std::string blast_percent(std::int64_t identities, std::int64_t length) {
  return format("%.3f", length > 0 ? 100.0 * static_cast<double>(identities) / static_cast<double>(length) : 0.0);
}

std::string blast_evalue(double e) {
  if (e < 1.0e-180) return "0.0";
  if (e < 0.0009) return format("%.2e", e);
  if (e < 0.1) return format("%4.3f", e);
  if (e < 1.0) return format("%3.2f", e);
  if (e < 10.0) return format("%2.1f", e);
  return format("%2.0f", e);
}

std::string blast_bit_score(double bits) {
  if (bits > 99999) return format("%5.3e", bits);
  if (bits > 99.9) return format("%3ld", static_cast<long>(bits));
  return format("%4.1f", bits);
}

void BlastTabularWriter::hit(const std::string& query, std::size_t query_length, const std::string& target,
                             const AlignResult& a) {
  if (!ok_) return;
  const AlignmentCounts c = count_alignment(a.cigar);
  const std::string e = blast_evalue(stats_.evalue(a.score, query_length, database_length_));
  const std::string bits = blast_bit_score(stats_.bit_score(a.score));
  ok_ = std::fprintf(out_, "%s\t%s\t%s\t%lld\t%lld\t%lld\t%d\t%d\t%d\t%d\t%s\t%s\n", query.c_str(), target.c_str(),
                     blast_percent(c.identities, c.length).c_str(), static_cast<long long>(c.length),
                     static_cast<long long>(c.mismatches), static_cast<long long>(c.gap_opens), a.query_begin + 1,
                     a.query_end, a.target_begin + 1, a.target_end, e.c_str(), bits.c_str()) > 0;
}

}  // namespace cli
}  // namespace dpx
