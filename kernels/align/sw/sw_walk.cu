// The traceback walker (a warp per pair of a slot, walk_back over a window of its direction words) and the scatter
// of results computed on the host.
#include "sw_kernels.cuh"
#include "sw_walk_window.h"

namespace dpx {
namespace align {
namespace device {

// A pair's letters as matrix indices.
struct DeviceLetters {
  const char *q, *t;
  const std::uint8_t* code;
  __device__ int query(std::int32_t x) const { return code[static_cast<unsigned char>(q[x])]; }
  __device__ int target(std::int32_t x) const { return code[static_cast<unsigned char>(t[x])]; }
};

// walk_back's access for a warp walking one pair: every lane takes the same steps; the ops go out
// from the end, a run of `count` spread over the lanes.
template <int C>
struct DeviceWalk {
  WindowedDirections<kTracebackConfigs[C].group, kTracebackConfigs[C].columns, traceback_packed(C), DeviceLetters> dirs;
  char* end;  // one past the last op slot of this pair
  std::int32_t written;
  __device__ std::uint32_t code(std::int32_t i, std::int32_t j) { return dirs.code(i, j); }
  __device__ bool same(std::int32_t i, std::int32_t j) const { return dirs.same(i, j); }
  __device__ std::int32_t score(std::int32_t i, std::int32_t j) const { return dirs.score(i, j); }
  __device__ void emit(char op, std::int32_t count) {
    for (std::int32_t k = static_cast<std::int32_t>(threadIdx.x % 32); k < count; k += 32) *(end - 1 - written - k) = op;
    written += count;
  }
};

// Lane `lane` of `slot`, walked by the calling warp (the direction kernel gave a refused pair no
// rows, so neither does this).
template <int C>
__device__ void walk_lane(const WalkArgs& a, const Slot& slot, int lane, WalkWindowCells* window) {
  const std::int32_t pair = lane == 0 ? slot.a : slot.b, partner = lane == 0 ? slot.b : slot.a;
  std::int32_t* f = a.fields + static_cast<std::uint64_t>(pair) * 5;
  const BatchView& b = a.batch;
  const bool writer = threadIdx.x % 32 == 0;
  std::int32_t n, m, partner_n, partner_m;
  if (!pair_lengths(b, pair, &n, &m)) {
    if (writer) a.op_count[pair] = 0;
    return;
  }
  const std::int32_t rows = partner >= 0 && pair_lengths(b, partner, &partner_n, &partner_m) && partner_n > n ? partner_n : n;
  const std::uint64_t qi = b.one_to_many ? 0 : static_cast<std::uint64_t>(pair);
  const DeviceLetters letters{b.q_data + b.q_offsets[qi], b.t_data + b.t_offsets[pair], b.code};
  DeviceWalk<C> w{{window, a.dirs + a.dir_offset[pair], rows, lane, letters, a.wildcard, a.scores, a.side},
                  a.ops + a.ops_offset[pair] + n + m, 0};
  std::int32_t ends[2] = {f[2], f[4]}, begins[2] = {f[1], f[3]};
  if (!(a.mode == AlignMode::kLocal && f[0] == 0))
    walk_back(a.mode, a.open, a.extend, f[0], ends[0], ends[1], w, &begins[0], &begins[1]);
  if (writer) {
    f[1] = begins[0];
    f[3] = begins[1];
    a.op_count[pair] = w.written;
  }
}

template <int... C>
__device__ void walk_shape(const WalkArgs& a, int config, const Slot& slot, int lane, WalkWindowCells* window,
                           std::integer_sequence<int, C...>) {
  ((config == C ? walk_lane<C>(a, slot, lane, window) : void()), ...);
}

constexpr int kWalkThreads = 128;

// A warp per lane of a slot.
__global__ void __launch_bounds__(kWalkThreads) walk_kernel(WalkArgs a) {
  __shared__ WalkWindowCells windows[kWalkThreads / 32];
  const std::int64_t x = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (x >= 2 * static_cast<std::int64_t>(a.slot_count)) return;
  const Slot slot = a.slots[x / 2];
  const int lane = static_cast<int>(x % 2);
  const std::int32_t pair = lane == 0 ? slot.a : slot.b;
  if (pair < 0) return;
  walk_shape(a, a.config[pair], slot, lane, &windows[threadIdx.x / 32],
             std::make_integer_sequence<int, kTracebackConfigCount>());
}

// Results of pairs with an empty side, computed on the host.
__global__ void scatter_fields_kernel(const std::int32_t* pairs, const std::int32_t* values, std::int32_t count,
                                      std::int32_t* fields) {
  const std::int32_t x = static_cast<std::int32_t>(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= count) return;
  for (int k = 0; k < 5; ++k) fields[static_cast<std::uint64_t>(pairs[x]) * 5 + k] = values[x * 5 + k];
}

}  // namespace device

Status launch_walk(const WalkArgs& a, cudaStream_t stream) {
  if (a.slot_count <= 0) return Status::ok();
  constexpr int kWarps = device::kWalkThreads / 32;
  device::walk_kernel<<<static_cast<unsigned>((2 * std::int64_t(a.slot_count) + kWarps - 1) / kWarps), device::kWalkThreads, 0,
                        stream>>>(a);
  DPX_CUDA_CHECK_LAUNCH("walk_kernel");
  return Status::ok();
}

Status launch_scatter_fields(const std::int32_t* pairs, const std::int32_t* values, std::int32_t count,
                             std::int32_t* fields, cudaStream_t stream) {
  if (count <= 0) return Status::ok();
  constexpr int kThreads = 128;
  device::scatter_fields_kernel<<<static_cast<unsigned>((count + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
      pairs, values, count, fields);
  DPX_CUDA_CHECK_LAUNCH("scatter_fields_kernel");
  return Status::ok();
}

}  // namespace align
}  // namespace dpx
