// CUDA morphology: the kernel (thin), the compile-time dispatch and the launcher (grid, iterations,
// intermediate plane, stream). The device code is in morph_tile.cuh.
#include <cuda_runtime.h>

#include <climits>
#include <string>

#include "cuda_check.h"
#include "dpx_ops.cuh"
#include "morph_lanes.cuh"
#include "morph_launch.h"
#include "morph_tile.cuh"

namespace dpx {
namespace morph {
namespace {

template <class L, int C, int Size, MorphShape Shape>
__global__ void __launch_bounds__(Tile::kThreads) morph_tile_kernel(TileArgs a) {
  __shared__ alignas(16) std::uint8_t tile[Tile::shared_bytes(Size / 2)];
  const int x0 = blockIdx.x * Tile::kWidthBytes;
  const int y0 = blockIdx.y * Tile::kRows;
  load_tile<typename L::Sample, C, Size / 2>(a, tile, x0, y0, L::kNeutral);
  filter_chunk<L, C, Size, Shape>(a, tile, x0, y0);
}

// One pass over the plane (one iteration).
using PassFn = Status (*)(const TileArgs&, cudaStream_t);

template <class L, int C, int Size, MorphShape Shape>
Status run_pass(const TileArgs& a, cudaStream_t stream) {
  const dim3 grid((a.row_bytes + Tile::kWidthBytes - 1) / Tile::kWidthBytes,
                  (a.height + Tile::kRows - 1) / Tile::kRows);
  morph_tile_kernel<L, C, Size, Shape><<<grid, Tile::kThreads, 0, stream>>>(a);
  DPX_CUDA_CHECK_LAUNCH("morph_tile_kernel");
  return Status::ok();
}

template <class L, int C, int Size>
PassFn pick_shape(MorphShape shape) {
  switch (shape) {
    case MorphShape::kRect: return run_pass<L, C, Size, MorphShape::kRect>;
    case MorphShape::kCross: return run_pass<L, C, Size, MorphShape::kCross>;
    case MorphShape::kEllipse: return run_pass<L, C, Size, MorphShape::kEllipse>;
  }
  return nullptr;
}

template <class L, int C>
PassFn pick_size(const MorphParams& p) {
  return p.size == 3 ? pick_shape<L, C, 3>(p.shape) : pick_shape<L, C, 5>(p.shape);
}

template <class L>
PassFn pick_channels(int channels, const MorphParams& p) {
  switch (channels) {
    case 1: return pick_size<L, 1>(p);
    case 2: return pick_size<L, 2>(p);
    case 4: return pick_size<L, 4>(p);
  }
  return nullptr;
}

template <template <class, bool> class Lanes, class Ops>
PassFn pick_op(int channels, const MorphParams& p) {
  return p.op == MorphOp::kDilate ? pick_channels<Lanes<Ops, true>>(channels, p)
                                  : pick_channels<Lanes<Ops, false>>(channels, p);
}

PassFn pick_pass(SampleType type, int channels, const MorphParams& p, detail::MorphKernel kernel) {
  using ops::Dpx;
  using ops::PlainOps;
  using detail::MorphKernel;
  if (type == SampleType::kU16) {
    return kernel == MorphKernel::kDpx     ? pick_op<U16x2Lanes, Dpx>(channels, p)
           : kernel == MorphKernel::kPlain ? pick_op<U16x2Lanes, PlainOps>(channels, p)
                                           : nullptr;
  }
  return kernel == MorphKernel::kDpx     ? pick_op<U8WideLanes, Dpx>(channels, p)
         : kernel == MorphKernel::kPlain ? pick_op<U8WideLanes, PlainOps>(channels, p)
                                         : pick_op<U8x4Lanes, Dpx>(channels, p);
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
                         cudaStream_t stream, DeviceBuffer* scratch, MorphKernel kernel) {
  using morph::Tile;
  if (kernel == MorphKernel::kByteSimd && src.type != SampleType::kU8) {
    return Status(StatusCode::kUnsupported, "morphology: the byte-SIMD kernel takes u8 planes only");
  }
  // Byte offsets inside a row are ints, and the grid's y extent is limited.
  if (src.row_bytes() > static_cast<std::size_t>(INT_MAX / 2) || src.height / Tile::kRows >= 65535) {
    return Status(StatusCode::kUnsupported, "morphology: plane of " + std::to_string(src.width) + "x" +
                                                std::to_string(src.height) + " is too large for the CUDA kernel");
  }
  const morph::PassFn pass = morph::pick_pass(src.type, src.channels, params, kernel);
  if (pass == nullptr) return invalid_argument("morphology: no CUDA kernel for this combination");
  const auto* src_bytes = static_cast<const std::uint8_t*>(src.data);
  auto* dst_bytes = static_cast<std::uint8_t*>(dst.data);
  if (params.iterations == 1) {
    return pass(morph::tile_args(src_bytes, src.pitch, dst_bytes, dst.pitch, src, params.border), stream);
  }

  // Iterations ping-pong between dst and an intermediate plane, ordered so the last lands in dst.
  const std::size_t mid_pitch = (src.row_bytes() + 255) / 256 * 256;
  const std::size_t mid_size = mid_pitch * src.height;
  void* mid = nullptr;
  if (scratch != nullptr) {
    if (scratch->size() < mid_size) DPX_RETURN_IF_ERROR(scratch->allocate(mid_size));
    mid = scratch->data();
  } else {
    DPX_CUDA_TRY(cudaMallocAsync(&mid, mid_size, stream));
  }
  Status status;
  const std::uint8_t* in = src_bytes;
  std::size_t in_pitch = src.pitch;
  for (int it = 1; it <= params.iterations && status.is_ok(); ++it) {
    const bool to_dst = (params.iterations - it) % 2 == 0;
    std::uint8_t* out = to_dst ? dst_bytes : static_cast<std::uint8_t*>(mid);
    const std::size_t out_pitch = to_dst ? dst.pitch : mid_pitch;
    status = pass(morph::tile_args(in, in_pitch, out, out_pitch, src, params.border), stream);
    in = out;
    in_pitch = out_pitch;
  }
  if (scratch == nullptr) {
    const Status freed = detail::cuda_status(cudaFreeAsync(mid, stream), "cudaFreeAsync", __FILE__, __LINE__);
    if (status.is_ok()) status = freed;
  }
  return status;
}

}  // namespace detail
}  // namespace dpx
