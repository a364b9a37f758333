// Bit-parallel edit distance on CUDA (edit_bitparallel.cuh's recurrence). A group of G lanes
// runs one pair at a time; lane L holds K consecutive 64-row words of the pattern's column (rows
// [64KL, 64K(L+1))) and is one step behind lane L - 1, from which a shuffle brings the horizontal
// difference (hin) entering its first row: a wavefront of m + G - 1 steps, each a handful of
// 64-bit operations per word and one shuffle.
//
// Match table: per group in shared memory, compacted — the pattern's distinct letters get codes
// 1..D (code 0: a zero row for letters it lacks), rows [code][word]. A pattern with more letters
// than the table holds is flagged and runs in a second launch with a full 256-row table per group
// in global memory (L1-cached; bytes index it directly).
//
// Length classes: one launch per (G, K) shape, each taking the pairs whose pattern has its number
// of words; only classes up to the declared maximum length are launched. The pattern is the
// shorter side of a pair (the query for one-to-many, so every group builds its table once).
//
// Recording launches (kRecord, the CIGAR path) keep the query as the pattern whatever the lengths
// — the walk back's tie order is defined on the query's rows — and store every column's words
// (edit_column_record.cuh).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "cuda_check.h"
#include "edit_cuda.h"
#include "edit_bitparallel.cuh"
#include "edit_launch.cuh"
#include "align/common/group_launch.cuh"
#include "launch_sizing.h"
#include "align/common/pair_batch.cuh"
#include "scratch.h"
#include "align/common/wavefront.cuh"

