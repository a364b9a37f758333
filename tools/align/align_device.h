// The GPU side of dpx-align's sw/nw/sg: one plan per target set, pointed at one query after
// another. An interface so the runner can be checked without a GPU.
#pragma once

#include <memory>
#include <vector>

#include "dpx/align.h"

namespace dpx {
namespace cli {

class AlignDevice {
 public:
  virtual ~AlignDevice() = default;
  // Uploads `targets` and makes the plan for them against `query` (a batch of one).
  virtual Status plan(const SequenceBatch& query, const SequenceBatch& targets) = 0;
  // Points the plan at the next query of the same target set.
  virtual Status set_query(const SequenceBatch& query) = 0;
  // Uploads the query, runs the plan and downloads its results.
  virtual Status run(const SequenceBatch& query, std::vector<AlignResult>* out) = 0;
  // A pairwise chunk (few targets, several queries side by side): batches of its own.
  virtual Status run_pairwise(const SequenceBatch& queries, const SequenceBatch& targets,
                              std::vector<AlignResult>* out) = 0;
};

// The CUDA one, on a stream of its own.
std::unique_ptr<AlignDevice> make_cuda_align_device(const ScoreMatrix& matrix, const AlignOptions& options);

}  // namespace cli
}  // namespace dpx
