// CUDA side of the alignment: the kernels (thin) and their launchers. The per-thread work is
// GroupThread (sw_group.h); here are only what needs CUDA: shared-memory tables, warp shuffles
// between the threads of a group, the persistent loop over slots, and the traceback walker.
//
// Launchers are templates on the op policy (Dpx / PlainOps) and on local vs not: the library
// instantiates them for Dpx in a few translation units, the benchmark for PlainOps.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "align_results.h"
#include "launch_sizing.h"
#include "cuda_check.h"
#include "sw_group.h"
#include "sw_plan.h"
#include "sw_walk.h"

namespace dpx {
namespace align {

constexpr int kKernelThreads = 256;
// Threads a block: kKernelThreads, and half that for the packed traceback, whose warps take slots
// of very different lengths: a block keeps its registers until its last warp is done, and smaller
// blocks hand them to the next launch sooner (faster on 4,096 vs 1,000 pairs; 64 threads gave no
// more: docs/notes/smith-waterman.md).
constexpr int block_threads(bool directions, int lanes) { return directions && lanes == 2 ? 128 : kKernelThreads; }
// Blocks an SM must hold at once (__launch_bounds__): the packed traceback keeps 512 threads
// resident (at most 128 registers a thread), 640 in strips of 12 columns (at most 96: their
// warps wait on each other's chains; more of them hide it); the others leave ptxas free.
constexpr int min_resident_blocks(bool directions, int lanes, int columns) {
  return directions && lanes == 2 ? (columns <= 12 ? 640 : 512) / block_threads(directions, lanes) : 1;
}

// What one launch reads and writes; all pointers are device pointers.
// The two device batches of a call and how pairs index them.
struct BatchView {
  const char* q_data;
  const std::uint64_t* q_offsets;
  const char* t_data;
  const std::uint64_t* t_offsets;
  bool one_to_many;
  const std::uint8_t* code;     // 256 letter -> index entries
  const std::int32_t* planned;  // per pair: the n and m the plan was made for
  std::int32_t planned_query;   // one-to-many: the query length (the plan's n entries are not read)
};

// The lengths of `pair` in the device batches, or false when they differ from the plan.
__device__ __forceinline__ bool pair_lengths(const BatchView& b, std::int32_t pair, std::int32_t* n, std::int32_t* m) {
  const std::uint64_t qi = b.one_to_many ? 0 : static_cast<std::uint64_t>(pair);
  *n = static_cast<std::int32_t>(b.q_offsets[qi + 1] - b.q_offsets[qi]);
  *m = static_cast<std::int32_t>(b.t_offsets[pair + 1] - b.t_offsets[pair]);
  const std::int32_t planned_n = b.one_to_many ? b.planned_query : b.planned[2 * pair];
  return *n == planned_n && *m == b.planned[2 * pair + 1];
}

// What a traceback pass leaves for the passes of its slot after it (PassItem): how many rows of
// its column store are written, kPassDone once its result is in `found` too.
struct PassSync {
  Candidate found[2];
  std::int32_t rows;
};
constexpr std::int32_t kPassDone = 0x7FFFFFFF;

struct SwLaunchArgs {
  BatchView batch;
  const void* table;         // the scorer's table, copied to shared memory
  int table_bytes;           // multiple of 16
  int d;                     // table side: alphabet + the padding letter
  AlignMode mode;
  bool score_only;                        // AlignOptions::score_only: positions written as -1
  std::int32_t open, extend;
  const std::uint32_t* query_rows;        // scan kernels: the table row of each query row (sw_scan.h)
  const Slot* slots;
  std::int32_t slot_count;                // or, when slot_count_device is set, read from there
  const std::int32_t* slot_count_device;
  std::int32_t* fields;                   // 5 per pair
  Slot* overflow;                         // local 16-bit lanes above overflow_limit go here
  std::int32_t* overflow_count;
  std::int32_t overflow_limit;
  void* boundary;                         // per group: boundary_rows entries of (H, E)
  std::int32_t boundary_rows;
  std::uint32_t* dirs;                    // traceback: direction words
  const std::uint64_t* dir_offset;        // per pair
  std::int32_t* next_slot;                // zeroed claim counter: warps take batches as they finish
  const PassItem* items;                  // traceback: the launch's pass items (slots relative to a.slots)
  std::int32_t item_count;
  PassSync* pass_sync;                     // traceback: per item, zeroed
};

// What the traceback walker reads and writes.
struct WalkArgs {
  BatchView batch;
  int wildcard;
  AlignMode mode;
  std::int32_t open, extend;
  const std::int32_t* scores;        // the D x D substitution table (single_table), for local walks
  int side;                          // D
  const Slot* slots;
  std::int32_t slot_count;
  const std::uint8_t* config;        // per pair: kTracebackConfigs index
  const std::uint32_t* dirs;
  const std::uint64_t* dir_offset;   // per pair
  std::int32_t* fields;              // ends in, begins out
  char* ops;                         // per pair: n + m bytes from ops_offset, filled from the end
  const std::uint64_t* ops_offset;
  std::int32_t* op_count;
};

namespace device {

__device__ __forceinline__ int warp_max(int v) {
#if __CUDA_ARCH__ >= 800
  return __reduce_max_sync(0xFFFFFFFFu, v);
#else
  for (int off = 16; off > 0; off >>= 1) {
    const int o = __shfl_xor_sync(0xFFFFFFFFu, v, off);
    v = o > v ? o : v;
  }
  return v;
#endif
}

// The scorer over the shared copy of its table; `lane` picks the TwoLookup table copy.
template <class Scorer>
__device__ __forceinline__ Scorer make_scorer(const unsigned char* smem, int d, int lane);
template <>
__device__ __forceinline__ PairedScorer make_scorer<PairedScorer>(const unsigned char* smem, int d, int) {
  return PairedScorer{reinterpret_cast<const std::uint32_t*>(smem), d};
}
template <>
__device__ __forceinline__ TwoLookupScorer make_scorer<TwoLookupScorer>(const unsigned char* smem, int d, int lane) {
  return TwoLookupScorer{reinterpret_cast<const std::int16_t*>(smem) + lane % TwoLookupScorer::kCopies, d};
}
template <>
__device__ __forceinline__ SingleScorer make_scorer<SingleScorer>(const unsigned char* smem, int d, int) {
  return SingleScorer{reinterpret_cast<const std::int32_t*>(smem), d};
}

// A lane whose pair does not match the plan gets no work and the pair index -(pair + 2).
template <int kLanes>
__device__ __forceinline__ void load_jobs(const SwLaunchArgs& a, const Slot& slot, LaneJob (&jobs)[kLanes]) {
#pragma unroll
  for (int k = 0; k < kLanes; ++k) {
    const std::int32_t pair = k == 0 ? slot.a : slot.b;
    const BatchView& b = a.batch;
    jobs[k] = LaneJob{b.q_data, b.t_data, 0, 0, pair};
    if (pair < 0) continue;
    std::int32_t n, m;
    if (!pair_lengths(b, pair, &n, &m)) {
      jobs[k].pair = -(pair + 2);
      continue;
    }
    jobs[k].query = b.q_data + b.q_offsets[b.one_to_many ? 0 : pair];
    jobs[k].target = b.t_data + b.t_offsets[pair];
    jobs[k].n = n;
    jobs[k].m = m;
  }
}

template <class V>
__device__ __forceinline__ V shfl_from(V v, int src, int width) {
  return __shfl_sync(0xFFFFFFFFu, v, src, width);
}

// Writes one lane's result (LaneJob::pair: -1 none, below -1 a refused pair): its fields, or for
// a packed local lane above the limit an entry in the 32-bit rerun list.
__device__ __forceinline__ void write_lane(const SwLaunchArgs& a, std::int32_t pair, const Candidate& c, bool local,
                                          bool packed) {
  if (pair == -1) return;
  if (pair < -1) {
    const std::int32_t refused[5] = {kRefusedScore, -1, -1, -1, -1};
    for (int x = 0; x < 5; ++x) a.fields[static_cast<std::uint64_t>(-pair - 2) * 5 + x] = refused[x];
    return;
  }
  if (packed && local && c.score > a.overflow_limit) {
    a.overflow[atomicAdd(a.overflow_count, 1)] = Slot{pair, -1};
    return;
  }
  std::int32_t f[5];
  result_fields(a.mode, a.score_only, c.score, c.i, c.j, f);
#pragma unroll
  for (int x = 0; x < 5; ++x) a.fields[static_cast<std::uint64_t>(pair) * 5 + x] = f[x];
}

// The best candidate of lane k over the group's threads, in every thread of the group.
template <class G_>
__device__ __forceinline__ Candidate group_best(const G_& g, int k, int group_size) {
  Candidate c = g.result(k);
  for (int off = 1; off < group_size; off <<= 1) {
    const Candidate o{__shfl_xor_sync(0xFFFFFFFFu, c.score, off, group_size),
                      __shfl_xor_sync(0xFFFFFFFFu, c.i, off, group_size),
                      __shfl_xor_sync(0xFFFFFFFFu, c.j, off, group_size)};
    if (better(o, c)) c = o;
  }
  return c;
}

// Best candidate of each lane over the group, then written out by its thread 0.
template <class G_>
__device__ __forceinline__ void finish_slot(const SwLaunchArgs& a, G_& g, int group_size, bool local,
                                            bool packed) {
#pragma unroll
  for (int k = 0; k < G_::kLanes; ++k) {
    const Candidate c = group_best(g, k, group_size);
    if (g.t == 0) write_lane(a, g.jobs[k].pair, c, local, packed);
  }
}

__device__ __forceinline__ std::int32_t load_acquire(const std::int32_t* p) {
  std::int32_t v;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_release(std::int32_t* p, std::int32_t v) {
  asm volatile("st.release.gpu.global.s32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ void wait_at_least(const std::int32_t* p, std::int32_t v) {
  while (load_acquire(p) < v) __nanosleep(64);
}

// A pass run alone by its warp (all passes of a slot in turn): nothing to wait for or publish.
struct SoloPass {
  __device__ void need(std::int32_t) const {}
  __device__ void written(std::int32_t) const {}
};

// A traceback pass beside the others of its slot: before reading thread 0's inputs up to a row it
// waits until the previous pass has written them; its last thread, which writes this pass's
// column store, publishes how many rows are there (release: the entries are visible first).
struct ChainedPass {
  const std::int32_t* in;  // the previous pass's PassSync::rows, or null for the first pass
  std::int32_t* out;       // this pass's, or null for the last (or in a thread that writes nothing)
  std::int32_t rows;
  __device__ void need(std::int32_t row) const {
    if (in != nullptr) wait_at_least(in, row < rows ? row : rows);
  }
  __device__ void written(std::int32_t row) const {
    if (out != nullptr && row > 0) store_release(out, row < rows ? row : rows);
  }
};

// The steps of pass p of a warp's groups, whose longest slot has most_rows rows.
template <class GT, class Scorer, class E, class Chain>
__device__ __forceinline__ void sweep_pass(GT& g, int p, int most_rows, const Scorer& sc, const E& edges,
                                           const Chain& chain) {
  using V = typename GT::V;
  constexpr int G = GT::kGroup;
  const int t = g.t;
  g.begin_pass(p, sc, edges);
  // thread k holds thread 0's inputs for row (chunk start + k + 1); the next chunk is in flight
  chain.need(2 * G);
  typename GT::Feed cur = g.feed(t + 1, edges), next = g.feed(G + t + 1, edges);
  const int steps = GT::steps(most_rows);
  for (int s = 0; s < steps; ++s) {
    const int in_chunk = s % G;
    if (s > 0 && in_chunk == 0) {
      chain.written(s - G + 1);  // thread G - 1 has stored rows up to s - G + 1
      chain.need(s + 2 * G);
      cur = next;
      next = g.feed(s + G + t + 1, edges);
    }
    typename GT::Feed fed;
    fed.letters = shfl_from(cur.letters, in_chunk, G);
    fed.h = shfl_from(cur.h, in_chunk, G);
    fed.e = shfl_from(cur.e, in_chunk, G);
    const V h_in = __shfl_up_sync(0xFFFFFFFFu, g.h_out, 1, G);
    const V e_in = __shfl_up_sync(0xFFFFFFFFu, g.e_out, 1, G);
    const std::uint32_t letters_in = __shfl_up_sync(0xFFFFFFFFu, g.letters_out, 1, G);
    g.step(s, h_in, e_in, letters_in, fed, sc, edges);
  }
  __syncwarp();  // the boundary column written in this pass is read in the next
}

// The first slot of a warp's next batch of `batch` slots after the one at `first`, in rounds of
// `round` slots: a round further on (its static share), or with a claim counter the next unclaimed
// batch after the first round.
__device__ __forceinline__ std::int32_t next_batch(std::int32_t* counter, std::int32_t first,
                                                   std::int32_t round, int batch) {
  if (counter == nullptr) return first + round;
  std::int32_t claimed = 0;
  if ((threadIdx.x & 31) == 0) claimed = atomicAdd(counter, batch);
  return round + __shfl_sync(0xFFFFFFFFu, claimed, 0);
}

// Every slot of the launch, group by group, warps looping over the slots (persistent grid).
template <class Ops, class L, class Scorer, bool kLocal, int G, int R>
__device__ void run_slots(const SwLaunchArgs& a, const Scorer& sc, const std::uint8_t* code) {
  using GT = GroupThread<Ops, L, Scorer, kLocal, false, G, R>;
  constexpr int kGroupsPerWarp = 32 / G;
  const int lane = threadIdx.x & 31, t = lane % G;
  const int warp = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  const int warps = static_cast<int>((gridDim.x * blockDim.x) >> 5);
  const std::int32_t slot_count = a.slot_count_device != nullptr ? *a.slot_count_device : a.slot_count;
  const Edges<L> edges(a.mode, a.open, a.extend);
  GT g;
  g.code = code;
  g.pad = a.d - 1;
  g.boundary_out = static_cast<typename GT::Boundary*>(a.boundary) +
                   static_cast<std::uint64_t>(warp * kGroupsPerWarp + lane / G) * a.boundary_rows;
  g.boundary_in = g.boundary_out;  // read a chunk ahead of where the pass overwrites it
  // The first round static; then, with a.next_slot, each warp takes the next batch when it is done
  // (slots come longest first, so the last ones fill in around the long ones instead of waiting
  // behind a fixed share).
  for (std::int32_t first = warp * kGroupsPerWarp; first < slot_count;
       first = next_batch(a.next_slot, first, warps * kGroupsPerWarp, kGroupsPerWarp)) {
    const std::int32_t index = first + lane / G;
    LaneJob jobs[GT::kLanes];
    load_jobs(a, index < slot_count ? a.slots[index] : Slot{-1, -1}, jobs);
    g.begin_slot(t, jobs, edges);
    const int most_rows = warp_max(g.rows), most_passes = warp_max(g.passes);
    for (int p = 0; p < most_passes; ++p) sweep_pass(g, p, most_rows, sc, edges, SoloPass{});
    finish_slot(a, g, G, kLocal, L::kLanes == 2);
  }
}

// The traceback: every pass item of the launch, each by one warp. Warps claim items one at a time
// from the start, so a pass is only ever claimed after the one it reads, by a warp already
// running: a wait never waits on a warp that is not resident. The passes of a long slot run side
// by side a few chunks of rows apart instead of one after another on one warp, whose length set
// the end of the launch.
template <class Ops, class L, class Scorer, bool kLocal, int G, int R>
__device__ void run_pass_items(const SwLaunchArgs& a, const Scorer& sc, const std::uint8_t* code) {
  using GT = GroupThread<Ops, L, Scorer, kLocal, true, G, R>;
  const int lane = threadIdx.x & 31, t = lane % G;
  const Edges<L> edges(a.mode, a.open, a.extend);
  GT g;
  g.code = code;
  g.pad = a.d - 1;
  for (;;) {
    std::int32_t x = 0;
    if (lane == 0) x = atomicAdd(a.next_slot, 1);
    x = __shfl_sync(0xFFFFFFFFu, x, 0);
    if (x >= a.item_count) return;
    const PassItem item = a.items[x];
    const std::int32_t index = item.first_slot + lane / G;
    LaneJob jobs[GT::kLanes];
    load_jobs(a, index < a.slot_count ? a.slots[index] : Slot{-1, -1}, jobs);
    g.begin_slot(t, jobs, edges);
    // the slot's words (both pairs of a packed slot hold its offset), then its column stores
    const std::int32_t owner = jobs[0].pair >= 0 ? jobs[0].pair : jobs[GT::kLanes - 1].pair;
    g.dirs = owner >= 0 ? a.dirs + a.dir_offset[owner] : nullptr;
    const int most_rows = warp_max(g.rows), most_passes = warp_max(g.passes);
    const int p = item.pass;
    if (p > 0 && p >= most_passes) continue;  // pairs refused since the plan: fewer passes
    // only the 32-thread shapes take passes (PassItem): then the warp is one group
    const bool last = p + 1 >= most_passes;
    ChainedPass chain{nullptr, nullptr, g.rows};
    if (p > 0) {
      g.boundary_in = g.column_store(p - 1);
      chain.in = &a.pass_sync[x - 1].rows;
    }
    if (!last) {
      g.boundary_out = g.column_store(p);
      if (t == G - 1) chain.out = &a.pass_sync[x].rows;
    }
    sweep_pass(g, p, most_rows, sc, edges, chain);
#pragma unroll
    for (int k = 0; k < GT::kLanes; ++k) {
      Candidate c = group_best(g, k, G);
      if (!last) {
        if (t == G - 1) a.pass_sync[x].found[k] = c;
      } else if (t == 0) {  // the slot's result: the best over its passes, in the CPU's order
        for (int q = 1; q <= p; ++q) {
          const PassSync& before = a.pass_sync[x - q];
          wait_at_least(&before.rows, kPassDone);
          if (better(before.found[k], c)) c = before.found[k];
        }
        write_lane(a, g.jobs[k].pair, c, kLocal, L::kLanes == 2);
      }
    }
    if (!last && t == G - 1) store_release(&a.pass_sync[x].rows, kPassDone);
  }
}

// Copies the scorer's table, then the letter codes, into the block's shared memory (smem, of
// a.table_bytes + 256 bytes) and returns where the codes are.
__device__ __forceinline__ const std::uint8_t* load_tables(const SwLaunchArgs& a, unsigned char* smem) {
  const uint4* src = static_cast<const uint4*>(a.table);
  uint4* dst = reinterpret_cast<uint4*>(smem);
  for (int x = threadIdx.x; x < a.table_bytes / 16; x += blockDim.x) dst[x] = src[x];
  std::uint8_t* code = smem + a.table_bytes;
  for (int x = threadIdx.x; x < 256; x += blockDim.x) code[x] = a.batch.code[x];
  __syncthreads();
  return code;
}

template <class Ops, class L, class Scorer, bool kLocal, bool kDirections, int G, int R>
__global__ void __launch_bounds__(block_threads(kDirections, L::kLanes), min_resident_blocks(kDirections, L::kLanes, R))
    sw_kernel(SwLaunchArgs a) {
  extern __shared__ __align__(16) unsigned char smem[];
  const std::uint8_t* code = load_tables(a, smem);
  const Scorer sc = make_scorer<Scorer>(smem, a.d, threadIdx.x & 31);
  if constexpr (kDirections) {
    run_pass_items<Ops, L, Scorer, kLocal, G, R>(a, sc, code);
  } else {
    run_slots<Ops, L, Scorer, kLocal, G, R>(a, sc, code);
  }
}


}  // namespace device

// Launches a persistent kernel of groups of `group` threads over a.slots: as many blocks as
// `grid_slots` fill (a.slot_count, or the most the device-side count can reach), at most what is
// resident at once and what `boundary_groups` (the column store, when pairs take passes) holds.
template <class Kernel>
Status launch_groups(Kernel kernel, int group, int threads, const SwLaunchArgs& a, std::int32_t grid_slots,
                     std::int64_t boundary_groups, cudaStream_t stream) {
  if (grid_slots <= 0) return Status::ok();
  const int smem = a.table_bytes + 256;
  DPX_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  std::int64_t resident = 0;
  DPX_RETURN_IF_ERROR(runtime::resident_blocks(kernel, threads, smem, &resident));
  const std::int64_t groups_per_block = threads / group;
  std::int64_t blocks = (grid_slots + groups_per_block - 1) / groups_per_block;
  blocks = blocks < resident ? blocks : resident;
  const std::int64_t by_boundary = boundary_groups / groups_per_block;
  blocks = blocks < by_boundary ? blocks : by_boundary;
  if (blocks < 1) return Status(StatusCode::kOutOfMemory, "align: boundary workspace too small for one block");
  kernel<<<static_cast<unsigned>(blocks), threads, smem, stream>>>(a);
  DPX_CUDA_CHECK_LAUNCH("an alignment kernel");
  return Status::ok();
}

// One strip shape over a.slots.
template <class Ops, class L, class Scorer, bool kLocal, bool kDirections, int G, int R>
Status launch_strips(const SwLaunchArgs& a, std::int32_t grid_slots, std::int64_t boundary_groups, cudaStream_t stream) {
  return launch_groups(device::sw_kernel<Ops, L, Scorer, kLocal, kDirections, G, R>, G,
                       block_threads(kDirections, L::kLanes), a, grid_slots, boundary_groups, stream);
}

namespace detail {
template <class Ops, class Scorer, bool kLocal, int... C>
Status score16_dispatch(int config, const SwLaunchArgs& a, std::int64_t boundary_groups, cudaStream_t stream,
                        std::integer_sequence<int, C...>) {
  Status s(StatusCode::kInvalidArgument, "align: no 16-bit strip shape " + std::to_string(config));
  ((config == C ? (void)(s = launch_strips<Ops, Lanes16<Ops>, Scorer, kLocal, false, kScore16Configs[C].group,
                                           kScore16Configs[C].columns>(a, a.slot_count, boundary_groups, stream))
                : (void)0),
   ...);
  return s;
}
}  // namespace detail

// Packed 16-bit scores over a.slots, strip shape kScore16Configs[config].
template <class Ops, class Scorer, bool kLocal>
Status launch_score16(int config, const SwLaunchArgs& a, std::int64_t boundary_groups, cudaStream_t stream) {
  return detail::score16_dispatch<Ops, Scorer, kLocal>(config, a, boundary_groups, stream,
                                                       std::make_integer_sequence<int, kScore16ConfigCount>());
}

// 32-bit scores (kScore32Config) over a.slots, one pair each; `grid_slots` sizes the grid when
// the count is only known on the device.
template <class Ops, bool kLocal>
Status launch_score32(const SwLaunchArgs& a, std::int32_t grid_slots, std::int64_t boundary_groups, cudaStream_t stream) {
  return launch_strips<Ops, Lanes32<Ops>, SingleScorer, kLocal, false, kScore32Config.group, kScore32Config.columns>(
      a, grid_slots, boundary_groups, stream);
}

namespace detail {
template <class Ops, class Scorer, bool kLocal, int... C>
Status directions_dispatch(int config, const SwLaunchArgs& a, cudaStream_t stream, std::integer_sequence<int, C...>) {
  Status s(StatusCode::kInvalidArgument, "align: no traceback shape " + std::to_string(config));
  constexpr int kFirst = std::is_same<Scorer, SingleScorer>::value ? 0 : kTracebackPackedFirst;
  // a warp an item; the column stores lie in the direction words (no limit from a workspace)
  ((config == kFirst + C
        ? (void)(s = launch_strips<Ops, std::conditional_t<kFirst == 0, Lanes32<Ops>, Lanes16<Ops>>, Scorer, kLocal, true,
                                   kTracebackConfigs[kFirst + C].group, kTracebackConfigs[kFirst + C].columns>(
                     a, a.item_count * (32 / kTracebackConfigs[kFirst + C].group),
                     std::numeric_limits<std::int64_t>::max(), stream))
        : (void)0),
   ...);
  return s;
}
}  // namespace detail

// Traceback direction words over a.items, strip shape kTracebackConfigs[config]: the 32-bit
// shapes (Scorer = SingleScorer) or the packed ones (PairedScorer / TwoLookupScorer).
template <class Ops, class Scorer, bool kLocal>
Status launch_directions(int config, const SwLaunchArgs& a, cudaStream_t stream) {
  constexpr int kShapes = std::is_same<Scorer, SingleScorer>::value ? kTracebackPackedFirst
                                                                    : kTracebackConfigCount - kTracebackPackedFirst;
  return detail::directions_dispatch<Ops, Scorer, kLocal>(config, a, stream, std::make_integer_sequence<int, kShapes>());
}

// A warp per pair of a.slots (both lanes of a packed slot), reading its directions through a window.
Status launch_walk(const WalkArgs& a, cudaStream_t stream);
// Writes the host-computed fields of pairs with an empty side.
Status launch_scatter_fields(const std::int32_t* pairs, const std::int32_t* values, std::int32_t count,
                             std::int32_t* fields, cudaStream_t stream);

}  // namespace align
}  // namespace dpx
