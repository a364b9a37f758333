// Edit distance with CIGAR on CUDA in the band around the known distance (edit_band.cuh): the
// bit-parallel kernel gives the distances, the host reads them back and sizes each pair's code
// storage from its band, one warp per pair fills the band anti-diagonal by anti-diagonal, and one
// warp per pair walks back through windows of the codes in shared memory, writing the CIGAR text.
//
// Band kernel: step t = 2i + q computes the cells of one parity of q (every other diagonal), 32
// per lane pass; a cell reads diagonals q - 1 and q + 1 (left, up: written at step t - 1) and its
// own diagonal (the diagonal neighbour, written at t - 2), so one array of width + 2 values in
// shared memory (global scratch for very wide bands) is updated in place. The codes of a pass are
// two ballots (the code's low and high bits), stored as two words.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cuda_check.h"
#include "distance_launch.h"
#include "edit_band.cuh"
#include "edit_cells.cuh"
#include "pair_batch.cuh"

namespace dpx {
namespace align {
namespace {

constexpr std::size_t kBandSharedBytes = 227 * 1024;
// Code words of one chunk of pairs (4 bytes each); a single larger pair still runs alone.
constexpr std::uint64_t kBandChunkWords = std::uint64_t{1} << 28;

// Where a pair of the chunk keeps its codes, CIGAR text and (wide bands) its value array.
struct BandSlot {
  std::uint64_t words, text, values;
};

__global__ void edit_band_kernel(PairBatchView<char> batch, std::int64_t first, const std::int64_t* distances,
                                 const BandSlot* slots, std::uint32_t* words, std::uint32_t* global_values) {
  extern __shared__ std::uint32_t shared_values[];
  const std::int64_t k = blockIdx.x;
  const int lane = static_cast<int>(threadIdx.x);
  const auto qs = batch.query(first + k);
  const auto ts = batch.target(first + k);
  const std::int64_t n = qs.length, m = ts.length;
  const BandTraceLayout l = BandTraceLayout::make(n, m, distances[first + k]);
  if (l.steps == 0) return;
  std::uint32_t* v = global_values ? global_values + slots[k].values : shared_values;  // v[q + 1]: diagonal q
  for (std::int64_t c = lane; c < l.width + 2; c += 32) v[c] = kBandInf;
  __syncwarp();
  std::uint32_t* out = words + slots[k].words;
  for (std::int64_t t = 0; t < l.steps; ++t) {
    for (std::int64_t chunk = 0; chunk < l.chunks; ++chunk) {
      const std::int64_t q = (t & 1) + 2 * (chunk * 32 + lane);
      const std::int64_t i = (t - q) >> 1;
      const std::int64_t j = i + l.lo + q;
      unsigned code = 0;
      if (q < l.width && t >= q && i <= n && j >= 0 && j <= m) {
        if (i == 0 || j == 0) {
          v[q + 1] = static_cast<std::uint32_t>(i + j);
        } else {
          v[q + 1] = edit_trace_step<ops::Dpx>(v[q + 1], v[q + 2], v[q], letter(qs.data, i - 1) ^ letter(ts.data, j - 1),
                                               &code);
        }
      }
      const unsigned low = __ballot_sync(0xFFFFFFFFu, code & 1u), high = __ballot_sync(0xFFFFFFFFu, code & 2u);
      if (lane < 2) out[(t * l.chunks + chunk) * 2 + lane] = lane == 0 ? low : high;
    }
    __syncwarp();
  }
}

// Walk back: one warp per pair. The walk is serial, and each step's code would be a dependent load
// from L2; instead the warp copies a window of kTraceWindow steps (the code words the next steps
// can reach: the path moves one diagonal per step at most) and the letters they compare into
// shared memory, then lane 0 walks through it.
constexpr int kTraceWarps = 4;
constexpr int kTraceWindow = 64;
constexpr int kTraceChunks = 3;  // chunks a window can touch: x moves <= kTraceWindow / 2 + 1 either way

struct TraceWindow {
  std::uint32_t words[kTraceWindow][kTraceChunks][2];
  char q[kTraceWindow], t[kTraceWindow];
};

__global__ void __launch_bounds__(kTraceWarps * 32)
    edit_band_traceback_kernel(PairBatchView<char> batch, std::int64_t first, std::int64_t count,
                               const std::int64_t* distances, const BandSlot* slots, const std::uint32_t* words,
                               char* text, std::int64_t* text_lengths) {
  __shared__ TraceWindow windows[kTraceWarps];
  const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * kTraceWarps + warp;
  if (k >= count) return;  // the whole warp
  TraceWindow& w = windows[warp];
  const auto qs = batch.query(first + k);
  const auto ts = batch.target(first + k);
  const BandTraceLayout l = BandTraceLayout::make(qs.length, ts.length, distances[first + k]);
  const std::uint32_t* codes = words + slots[k].words;
  char* out = text + slots[k].text;
  ReversedCigarText cigar(out);  // lane 0's
  std::int64_t i = qs.length, j = ts.length;
  while (i > 0 && j > 0) {
    const BandCodeAt at = band_code_at(l, i, j);
    const std::int64_t x_low = ((j - i - l.lo - kTraceWindow) >> 1) >> 5;
    const std::int64_t chunk0 = x_low > 0 ? x_low : 0;
    for (int e = lane; e < kTraceWindow * kTraceChunks * 2; e += 32) {
      const int s = e / (kTraceChunks * 2), c = (e >> 1) % kTraceChunks;
      const std::int64_t step = at.step - s, chunk = chunk0 + c;
      w.words[s][c][e & 1] = step >= 0 && chunk < l.chunks ? codes[(step * l.chunks + chunk) * 2 + (e & 1)] : 0u;
    }
    for (int s = lane; s < kTraceWindow; s += 32) {
      w.q[s] = i - 1 - s >= 0 ? qs.data[i - 1 - s] : 0;
      w.t[s] = j - 1 - s >= 0 ? ts.data[j - 1 - s] : 0;
    }
    __syncwarp();
    if (lane == 0) {
      const std::int64_t i0 = i, j0 = j;
      while (i > 0 && j > 0) {
        const BandCodeAt c = band_code_at(l, i, j);
        const std::int64_t s = at.step - c.step, chunk = c.chunk - chunk0;
        if (s >= kTraceWindow || chunk < 0 || chunk >= kTraceChunks) break;  // refill around here
        const unsigned code = band_code(w.words[s][chunk][0], w.words[s][chunk][1], c.bit);
        edit_walk_step(code, w.q[i0 - i], w.t[j0 - j], cigar, &i, &j);
      }
    }
    i = __shfl_sync(0xFFFFFFFFu, i, 0);
    j = __shfl_sync(0xFFFFFFFFu, j, 0);
    __syncwarp();  // lane 0's reads of the window before the next fill's writes
  }
  std::int64_t length = 0;
  if (lane == 0) {
    for (; i > 0; --i) cigar('I');
    for (; j > 0; --j) cigar('D');
    length = cigar.close();
    text_lengths[k] = length;
  }
  length = __shfl_sync(0xFFFFFFFFu, length, 0);
  __syncwarp();  // lane 0's text is visible to the warp
  for (std::int64_t a = lane; a < length / 2; a += 32) {
    const char c = out[a];
    out[a] = out[length - 1 - a];
    out[length - 1 - a] = c;
  }
}

struct Chunk {
  std::size_t first = 0, count = 0;
  std::vector<BandSlot> slots;  // count + 1: the last holds the totals
  std::int64_t widest = 0;
};

// Splits the pairs into chunks whose code words stay within kBandChunkWords.
std::vector<Chunk> plan_chunks(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                               const std::vector<std::int64_t>& distances) {
  std::vector<Chunk> chunks;
  for (std::size_t p = 0; p < distances.size(); ++p) {
    const auto n = static_cast<std::int64_t>(queries.length(pairing == Pairing::kOneToMany ? 0 : p));
    const auto m = static_cast<std::int64_t>(targets.length(p));
    const BandTraceLayout l = BandTraceLayout::make(n, m, distances[p]);
    if (chunks.empty() || (chunks.back().count > 0 && chunks.back().slots.back().words + l.words() > kBandChunkWords)) {
      chunks.emplace_back();
      chunks.back().first = p;
      chunks.back().slots.assign(1, BandSlot{0, 0, 0});
    }
    Chunk& c = chunks.back();
    ++c.count;
    const BandSlot& end = c.slots.back();
    c.slots.push_back(BandSlot{end.words + l.words(), end.text + cigar_text_bound(n, m, distances[p]),
                               end.values + static_cast<std::uint64_t>(l.width + 2)});
    c.widest = std::max(c.widest, l.width);
  }
  return chunks;
}

struct BandBuffers {
  DeviceBuffer slots, words, values, text, text_lengths;
};

Status allocate_band_buffers(const std::vector<Chunk>& chunks, BandBuffers* b) {
  BandSlot most{1, 1, 0};
  std::size_t count = 1;
  for (const Chunk& c : chunks) {
    const BandSlot& end = c.slots.back();
    most.words = std::max(most.words, end.words);
    most.text = std::max(most.text, end.text);
    if ((c.widest + 2) * sizeof(std::uint32_t) > kBandSharedBytes) most.values = std::max(most.values, end.values);
    count = std::max(count, c.count);
  }
  DPX_RETURN_IF_ERROR(b->slots.allocate((count + 1) * sizeof(BandSlot)));
  DPX_RETURN_IF_ERROR(b->words.allocate(most.words * sizeof(std::uint32_t)));
  DPX_RETURN_IF_ERROR(b->values.allocate(most.values * sizeof(std::uint32_t)));
  DPX_RETURN_IF_ERROR(b->text.allocate(most.text));
  return b->text_lengths.allocate(count * sizeof(std::int64_t));
}

// One chunk: band codes, traceback, then the texts copied back into the results.
Status run_band_chunk(const PairBatchView<char>& view, const std::int64_t* distances, const Chunk& c, BandBuffers* b,
                      std::vector<EditResult>* results, cudaStream_t stream) {
  DPX_CUDA_TRY(cudaMemcpyAsync(b->slots.data(), c.slots.data(), c.slots.size() * sizeof(BandSlot),
                               cudaMemcpyHostToDevice, stream));
  const std::size_t shared = (c.widest + 2) * sizeof(std::uint32_t);
  const bool in_shared = shared <= kBandSharedBytes;
  if (in_shared) {
    DPX_CUDA_TRY(cudaFuncSetAttribute(edit_band_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      static_cast<int>(shared)));
  }
  const auto first = static_cast<std::int64_t>(c.first), count = static_cast<std::int64_t>(c.count);
  edit_band_kernel<<<static_cast<unsigned>(count), 32, in_shared ? shared : 0, stream>>>(
      view, first, distances, b->slots.as<const BandSlot>(), b->words.as<std::uint32_t>(),
      in_shared ? nullptr : b->values.as<std::uint32_t>());
  DPX_CUDA_CHECK_LAUNCH("edit_band_kernel");
  const auto blocks = static_cast<unsigned>((count + kTraceWarps - 1) / kTraceWarps);
  edit_band_traceback_kernel<<<blocks, kTraceWarps * 32, 0, stream>>>(
      view, first, count, distances, b->slots.as<const BandSlot>(), b->words.as<const std::uint32_t>(),
      b->text.as<char>(), b->text_lengths.as<std::int64_t>());
  DPX_CUDA_CHECK_LAUNCH("edit_band_traceback_kernel");

  std::vector<std::int64_t> lengths(c.count);
  std::vector<char> text(c.slots.back().text);
  DPX_CUDA_TRY(cudaMemcpyAsync(lengths.data(), b->text_lengths.data(), c.count * sizeof(std::int64_t),
                               cudaMemcpyDeviceToHost, stream));
  if (!text.empty()) {
    DPX_CUDA_TRY(cudaMemcpyAsync(text.data(), b->text.data(), text.size(), cudaMemcpyDeviceToHost, stream));
  }
  DPX_CUDA_TRY(cudaStreamSynchronize(stream));
  for (std::size_t k = 0; k < c.count; ++k) {
    (*results)[c.first + k].cigar.assign(text.data() + c.slots[k].text, static_cast<std::size_t>(lengths[k]));
  }
  return Status::ok();
}

}  // namespace

Status edit_cigar_banded(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                         const DeviceSequenceBatch& dq, const DeviceSequenceBatch& dt, std::vector<EditResult>* results,
                         cudaStream_t stream) {
  const std::size_t pairs = results->size();
  DeviceBuffer device_distances;
  DPX_RETURN_IF_ERROR(device_distances.allocate(pairs * sizeof(std::int64_t)));
  const std::size_t longest = std::max(queries.max_length(), targets.max_length());
  DPX_RETURN_IF_ERROR(launch_edit_bitparallel(dq, dt, pairing, longest, device_distances.as<std::int64_t>(), stream));
  std::vector<std::int64_t> distances(pairs);
  DPX_CUDA_TRY(cudaMemcpyAsync(distances.data(), device_distances.data(), pairs * sizeof(std::int64_t),
                               cudaMemcpyDeviceToHost, stream));
  DPX_CUDA_TRY(cudaStreamSynchronize(stream));
  for (std::size_t p = 0; p < pairs; ++p) (*results)[p].distance = distances[p];

  const std::vector<Chunk> chunks = plan_chunks(queries, targets, pairing, distances);
  BandBuffers buffers;
  DPX_RETURN_IF_ERROR(allocate_band_buffers(chunks, &buffers));
  const PairBatchView<char> view = make_device_view(dq, dt, pairing);
  for (const Chunk& c : chunks) {
    DPX_RETURN_IF_ERROR(run_band_chunk(view, device_distances.as<const std::int64_t>(), c, &buffers, results, stream));
  }
  return Status::ok();
}

}  // namespace align
}  // namespace dpx
