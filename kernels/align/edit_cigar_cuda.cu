// Edit distance with CIGAR on CUDA. One recording launch of the bit-parallel kernels gives every
// pair's distance and its columns' difference words (edit_column_record.cuh); one warp per pair
// then walks back from (n, m) through them, writing the CIGAR text, and packs it into one buffer
// the host copies back whole. Nothing waits for the host between the launches.
//
// The walk takes, at (i, j) with D(i, j) = v, the first of diagonal, up ('I'), left ('D') whose
// candidate equals v — edit_trace_step's order — so the CIGAR is the full DP's byte for byte:
// D(i, j - 1) comes from column j - 1's bottom score and words, D(i - 1, j - 1) from it and that
// column's difference at row i, and up is possible exactly when column j's difference at row i is
// +1. Each step's reads depend on the previous step, so the warp copies a window — the columns
// the next kWalkSteps steps can reach, the two words around the row, and the letters — into
// shared memory, lane 0 walks through it, and the warp refills it where the walk leaves it.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cigar_text.cuh"
#include "cuda_check.h"
#include "edit_column_record.cuh"
#include "edit_cigar_launch.cuh"
#include "scratch.h"

namespace dpx {
namespace align {
namespace {

// Record entries (Pv, Mv, score) of one chunk of pairs: 512 MiB; a single larger pair runs alone.
constexpr std::uint64_t kEntryBytes = 2 * sizeof(std::uint64_t) + sizeof(std::int32_t);
constexpr std::uint64_t kChunkEntries = (std::uint64_t{512} << 20) / kEntryBytes;

constexpr int kWalkWarps = 2;
// A window spans 64 rows (i0 - 63 .. i0: two 64-bit words at most) and 64 columns; a walk step
// reads the row above and the column left of its cell, so 62 steps fit.
constexpr int kWalkSpan = 64;
constexpr int kWalkSteps = kWalkSpan - 2;

// A window's cells, D(i0 - di, j0 - dj) at d[dj][di], and the letters of its rows and columns.
// Lanes fill one column each; the odd row length puts their stores in different banks.
struct WalkWindow {
  std::int32_t d[kWalkSpan][kWalkSpan + 1];
  char q[kWalkSpan], t[kWalkSpan];
};

// Per pair of a chunk, where its walk writes: the reversed text's slot, then the packed text.
struct WalkOutput {
  const std::uint64_t* text_first;  // scratch slots
  char* scratch;
  char* packed;
  // summary[0]: bytes packed; [1, 1 + count): the distances; then per pair its text's offset in
  // `packed` and its length (-1: the walk did not end at D(0, 0) = 0, which would be a defect).
  std::int64_t* summary;
};

// One pair's recorded columns.
struct PairColumns {
  const ColumnRecord& record;
  std::uint64_t base;
  std::int64_t words;
  int lane_shift;

