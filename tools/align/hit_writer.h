// Where dpx-align search writes its hits: one row per hit, in one of the output formats.
#pragma once

#include <cstddef>
#include <string>

#include "dpx/align.h"
#include "tsv_writer.h"

namespace dpx {
namespace cli {

class HitWriter {
 public:
  virtual ~HitWriter() = default;
  // `a`: the hit's alignment with its starts, ends and CIGAR.
  virtual void hit(const std::string& query, std::size_t query_length, const std::string& target,
                   const AlignResult& a) = 0;
  // False once a write failed.
  virtual bool ok() const = 0;
};

// The table of the other commands (--outfmt tsv).
class TsvHitWriter : public HitWriter {
 public:
  explicit TsvHitWriter(std::FILE* out) : tsv_(out, "score") {}
  void hit(const std::string& query, std::size_t, const std::string& target, const AlignResult& a) override {
    tsv_.row(query, target, a.score, false, a.query_begin, a.query_end, a.target_begin, a.target_end, a.cigar);
  }
  bool ok() const override { return tsv_.ok(); }

 private:
  TsvWriter tsv_;
};

}  // namespace cli
}  // namespace dpx
