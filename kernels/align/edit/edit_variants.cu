// The edit-distance variants dpx-bench and the tests run beside the library's paths: the DP score
// kernels (two pairs per group in u16x2 lanes, one pair in 32-bit lanes for longer ones) on either
// op policy, and the full-DP CIGAR path (32-bit cells recording directions over the whole matrix,
// then a traceback per pair on the device, run-length encoded on the host), which must give the
// banded path's CIGARs.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "align/common/cigar.h"
#include "cuda_check.h"
#include "align/common/distance_checks.h"
#include "align/common/align_variants.h"
#include "edit_cells.cuh"
#include "edit_launch.cuh"
#include "align/common/group_launch.cuh"
#include "scratch.h"

namespace dpx {
namespace align {
namespace {

constexpr int kScoreRows = 16;
// Direction words of one CIGAR chunk (4 bytes each); a single larger pair still runs alone.
constexpr std::uint64_t kTraceChunkWords = std::uint64_t{1} << 28;

template <class Ops>
Status launch_edit_with(const PairBatchView<char>& view, std::int64_t max_length, std::int64_t* distances,
                        cudaStream_t stream) {
  // Pairs up to kEditPackedMaxLength run two to a group in u16x2 lanes; this launch also reports
  // pairs over the declared length. Longer pairs run in 32-bit lanes.
  EditScoreFactory<Ops, PackedU16x2> packed;
  packed.batch = view;
  packed.live_up_to = kEditPackedMaxLength;
  packed.max_length = max_length;
  packed.report_rejected = true;
  packed.out = distances;
  const std::int64_t packed_longest = std::min(max_length, kEditPackedMaxLength);
  DPX_RETURN_IF_ERROR((launch_batch<kScoreRows>(packed, packed_longest, packed_longest, stream)));
  if (max_length <= kEditPackedMaxLength) return Status::ok();
  EditScoreFactory<Ops, WideU32> wide;
  wide.batch = view;
  wide.live_above = kEditPackedMaxLength;
  wide.live_up_to = max_length;
  wide.max_length = max_length;
  wide.out = distances;
  return launch_batch<kScoreRows>(wide, max_length, max_length, stream);
}

// --- CIGAR path ---------------------------------------------------------------------------------

template <int G>
using TraceFactory = EditTraceFactory<ops::Dpx, G>;

__global__ void edit_traceback_kernel(PairBatchView<char> batch, std::int64_t first, std::int64_t count,
                                      const std::uint64_t* word_offsets, const std::uint32_t* words, int group,
                                      const std::uint64_t* op_offsets, char* ops, std::int64_t* op_counts) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const auto q = batch.query(first + k);
  const auto t = batch.target(first + k);
  const StripedTraceDirs dirs{words + word_offsets[k], t.length, group};
  op_counts[k] = edit_traceback(q.data, q.length, t.data, t.length, dirs, ops + op_offsets[k]);
}

// Device arrays of one chunk of pairs, sized for the largest chunk, carved from one lease.
struct TraceBuffers {
  std::uint64_t* word_offsets;
  std::uint64_t* op_offsets;
  std::int64_t* op_counts;
  std::int64_t* distances;
  std::uint32_t* words;
  char* ops;
};

struct Chunk {
  std::size_t first = 0, count = 0;
  std::vector<std::uint64_t> word_offsets, op_offsets;  // count + 1 each
};

// Splits the pairs into chunks whose direction words stay within kTraceChunkWords.
std::vector<Chunk> plan_chunks(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                               std::size_t pairs, int group) {
  std::vector<Chunk> chunks;
  for (std::size_t p = 0; p < pairs; ++p) {
    const auto n = static_cast<std::int64_t>(queries.length(pairing == Pairing::kOneToMany ? 0 : p));
    const auto m = static_cast<std::int64_t>(targets.length(p));
    const std::uint64_t words = trace_word_count(n, m, group);
    if (chunks.empty() || (chunks.back().count > 0 && chunks.back().word_offsets.back() + words > kTraceChunkWords)) {
      chunks.emplace_back();
      chunks.back().first = p;
      chunks.back().word_offsets.assign(1, 0);
      chunks.back().op_offsets.assign(1, 0);
    }
    Chunk& c = chunks.back();
    ++c.count;
    c.word_offsets.push_back(c.word_offsets.back() + words);
    c.op_offsets.push_back(c.op_offsets.back() + static_cast<std::uint64_t>(n + m));
  }
  return chunks;
}

Status allocate_trace_buffers(const std::vector<Chunk>& chunks, runtime::ScratchLease* lease, TraceBuffers* b) {
  std::uint64_t words = 1, ops = 1;
  std::size_t count = 1;
  for (const Chunk& c : chunks) {
    words = std::max(words, c.word_offsets.back());
    ops = std::max(ops, c.op_offsets.back());
    count = std::max(count, c.count);
  }
  // In 8-byte units: the offsets and counts first, then the words, then the operations.
  const std::uint64_t word_units = (words * sizeof(std::uint32_t) + 7) / 8, op_units = (ops + 7) / 8;
  std::uint64_t* base = nullptr;
  DPX_RETURN_IF_ERROR(lease->acquire_array(4 * count + 2 + word_units + op_units, &base));
  b->word_offsets = base;
  b->op_offsets = b->word_offsets + count + 1;
  b->op_counts = reinterpret_cast<std::int64_t*>(b->op_offsets + count + 1);
  b->distances = b->op_counts + count;
  b->words = reinterpret_cast<std::uint32_t*>(b->distances + count);
  b->ops = reinterpret_cast<char*>(base + 4 * count + 2 + word_units);
  return Status::ok();
}

// One chunk: directions and distances, traceback, copies back, then CIGARs on the host.
template <int G>
Status run_trace_chunk(const LaunchPlan& plan, const PairBatchView<char>& view, std::int64_t longest, const Chunk& c,
                       TraceBuffers* b, std::vector<EditResult>* results, cudaStream_t stream) {
  const std::size_t offsets_bytes = (c.count + 1) * sizeof(std::uint64_t);
  DPX_CUDA_TRY(cudaMemcpyAsync(b->word_offsets, c.word_offsets.data(), offsets_bytes, cudaMemcpyHostToDevice, stream));
  DPX_CUDA_TRY(cudaMemcpyAsync(b->op_offsets, c.op_offsets.data(), offsets_bytes, cudaMemcpyHostToDevice, stream));
  TraceFactory<G> factory;
  factory.batch = view;
  factory.first = static_cast<std::int64_t>(c.first);
  factory.count = static_cast<std::int64_t>(c.count);
  factory.word_offsets = b->word_offsets;
  factory.words = b->words;
  factory.distances = b->distances;
  DPX_RETURN_IF_ERROR((launch_wavefront<G, kTraceRows>(plan, factory, longest, longest, stream)));
  const int threads = 128;
  const auto blocks = static_cast<unsigned>((c.count + threads - 1) / threads);
  edit_traceback_kernel<<<blocks, threads, 0, stream>>>(view, factory.first, factory.count, b->word_offsets, b->words,
                                                         G, b->op_offsets, b->ops, b->op_counts);
  DPX_CUDA_CHECK_LAUNCH("edit_traceback_kernel");

  std::vector<std::int64_t> distances(c.count), op_counts(c.count);
  std::vector<char> ops(c.op_offsets.back());
  DPX_CUDA_TRY(cudaMemcpyAsync(distances.data(), b->distances, c.count * sizeof(std::int64_t),
                               cudaMemcpyDeviceToHost, stream));
  DPX_CUDA_TRY(cudaMemcpyAsync(op_counts.data(), b->op_counts, c.count * sizeof(std::int64_t),
                               cudaMemcpyDeviceToHost, stream));
  if (!ops.empty()) {
    DPX_CUDA_TRY(cudaMemcpyAsync(ops.data(), b->ops, ops.size(), cudaMemcpyDeviceToHost, stream));
  }
  DPX_CUDA_TRY(cudaStreamSynchronize(stream));
  for (std::size_t k = 0; k < c.count; ++k) {
    EditResult& r = (*results)[c.first + k];
    r.distance = distances[k];
    r.cigar = cigar_from_reversed_ops(ops.data() + c.op_offsets[k], static_cast<std::size_t>(op_counts[k]));
  }
  return Status::ok();
}

Status edit_with_cigar_full(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                            const PairBatchView<char>& view, std::vector<EditResult>* results, cudaStream_t stream) {
  const std::size_t pairs = results->size();
  const auto longest = static_cast<std::int64_t>(std::max(queries.max_length(), targets.max_length()));
  LaunchPlan plan;
  DPX_RETURN_IF_ERROR((plan_launch<kTraceRows, TraceFactory>(static_cast<std::int64_t>(pairs), longest, &plan)));
  const std::vector<Chunk> chunks = plan_chunks(queries, targets, pairing, pairs, plan.group);
  runtime::ScratchLease lease(nullptr, stream);
  TraceBuffers buffers;
  DPX_RETURN_IF_ERROR(allocate_trace_buffers(chunks, &lease, &buffers));
  for (const Chunk& c : chunks) {
    DPX_RETURN_IF_ERROR(with_group_size(plan.group, [&](auto g) {
      return run_trace_chunk<decltype(g)::value>(plan, view, longest, c, &buffers, results, stream);
    }));
  }
  return Status::ok();
}

}  // namespace
}  // namespace align

