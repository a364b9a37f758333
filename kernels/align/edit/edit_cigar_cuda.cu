// Edit distance with CIGAR on CUDA. One recording launch of the bit-parallel kernels gives every
// pair's columns' difference words (edit_column_record.cuh); one warp per pair then walks back
// from (n, m) through them (edit_walk.cuh), writing the CIGAR text, and packs it into one buffer
// the host copies back whole. Nothing waits for the host between the launches.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cigar_text.cuh"
#include "cuda_check.h"
#include "edit_launch.cuh"
#include "edit_walk.cuh"
#include "scratch.h"
#include "align/common/wavefront.cuh"

namespace dpx {
namespace align {
namespace {

// Record entries (Pv, Mv, score) of one chunk of pairs: 512 MiB; a single larger pair runs alone.
constexpr std::uint64_t kEntryBytes = 2 * sizeof(std::uint64_t) + sizeof(std::int32_t);
constexpr std::uint64_t kChunkEntries = (std::uint64_t{512} << 20) / kEntryBytes;

constexpr int kWalkWarps = 2;

// Per pair of a chunk, where its walk writes: the reversed text's slot, then the packed text.
struct WalkOutput {
  const std::uint64_t* text_first;  // scratch slots
  char* scratch;
  char* packed;
  // summary[0]: bytes packed; [1, 1 + count): the distances; then per pair its text's offset in
  // `packed` and its length (-1: the walk did not end at D(0, 0) = 0, which would be a defect).
  std::int64_t* summary;
};

__global__ void __launch_bounds__(kWalkWarps * 32)
    edit_walk_kernel(PairBatchView<char> batch, const ColumnRecord record, WalkOutput out) {
  __shared__ WalkWindow windows[kWalkWarps];
  const WarpGroup<32> warp;
  const std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * kWalkWarps + threadIdx.x / 32;
  if (p >= batch.pairs) return;  // the whole warp
  WalkWindow& win = windows[threadIdx.x / 32];
  const auto qs = batch.query(p);
  const auto ts = batch.target(p);
  const std::int64_t words = pattern_words(qs.length);
  const PairColumns cols{&record, record.first_entry[p], words, length_class_lane_shift(words)};
  char* text = out.scratch + out.text_first[p];
  // Kept in a register: otherwise the compiler re-adds the two kernel parameters on every step.
  asm("" : "+l"(text));
  ReversedCigarText cigar(text);  // lane 0's
  std::int32_t distance = 0;  // lane 0's
  if (warp.lane() == 0) {
    distance = walk_start(cols, qs.length, ts.length);
    out.summary[1 + p] = distance;
  }
  const bool consistent = walk_back_columns(warp, win, cols, qs.data, qs.length, ts.data, ts.length, distance, cigar);
  std::int64_t length = 0, offset = 0;
  if (warp.lane() == 0) {
    length = cigar.close();
    offset = static_cast<std::int64_t>(atomicAdd(reinterpret_cast<unsigned long long*>(out.summary),
                                                 static_cast<unsigned long long>(length)));
    std::int64_t* placed = out.summary + 1 + batch.pairs + 2 * p;
    placed[0] = offset;
    placed[1] = consistent ? length : -1;
  }
  length = __shfl_sync(0xFFFFFFFFu, length, 0);
  offset = __shfl_sync(0xFFFFFFFFu, offset, 0);
  warp.sync();  // lane 0's text is visible to the warp
  for (std::int64_t a = warp.lane(); a < length; a += 32) out.packed[offset + a] = text[length - 1 - a];
}

struct Chunk {
  std::int64_t first = 0, count = 0;
  std::size_t shortest_query = 0;
  std::vector<std::uint64_t> placement;  // record's first entries, then text slots (count + 1 each)
  const std::uint64_t* entries() const { return placement.data(); }
  const std::uint64_t* text() const { return placement.data() + count + 1; }
};

// Splits the pairs into chunks whose records stay within kChunkEntries.
std::vector<Chunk> plan_chunks(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                               std::size_t pairs) {
  std::vector<Chunk> chunks;
  std::vector<std::uint64_t> entries{0}, text{0};
  std::size_t first = 0, shortest = 0;
  auto close = [&](std::size_t end) {
    Chunk c;
    c.shortest_query = shortest;
    c.first = static_cast<std::int64_t>(first);
    c.count = static_cast<std::int64_t>(end - first);
    c.placement = entries;
    c.placement.insert(c.placement.end(), text.begin(), text.end());
    chunks.push_back(std::move(c));
    entries.assign(1, 0);
    text.assign(1, 0);
    first = end;
  };
  for (std::size_t p = 0; p < pairs; ++p) {
    const auto n = static_cast<std::int64_t>(queries.length(pairing == Pairing::kOneToMany ? 0 : p));
    const auto m = static_cast<std::int64_t>(targets.length(p));
    const std::uint64_t e = column_record_entries(n, m);
    if (p > first && entries.back() + e > kChunkEntries) close(p);
    shortest = p == first ? static_cast<std::size_t>(n) : std::min(shortest, static_cast<std::size_t>(n));
    entries.push_back(entries.back() + e);
    text.push_back(text.back() + cigar_text_bound(n, m, std::max(n, m)));
  }
  if (pairs > first) close(pairs);
  return chunks;
}

// Scratch of the largest chunk, reused by every chunk.
struct WalkScratch {
  explicit WalkScratch(cudaStream_t stream)
      : pv(nullptr, stream), mv(nullptr, stream), score(nullptr, stream), placement(nullptr, stream),
        scratch(nullptr, stream), packed(nullptr, stream), summary(nullptr, stream) {}
  runtime::ScratchLease pv, mv, score, placement, scratch, packed, summary;
  ColumnRecord record;
  WalkOutput out{};
  std::uint64_t* placement_copy = nullptr;  // a chunk's placement on the device (record.first_entry)

