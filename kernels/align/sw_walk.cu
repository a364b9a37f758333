// The traceback walker (one thread per pair of a slot, walk_back over the direction words) and the scatter
// of results computed on the host.
#include "sw_kernels.cuh"

namespace dpx {
namespace align {
namespace device {

template <int C>
struct DeviceWalk {
  const WalkArgs* a;
  const std::uint32_t* dirs;  // the slot's direction words
  const char *q, *t;
  std::int32_t rows;  // the slot's longest query: the layout's row count
  int lane;
  char* end;  // one past the last op slot of this pair
  std::int32_t written;
  __device__ std::uint32_t code(std::int32_t i, std::int32_t j) const {
    return direction_code<kTracebackConfigs[C].group, kTracebackConfigs[C].columns, traceback_packed(C)>(dirs, rows, lane,
                                                                                                          i, j);
  }
  __device__ bool same(std::int32_t i, std::int32_t j) const {
    const std::uint8_t* code = a->batch.code;
    return letters_match(code[static_cast<unsigned char>(q[i - 1])], code[static_cast<unsigned char>(t[j - 1])], a->wildcard);
  }
  __device__ void emit(char op, std::int32_t count) {
    for (std::int32_t k = 0; k < count; ++k) *(end - 1 - written++) = op;
  }
};

// Lane `lane` of `slot` (the direction kernel gave a refused pair no rows, so neither does this).
template <int C>
__device__ void walk_lane(const WalkArgs& a, const Slot& slot, int lane) {
  const std::int32_t pair = lane == 0 ? slot.a : slot.b, partner = lane == 0 ? slot.b : slot.a;
  std::int32_t* f = a.fields + static_cast<std::uint64_t>(pair) * 5;
  const BatchView& b = a.batch;
  std::int32_t n, m, partner_n, partner_m;
  a.op_count[pair] = 0;
  if (!pair_lengths(b, pair, &n, &m)) return;  // refused by the direction kernel
  const std::int32_t rows = partner >= 0 && pair_lengths(b, partner, &partner_n, &partner_m) && partner_n > n ? partner_n : n;
  const std::uint64_t qi = b.one_to_many ? 0 : static_cast<std::uint64_t>(pair);
  DeviceWalk<C> w{&a, a.dirs + a.dir_offset[pair], b.q_data + b.q_offsets[qi], b.t_data + b.t_offsets[pair], rows, lane,
                  a.ops + a.ops_offset[pair] + n + m, 0};
  if (!(a.mode == AlignMode::kLocal && f[0] == 0)) walk_back(a.mode, f[2], f[4], w, &f[1], &f[3]);
  a.op_count[pair] = w.written;
}

template <int... C>
__device__ void walk_shape(const WalkArgs& a, int config, const Slot& slot, int lane, std::integer_sequence<int, C...>) {
  ((config == C ? walk_lane<C>(a, slot, lane) : void()), ...);
}

// One thread per lane of a slot.
__global__ void walk_kernel(WalkArgs a) {
  const std::int32_t x = static_cast<std::int32_t>(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= 2 * a.slot_count) return;
  const Slot slot = a.slots[x / 2];
  const int lane = x % 2;
  const std::int32_t pair = lane == 0 ? slot.a : slot.b;
  if (pair < 0) return;
  walk_shape(a, a.config[pair], slot, lane, std::make_integer_sequence<int, kTracebackConfigCount>());
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
  constexpr int kThreads = 128;
  device::walk_kernel<<<static_cast<unsigned>((2 * a.slot_count + kThreads - 1) / kThreads), kThreads, 0, stream>>>(a);
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
