// Every plane of a frame in one launch: the blocks of all planes form one grid, each block finds
// its plane and runs the device code of dpx::morph_cuda's register kernel (morph_rows.cuh) at the
// same rows a lane (detail::morph_default_rows()), with the plane's channel count chosen at run
// time. Iterations ping-pong through per-plane intermediates, one launch per iteration. Other
// elements and the compound operations run plane by plane through morph_cuda's launcher.
#include <cuda_runtime.h>

#include <climits>
#include <string>

#include "cuda_check.h"
#include "dpx_ops.cuh"
#include "morph_compound.h"  // is_compound
#include "morph_lanes.cuh"
#include "morph_launch.h"
#include "morph_pass.cuh"  // RowsLaunch
#include "morph_planes_launch.h"
#include "morph_rows.cuh"
#include "scratch.h"

namespace dpx {
namespace morph {
namespace {

struct PlaneTask {
  PassArgs a;
  int blocks_x;
  int block_begin;  // first block of the plane in the flat grid
  int channels;
};

struct PlanesArgs {
  PlaneTask p[kMorphMaxPlanes];
  int count;
};

template <class L, int Size, MorphShape Shape, int R>
__global__ void __launch_bounds__(RowsLayout::kThreads) morph_planes_kernel(PlanesArgs args) {
  int i = 0;
  while (i + 1 < args.count && static_cast<int>(blockIdx.x) >= args.p[i + 1].block_begin) ++i;
  const PlaneTask& t = args.p[i];
  const int local = static_cast<int>(blockIdx.x) - t.block_begin;
  const int bx = local % t.blocks_x, by = local / t.blocks_x;
  switch (t.channels) {
    case 1: rows_pass<L, 1, Size, Shape, R>(t.a, bx, by); break;
    case 2: rows_pass<L, 2, Size, Shape, R>(t.a, bx, by); break;
    case 4: rows_pass<L, 4, Size, Shape, R>(t.a, bx, by); break;
  }
}

using LaunchFn = Status (*)(const PlanesArgs&, int blocks, cudaStream_t stream);

template <class L, int Size, MorphShape Shape, int R>
Status launch(const PlanesArgs& args, int blocks, cudaStream_t stream) {
  morph_planes_kernel<L, Size, Shape, R><<<blocks, RowsLayout::kThreads, 0, stream>>>(args);
  DPX_CUDA_CHECK_LAUNCH("morph_planes_kernel");
  return Status::ok();
}

template <class L, SampleType T, int Size>
LaunchFn launch_of_shape(MorphShape shape) {
  constexpr int R = detail::morph_default_rows(T, Size);
  switch (shape) {
    case MorphShape::kRect: return launch<L, Size, MorphShape::kRect, R>;
    case MorphShape::kCross: return launch<L, Size, MorphShape::kCross, R>;
    case MorphShape::kEllipse: return launch<L, Size, MorphShape::kEllipse, R>;
  }
  return nullptr;
}

template <class L, SampleType T>
LaunchFn launch_of_size(const MorphParams& p) {
  // Square dilate/erode of side 3 or 5 only; the rest runs per plane through morph_cuda.
  if (is_compound(p.op) || morph_width(p) != p.size || morph_height(p) != p.size) return nullptr;
  if (p.size == 3) return launch_of_shape<L, T, 3>(p.shape);
  if (p.size == 5) return launch_of_shape<L, T, 5>(p.shape);
  return nullptr;
}

// The lanes morph_cuda() runs for the type.
template <bool kMax>
LaunchFn launch_of_lanes(SampleType type, const MorphParams& p) {
  if (type == SampleType::kU16) return launch_of_size<U16x2Lanes<ops::Dpx, kMax>, SampleType::kU16>(p);
  return launch_of_size<U8SplitLanes<ops::Dpx, kMax>, SampleType::kU8>(p);
}

LaunchFn planes_launch(SampleType type, const MorphParams& p) {
  return p.op == MorphOp::kDilate ? launch_of_lanes<true>(type, p) : launch_of_lanes<false>(type, p);
}

// One plane's source and destination of one pass.
struct PassPlane {
  const std::uint8_t* in;
  std::size_t in_pitch;
  std::uint8_t* out;
  std::size_t out_pitch;
};

}  // namespace
}  // namespace morph

namespace detail {

Status morph_cuda_planes_launch(const MorphPlane* planes, int count, const MorphParams& params, cudaStream_t stream,
                                DeviceBuffer* scratch) {
  const morph::LaunchFn launch = morph::planes_launch(planes[0].src.type, params);
  if (launch == nullptr) {  // plane by plane through morph_cuda's launcher: the passes it chooses
    for (int i = 0; i < count; ++i) {
      DPX_RETURN_IF_ERROR(morph_cuda_launch(planes[i].src, planes[i].dst, params, stream, scratch));
    }
    return Status::ok();
  }
  const int rows_per_thread = morph_default_rows(planes[0].src.type, params.size);
  morph::PlanesArgs args{};
  args.count = count;
  long long blocks = 0;
  std::size_t mid_offset[kMorphMaxPlanes] = {};
  std::size_t mid_pitch[kMorphMaxPlanes] = {};
  std::size_t mid_total = 0;
  for (int i = 0; i < count; ++i) {
    const PlaneView& src = planes[i].src;
    const std::string too_large = "morphology: plane of " + std::to_string(src.width) + "x" +
                                  std::to_string(src.height) + " is too large for the CUDA kernel";
    if (src.row_bytes() > static_cast<std::size_t>(INT_MAX / 2)) return Status(StatusCode::kUnsupported, too_large);
    const dim3 grid = morph::RowsLaunch::grid(rows_per_thread, src.height, static_cast<int>(src.row_bytes()));
    morph::PlaneTask& t = args.p[i];
    t.blocks_x = static_cast<int>(grid.x);
    t.block_begin = static_cast<int>(blocks);
    t.channels = src.channels;
    blocks += static_cast<long long>(grid.x) * grid.y;
    if (blocks > INT_MAX) return Status(StatusCode::kUnsupported, too_large);
    mid_pitch[i] = (src.row_bytes() + 255) / 256 * 256;
    mid_offset[i] = mid_total;
    mid_total += mid_pitch[i] * src.height;
  }

  runtime::ScratchLease lease(scratch, stream);
  std::uint8_t* mid = nullptr;
  if (params.iterations > 1) DPX_RETURN_IF_ERROR(lease.acquire_array(mid_total, &mid));
  // Iterations ping-pong between dst and the intermediate, ordered so the last lands in dst.
  morph::PassPlane pass[kMorphMaxPlanes];
  for (int i = 0; i < count; ++i) {
    pass[i] = {static_cast<const std::uint8_t*>(planes[i].src.data), planes[i].src.pitch, nullptr, 0};
  }
  Status status;
  for (int it = 1; it <= params.iterations && status.is_ok(); ++it) {
    const bool to_dst = (params.iterations - it) % 2 == 0;
    for (int i = 0; i < count; ++i) {
      pass[i].out = to_dst ? static_cast<std::uint8_t*>(planes[i].dst.data) : mid + mid_offset[i];
      pass[i].out_pitch = to_dst ? planes[i].dst.pitch : mid_pitch[i];
      const PlaneView& s = planes[i].src;
      args.p[i].a = morph::PassArgs{pass[i].in,         pass[i].in_pitch,
                                    pass[i].out,        pass[i].out_pitch,
                                    s.width,            s.height,
                                    static_cast<int>(s.row_bytes()), params.border,
                                    morph::vector_ok(pass[i].in, pass[i].in_pitch),
                                    morph::vector_ok(pass[i].out, pass[i].out_pitch)};
    }
    status = launch(args, static_cast<int>(blocks), stream);
    for (int i = 0; i < count; ++i) {
      pass[i].in = pass[i].out;
      pass[i].in_pitch = pass[i].out_pitch;
    }
  }
  const Status freed = lease.release();
  return status.is_ok() ? freed : status;
}

}  // namespace detail
}  // namespace dpx
