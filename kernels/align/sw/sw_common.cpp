#include "sw_common.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace dpx {

const char* align_mode_name(AlignMode mode) {
  switch (mode) {
    case AlignMode::kLocal: return "local";
    case AlignMode::kGlobal: return "global";
    case AlignMode::kSemiGlobal: return "semi-global";
  }
  return "unknown";
}

Status validate_align_options(const AlignOptions& o, const char* what) {
  const std::string name(what);
  if (o.mode != AlignMode::kLocal && o.mode != AlignMode::kGlobal && o.mode != AlignMode::kSemiGlobal) {
    return invalid_argument(name + ": unknown alignment mode");
  }
  if (o.gap_extend < 0 || o.gap_open < o.gap_extend || o.gap_open > kAlignMaxGap) {
    return invalid_argument(name + ": gap costs need 0 <= gap_extend <= gap_open <= " + std::to_string(kAlignMaxGap) +
                            ", got open " + std::to_string(o.gap_open) + ", extend " + std::to_string(o.gap_extend));
  }
  if (o.score_only && o.traceback) return invalid_argument(name + ": score_only and traceback exclude each other");
  return Status::ok();
}

Status validate_align_batches(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                              const char* what) {
  DPX_RETURN_IF_ERROR(validate_pairing(queries.size(), targets.size(), pairing, what));
  DPX_RETURN_IF_ERROR(align::check_pair_count(pair_count(queries.size(), targets.size(), pairing), what));
  const struct {
    const SequenceBatch* batch;
    const char* role;
  } sides[] = {{&queries, "query"}, {&targets, "target"}};
  for (const auto& side : sides) {
    for (std::size_t i = 0; i < side.batch->size(); ++i) {
      if (side.batch->length(i) > kAlignMaxLength) {
        return invalid_argument(std::string(what) + ": " + side.role + " " + std::to_string(i) + " has " +
                                std::to_string(side.batch->length(i)) + " letters; the limit is " +
                                std::to_string(kAlignMaxLength));
      }
    }
  }
  return Status::ok();
}

Status rescore_cigar(std::string_view cigar, std::string_view query, std::string_view target,
                     std::int32_t query_begin, std::int32_t target_begin, const ScoreMatrix& matrix,
                     const AlignOptions& options, std::int64_t* score) {
  if (query_begin < 0 || target_begin < 0 || static_cast<std::size_t>(query_begin) > query.size() ||
      static_cast<std::size_t>(target_begin) > target.size()) {
    return invalid_argument("rescore_cigar: begin positions outside the sequences");
  }
  std::size_t qi = static_cast<std::size_t>(query_begin), ti = static_cast<std::size_t>(target_begin);
  std::int64_t total = 0;
  char last_gap = 0;  // adjacent runs of one gap operation form one gap
  std::size_t pos = 0;
  while (pos < cigar.size()) {
    std::int64_t len = 0;
    const std::size_t digits = pos;
    while (pos < cigar.size() && std::isdigit(static_cast<unsigned char>(cigar[pos])) && len < (1 << 30)) {
      len = len * 10 + (cigar[pos++] - '0');
    }
    if (pos == digits || pos >= cigar.size() || len == 0) {
      return invalid_argument("rescore_cigar: malformed CIGAR at offset " + std::to_string(digits));
    }
    const char op = cigar[pos++];
    if (op == '=' || op == 'X' || op == 'M') {
      if (qi + len > query.size() || ti + len > target.size()) {
        return invalid_argument("rescore_cigar: CIGAR runs past the end of a sequence");
      }
      for (std::int64_t k = 0; k < len; ++k, ++qi, ++ti) {
        const int a = matrix.encode(query[qi]), b = matrix.encode(target[ti]);
        const bool same = align::letters_match(a, b, matrix.wildcard());
        if ((op == '=' && !same) || (op == 'X' && same)) {
          return invalid_argument(std::string("rescore_cigar: '") + op + "' at query " + std::to_string(qi) +
                                  ", target " + std::to_string(ti) + " disagrees with the letters");
        }
        total += matrix.score(a, b);
      }
      last_gap = 0;
    } else if (op == 'I' || op == 'D') {
      std::size_t& idx = op == 'I' ? qi : ti;
      const std::size_t limit = op == 'I' ? query.size() : target.size();
      if (idx + len > limit) return invalid_argument("rescore_cigar: CIGAR runs past the end of a sequence");
      idx += static_cast<std::size_t>(len);
      total -= (last_gap == op ? 0 : options.gap_open - options.gap_extend) + len * options.gap_extend;
      last_gap = op;
    } else {
      return invalid_argument(std::string("rescore_cigar: unknown operation '") + op + "'");
    }
  }
  *score = total;
  return Status::ok();
}

namespace align {

Status check_pair_count(std::size_t pairs, const char* what) {
  if (pairs <= kAlignMaxPairs) return Status::ok();
  return Status(StatusCode::kUnsupported, std::string(what) + ": " + std::to_string(pairs) +
                                              " pairs in one call; the limit is " + std::to_string(kAlignMaxPairs) +
                                              " (split the batch)");
}

Status validate_align_call(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                           const ScoreMatrix& matrix, const AlignOptions& options, const char* what) {
  DPX_RETURN_IF_ERROR(validate_align_options(options, what));
  if (matrix.size() == 0) {
    return invalid_argument(std::string(what) + ": the score matrix is empty (make one with ScoreMatrix::builtin, dna, parse or from_scores)");
  }
  return validate_align_batches(queries, targets, pairing, what);
}

AlignResult empty_side_result(std::int32_t n, std::int32_t m, const AlignOptions& o) {
  AlignResult r;
  r.query_begin = r.target_begin = 0;
  r.query_end = r.target_end = 0;
  if (o.mode != AlignMode::kLocal) {
    const bool semi = o.mode == AlignMode::kSemiGlobal;
    r.query_end = n;
    r.target_end = semi ? 0 : m;  // semi-global: the free target ends leave nothing of the target
    r.score = static_cast<std::int32_t>(-gap_cost(n > 0 ? n : (semi ? 0 : m), o));
    if (o.traceback) {
      if (n > 0) r.cigar = std::to_string(n) + "I";
      else if (!semi && m > 0) r.cigar = std::to_string(m) + "D";
    }
  }
  if (o.score_only) r.query_begin = r.query_end = r.target_begin = r.target_end = -1;
  return r;
}

}  // namespace align
}  // namespace dpx
