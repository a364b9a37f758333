// CUDA morphology: the kernel (thin), the compile-time dispatch and the launcher (schedule, grid,
// iterations, intermediate plane, stream). The device code is in morph_band.cuh / morph_tile.cuh.
#include <cuda_runtime.h>

#include <climits>
#include <string>
#include <type_traits>

#include "cuda_check.h"
#include "dpx_ops.cuh"
#include "launch_sizing.h"
#include "scratch.h"
#include "morph_lanes.cuh"
#include "morph_launch.h"
#include "morph_band.cuh"

namespace dpx {
namespace morph {
namespace {

template <class L, int C, int Size, MorphShape Shape, int kRowsPerThread>
__global__ void __launch_bounds__(Tile::kThreads) morph_band_kernel(TileArgs a, BandArgs b) {
  extern __shared__ uint4 ring[];  // BandArgs::ring_rows rows of Tile::kStride bytes
  band_pass<L, C, Size, Shape, kRowsPerThread>(DeviceThreads{}, a, b, reinterpret_cast<std::uint8_t*>(ring),
                                               blockIdx.x, blockIdx.y);
}

// One pass over the plane (one iteration).
using PassFn = Status (*)(const TileArgs&, const BandPlan&, cudaStream_t);

template <class L, int C, int Size, MorphShape Shape, int kRowsPerThread>
Status run_pass(const TileArgs& a, const BandPlan& plan, cudaStream_t stream) {
  const dim3 grid(plan.blocks_x, plan.blocks_y);
  morph_band_kernel<L, C, Size, Shape, kRowsPerThread>
      <<<grid, Tile::kThreads, plan.shared_bytes, stream>>>(a, plan.args);
  DPX_CUDA_CHECK_LAUNCH("morph_band_kernel");
  return Status::ok();
}

// Every case runs at 4 rows per thread; 8 rows per thread (kTile64) only where dpx-bench times it.
template <class L, int C, int Size, MorphShape Shape>
PassFn pick_rows(int rows_per_thread) {
  if (rows_per_thread == 4) return run_pass<L, C, Size, Shape, 4>;
  if constexpr (C == 1 && Shape == MorphShape::kRect && L::kLanes == 2 &&
                std::is_same_v<typename L::Policy, ops::Dpx>) {
    if (rows_per_thread == 8) return run_pass<L, C, Size, Shape, 8>;
  }
  return nullptr;
}

template <class L, int C, int Size>
PassFn pick_shape(MorphShape shape, int rows_per_thread) {
  switch (shape) {
    case MorphShape::kRect: return pick_rows<L, C, Size, MorphShape::kRect>(rows_per_thread);
    case MorphShape::kCross: return pick_rows<L, C, Size, MorphShape::kCross>(rows_per_thread);
    case MorphShape::kEllipse: return pick_rows<L, C, Size, MorphShape::kEllipse>(rows_per_thread);
  }
  return nullptr;
}

template <class L, int C>
PassFn pick_size(const MorphParams& p, int rows_per_thread) {
  return p.size == 3 ? pick_shape<L, C, 3>(p.shape, rows_per_thread) : pick_shape<L, C, 5>(p.shape, rows_per_thread);
}

template <class L>
PassFn pick_channels(int channels, const MorphParams& p, int rows_per_thread) {
  switch (channels) {
    case 1: return pick_size<L, 1>(p, rows_per_thread);
    case 2: return pick_size<L, 2>(p, rows_per_thread);
    case 4: return pick_size<L, 4>(p, rows_per_thread);
  }
  return nullptr;
}

template <template <class, bool> class Lanes, class Ops>
PassFn pick_op(int channels, const MorphParams& p, int rows_per_thread) {
  return p.op == MorphOp::kDilate ? pick_channels<Lanes<Ops, true>>(channels, p, rows_per_thread)
                                  : pick_channels<Lanes<Ops, false>>(channels, p, rows_per_thread);
}

PassFn pick_pass(SampleType type, int channels, const MorphParams& p, detail::MorphKernel kernel,
                 int rows_per_thread) {
  using ops::Dpx;
  using ops::PlainOps;
  using detail::MorphKernel;
  const int r = rows_per_thread;
  if (type == SampleType::kU16) {
    return kernel == MorphKernel::kDpx     ? pick_op<U16x2Lanes, Dpx>(channels, p, r)
           : kernel == MorphKernel::kPlain ? pick_op<U16x2Lanes, PlainOps>(channels, p, r)
                                           : nullptr;
  }
  return kernel == MorphKernel::kDpx     ? pick_op<U8WideLanes, Dpx>(channels, p, r)
         : kernel == MorphKernel::kPlain ? pick_op<U8WideLanes, PlainOps>(channels, p, r)
                                         : pick_op<U8x4Lanes, Dpx>(channels, p, r);
}

bool vector_ok(const void* p, std::size_t pitch) {
  return (reinterpret_cast<std::uintptr_t>(p) % 16 == 0) && pitch % 16 == 0;
}

TileArgs tile_args(const std::uint8_t* src, std::size_t src_pitch, std::uint8_t* dst, std::size_t dst_pitch,
                   const PlaneView& shape, BorderMode border) {
  return TileArgs{src,          src_pitch,     dst,    dst_pitch, shape.width, shape.height,
                  static_cast<int>(shape.row_bytes()), border, vector_ok(src, src_pitch),
                  vector_ok(dst, dst_pitch)};
}

}  // namespace
}  // namespace morph

namespace detail {

const char* morph_kernel_name(MorphKernel kernel) {
  switch (kernel) {
    case MorphKernel::kDpx: return "dpx";
    case MorphKernel::kPlain: return "plain";
    case MorphKernel::kByteSimd: return "bytesimd";
  }
  return "unknown";
}

Status morph_cuda_launch(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params,
                         cudaStream_t stream, DeviceBuffer* scratch, MorphKernel kernel, MorphSchedule schedule) {
  if (kernel == MorphKernel::kByteSimd && src.type != SampleType::kU8) {
    return Status(StatusCode::kUnsupported, "morphology: the byte-SIMD kernel takes u8 planes only");
  }
  // Byte offsets inside a row are ints.
  const std::string too_large = "morphology: plane of " + std::to_string(src.width) + "x" +
                                std::to_string(src.height) + " is too large for the CUDA kernel";
  if (src.row_bytes() > static_cast<std::size_t>(INT_MAX / 2)) return Status(StatusCode::kUnsupported, too_large);
  int sms = 1;
  if (schedule == MorphSchedule::kStream) DPX_RETURN_IF_ERROR(runtime::sm_count(&sms));  // bands per SM
  const morph::BandPlan plan =
      morph::plan_band(schedule, src.height, static_cast<int>(src.row_bytes()), params.size / 2, sms);
  if (plan.blocks_y > 65535) return Status(StatusCode::kUnsupported, too_large);
  const morph::PassFn pass = morph::pick_pass(src.type, src.channels, params, kernel, plan.rows_per_thread);
  if (pass == nullptr) {
    return Status(StatusCode::kUnsupported, std::string("morphology: no CUDA kernel for this combination with the ") +
                                                morph_schedule_name(schedule) + " schedule");
  }
  const auto* src_bytes = static_cast<const std::uint8_t*>(src.data);
  auto* dst_bytes = static_cast<std::uint8_t*>(dst.data);
  if (params.iterations == 1) {
    return pass(morph::tile_args(src_bytes, src.pitch, dst_bytes, dst.pitch, src, params.border), plan, stream);
  }

  // Iterations ping-pong between dst and an intermediate plane, ordered so the last lands in dst.
  const std::size_t mid_pitch = (src.row_bytes() + 255) / 256 * 256;
  const std::size_t mid_size = mid_pitch * src.height;
  runtime::ScratchLease lease(scratch, stream);
  void* mid = nullptr;
  DPX_RETURN_IF_ERROR(lease.acquire(mid_size, &mid));
  Status status;
  const std::uint8_t* in = src_bytes;
  std::size_t in_pitch = src.pitch;
  for (int it = 1; it <= params.iterations && status.is_ok(); ++it) {
    const bool to_dst = (params.iterations - it) % 2 == 0;
    std::uint8_t* out = to_dst ? dst_bytes : static_cast<std::uint8_t*>(mid);
    const std::size_t out_pitch = to_dst ? dst.pitch : mid_pitch;
    status = pass(morph::tile_args(in, in_pitch, out, out_pitch, src, params.border), plan, stream);
    in = out;
    in_pitch = out_pitch;
  }
  const Status freed = lease.release();
  return status.is_ok() ? freed : status;
}

}  // namespace detail
}  // namespace dpx
