// The GPU side of dpx-align's sw/nw/sg: a query against a whole target set (planned once per set,
// dpx::OneToManyAligner), or a pairwise chunk. An interface so the runner can be checked without
// a GPU.
#pragma once

#include <memory>
#include <vector>

#include "dpx/align.h"

namespace dpx {
namespace cli {

class AlignDevice {
 public:
  virtual ~AlignDevice() = default;
  // `query` (a batch of one) against every one of `targets`. The runner passes the same target set
  // object for every query, so it is uploaded and planned once.
  virtual Status run_one_to_many(const SequenceBatch& query, const SequenceBatch& targets,
                                 std::vector<AlignResult>* out) = 0;
  // A pairwise chunk (few targets, several queries side by side): batches of its own.
  virtual Status run_pairwise(const SequenceBatch& queries, const SequenceBatch& targets,
                              std::vector<AlignResult>* out) = 0;
};

// The CUDA one, on streams of its own.
std::unique_ptr<AlignDevice> make_cuda_align_device(const ScoreMatrix& matrix, const AlignOptions& options);

}  // namespace cli
}  // namespace dpx
