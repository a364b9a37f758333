// Edit distance on the CPU: pairs spread over threads. Distances alone come from the bit-parallel
// recurrence (edit_bitparallel_cpu.cpp); with CIGARs the DP then runs in the band around that
// distance with the same step function as the CUDA kernels (edit_cigar_cpu.cpp), so the recorded
// directions on the path, hence the CIGARs, are identical.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "worker_pool.h"
#include "align/common/distance_checks.h"
#include "edit_bitparallel_cpu.h"
#include "edit_cigar_cpu.h"
#include "dpx/align_distance.h"

namespace dpx {
namespace {

struct RowBuffers {
  align::BitParallelWorkspace bits;
  align::CigarWorkspace cigar;
};

// Workers for the CIGAR path: each holds up to n*m/4 bytes of codes, so the count is capped to keep the
// total near 2 GiB.
int cigar_workers(int workers, std::size_t longest_query, std::size_t longest_target) {
  const std::uint64_t per_worker = static_cast<std::uint64_t>(longest_query) * longest_target / 4 + 1;
  const std::uint64_t budget = std::uint64_t{2} << 30;
  return static_cast<int>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(workers, budget / per_worker)));
}

}  // namespace

Status edit_distance_cpu(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                         const EditOptions& options, std::vector<EditResult>* out, int threads) {
  DPX_RETURN_IF_ERROR(align::check_edit_inputs(queries, targets, pairing, out, "edit_distance_cpu"));
  const std::size_t pairs = pair_count(queries.size(), targets.size(), pairing);
  std::vector<EditResult> results(pairs);
  int workers = runtime::worker_count(threads, pairs);
  if (options.cigar) workers = cigar_workers(workers, queries.max_length(), targets.max_length());
  DPX_RETURN_IF_ERROR(runtime::for_each_item<RowBuffers>(pairs, workers, [&](RowBuffers& b, std::size_t p) {
    const std::string_view q = queries.view(pairing == Pairing::kOneToMany ? 0 : p);
    const std::string_view t = targets.view(p);
    const auto n = static_cast<std::int64_t>(q.size()), m = static_cast<std::int64_t>(t.size());
    EditResult& r = results[p];
    r.distance = align::edit_distance_bitparallel(q, t, &b.bits);
    if (options.cigar) r.distance = align::edit_cigar_banded(q.data(), n, t.data(), m, r.distance, &b.cigar, &r.cigar);
    return Status::ok();
  }));
  *out = std::move(results);
  return Status::ok();
}

}  // namespace dpx
