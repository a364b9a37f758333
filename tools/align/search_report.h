// dpx-align search, second pass: the alignments (starts, ends, CIGAR) of the reported hits only,
// written query by query, best hit first.
#pragma once

#include <atomic>
#include <functional>
#include <vector>

#include "hit_writer.h"
#include "sequence_reader.h"
#include "top_hits.h"

namespace dpx {
namespace cli {

// Aligns queries[i] with targets[i] (pairwise, with traceback), e.g. align_cpu or align_cuda.
using PairAligner = std::function<Status(const SequenceBatch& queries, const SequenceBatch& targets,
                                         std::vector<AlignResult>* out)>;

// Writes best[q]'s hits for every query q, aligning several queries' hits per call. Each
// alignment's score must be the hit's (a mismatch is an internal error). Stops between rows, every
// row whole, once `stop` is set.
Status write_hits(const NamedSequences& queries, const NamedSequences& db, const std::vector<std::vector<Hit>>& best,
                  const PairAligner& align, HitWriter* out, const std::atomic<bool>* stop);

}  // namespace cli
}  // namespace dpx
