// BLAST's tabular output (-outfmt 6): qseqid sseqid pident length mismatch gapopen qstart qend
// sstart send evalue bitscore, tab-separated, no header, coordinates 1-based and inclusive, numbers
// printed the way NCBI BLAST+ prints them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "hit_writer.h"
#include "karlin_altschul.h"

namespace dpx {
namespace cli {

// What a CIGAR says about its alignment, BLAST's way: columns, identical pairs ('='), other pairs
// ('X'), and runs of gap columns (an insertion next to a deletion is two).
struct AlignmentCounts {
  std::int64_t length = 0, identities = 0, mismatches = 0, gap_opens = 0;
};
AlignmentCounts count_alignment(const std::string& cigar);

// BLAST+'s tabular formats: pident "%.3f"; E-value "0.0" below 1e-180, "%.2e" below 0.0009, then
// "%4.3f", "%3.2f", "%2.1f", "%2.0f" (below 0.1, 1, 10, above); bit score "%4.1f" up to 99.9, the
// whole part (%3ld) up to 99999, then "%5.3e".
std::string blast_percent(std::int64_t identities, std::int64_t length);
std::string blast_evalue(double evalue);
std::string blast_bit_score(double bits);

class BlastTabularWriter : public HitWriter {
 public:
  // `database_length`: the total letters of the database, the search space's second side.
  BlastTabularWriter(std::FILE* out, KarlinAltschul stats, std::uint64_t database_length)
      : out_(out), stats_(stats), database_length_(database_length) {}
  void hit(const std::string& query, std::size_t query_length, const std::string& target,
           const AlignResult& a) override;
  bool ok() const override { return ok_; }

 private:
  std::FILE* out_;
  KarlinAltschul stats_;
  std::uint64_t database_length_;
  bool ok_ = true;
};

}  // namespace cli
}  // namespace dpx
