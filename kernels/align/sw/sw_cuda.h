// The CUDA side of AlignPlan, DeviceAlignResults and align_cuda (sw_cuda.cu), reached from the
// host files compiled in both builds (align_plan.cpp, align_results.cpp, sw_api.cpp) once
// they have checked the arguments. Defined with the CUDA backend only; always the DPX kernels.
#pragma once

#include <cstdint>
#include <vector>

#include "align_results.h"
#include "dpx/align.h"

namespace dpx {
namespace align {

// A fresh plan into *plan (nullptr when building it fails; nothing half built remains).
Status create_plan(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                   const ScoreMatrix& matrix, const AlignOptions& options, cudaStream_t stream, AlignPlan::Impl** plan);

// Re-plans the query side of a one-to-many plan for a query of `length` letters and waits for
// `stream`; on failure deletes the plan and sets *plan to nullptr.
Status set_plan_query(std::int32_t length, cudaStream_t stream, AlignPlan::Impl** plan);

Status launch_plan(const AlignPlan::Impl& plan, const DeviceSequenceBatch& queries, const DeviceSequenceBatch& targets,
                   DeviceAlignResults* out, cudaStream_t stream);

// Copies fields, operations and counts back into `host` (made by host_results), waits for
// `stream`, then assembles `out`.
Status download_results(const ResultArrays& arrays, HostAlignResults host, std::vector<AlignResult>* out,
                        cudaStream_t stream);

// Copies the fields back in one piece, waits for `stream`, and keeps each pair's score (its first field) in `out`.
Status download_scores(const std::int32_t* fields, std::size_t count, std::vector<std::int32_t>* out,
                       cudaStream_t stream);

// align_cuda after its checks: plan, upload, run, download; the batches and results in scratch
// from the lease, the plan's workspaces owned by the plan for the call.
Status align_cuda_launch(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                         const ScoreMatrix& matrix, const AlignOptions& options, std::vector<AlignResult>* out,
                         cudaStream_t stream);

}  // namespace align
}  // namespace dpx
