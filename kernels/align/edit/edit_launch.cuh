// The edit-distance launchers over a view of pairs in device memory: the bit-parallel kernels
// (edit_bitparallel_cuda.cu) and the CIGAR path (edit_cigar_cuda.cu).
#pragma once

#include <cuda_runtime.h>

#include <vector>

#include "dpx/align_distance.h"
#include "edit_column_record.cuh"
#include "align/common/pair_batch.cuh"

namespace dpx {
namespace align {

// Distances by the bit-parallel kernels (the shorter side of a pair is the pattern).
Status launch_edit_bits(const PairBatchView<char>& view, std::size_t max_length, std::int64_t* distances,
                        cudaStream_t stream);
// The bit-parallel kernels with the query as the pattern, writing each pair's columns; the CIGAR
// path walks back through them and reads the distance off the last column. `shortest_query`, `longest`: the shortest query and the longest sequence.
Status launch_edit_bits_recording(const PairBatchView<char>& view, std::size_t shortest_query,
                                  std::size_t longest, const ColumnRecord& record, cudaStream_t stream);

// Distances and CIGARs of `view` (device copies of queries and targets) into `results` (sized to
// the pair count); synchronises `stream`.
Status edit_cigar_walk(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                       const PairBatchView<char>& view, std::vector<EditResult>* results, cudaStream_t stream);

}  // namespace align
}  // namespace dpx