  Status acquire(const std::vector<Chunk>& chunks) {
    std::uint64_t entries = 1, text = 1, count = 1;
    for (const Chunk& c : chunks) {
      entries = std::max(entries, c.entries()[c.count]);
      text = std::max(text, c.text()[c.count]);
      count = std::max<std::uint64_t>(count, c.count);
    }
    DPX_RETURN_IF_ERROR(pv.acquire_array(entries, &record.pv));
    DPX_RETURN_IF_ERROR(mv.acquire_array(entries, &record.mv));
    DPX_RETURN_IF_ERROR(score.acquire_array(entries, &record.score));
    DPX_RETURN_IF_ERROR(placement.acquire_array(2 * (count + 1), &placement_copy));
    record.first_entry = placement_copy;
    DPX_RETURN_IF_ERROR(scratch.acquire_array(text, &out.scratch));
    DPX_RETURN_IF_ERROR(packed.acquire_array(text, &out.packed));
    return summary.acquire_array(1 + 3 * count, &out.summary);
  }
};

// The chunk's pairs as a view of their own (offsets are absolute into the data arrays).
PairBatchView<char> chunk_view(PairBatchView<char> view, const Chunk& c) {
  if (!view.one_to_many) view.query_offsets += c.first;
  view.target_offsets += c.first;
  view.pairs = c.count;
  return view;
}

Status run_chunk(const PairBatchView<char>& view, std::size_t max_length, const Chunk& c, WalkScratch* s,
                 std::vector<EditResult>* results, cudaStream_t stream) {
  const auto count = static_cast<std::size_t>(c.count);
  // The device copy of the placement keeps the host's layout: entries at 0, text slots at count + 1.
  WalkOutput out = s->out;
  ColumnRecord record = s->record;
  out.text_first = record.first_entry + count + 1;
  DPX_CUDA_TRY(cudaMemcpyAsync(s->placement_copy, c.placement.data(),
                               c.placement.size() * sizeof(std::uint64_t), cudaMemcpyHostToDevice, stream));
  DPX_CUDA_TRY(cudaMemsetAsync(out.summary, 0, sizeof(std::int64_t), stream));
  const PairBatchView<char> pairs = chunk_view(view, c);
  DPX_RETURN_IF_ERROR(launch_edit_bits_recording(pairs, c.shortest_query, max_length, record, stream));
  const auto blocks = static_cast<unsigned>((c.count + kWalkWarps - 1) / kWalkWarps);
  edit_walk_kernel<<<blocks, kWalkWarps * 32, 0, stream>>>(pairs, record, out);
  DPX_CUDA_CHECK_LAUNCH("edit_walk_kernel");

  std::vector<std::int64_t> summary(1 + 3 * count);
  DPX_CUDA_TRY(cudaMemcpyAsync(summary.data(), out.summary, summary.size() * sizeof(std::int64_t),
                               cudaMemcpyDeviceToHost, stream));
  DPX_CUDA_TRY(cudaStreamSynchronize(stream));
  std::vector<char> text(static_cast<std::size_t>(summary[0]));
  if (!text.empty()) {
    DPX_CUDA_TRY(cudaMemcpyAsync(text.data(), out.packed, text.size(), cudaMemcpyDeviceToHost, stream));
    DPX_CUDA_TRY(cudaStreamSynchronize(stream));
  }
  for (std::size_t k = 0; k < count; ++k) {
    const std::int64_t* placed = summary.data() + 1 + count + 2 * k;
    if (placed[1] < 0) return Status(StatusCode::kInternal, "edit_distance_cuda: a CIGAR walk did not reach D(0, 0)");
    EditResult& r = (*results)[static_cast<std::size_t>(c.first) + k];
    r.distance = summary[1 + k];
    r.cigar.assign(text.data() + placed[0], static_cast<std::size_t>(placed[1]));
  }
  return Status::ok();
}

}  // namespace

Status edit_cigar_walk(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                       const PairBatchView<char>& view, std::vector<EditResult>* results, cudaStream_t stream) {
  const std::vector<Chunk> chunks = plan_chunks(queries, targets, pairing, results->size());
  WalkScratch scratch(stream);
  DPX_RETURN_IF_ERROR(scratch.acquire(chunks));
  const std::size_t max_length = std::max(queries.max_length(), targets.max_length());
  for (const Chunk& c : chunks) DPX_RETURN_IF_ERROR(run_chunk(view, max_length, c, &scratch, results, stream));
  return Status::ok();
}

}  // namespace align
}  // namespace dpx
