// Device side of the separable CUDA morphology (morph_separable.h). Both passes compute windows in
// runs: the windows of up to 16 consecutive outputs share a middle (the inputs they all hold),
// computed once, and each adds the inputs before and after it as suffixes and prefixes, in
// registers, on 8-byte chunks of 16-bit lanes. The column pass walks down chunk columns of the
// plane; the row pass walks along a tile held in shared memory as chunks of consecutive rows at a
// position (transposed on the way in and out). A box pass is the column pass that also takes each
// output row's row window across its warp's lanes (row_windows), a bar in one pass.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "dpx/plane.h"
#include "dpx/status.h"
#include "morph_bars.h"
#include "morph_lanes.cuh"
#include "morph_tile.cuh"  // resolve()

namespace dpx {
namespace morph {

template <typename T, bool kMax>
__device__ __forceinline__ T sample_max_or_min(T a, T b) {
  return kMax ? (a > b ? a : b) : (a < b ? a : b);
}

// Both passes compute on 16-bit lanes, two to a word, where sm_90 has packed (and three-operand)
// max/min instructions (u8 has none: __vmaxu4 is several instructions); u16 as it is. The windows
// along a run (window_run: the row pass's chunks of rows at a position, the column runs) never move
// a sample from one word to another, so u8 there is split into even and odd samples as the high
// bytes of the lanes (U8SplitLanes: one shift a loaded word); the box pass's row window moves
// samples across words in order, so there u8 is widened (U8WideLanes: two byte permutes a word).
template <typename T, bool kMax>
using WindowLanes = std::conditional_t<sizeof(T) == 1, U8SplitLanes<ops::Dpx, kMax>, U16x2Lanes<ops::Dpx, kMax>>;
template <typename T, bool kMax>
using RowWindowLanes = std::conditional_t<sizeof(T) == 1, U8WideLanes<ops::Dpx, kMax>, U16x2Lanes<ops::Dpx, kMax>>;
static_assert(WindowLanes<std::uint8_t, true>::kComputePerStorage ==
                  RowWindowLanes<std::uint8_t, true>::kComputePerStorage,
              "both u8 formats fill the same chunk of lane words (ChunkLanes)");

template <bool kMax>
__device__ __forceinline__ std::uint32_t max_or_min(std::uint32_t a, std::uint32_t b) {
  return kMax ? __vmaxu2(a, b) : __vminu2(a, b);
}

// The word that never wins, as a storage word and in every lane format above (all ones for a min:
// a widened lane's high byte or a split lane's low byte takes no part in its sample).
template <bool kMax>
constexpr std::uint32_t neutral_word() {
  return kMax ? 0u : ~0u;
}

// A flat index over rows of `width` items as (row, item), moved on by `step` without a division:
// the row pass walks its shared tile blockDim.x items at a time, and two integer divisions a sample
// made it instruction-bound.
struct FlatCursor {
  int row, item;
  __device__ FlatCursor(int flat, int width) : row(flat / width), item(flat - row * width) {}
  __device__ void advance(int step, int width) {
    item += step;
    while (item >= width) item -= width, ++row;
  }
};

// A chunk: eight bytes of samples as lane words (four words of u8 lanes, two of u16), aligned to
// its size so that the compiler moves it as one vector (the column pass's code depends on it).
constexpr int kChunkBytes = 8;
template <typename T>
struct alignas(kChunkBytes * WindowLanes<T, true>::kComputePerStorage) ChunkLanes {
  static constexpr int kWords = kChunkBytes / 4 * WindowLanes<T, true>::kComputePerStorage;
  std::uint32_t w[kWords];
};

template <typename T, bool kMax>
__device__ __forceinline__ ChunkLanes<T> max_or_min(const ChunkLanes<T>& a, const ChunkLanes<T>& b) {
  ChunkLanes<T> r;
MORPH_UNROLL
  for (int j = 0; j < ChunkLanes<T>::kWords; ++j) r.w[j] = max_or_min<kMax>(a.w[j], b.w[j]);
  return r;
}
template <typename T, bool kMax>
__device__ __forceinline__ ChunkLanes<T> max_or_min3(const ChunkLanes<T>& a, const ChunkLanes<T>& b,
                                                    const ChunkLanes<T>& c) {
  ChunkLanes<T> r;
MORPH_UNROLL
  for (int j = 0; j < ChunkLanes<T>::kWords; ++j) r.w[j] = WindowLanes<T, kMax>::reduce3(a.w[j], b.w[j], c.w[j]);
  return r;
}
template <typename T, bool kMax>
__device__ __forceinline__ ChunkLanes<T> neutral_chunk() {
  ChunkLanes<T> r;
MORPH_UNROLL
  for (int j = 0; j < ChunkLanes<T>::kWords; ++j) r.w[j] = neutral_word<kMax>();
  return r;
}

// A chunk's two storage words as lane words of format L, and back.
template <class L>
__device__ __forceinline__ ChunkLanes<typename L::Sample> widen_chunk(std::uint32_t s0, std::uint32_t s1) {
  ChunkLanes<typename L::Sample> r;
  L::widen(s0, r.w);
  L::widen(s1, r.w + L::kComputePerStorage);
  return r;
}
template <class L>
__device__ __forceinline__ uint2 narrow_chunk(const ChunkLanes<typename L::Sample>& v) {
  return make_uint2(L::narrow(v.w), L::narrow(v.w + L::kComputePerStorage));
}

// `acc` with inputs first .. end - 1, two an instruction.
template <typename T, bool kMax, class In>
__device__ __forceinline__ ChunkLanes<T> max_of_inputs(ChunkLanes<T> acc, int first, int end, const In& in) {
  int v = first;
#if defined(__CUDACC__)
#pragma unroll 4
#endif
  for (; v + 1 < end; v += 2) acc = max_or_min3<T, kMax>(acc, in(v), in(v + 1));
  if (v < end) acc = max_or_min<T, kMax>(acc, in(v));
  return acc;
}

// The run around its middle (the max/min of inputs t0 + kRun - 1 .. t0 + k - 1, however computed).
template <typename T, bool kMax, int kRun, class In, class Out>
__device__ __forceinline__ void window_run_around(int k, int t0, const ChunkLanes<T>& middle, const In& in,
                                                  const Out& out) {
  ChunkLanes<T> window[kRun];  // window[j]: middle and the inputs after it of output j
  window[0] = middle;
MORPH_UNROLL
  for (int j = 1; j < kRun; ++j) window[j] = max_or_min<T, kMax>(window[j - 1], in(t0 + j + k - 1));
  ChunkLanes<T> before = neutral_chunk<T, kMax>();  // inputs t0 + j .. t0 + kRun - 2
MORPH_UNROLL
  for (int j = kRun - 1; j >= 0; --j) {
    if (j < kRun - 1) {
      before = max_or_min<T, kMax>(before, in(t0 + j));
      window[j] = max_or_min<T, kMax>(window[j], before);
    }
    out(j, window[j]);
  }
}

// One run: outputs t0 .. t0 + kRun - 1, output j the max/min of inputs t0 + j .. t0 + j + k - 1.
// Their windows all hold the k - kRun + 1 inputs from t0 + kRun - 1: that middle first (two inputs
// an instruction), then the inputs after it, a prefix a window (kept in registers), then walking
// back over the inputs before it, a suffix a window. k + kRun - 1 loads and about k / 2 + 3 kRun
// operations a run. in(v) loads input v; out(j, value) takes output j.
template <typename T, bool kMax, int kRun, class In, class Out>
__device__ __forceinline__ void window_run(int k, int t0, const In& in, const Out& out) {
  window_run_around<T, kMax, kRun>(k, t0, max_of_inputs<T, kMax>(in(t0 + kRun - 1), t0 + kRun, t0 + k, in), in, out);
}

constexpr int kMaxRun = 16;

// A box pass's runs are shorter: its warps also take each output row's row window, one group of rows
// after another, and where a frame's blocks fill about one wave a block's life is the kernel's time
// (runs of 8 measured faster than runs of 16 on 4K 31x31: docs/notes/morphology.md).
constexpr int kMaxBoxRun = 8;

// Outputs a thread takes from one middle for a window of k: the largest power of two up to k and
// max_run (the run's windows are held in registers, so it is a compile-time constant:
// with_window_run).
constexpr int window_run_length(int k, int max_run = kMaxRun) {
  int m = 1;
  while (2 * m <= k && 2 * m <= max_run) m *= 2;
  return m;
}

// f(std::integral_constant<int, run>{}) for a run that window_run_length() gives.
template <class F>
decltype(auto) with_window_run(int run, const F& f) {
  switch (run) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 4: return f(std::integral_constant<int, 4>{});
    case 8: return f(std::integral_constant<int, 8>{});
    default: return f(std::integral_constant<int, kMaxRun>{});
  }
}

// --- the row window of a box pass: a warp's lanes hold consecutive chunks of a row ---------------

constexpr unsigned kFullWarp = 0xFFFFFFFFu;

// `word` of the lane `delta` lanes on (delta < 0: before), by a shuffle. A lane whose source lies
// outside the warp gets some lane's word: only halo lanes read those, and their results are not
// stored.
__device__ __forceinline__ std::uint32_t lane_word(std::uint32_t word, int delta) {
  if (delta == 0) return word;
  return delta > 0 ? __shfl_down_sync(kFullWarp, word, delta) : __shfl_up_sync(kFullWarp, word, -delta);
}

constexpr int floor_div(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// This lane's chunk of the warp's row moved by S samples (S < 0: towards the row's start): sample i
// of the result is the row's sample S + i from this lane's first. A word from this lane or a
// neighbour's, and for odd S a byte permute of two.
template <typename T, int S>
__device__ __forceinline__ ChunkLanes<T> shift_samples(const ChunkLanes<T>& v) {
  constexpr int W = ChunkLanes<T>::kWords;
  constexpr int kFirst = floor_div(S, 2);  // the word holding sample S
  constexpr bool kOdd = (S & 1) != 0;
  std::uint32_t words[W + 1];
MORPH_UNROLL
  for (int i = 0; i < W + (kOdd ? 1 : 0); ++i) {
    const int j = kFirst + i, lanes = floor_div(j, W);
    words[i] = lane_word(v.w[j - lanes * W], lanes);
  }
  ChunkLanes<T> r;
MORPH_UNROLL
  for (int i = 0; i < W; ++i) r.w[i] = kOdd ? __byte_perm(words[i], words[i + 1], 0x5432) : words[i];
  return r;
}

// Rows of a box pass's run that go through the row window together (row_windows): one row's
// shuffles wait for each other, four rows' overlap (on 4K GRAY16 31x31 each doubling of the rows
// together measured faster, up to four).
constexpr int kRowWindowRows = 4;

// A box pass's row window reaches at most this many chunks into each neighbouring lane's row: the
// halo lanes that only feed their neighbours are at most a quarter of a warp.
constexpr int kMaxHaloChunks = 4;

// Doublings that build the row window of half-width r: the largest L with 2^L <= 2 r + 1.
constexpr int row_window_levels(int r) {
  int levels = 0;
  while ((2 << levels) <= 2 * r + 1) ++levels;
  return levels;
}

// Doublings a row window of C channels can need: those of the widest r, whose window reaches
// kMaxHaloChunks into each neighbour's row.
template <typename T, int C>
constexpr int row_window_max_levels() {
  return row_window_levels(kMaxHaloChunks * kChunkBytes / static_cast<int>(sizeof(T)) / C);
}

// A chunk moved by a warp-uniform number of bytes: the 8 bytes of the warp's row from this lane's
// first byte + bytes on, taken from two neighbouring lanes (the lane holding the first byte and the
// next) by three shuffles and put together by two byte permutes. Fixed for a pass: computed once.
struct ByteShift {
  int first_lane;     // lanes on (< 0: before) to the chunk holding the first byte
  int middle_lane;    // the same for the word after the first byte's word
  bool high;          // the first byte lies in its chunk's second word
  unsigned selector;  // __byte_perm's: the four bytes from the first byte's place in its word
};
__device__ __forceinline__ ByteShift byte_shift(int bytes) {
  const int lanes = bytes >> 3, offset = bytes & 7;  // floor and remainder, also for bytes < 0
  const bool high = offset >= 4;
  return ByteShift{lanes, lanes + (high ? 1 : 0), high, 0x3210u + 0x1111u * static_cast<unsigned>(offset & 3)};
}
// A lane whose source lies outside the warp gets some lane's chunk: only halo lanes read those.
__device__ __forceinline__ uint2 shift_bytes(uint2 v, const ByteShift& s, int lane) {
  const std::uint32_t lead = s.high ? v.y : v.x, next = s.high ? v.x : v.y;
  const std::uint32_t first = __shfl_sync(kFullWarp, lead, lane + s.first_lane);
  const std::uint32_t middle = __shfl_sync(kFullWarp, next, lane + s.middle_lane);
  const std::uint32_t last = __shfl_sync(kFullWarp, lead, lane + s.first_lane + 1);
  return make_uint2(__byte_perm(first, middle, s.selector), __byte_perm(middle, last, s.selector));
}

// The row window of half-width r pixels as two pieces of 2^levels pixels (the largest power of two
// up to 2 r + 1) that cover it: from r pixels before each sample (`before`) and from
// r + 1 - 2^levels pixels after it (`after`, none when that is 0). Fixed for a pass.
struct RowWindowPlan {
  int levels;
  ByteShift before, after;
  bool shift_after;
};
template <typename T, int C>
__device__ __forceinline__ RowWindowPlan row_window_plan(int r) {
  const int levels = row_window_levels(r);
  constexpr int kPixelBytes = C * static_cast<int>(sizeof(T));
  const int after = r + 1 - (1 << levels);
  return RowWindowPlan{levels, byte_shift(-r * kPixelBytes), byte_shift(after * kPixelBytes), after != 0};
}

// Each f[i] becomes each sample's window of 2^levels pixels of its channel from it on, by doubling.
template <typename T, bool kMax, int C, int N, int I>
__device__ __forceinline__ void double_window(ChunkLanes<T> (&f)[N], int levels) {
  if constexpr (I < row_window_max_levels<T, C>()) {
    if (I < levels) {
MORPH_UNROLL
      for (int i = 0; i < N; ++i) f[i] = max_or_min<T, kMax>(f[i], shift_samples<T, (C << I)>(f[i]));
      double_window<T, kMax, C, N, I + 1>(f, levels);
    }
  }
}

// Each sample of N rows of the warp (v[i]) over the samples of its channel from r pixels before it
// to r after it (C channels, the plan of r): the doubled window of 2^levels pixels, moved back by r
// pixels and on by r + 1 - 2^levels. Valid where the row reaches r pixels on both sides within the
// warp. The rows go through each step together: a row alone is a chain of shuffles, each waiting
// for the last, and several rows' chains overlap.
template <typename T, bool kMax, int C, int N>
__device__ __forceinline__ void row_windows(ChunkLanes<T> (&v)[N], const RowWindowPlan& plan, int lane) {
  double_window<T, kMax, C, N, 0>(v, plan.levels);
  uint2 doubled[N];
  ChunkLanes<T> before[N];
MORPH_UNROLL
  for (int i = 0; i < N; ++i) {
    doubled[i] = narrow_chunk<RowWindowLanes<T, kMax>>(v[i]);
    const uint2 moved = shift_bytes(doubled[i], plan.before, lane);
    before[i] = widen_chunk<RowWindowLanes<T, kMax>>(moved.x, moved.y);
  }
  if (plan.shift_after) {
MORPH_UNROLL
    for (int i = 0; i < N; ++i) {
      const uint2 moved = shift_bytes(doubled[i], plan.after, lane);
      v[i] = widen_chunk<RowWindowLanes<T, kMax>>(moved.x, moved.y);
    }
  }
MORPH_UNROLL
  for (int i = 0; i < N; ++i) v[i] = max_or_min<T, kMax>(v[i], before[i]);
}

// f(std::integral_constant<int, run>{}, std::integral_constant<int, C>{}) for a column pass of runs
// of `run` rows (window_run_length) with C the channels of its row window of half_width on
// `channels` (1, 2 or 4), C = 0 for a column pass alone (half_width 0). A box pass's runs are at
// most kMaxBoxRun (column_pass_args), so no box pass is built for longer ones.
template <class F>
decltype(auto) with_column_pass(int run, int half_width, int channels, const F& f) {
  return with_window_run(run, [&](auto r) {
    if (half_width == 0) return f(r, std::integral_constant<int, 0>{});
    const std::integral_constant<int, std::min(decltype(r)::value, kMaxBoxRun)> box_run;
    switch (channels) {
      case 1: return f(box_run, std::integral_constant<int, 1>{});
      case 2: return f(box_run, std::integral_constant<int, 2>{});
      default: return f(box_run, std::integral_constant<int, 4>{});
    }
  });
}

// --- the row pass --------------------------------------------------------------------------------

// Samples of type T in a 32-bit word, and rows of a row-pass chunk: the samples of that many
// consecutive rows at one position fill its eight bytes.
template <typename T>
constexpr int samples_per_word() {
  return 4 / static_cast<int>(sizeof(T));
}
template <typename T>
constexpr int chunk_rows() {
  return kChunkBytes / static_cast<int>(sizeof(T));
}

// S = samples_per_word<T>() words of S rows at the same position, transposed in place: word i then
// holds sample i of every row, row j in sample j. Its own inverse: it turns a row group's words into
// the chunks of its positions and back.
template <typename T>
__device__ __forceinline__ void transpose_samples(std::uint32_t* w) {
  if constexpr (sizeof(T) == 1) {
    const std::uint32_t a = __byte_perm(w[0], w[1], 0x5140), b = __byte_perm(w[0], w[1], 0x7362);
    const std::uint32_t c = __byte_perm(w[2], w[3], 0x5140), d = __byte_perm(w[2], w[3], 0x7362);
    w[0] = __byte_perm(a, c, 0x5410);
    w[1] = __byte_perm(a, c, 0x7632);
    w[2] = __byte_perm(b, d, 0x5410);
    w[3] = __byte_perm(b, d, 0x7632);
  } else {
    const std::uint32_t a = w[0];
    w[0] = __byte_perm(a, w[1], 0x5410);
    w[1] = __byte_perm(a, w[1], 0x7632);
  }
}

struct RowPassArgs {
  const std::uint8_t* src;
  std::size_t src_pitch;
  std::uint8_t* dst;
  std::size_t dst_pitch;
  int width, height, channels;
  int radius;       // half-width of the run
  int run;          // output pixels a thread takes from one middle (window_run_length)
  int tile_pixels;  // output pixels per block and row
  int groups;       // row groups per block, chunk_rows<T>() rows each
  int lead;         // line samples before the tile's first: radius * channels rounded up to a word
  int line;         // samples of a group's line: the tile and `lead` on each side
  int spread_log;   // log2(run * channels): a spare slot after every run * channels samples
  int line_slots;   // shared chunk slots of a group's line, spares included
  int out_slots;    // the same for a group's results
  BorderMode border;
  bool src_words, dst_words;  // pointer and pitch 4-byte aligned: whole-word loads / stores
};

// log2 of the channels (1, 2 or 4): pixel and channel of a sample index by shift and mask.
__device__ __forceinline__ int channel_shift(int c) { return c == 1 ? 0 : c == 2 ? 1 : 2; }

// The shared slot of sample s of a line or of the results. Threads of consecutive runs read
// samples run * channels apart, 8-byte chunks that for runs of 16 lie a multiple of the 128 bytes
// the banks span apart (and share banks for any run over 2); a spare slot after each stretch puts
// them on different banks.
__host__ __device__ __forceinline__ constexpr int spread_slot(int s, int spread_log) { return s + (s >> spread_log); }

// The word of row y from sample q on with the border rule, sample by sample (across the row's ends
// and in unaligned planes).
template <typename T>
__device__ std::uint32_t border_word(const RowPassArgs& a, int y, int q, T neutral) {
  constexpr int S = samples_per_word<T>();
  const int c = a.channels, log_c = channel_shift(c);
  const T* row = reinterpret_cast<const T*>(a.src + static_cast<std::size_t>(y) * a.src_pitch);
  std::uint32_t word = 0;
MORPH_UNROLL
  for (int j = 0; j < S; ++j) {
    const int x = (q + j) >> log_c;  // arithmetic shift: floor division
    const int sx = x >= 0 && x < a.width ? x : resolve(x, a.width, a.border);
    const int at = (max(sx, 0) << log_c) + ((q + j) & (c - 1));
    word |= static_cast<std::uint32_t>(sx >= 0 ? __ldg(row + at) : neutral) << (8 * sizeof(T) * j);
  }
  return word;
}

// A block: tile_pixels output pixels of `groups` row groups. The line of each group (the tile and
// `lead` samples each side, with the border rule) is loaded a word of each of its rows at a time,
// transposed into chunks (the group's samples at one position, row j in sample j) and stored in
// shared memory as they are, eight bytes a position (load_row_lines); a thread then computes a run
// of kRun output pixels of one channel of a group from those chunks, widened to lane words
// (window_run), into a results array (row_runs), which is transposed back and stored a word of
// each row at a time (store_row_results). Rows past the plane's end are neutral and not stored.
// RowBlock is what the stages share.
template <typename T>
struct RowBlock {
  static constexpr int S = samples_per_word<T>();
  static constexpr int R = chunk_rows<T>();
  int c, log_c, x0, y0;
  int groups;      // with a row in the plane
  int first;       // sample index of the line's first sample, a multiple of S
  int out_pixels;  // of the tile inside the row
  int base;        // input v of a channel's windows is line sample base + v * c + the channel
  uint2* lines;
  uint2* results;

  __device__ RowBlock(const RowPassArgs& a, std::uint32_t* shared)
      : c(a.channels),
        log_c(channel_shift(a.channels)),
        x0(static_cast<int>(blockIdx.x) * a.tile_pixels),
        y0(static_cast<int>(blockIdx.y) * a.groups * R),
        groups(min(a.groups, (a.height - y0 + R - 1) / R)),
        first(x0 * c - a.lead),
        out_pixels(min(a.tile_pixels, a.width - x0)),
        base(a.lead - a.radius * c),
        lines(reinterpret_cast<uint2*>(shared)),
        results(lines + a.groups * a.line_slots) {}

  // Input v of channel ch's windows in group row `row`, in the window lanes.
  template <bool kMax>
  __device__ ChunkLanes<T> input(const RowPassArgs& a, int row, int ch, int v) const {
    const uint2 chunk = lines[row * a.line_slots + spread_slot(base + v * c + ch, a.spread_log)];
    return widen_chunk<WindowLanes<T, kMax>>(chunk.x, chunk.y);
  }
};

template <typename T, bool kMax>
__device__ void load_row_lines(const RowPassArgs& a, const RowBlock<T>& b) {
  constexpr int S = RowBlock<T>::S, R = RowBlock<T>::R;
  const T neutral = kMax ? T{0} : static_cast<T>(~T{0});
  const int words = a.line / S;
  FlatCursor at(threadIdx.x, words);
  for (int t = threadIdx.x; t < b.groups * words; t += blockDim.x, at.advance(blockDim.x, words)) {
    const int q = b.first + at.item * S, y = b.y0 + at.row * R;
    std::uint32_t r[R];
    if (a.src_words && q >= 0 && q + S <= a.width * b.c && y + R <= a.height) {
      const std::uint8_t* p = a.src + static_cast<std::size_t>(y) * a.src_pitch + q * sizeof(T);
MORPH_UNROLL
      for (int j = 0; j < R; ++j, p += a.src_pitch) r[j] = __ldg(reinterpret_cast<const std::uint32_t*>(p));
    } else {
MORPH_UNROLL
      for (int j = 0; j < R; ++j) r[j] = y + j < a.height ? border_word<T>(a, y + j, q, neutral) : neutral_word<kMax>();
    }
    transpose_samples<T>(r);
    transpose_samples<T>(r + S);
    uint2* l = b.lines + at.row * a.line_slots;
MORPH_UNROLL
    for (int i = 0; i < S; ++i) l[spread_slot(at.item * S + i, a.spread_log)] = make_uint2(r[i], r[S + i]);
  }
}

// f(row, ch, t0, in, out) for each run of kRun outputs of the block: run `run` of channel ch is
// output pixels t0 + j (t0 = run * kRun) of the tile; in(v) is input v of its windows, out(j, value)
// takes output j into the results.
template <typename T, bool kMax, int kRun, class F>
__device__ __forceinline__ void for_each_row_run(const RowPassArgs& a, const RowBlock<T>& b, const F& f) {
  const int per_group = (b.out_pixels + kRun - 1) / kRun * b.c;
  FlatCursor rt(threadIdx.x, per_group);
  for (int t = threadIdx.x; t < b.groups * per_group; t += blockDim.x, rt.advance(blockDim.x, per_group)) {
    const int t0 = (rt.item >> b.log_c) * kRun, ch = rt.item & (b.c - 1), row = rt.row;
    uint2* o = b.results + row * a.out_slots;
    f(row, ch, t0, [&](int v) { return b.template input<kMax>(a, row, ch, v); },
      [&](int j, const ChunkLanes<T>& value) {
        o[spread_slot((t0 + j) * b.c + ch, a.spread_log)] = narrow_chunk<WindowLanes<T, kMax>>(value);
      });
  }
}

template <typename T, bool kMax, int kRun>
__device__ void row_runs(const RowPassArgs& a, const RowBlock<T>& b) {
  for_each_row_run<T, kMax, kRun>(a, b, [&](int, int, int t0, const auto& in, const auto& out) {
    window_run<T, kMax, kRun>(2 * a.radius + 1, t0, in, out);
  });
}

template <typename T>
__device__ void store_row_results(const RowPassArgs& a, const RowBlock<T>& b) {
  constexpr int S = RowBlock<T>::S, R = RowBlock<T>::R;
  constexpr int kBits = 8 * static_cast<int>(sizeof(T));
  const int out = b.out_pixels * b.c;
  const int out_words = (out + S - 1) / S;
  FlatCursor ot(threadIdx.x, out_words);
  for (int t = threadIdx.x; t < b.groups * out_words; t += blockDim.x, ot.advance(blockDim.x, out_words)) {
    const int s = ot.item * S, y = b.y0 + ot.row * R;
    const uint2* o = b.results + ot.row * a.out_slots;
    std::uint32_t r[R];
MORPH_UNROLL
    for (int i = 0; i < S; ++i) {
      const uint2 chunk = o[spread_slot(s + i, a.spread_log)];
      r[i] = chunk.x;
      r[S + i] = chunk.y;
    }
    transpose_samples<T>(r);
    transpose_samples<T>(r + S);
    std::uint8_t* d =
        a.dst + static_cast<std::size_t>(y) * a.dst_pitch + (static_cast<std::size_t>(b.x0) * b.c + s) * sizeof(T);
    if (a.dst_words && s + S <= out && y + R <= a.height) {
MORPH_UNROLL
      for (int j = 0; j < R; ++j, d += a.dst_pitch) *reinterpret_cast<std::uint32_t*>(d) = r[j];
      continue;
    }
    for (int j = 0; j < R && y + j < a.height; ++j, d += a.dst_pitch) {
      for (int i = 0; i < S && s + i < out; ++i) reinterpret_cast<T*>(d)[i] = static_cast<T>(r[j] >> (kBits * i));
    }
  }
}

template <typename T, bool kMax, int kRun>
__device__ void row_pass(const RowPassArgs& a, std::uint32_t* shared) {
  const RowBlock<T> b(a, shared);
  load_row_lines<T, kMax>(a, b);
  __syncthreads();
  row_runs<T, kMax, kRun>(a, b);
  __syncthreads();
  store_row_results<T>(a, b);
}

// --- the column pass -----------------------------------------------------------------------------

// A column-pass block: kColumnWarpChunks chunk columns (a warp across) by kColumnRunsPerBlock
// consecutive runs (a warp each), so that the rows neighbouring runs share are read from L2 once
// and then from L1.
constexpr int kColumnWarpChunks = 32;
constexpr int kColumnRunsPerBlock = 4;

struct ColumnPassArgs {
  const std::uint8_t* src;  // the row pass's plane or the source (column_readable)
  std::size_t src_pitch;
  std::uint8_t* dst;
  std::size_t dst_pitch;
  int height, row_bytes;
  int readable_bytes;  // row_bytes rounded up to a word
  int radius;          // half-height of the bar
  int half_width;      // of the bar's row window on the same registers (a box pass), 0 for none
  int halo_chunks;     // chunks on each side of a warp's row that only feed the row windows
  int run_rows;        // output rows a thread computes from one middle (window_run_length)
  int strip_rows;      // output rows per block row of the grid, a multiple of run_rows * blockDim.y
  BorderMode border;
  bool merge;       // combine with what dst holds (a later bar of the element)
  bool src_chunks;  // src pointer and pitch 8-byte aligned: one load a chunk
  bool dst_chunks;  // the same for dst: one store a chunk
  bool tiled;       // a block's input rows come through shared memory (column_tile_bytes)
};

// The chunk at `p`, 8-byte aligned, in lanes L: one load. Read-only loads (__ldg) may be issued
// ahead of the stores to dst, which plain loads of a pointer that could alias dst may not.
template <class L, bool kReadOnly>
__device__ __forceinline__ ChunkLanes<typename L::Sample> load_chunk(const std::uint8_t* p) {
  const auto* v = reinterpret_cast<const uint2*>(p);
  const uint2 s = kReadOnly ? __ldg(v) : *v;
  return widen_chunk<L>(s.x, s.y);
}

// The chunk at byte xb of `row` word by word, the neutral sample past the readable bytes, as the
// plane holds it.
template <bool kMax>
__device__ __forceinline__ uint2 chunk_words(const std::uint8_t* row, int xb, int readable) {
  const auto word = [&](int at) {
    return at < readable ? __ldg(reinterpret_cast<const std::uint32_t*>(row + at)) : neutral_word<kMax>();
  };
  return make_uint2(word(xb), word(xb + 4));
}
template <class L, bool kMax>
__device__ __forceinline__ ChunkLanes<typename L::Sample> load_chunk_words(const std::uint8_t* row, int xb,
                                                                         int readable) {
  const uint2 w = chunk_words<kMax>(row, xb, readable);
  return widen_chunk<L>(w.x, w.y);
}

// Input row v's chunk at byte xb (vector: one load) in lanes L, with the border rule.
template <class L, bool kMax>
__device__ __forceinline__ ChunkLanes<typename L::Sample> column_input(const ColumnPassArgs& a, int v, int xb,
                                                                      bool vector) {
  const int sy = resolve(v, a.height, a.border);
  if (sy < 0 || xb < 0) return neutral_chunk<typename L::Sample, kMax>();
  const std::uint8_t* row = a.src + static_cast<std::size_t>(sy) * a.src_pitch;
  if (vector) return load_chunk<L, true>(row + xb);
  return load_chunk_words<L, kMax>(row, xb, a.readable_bytes);
}

// Input rows first .. first + rows - 1 of this thread's chunk column into row i - first of `tile`
// (kColumnWarpChunks chunks a row, as the plane holds them), with the border rule; the block's
// threads share the rows, and every copy is issued before any is waited for: the whole tile is one
// wait for memory, where loads into registers come in batches of a few rows. A readable chunk of a
// tile whose rows all lie in the plane (all but the first and last block rows) walks one pointer
// down the pitch with no border rule: resolving each row took about 40 instructions a copy, a
// quarter of a 31x31 box pass's.
template <bool kMax>
__device__ void load_column_tile(const ColumnPassArgs& a, int first, int rows, int xb, bool vector, uint2* tile) {
  if (vector && first >= 0 && first + rows <= a.height) {
    const std::size_t step = static_cast<std::size_t>(blockDim.y) * a.src_pitch;
    const std::uint8_t* p = a.src + static_cast<std::size_t>(first + threadIdx.y) * a.src_pitch + xb;
    uint2* slot = tile + threadIdx.y * kColumnWarpChunks + threadIdx.x;
#if defined(__CUDACC__)
#pragma unroll 4
#endif
    for (int i = threadIdx.y; i < rows; i += blockDim.y, p += step, slot += blockDim.y * kColumnWarpChunks) {
      copy_async<kChunkBytes>(reinterpret_cast<std::uint8_t*>(slot), p);
    }
  } else {
    for (int i = threadIdx.y; i < rows; i += blockDim.y) {
      uint2* slot = tile + i * kColumnWarpChunks + threadIdx.x;
      const int sy = resolve(first + i, a.height, a.border);
      const std::uint8_t* row = a.src + static_cast<std::size_t>(max(sy, 0)) * a.src_pitch;
      if (sy < 0 || xb < 0) {
        *slot = make_uint2(neutral_word<kMax>(), neutral_word<kMax>());
      } else if (vector) {
        copy_async<kChunkBytes>(reinterpret_cast<std::uint8_t*>(slot), row + xb);
      } else {
        *slot = chunk_words<kMax>(row, xb, a.readable_bytes);
      }
    }
  }
  commit_async_copies();
  wait_async_copies(0);
  __syncthreads();
}

// Output row y's chunk at byte xb (merged with what it holds): one store where aligned and inside
// the row, else sample by sample, never past the row's end. `v` is in lanes L.
template <class L, bool kMax, typename T = typename L::Sample>
__device__ __forceinline__ void store_chunk(const ColumnPassArgs& a, int y, int xb, ChunkLanes<T> v) {
  std::uint8_t* out = a.dst + static_cast<std::size_t>(y) * a.dst_pitch + xb;
  const bool whole = a.dst_chunks && xb + kChunkBytes <= a.row_bytes;
  if (whole && a.merge) v = max_or_min<T, kMax>(v, load_chunk<L, false>(out));
  const uint2 s = narrow_chunk<L>(v);
  if (whole) {
    *reinterpret_cast<uint2*>(out) = s;
    return;
  }
  constexpr int kPerWord = samples_per_word<T>();
  for (int j = 0; j < 2 * kPerWord && xb + j * static_cast<int>(sizeof(T)) < a.row_bytes; ++j) {
    const T x = static_cast<T>((j < kPerWord ? s.x : s.y) >> (8 * sizeof(T) * (j % kPerWord)));
    T* o = reinterpret_cast<T*>(out) + j;
    *o = a.merge ? sample_max_or_min<T, kMax>(*o, x) : x;
  }
}

// Where a column-pass thread works: the byte of its chunk in the row (a block's warps overlap the
// next block's by twice the halo), whether it stores that chunk (inside the row, not a halo lane),
// whether it loads it as one vector, and its block's output rows y0 .. y1 - 1.
struct ColumnThread {
  int xb;
  bool stores, vector;
  int y0, y1;
};
__device__ __forceinline__ ColumnThread column_thread(const ColumnPassArgs& a) {
  const int lane = static_cast<int>(threadIdx.x);
  const int block = static_cast<int>(blockIdx.x);
  const int xb =
      (block * static_cast<int>(blockDim.x) - (2 * block + 1) * a.halo_chunks + lane) * kChunkBytes;
  const int y0 = blockIdx.y * a.strip_rows;
  return ColumnThread{xb,
                      xb >= 0 && xb < a.row_bytes && lane >= a.halo_chunks &&
                          lane < static_cast<int>(blockDim.x) - a.halo_chunks,
                      a.src_chunks && xb >= 0 && xb + kChunkBytes <= a.readable_bytes, y0,
                      min(y0 + a.strip_rows, a.height)};
}

// A thread: one chunk column of its block's strip_rows output rows, every blockDim.y-th run of kRun
// rows (window_run_length) from threadIdx.y on. A tiled pass (a.tiled) takes each block step's
// input rows from shared memory (load_column_tile); otherwise runs whose rows all lie in the plane
// walk one pointer down the pitch with one load a chunk (where the chunk is aligned and readable),
// and the others resolve each row with the border rule.
//
// A box pass (C channels, C > 0) also takes each output row's row window (row_windows) before it
// stores it: a warp's lanes hold consecutive chunks, the first and last halo_chunks of which only
// feed their neighbours (warps overlap by twice that), and outside the row is the neutral sample.
// That is the border rule's result for a centred rectangle: a sample the rule puts outside the row
// is one inside it that the window holds anyway. A run's rows wait in shared memory (each lane its
// own slots) and go through the row window in a rolled loop, kRowWindowRows rows at a time: inlined
// in each row of a run, on both load paths, the row window made a kernel for runs of 16 rows 3,456
// shuffles long and far slower than its instructions (docs/notes/morphology.md).
//
// Every thread of a block takes every step (the tile's barriers, a box pass's shuffles); lanes past
// the row's end store nothing.
template <typename T, bool kMax, int kRun, int C>
__device__ void column_pass(const ColumnPassArgs& a, uint2* tile) {
  constexpr bool kRowWindow = C != 0;
  constexpr int kTogether = std::min(kRun, kRowWindowRows);  // rows through row_windows at once
  using Row = RowWindowLanes<T, kMax>;  // the row window's lanes
  // The column windows' lanes. A run of one row is a window of one row (a bar one row high): in the
  // row window's lanes the compiler drops its widening and narrowing, in the split lanes it cannot
  // (15x1 measured faster so).
  using Column = std::conditional_t<kRun == 1, Row, WindowLanes<T, kMax>>;
  const int lane = static_cast<int>(threadIdx.x);
  const ColumnThread at = column_thread(a);
  const int xb = at.xb, y0 = at.y0, y1 = at.y1;
  const bool stores = at.stores, vector = at.vector;
  const int k = 2 * a.radius + 1;
  const int step_rows = blockDim.y * kRun;
  bool walk = vector;  // the pointer walk: a branch the warp takes as one where it shuffles
  if constexpr (kRowWindow) walk = __all_sync(kFullWarp, vector);
  // A box pass's run of column windows, narrowed: this warp's rows, this lane's chunks.
  __shared__ uint2 staged[kRowWindow ? kColumnRunsPerBlock : 1][kRowWindow ? kRun : 1][kColumnWarpChunks];
  const RowWindowPlan plan = row_window_plan<T, kRowWindow ? C : 1>(a.half_width);
  for (int s0 = y0 - a.radius; s0 < y1 - a.radius; s0 += step_rows) {
    if (a.tiled) {
      if (s0 != y0 - a.radius) __syncthreads();  // the last step's tile is read
      load_column_tile<kMax>(a, s0, step_rows + k - 1, xb, vector, tile);
    }
    // Output row t0 + radius + j is the window of input rows from t0 + j.
    const int t0 = s0 + static_cast<int>(threadIdx.y) * kRun;
    if (t0 >= y1 - a.radius) continue;
    const auto out = [&](int j, const ChunkLanes<T>& v) {
      if constexpr (kRowWindow) {
        staged[threadIdx.y][j][lane] = narrow_chunk<Column>(v);
      } else if (stores && t0 + j + a.radius < y1) {
        store_chunk<Column, kMax>(a, t0 + j + a.radius, xb, v);
      }
    };
    if (a.tiled) {
      const uint2* column = tile + (t0 - s0) * kColumnWarpChunks + lane;
      window_run<T, kMax, kRun>(
          k, t0,
          [&](int v) {
            const uint2 c = column[(v - t0) * kColumnWarpChunks];
            return widen_chunk<Column>(c.x, c.y);
          },
          out);
    } else if (walk && t0 >= 0 && t0 + k + kRun - 2 < a.height) {
      const std::uint8_t* top = a.src + static_cast<std::size_t>(t0) * a.src_pitch + xb;
      window_run<T, kMax, kRun>(
          k, t0, [&](int v) { return load_chunk<Column, true>(top + static_cast<std::size_t>(v - t0) * a.src_pitch); },
          out);
    } else {
      window_run<T, kMax, kRun>(k, t0, [&](int v) { return column_input<Column, kMax>(a, v, xb, vector); }, out);
    }
    if constexpr (kRowWindow) {
      const int rows = min(kRun, y1 - a.radius - t0);  // the same for the whole warp
#if defined(__CUDACC__)
#pragma unroll 1
#endif
      for (int j = 0; j < rows; j += kTogether) {
        ChunkLanes<T> r[kTogether];  // rows past the last repeat it and are not stored
MORPH_UNROLL
        for (int i = 0; i < kTogether; ++i) {
          const uint2 v = staged[threadIdx.y][min(j + i, rows - 1)][lane];
          r[i] = widen_chunk<Row>(v.x, v.y);
        }
        row_windows<T, kMax, C>(r, plan, lane);
MORPH_UNROLL
        for (int i = 0; i < kTogether; ++i) {
          if (stores && j + i < rows) store_chunk<Row, kMax>(a, t0 + j + i + a.radius, xb, r[i]);
        }
      }
    }
  }
}

// --- launch shapes (morph_separable.cu launches these; the host emulation test runs them) -------

constexpr int kRowThreads = 128;
constexpr int kRowTilePixels = 256;
constexpr int kRowMaxGroups = 4;
constexpr int kSeparableSharedBudget = 48 * 1024;  // what a launch gets without opting in

// A pass's grid (x, y), threads a block (x, y) and dynamic shared memory.
struct PassShape {
  int blocks_x, blocks_y, threads_x, threads_y;
  std::size_t shared_bytes;
};

// A row group's place in the row pass's shared memory for a bar of 2 * radius + 1 on c channels:
// its line (the tile and `lead` samples each side) and its results, a chunk a sample, with a spare
// slot after every 2^spread_log samples (run * c rounded up to a power of two: spread_slot).
struct RowGroupLayout {
  int run, lead, line, spread_log, line_slots, out_slots;
  constexpr RowGroupLayout(int radius, int c)
      : run(window_run_length(2 * radius + 1)),
        lead((radius * c + 3) / 4 * 4),
        line(2 * lead + kRowTilePixels * c),
        spread_log(0),
        line_slots(0),
        out_slots(0) {
    while ((1 << spread_log) < run * c) ++spread_log;
    line_slots = spread_slot(line, spread_log) + 1;
    out_slots = spread_slot(kRowTilePixels * c, spread_log) + 1;
  }
  constexpr int bytes() const { return (line_slots + out_slots) * kChunkBytes; }
};
static_assert(RowGroupLayout((kMorphMaxRectSize - 1) / 2, 4).bytes() <= kSeparableSharedBudget,
              "a row group of the widest bar on four channels fits a block's shared memory");

// The row pass of `in` into `out` with a run of 2 * radius + 1: up to kRowMaxGroups row groups a
// block within the shared-memory budget, on a tile of kRowTilePixels; `extra_group_bytes` more
// shared memory a group after the lines and results (a variant's).
template <typename T>
inline RowPassArgs row_pass_args(const PlaneView& in, const MutablePlaneView& out, int radius, BorderMode border,
                                 PassShape* shape, int extra_group_bytes = 0) {
  const RowGroupLayout g(radius, in.channels);
  const int group_bytes = g.bytes() + extra_group_bytes;
  const int groups = std::min(kSeparableSharedBudget / group_bytes, kRowMaxGroups);
  const auto words = [](const void* p, std::size_t pitch) {
    return (reinterpret_cast<std::uintptr_t>(p) | pitch) % 4 == 0;
  };
  const RowPassArgs a{static_cast<const std::uint8_t*>(in.data),
                      in.pitch,
                      static_cast<std::uint8_t*>(out.data),
                      out.pitch,
                      in.width,
                      in.height,
                      in.channels,
                      radius,
                      g.run,
                      kRowTilePixels,
                      groups,
                      g.lead,
                      g.line,
                      g.spread_log,
                      g.line_slots,
                      g.out_slots,
                      border,
                      words(in.data, in.pitch),
                      words(out.data, out.pitch)};
  const int group_rows = chunk_rows<T>() * groups;
  *shape = PassShape{(in.width + kRowTilePixels - 1) / kRowTilePixels, (in.height + group_rows - 1) / group_rows,
                     kRowThreads, 1, static_cast<std::size_t>(groups) * group_bytes};
  return a;
}

// Whether the column pass can read `p` as it is: 4-byte words from a 4-byte aligned pointer and
// pitch, and rows that end on a word (the pass reads each row up to the next multiple of 4 bytes).
inline bool column_readable(const PlaneView& p) {
  return (reinterpret_cast<std::uintptr_t>(p.data) | p.pitch | p.row_bytes()) % 4 == 0;
}

// Chunks each side of a warp's row that a box pass over `in` with a row window of half_width reads.
inline int box_halo_chunks(const PlaneView& in, int half_width) {
  return (half_width * in.channels * sample_bytes(in.type) + kChunkBytes - 1) / kChunkBytes;
}

// Whether a bar of 2 * half_width + 1 columns over `in` runs as one box pass (the column pass with
// the row window) instead of a row pass and a column pass: `in` readable by the column pass and the
// window within kMaxHaloChunks of a lane's neighbours.
inline bool box_pass_fits(const PlaneView& in, int half_width) {
  return column_readable(in) && box_halo_chunks(in, half_width) <= kMaxHaloChunks;
}

// Dynamic shared memory of a column pass whose block steps read their input rows from shared
// memory: step_rows + k - 1 rows of a warp's chunks. Tiled where that and a box pass's staged runs
// fit the budget: bars up to 129 rows high.
inline std::size_t column_tile_bytes(int run, int radius) {
  return static_cast<std::size_t>(run * kColumnRunsPerBlock + 2 * radius) * kColumnWarpChunks * kChunkBytes;
}
inline std::size_t column_staged_bytes(int run, bool box) {
  return box ? static_cast<std::size_t>(kColumnRunsPerBlock * run * kColumnWarpChunks * kChunkBytes) : 0;
}

// The column pass of `in` (column_readable) into `out` with a bar of 2 * radius + 1 rows and, for
// half_width > 0 (box_pass_fits), 2 * half_width + 1 columns, merged with what `out` holds when
// `merge`: one run a thread, unless the grid would pass its 65,535 rows; tiled where the tile fits.
inline ColumnPassArgs column_pass_args(const PlaneView& in, const MutablePlaneView& out, int radius, int half_width,
                                       BorderMode border, bool merge, PassShape* shape) {
  const int m = window_run_length(2 * radius + 1, half_width > 0 ? kMaxBoxRun : kMaxRun);
  const int block_rows = m * kColumnRunsPerBlock;
  const int halo = box_halo_chunks(in, half_width);
  const auto chunks = [](const void* p, std::size_t pitch) {
    return (reinterpret_cast<std::uintptr_t>(p) | pitch) % kChunkBytes == 0;
  };
  const int row_bytes = static_cast<int>(in.row_bytes());
  const ColumnPassArgs a{static_cast<const std::uint8_t*>(in.data),
                         in.pitch,
                         static_cast<std::uint8_t*>(out.data),
                         out.pitch,
                         in.height,
                         row_bytes,
                         (row_bytes + 3) / 4 * 4,
                         radius,
                         half_width,
                         halo,
                         m,
                         block_rows * std::max(1, (in.height + 65535 * block_rows - 1) / (65535 * block_rows)),
                         border,
                         merge,
                         chunks(in.data, in.pitch),
                         chunks(out.data, out.pitch),
                         column_tile_bytes(m, radius) + column_staged_bytes(m, half_width > 0) <=
                             static_cast<std::size_t>(kSeparableSharedBudget)};
  const int columns = (row_bytes + kChunkBytes - 1) / kChunkBytes;
  const int warp_columns = kColumnWarpChunks - 2 * halo;  // the chunks a warp stores
  *shape = PassShape{(columns + warp_columns - 1) / warp_columns, (in.height + a.strip_rows - 1) / a.strip_rows,
                     kColumnWarpChunks, kColumnRunsPerBlock, a.tiled ? column_tile_bytes(m, radius) : 0};
  return a;
}

// The passes of one dilation / erosion of `in` over `bars` (morph_bars.h), in order, each bar's
// merged in `out` with what earlier bars left. A bar whose row window fits a box pass
// (box_pass_fits) is one pass over `in`. Otherwise the row pass into `rows` and the column pass from
// there into `out`; a bar one row high (the first bar: nothing to merge with) takes the row pass
// straight into `out`; a bar one column wide has no row pass: the column pass reads `in` itself
// where it can, else a copy of it in `rows`. row_pass(dst, half_width), column_pass(src,
// half_height, half_width, merge) and copy_in_to_rows() run them: launched by morph_separable.cu,
// emulated by the host test.
template <class RowPass, class ColumnPass, class CopyIn>
Status for_each_bar_pass(const PlaneView& in, const MutablePlaneView& out, const MutablePlaneView& rows,
                         const std::vector<Bar>& bars, const RowPass& row_pass, const ColumnPass& column_pass,
                         const CopyIn& copy_in_to_rows) {
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const Bar& bar = bars[i];
    const bool merge = i > 0;
    if (bar.half_width != 0 && box_pass_fits(in, bar.half_width)) {
      DPX_RETURN_IF_ERROR(column_pass(in, bar.half_height, bar.half_width, merge));
      continue;
    }
    if (!merge && bar.half_height == 0) {
      DPX_RETURN_IF_ERROR(row_pass(out, bar.half_width));
      continue;
    }
    PlaneView columns_in = rows.as_const();
    if (bar.half_width != 0) {
      DPX_RETURN_IF_ERROR(row_pass(rows, bar.half_width));
    } else if (column_readable(in)) {
      columns_in = in;
    } else {
      DPX_RETURN_IF_ERROR(copy_in_to_rows());
    }
    DPX_RETURN_IF_ERROR(column_pass(columns_in, bar.half_height, 0, merge));
  }
  return Status::ok();
}

}  // namespace morph
}  // namespace dpx
