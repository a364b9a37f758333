// Edit distance with CIGARs of pairs already in device memory (edit_cigar_cuda.cu).
#pragma once

#include <cuda_runtime.h>

#include <vector>

#include "dpx/align_distance.h"
#include "pair_batch.cuh"

namespace dpx {
namespace align {

// `view`: device copies of queries and targets. Writes every pair's distance and CIGAR into
// `results` (sized to the pair count) and synchronises `stream`.
Status edit_cigar_walk(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                       const PairBatchView<char>& view, std::vector<EditResult>* results, cudaStream_t stream);

}  // namespace align
}  // namespace dpx