namespace variants {

Status edit_cigar_cuda(CigarPath path, const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                       const DeviceSequenceBatch& dq, const DeviceSequenceBatch& dt, std::vector<EditResult>* results,
                       cudaStream_t stream) {
  const align::PairBatchView<char> view = align::make_device_view(dq, dt, pairing);
  if (path == CigarPath::kBitVector) return align::edit_cigar_walk(queries, targets, pairing, view, results, stream);
  return align::edit_with_cigar_full(queries, targets, pairing, view, results, stream);
}

Status launch_edit_distance(OpsPolicy policy, const DeviceSequenceBatch& queries, const DeviceSequenceBatch& targets,
                            Pairing pairing, std::size_t max_length, std::int64_t* distances, cudaStream_t stream) {
  DPX_RETURN_IF_ERROR(align::check_device_inputs(queries.size(), targets.size(), pairing, max_length, distances,
                                                 "edit_distance_cuda_async"));
  const align::PairBatchView<char> view = align::make_device_view(queries, targets, pairing);
  const auto longest = static_cast<std::int64_t>(max_length);
  return policy == OpsPolicy::kDpx ? align::launch_edit_with<ops::Dpx>(view, longest, distances, stream)
                                   : align::launch_edit_with<ops::PlainOps>(view, longest, distances, stream);
}

}  // namespace variants
}  // namespace dpx