namespace dpx {
namespace align {
namespace {

constexpr int kBitBlockThreads = 64;
// Rows of the compact table (30 letters + the zero row covers DNA with IUPAC codes and proteins);
// fewer for patterns so long that two groups would not fit a block's shared memory.
constexpr int kCompactRows = 32;
constexpr std::size_t kBlockSharedBytes = 227 * 1024;
constexpr unsigned kClaimed = 0xFFFFFFFFu;
// Global tables of the second launch: 256 rows of G * K words per group, within this budget.
constexpr std::size_t kDirectBudgetBytes = std::size_t{32} << 20;
constexpr int kDirectGroupsPerSm = 4;

// A pair's roles: the pattern down the rows (bits), the text along the columns.
struct Roles {
  const char* pattern;
  const char* text;
  int n, m;
  bool rejected;
};

template <bool kRecord>
__device__ Roles roles_of(const PairBatchView<char>& batch, std::int64_t pair, std::int64_t max_length) {
  const auto q = batch.query(pair);
  const auto t = batch.target(pair);
  Roles r{};
  r.rejected = q.length > max_length || t.length > max_length;
  if (r.rejected) return r;
  const bool query_is_pattern = kRecord || batch.one_to_many || q.length <= t.length;
  r.pattern = query_is_pattern ? q.data : t.data;
  r.text = query_is_pattern ? t.data : q.data;
  r.n = static_cast<int>(query_is_pattern ? q.length : t.length);
  r.m = static_cast<int>(query_is_pattern ? t.length : q.length);
  return r;
}

struct ClassLaunch {
  PairBatchView<char> batch;
  std::int64_t max_length = 0;
  int words_above = 0, words_up_to = 0;  // pairs whose pattern words lie in (above, up_to]
  bool first = false;                    // also writes rejected pairs and empty patterns
  std::int64_t* out = nullptr;
  std::uint8_t* overflow = nullptr;      // per pair: the pattern outgrew the compact table
  ColumnRecord record;                   // recording launches only
};

__device__ bool in_class(const ClassLaunch& c, int n) {
  const int words = static_cast<int>(pattern_words(n));
  return words > c.words_above && words <= c.words_up_to;
}

// Runs pair p on the group once its table is ready; `column(c)` points at lane L's word 0 of
// letter c's row, words k at column(c)[k * G].
template <int G, int K, bool kRecord, class Column>
__device__ void run_pair(const WarpGroup<G>& g, const ClassLaunch& c, std::int64_t p, const Roles& r,
                         const Column& column) {
  const int lane = g.lane();
  const int last_word = (r.n - 1) / kWordBits;
  const int owner = last_word / K, owner_k = last_word % K, bit = (r.n - 1) % kWordBits;
  const bool active = lane * K <= last_word;
  std::uint64_t pv[K], mv[K];
  std::int32_t score[K];  // bottom row of each word (recording only)
  DPX_UNROLL
  for (int k = 0; k < K; ++k) {
    pv[k] = ~std::uint64_t{0};
    mv[k] = 0;
    score[k] = column_zero_score(lane * K + k);
  }
  // Recording: this lane's entry of the current step, one row of last_word + 1 entries a step.
  std::uint64_t entry = kRecord ? c.record.first_entry[p] + lane * K : 0;
  const auto columns = static_cast<unsigned>(r.m);  // j < columns also rejects j < 0
  const unsigned own_columns = active ? columns : 0;  // the columns this lane computes
  // Each column's match row (and with one word a lane, the word itself) is looked up a step
  // ahead: the letter, code and row loads then overlap the step before instead of starting it.
  const auto row_of = [&](int j) {
    return column(static_cast<unsigned>(j) < columns ? static_cast<unsigned char>(__ldg(r.text + j)) : 0);
  };
  const std::uint64_t* eq = row_of(-lane);
  std::uint64_t eq0 = eq[0];
  int distance = r.n, send = 0;
  const int steps = r.m + G - 1;
  for (int s = 0; s < steps; ++s) {
    int h = g.shfl_up(send);
    if (lane == 0) h = 1;  // D(0, j) = j
    const int j = s - lane;
    const std::uint64_t* next = row_of(j + 1);
    const std::uint64_t next0 = K == 1 ? next[0] : 0;
    if (static_cast<unsigned>(j) < own_columns) {
      DPX_UNROLL
      for (int k = 0; k < K; ++k) {
        const bool scores = lane == owner && k == owner_k;
        int delta = 0;
        h = myers_block_step(&pv[k], &mv[k], K == 1 ? eq0 : eq[k * G], h, scores ? bit : 63, &delta);
        if (scores) distance += delta;
        if (kRecord) {
          score[k] += h;
          const int w = lane * K + k;
          if (K == 1 || w <= last_word) {  // one word a lane: every active lane's word is in
            c.record.pv[entry + k] = pv[k];
            c.record.mv[entry + k] = mv[k];
            c.record.score[entry + k] = score[k];
          }
        }
      }
    }
    send = h;
    eq = next;
    eq0 = next0;
    if (kRecord) entry += last_word + 1;
  }
  if (!kRecord && lane == owner) c.out[p] = distance;  // recording: the walk reads it off the last column
}

// --- first launch: compact tables in shared memory --------------------------------------------

struct CompactTable {
  std::uint64_t* rows;      // [rows][K][G]
  unsigned* code_of;  // [256], 0 = not in the pattern; 32-bit slots for native atomicCAS
  unsigned* count;
  int capacity;
};

__host__ __device__ std::size_t compact_group_bytes(int rows, int words_per_group) {
  return static_cast<std::size_t>(rows) * words_per_group * sizeof(std::uint64_t) + 256 * sizeof(unsigned) +
         2 * sizeof(unsigned);
}

template <int G, int K>
__device__ void clear_codes(const WarpGroup<G>& g, const CompactTable& t, const char* pattern, int n) {
  g.sync();  // every lane is done reading the codes
  for (int i = g.lane(); i < n; i += G) t.code_of[static_cast<unsigned char>(pattern[i])] = 0;
  if (g.lane() == 0) *t.count = 0;
  g.sync();
}

// Codes the pattern's letters and fills this lane's column of their rows; false when the
// pattern has more letters than the table holds.
template <int G, int K>
__device__ bool build_compact(const WarpGroup<G>& g, const CompactTable& t, const char* pattern, int n) {
  const int lane = g.lane();
  const int begin = lane * K * kWordBits, end = min(n, begin + K * kWordBits);
  for (int i = begin; i < end; ++i) {
    unsigned* slot = t.code_of + static_cast<unsigned char>(pattern[i]);
    // Every access to a slot is atomic until the sync: the lane that claims a letter gives it the
    // next code, the others find it claimed.
    if (atomicCAS(slot, 0, kClaimed) == 0) {
      atomicCAS(slot, kClaimed, atomicAdd(t.count, 1u) + 1u);
    }
  }
  g.sync();
  const int letters = static_cast<int>(*static_cast<volatile unsigned*>(t.count));
  if (letters + 1 > t.capacity) return false;
  for (int row = 1; row <= letters; ++row) {
    DPX_UNROLL
    for (int k = 0; k < K; ++k) t.rows[(row * K + k) * G + lane] = 0;
  }
  for (int i = begin; i < end; ++i) {
    const int row = static_cast<int>(t.code_of[static_cast<unsigned char>(pattern[i])]);
    t.rows[(row * K + (i / kWordBits - lane * K)) * G + lane] |= std::uint64_t{1} << (i % kWordBits);
  }
  return true;
}

template <int G, int K, bool kRecord>
__global__ void __launch_bounds__(kBitBlockThreads) edit_bits_compact_kernel(const ClassLaunch c, int capacity) {
  extern __shared__ std::uint64_t shared_words[];
  const WarpGroup<G> g;
  constexpr int kGroupsPerBlock = kBitBlockThreads / G;
  const int local = static_cast<int>(threadIdx.x) / G;
  auto* base = reinterpret_cast<unsigned char*>(shared_words) + local * compact_group_bytes(capacity, G * K);
  CompactTable t;
  t.rows = reinterpret_cast<std::uint64_t*>(base);
  t.code_of = reinterpret_cast<unsigned*>(base + static_cast<std::size_t>(capacity) * G * K * 8);
  t.count = reinterpret_cast<unsigned*>(t.code_of + 256);
  t.capacity = capacity;
  for (int i = g.lane(); i < 256; i += G) t.code_of[i] = 0;
  DPX_UNROLL
  for (int k = 0; k < K; ++k) t.rows[k * G + g.lane()] = 0;  // row 0
  if (g.lane() == 0) *t.count = 0;
  g.sync();

  const std::int64_t group = static_cast<std::int64_t>(blockIdx.x) * kGroupsPerBlock + local;
  const std::int64_t groups = static_cast<std::int64_t>(gridDim.x) * kGroupsPerBlock;
  const char* built = nullptr;
  int built_n = 0;
  bool fits = false;
  for (std::int64_t p = group; p < c.batch.pairs; p += groups) {
    const Roles r = roles_of<kRecord>(c.batch, p, c.max_length);
    if (r.rejected || r.n == 0) {
      if (!kRecord && c.first && g.lane() == 0) c.out[p] = r.rejected ? kDistanceInvalid : r.m;
      continue;
    }
    if (!in_class(c, r.n)) continue;
    if (r.pattern != built || r.n != built_n) {
      if (built != nullptr) clear_codes<G, K>(g, t, built, built_n);
      fits = build_compact<G, K>(g, t, r.pattern, r.n);
      built = r.pattern;
      built_n = r.n;
    }
    if (!fits) {
      if (g.lane() == 0) c.overflow[p] = 1;
      continue;
    }
    const std::uint64_t* rows = t.rows + g.lane();
    run_pair<G, K, kRecord>(g, c, p, r, [&](unsigned char letter) { return rows + t.code_of[letter] * (K * G); });
  }
}

// --- second launch: full tables in global memory, for the flagged pairs ------------------------

template <int G, int K>
__device__ void set_direct_bits(const WarpGroup<G>& g, std::uint64_t* table, const char* pattern, int n, bool on) {
  const int lane = g.lane();
  const int begin = lane * K * kWordBits, end = min(n, begin + K * kWordBits);
  for (int i = begin; i < end; ++i) {
    std::uint64_t& word = table[(static_cast<unsigned char>(pattern[i]) * K + (i / kWordBits - lane * K)) * G + lane];
    word = on ? word | (std::uint64_t{1} << (i % kWordBits)) : 0;
  }
}

template <int G, int K, bool kRecord>
__global__ void __launch_bounds__(kBitBlockThreads) edit_bits_direct_kernel(const ClassLaunch c, std::uint64_t* tables) {
  const WarpGroup<G> g;
  constexpr int kGroupsPerBlock = kBitBlockThreads / G;
  constexpr int kWords = 256 * K * G;
  const std::int64_t group = static_cast<std::int64_t>(blockIdx.x) * kGroupsPerBlock + threadIdx.x / G;
  const std::int64_t groups = static_cast<std::int64_t>(gridDim.x) * kGroupsPerBlock;
  std::uint64_t* table = tables + group * kWords;
  bool zeroed = false;
  for (std::int64_t p = group; p < c.batch.pairs; p += groups) {
    if (c.overflow[p] == 0) continue;
    const Roles r = roles_of<kRecord>(c.batch, p, c.max_length);
    if (!in_class(c, r.n)) continue;
    if (!zeroed) {  // each lane owns column `lane` of every row
      for (int w = g.lane(); w < kWords; w += G) table[w] = 0;
      zeroed = true;
    }
    set_direct_bits<G, K>(g, table, r.pattern, r.n, true);
    const std::uint64_t* column = table + g.lane();
    run_pair<G, K, kRecord>(g, c, p, r, [&](unsigned char letter) { return column + letter * (K * G); });
    set_direct_bits<G, K>(g, table, r.pattern, r.n, false);
  }
}

// --- launcher -------------------------------------------------------------------------------------

template <int G, int K, bool kRecord>
Status launch_class(const ClassLaunch& c, bool direct, std::uint64_t* tables, std::size_t table_groups,
                    cudaStream_t stream) {
  constexpr int kGroupsPerBlock = kBitBlockThreads / G;
  const std::int64_t needed_blocks = (c.batch.pairs + kGroupsPerBlock - 1) / kGroupsPerBlock;
  if (direct) {
    const auto blocks = std::min<std::int64_t>(needed_blocks, static_cast<std::int64_t>(table_groups) / kGroupsPerBlock);
    if (blocks <= 0) return Status::ok();
    edit_bits_direct_kernel<G, K, kRecord><<<static_cast<unsigned>(blocks), kBitBlockThreads, 0, stream>>>(c, tables);
    DPX_CUDA_CHECK_LAUNCH("edit_bits_direct_kernel");
    return Status::ok();
  }
  const std::size_t per_group_limit = kBlockSharedBytes / kGroupsPerBlock - compact_group_bytes(0, 0);
  const int capacity = static_cast<int>(
      std::min<std::size_t>(kCompactRows, per_group_limit / (static_cast<std::size_t>(G) * K * sizeof(std::uint64_t))));
  const std::size_t shared = kGroupsPerBlock * compact_group_bytes(capacity, G * K);
  const auto kernel = edit_bits_compact_kernel<G, K, kRecord>;
  DPX_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
  std::int64_t resident = 1;
  DPX_RETURN_IF_ERROR(runtime::resident_blocks(kernel, kBitBlockThreads, shared, &resident));
  const std::int64_t blocks = std::min<std::int64_t>(needed_blocks, resident);
  kernel<<<static_cast<unsigned>(std::max<std::int64_t>(blocks, 1)), kBitBlockThreads, shared, stream>>>(c, capacity);
  DPX_CUDA_CHECK_LAUNCH("edit_bits_compact_kernel");
  return Status::ok();
}

// The length classes in order: (G lanes, K words per lane), covering patterns of up to G * K words.
template <class Fn>
Status for_each_class(int max_words, Fn&& fn) {
  int above = 0;
  auto one = [&](auto g, auto k) -> Status {
    constexpr int kWords = decltype(g)::value * decltype(k)::value;
    if (above > 0 && above >= max_words) return Status::ok();
    const Status s = fn(g, k, above, kWords);
    above = kWords;
    return s;
  };
  using std::integral_constant;
  DPX_RETURN_IF_ERROR(one(integral_constant<int, 4>{}, integral_constant<int, 1>{}));
  DPX_RETURN_IF_ERROR(one(integral_constant<int, 8>{}, integral_constant<int, 1>{}));
  DPX_RETURN_IF_ERROR(one(integral_constant<int, 16>{}, integral_constant<int, 1>{}));
  DPX_RETURN_IF_ERROR(one(integral_constant<int, 32>{}, integral_constant<int, 1>{}));
  DPX_RETURN_IF_ERROR(one(integral_constant<int, 32>{}, integral_constant<int, 2>{}));
  DPX_RETURN_IF_ERROR(one(integral_constant<int, 32>{}, integral_constant<int, 4>{}));
  DPX_RETURN_IF_ERROR(one(integral_constant<int, 32>{}, integral_constant<int, 8>{}));
  DPX_RETURN_IF_ERROR(one(integral_constant<int, 32>{}, integral_constant<int, 16>{}));
  return one(integral_constant<int, 32>{}, integral_constant<int, 32>{});
}

// Classes of patterns shorter than `shortest_pattern` letters are not launched.
template <bool kRecord>
Status launch_bits(const PairBatchView<char>& view, std::size_t declared_length, std::size_t shortest_pattern,
                   std::int64_t* distances, const ColumnRecord& record, cudaStream_t stream) {
  if (view.pairs == 0) return Status::ok();
  const auto max_length = static_cast<std::int64_t>(declared_length);
  int sms = 0;
  DPX_RETURN_IF_ERROR(runtime::sm_count(&sms));
  runtime::ScratchLease overflow_lease(nullptr, stream);
  std::uint8_t* overflow = nullptr;
  DPX_RETURN_IF_ERROR(overflow_lease.acquire_array(static_cast<std::size_t>(view.pairs), &overflow));
  DPX_CUDA_TRY(cudaMemsetAsync(overflow, 0, static_cast<std::size_t>(view.pairs), stream));
  ClassLaunch c;
  c.batch = view;
  c.max_length = max_length;
  c.out = distances;
  c.overflow = overflow;
  c.record = record;
  const int max_words = static_cast<int>(pattern_words(max_length));
  const int min_words = static_cast<int>(pattern_words(static_cast<std::int64_t>(shortest_pattern)));
  DPX_RETURN_IF_ERROR(for_each_class(max_words, [&](auto g, auto k, int above, int up_to) {
    if (up_to < min_words) return Status::ok();
    c.words_above = above;
    c.words_up_to = up_to;
    c.first = above == 0;
    return launch_class<decltype(g)::value, decltype(k)::value, kRecord>(c, false, nullptr, 0, stream);
  }));
  // The flagged pairs: one table of the largest class launched per group, reused by every class.
  std::size_t largest = 0;
  DPX_RETURN_IF_ERROR(for_each_class(max_words, [&](auto g, auto k, int, int) {
    largest = std::max<std::size_t>(largest, 256 * sizeof(std::uint64_t) * decltype(g)::value * decltype(k)::value);
    return Status::ok();
  }));
  const std::size_t table_groups =
      std::min<std::size_t>(kDirectBudgetBytes / largest, static_cast<std::size_t>(sms) * kDirectGroupsPerSm);
  runtime::ScratchLease tables_lease(nullptr, stream);
  std::uint64_t* tables = nullptr;
  DPX_RETURN_IF_ERROR(tables_lease.acquire_array(table_groups * largest / sizeof(std::uint64_t), &tables));
  return for_each_class(max_words, [&](auto g, auto k, int above, int up_to) {
    if (up_to < min_words) return Status::ok();
    c.words_above = above;
    c.words_up_to = up_to;
    c.first = false;
    constexpr int kG = decltype(g)::value, kK = decltype(k)::value;
    const std::size_t groups = table_groups * largest / (256 * sizeof(std::uint64_t) * kG * kK);
    return launch_class<kG, kK, kRecord>(c, true, tables, groups, stream);
  });
}

}  // namespace

Status launch_edit_bitparallel(const DeviceSequenceBatch& queries, const DeviceSequenceBatch& targets, Pairing pairing,
                               std::size_t declared_length, std::int64_t* distances, cudaStream_t stream) {
  return launch_edit_bits(make_device_view(queries, targets, pairing), declared_length, distances, stream);
}

Status launch_edit_bits(const PairBatchView<char>& view, std::size_t declared_length, std::int64_t* distances,
                        cudaStream_t stream) {
  return launch_bits<false>(view, declared_length, 0, distances, ColumnRecord{}, stream);
}

Status launch_edit_bits_recording(const PairBatchView<char>& view, std::size_t shortest_query,
                                  std::size_t longest, const ColumnRecord& record, cudaStream_t stream) {
  return launch_bits<true>(view, longest, shortest_query, nullptr, record, stream);
}

}  // namespace align
}  // namespace dpx