  // Column c's words w (pv, mv, score at the word's bottom row); column 0 is D(i, 0) = i.
  __device__ void word(std::int64_t c, std::int64_t w, std::uint64_t* pv, std::uint64_t* mv, std::int32_t* score) const {
    *pv = ~std::uint64_t{0};
    *mv = 0;
    *score = column_zero_score(w);
    if (c >= 1 && w < words) {
      const std::uint64_t at = base + column_record_index(words, lane_shift, c - 1, w);
      *pv = record.pv[at];
      *mv = record.mv[at];
      *score = record.score[at];
    }
  }
};

// D(i, c) for row i (>= 1) in a word whose bottom score is `score`: less the differences of the
// rows below it.
__device__ std::int32_t cell_in_word(std::uint64_t pv, std::uint64_t mv, std::int32_t score, std::int64_t i) {
  const std::uint64_t below = ~std::uint64_t{1} << ((i - 1) % kWordBits);
  return score - __popcll(pv & below) + __popcll(mv & below);
}

// Rows i0 - 63 .. i0 of a column as bits 0 .. 63 of one word, from the two words w0, w0 + 1 that
// hold them (`shift`: the bit of row i0 - 63 in that pair; negative when the window starts above
// row 1, whose missing rows become zeros).
__device__ std::uint64_t window_bits(std::uint64_t low, std::uint64_t high, int shift) {
  if (shift < 0) return low << -shift;
  return shift == 0 ? low : (low >> shift) | (high << (kWordBits - shift));
}

// Fills the window's cells, a column a lane: D(i0, c) from the column's words, then up a row at a
// time by the vertical differences — the difference of row 1 takes D(1, c) to D(0, c) = c, so the
// first row needs no case of its own. Rows < 0 and columns < 0 are never read.
__device__ void fill_window(WalkWindow& win, const PairColumns& cols, std::int64_t i0, std::int64_t j0, int lane) {
  const std::int64_t first = i0 - kWalkSpan;  // bit index of row i0 - 63, counting row 1 as bit 0
  const std::int64_t w0 = first > 0 ? first / kWordBits : 0;
  const int shift = static_cast<int>(first - kWordBits * w0);
  const bool upper = (i0 - 1) / kWordBits > w0;  // row i0 is in word w0 + 1
  for (int dj = lane; dj < kWalkSpan; dj += 32) {
    const std::int64_t c = j0 - dj;
    if (c < 0) break;
    std::uint64_t p0, m0, p1, m1;
    std::int32_t s0, s1;
    cols.word(c, w0, &p0, &m0, &s0);
    cols.word(c, w0 + 1, &p1, &m1, &s1);
    std::int32_t d = cell_in_word(upper ? p1 : p0, upper ? m1 : m0, upper ? s1 : s0, i0);
    const std::uint64_t pv = window_bits(p0, p1, shift), mv = window_bits(m0, m1, shift);
    const auto phigh = static_cast<std::uint32_t>(pv >> 32), mhigh = static_cast<std::uint32_t>(mv >> 32);
    const auto plow = static_cast<std::uint32_t>(pv), mlow = static_cast<std::uint32_t>(mv);
    std::int32_t* column = win.d[dj];
    DPX_UNROLL
    for (int di = 0; di < kWalkSpan; ++di) {
      column[di] = d;
      const int bit = kWalkSpan - 1 - di;  // row i0 - di
      const std::uint32_t p = bit >= 32 ? phigh >> (bit - 32) : plow >> bit;
      const std::uint32_t m = bit >= 32 ? mhigh >> (bit - 32) : mlow >> bit;
      d -= static_cast<std::int32_t>(p & 1u) - static_cast<std::int32_t>(m & 1u);
    }
  }
}

__global__ void __launch_bounds__(kWalkWarps * 32)
    edit_walk_kernel(PairBatchView<char> batch, const ColumnRecord record, WalkOutput out) {
  __shared__ WalkWindow windows[kWalkWarps];
  const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  const std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * kWalkWarps + warp;
  if (p >= batch.pairs) return;  // the whole warp
  WalkWindow& win = windows[warp];
  const auto qs = batch.query(p);
  const auto ts = batch.target(p);
  const std::int64_t n = qs.length, m = ts.length;
  const std::int64_t words = pattern_words(n);
  const PairColumns cols{record, record.first_entry[p], words, length_class_lane_shift(words)};
  std::int64_t* distance = out.summary + 1 + p;
  std::int64_t* placed = out.summary + 1 + batch.pairs + 2 * p;
  char* text = out.scratch + out.text_first[p];
  // Kept in a register: otherwise the compiler re-adds the two kernel parameters on every step.
  asm("" : "+l"(text));
  ReversedCigarText cigar(text);  // lane 0's
  std::int64_t i = n, j = m;
  // D(n, m) from the last column (its last word: row n's word).
  std::int32_t v = static_cast<std::int32_t>(n + m);  // one side empty
  if (n > 0 && m > 0) {
    std::uint64_t pv, mv;
    std::int32_t score;
    cols.word(m, words - 1, &pv, &mv, &score);
    v = cell_in_word(pv, mv, score, n);
  }
  if (lane == 0) *distance = v;
  while (i > 0 && j > 0) {
    const std::int64_t i0 = i, j0 = j;
    fill_window(win, cols, i0, j0, lane);
    for (int s = lane; s < kWalkSpan; s += 32) {
      win.q[s] = i0 - 1 - s >= 0 ? qs.data[i0 - 1 - s] : 0;
      win.t[s] = j0 - 1 - s >= 0 ? ts.data[j0 - 1 - s] : 0;
    }
    __syncwarp();
    if (lane == 0) {
      // di rows up and dj columns left of the corner; a step reads row di + 1 and column dj + 1.
      const int last_di = static_cast<int>(i0 - 1 < kWalkSteps ? i0 - 1 : kWalkSteps);
      const int last_dj = static_cast<int>(j0 - 1 < kWalkSteps ? j0 - 1 : kWalkSteps);
      const std::int32_t* cells = &win.d[0][0];
      constexpr int kColumn = kWalkSpan + 1;  // d's row length
      int di = 0, dj = 0, at = 0;  // at: cell (di, dj)
      while (di <= last_di && dj <= last_dj) {
        const std::int32_t diag = cells[at + kColumn + 1];  // D(i - 1, j - 1)
        const char a = win.q[di], b = win.t[dj];
        if (diag + (a != b ? 1 : 0) == v) {
          cigar(a == b ? '=' : 'X');
          v = diag;
          ++di;
          ++dj;
          at += kColumn + 1;
        } else if (cells[at + 1] == v - 1) {  // D(i - 1, j) + 1
          cigar('I');
          --v;
          ++di;
          ++at;
        } else {
          cigar('D');
          --v;
          ++dj;
          at += kColumn;
        }
      }
      i = i0 - di;
      j = j0 - dj;
    }
    i = __shfl_sync(0xFFFFFFFFu, i, 0);
    j = __shfl_sync(0xFFFFFFFFu, j, 0);
    v = __shfl_sync(0xFFFFFFFFu, v, 0);
    __syncwarp();  // lane 0's reads of the window before the next fill's writes
  }
  std::int64_t length = 0, offset = 0;
  if (lane == 0) {
    const bool consistent = v == i + j;  // the first row and column: D(i, 0) = i, D(0, j) = j
    for (; i > 0; --i) cigar('I');
    for (; j > 0; --j) cigar('D');
    length = cigar.close();
    offset = static_cast<std::int64_t>(atomicAdd(reinterpret_cast<unsigned long long*>(out.summary),
                                                 static_cast<unsigned long long>(length)));
    placed[0] = offset;
    placed[1] = consistent ? length : -1;
  }
  length = __shfl_sync(0xFFFFFFFFu, length, 0);
  offset = __shfl_sync(0xFFFFFFFFu, offset, 0);
  __syncwarp();  // lane 0's text is visible to the warp
  for (std::int64_t a = lane; a < length; a += 32) out.packed[offset + a] = text[length - 1 - a];
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
