// The morphology variants, each through the library's launcher: the plain-op and byte-SIMD lanes
// at four rows a lane; the DPX lanes on the register kernel at the rows a lane the library does
// not build (RowsBesideDefault): four (kRegisters) and, for u8, two (kRegisters2: one channel,
// rect); and every lane format on the shared-memory band schedules (morph_band.cuh: stream, split
// and tile32 at four rows a lane, tile64 at eight: DPX, one channel, rect).
#include <cuda_runtime.h>

#include <type_traits>

#include "cuda_check.h"
#include "dpx_ops.cuh"
#include "launch_sizing.h"
#include "morph_band.cuh"
#include "morph_compound.h"  // is_compound
#include "morph_lanes.cuh"
#include "morph_pass.cuh"
#include "morph_rect.h"
#include "morph_shape.h"
#include "morph_variants.h"

namespace dpx {
namespace morph {

template <class L, int C, int Size, MorphShape Shape, int R>
__global__ void __launch_bounds__(Tile::kThreads) morph_band_kernel(PassArgs a, BandArgs b) {
  extern __shared__ uint4 ring[];  // BandArgs::ring_rows rows of Tile::kStride bytes
  band_pass<L, C, Size, Shape, R>(DeviceThreads{}, a, b, reinterpret_cast<std::uint8_t*>(ring), blockIdx.x,
                                  blockIdx.y);
}

// The launch of band schedule S: its plan for the plane, then the band kernel.
template <variants::MorphSchedule S>
struct BandLaunch {
  template <class L, int C, int Size, MorphShape Shape, int R>
  static Status run(const PassArgs& a, cudaStream_t stream) {
    static_assert(R == band_rows_per_thread(S), "the kernel's rows are the schedule's");
    int sms = 1;
    if (S == variants::MorphSchedule::kStream) DPX_RETURN_IF_ERROR(runtime::sm_count(&sms));  // bands per SM
    const BandPlan plan = plan_band(S, a.height, a.row_bytes, Size / 2, sms);
    const dim3 grid(plan.blocks_x, plan.blocks_y);
    morph_band_kernel<L, C, Size, Shape, R><<<grid, Tile::kThreads, plan.shared_bytes, stream>>>(a, plan.args);
    DPX_CUDA_CHECK_LAUNCH("morph_band_kernel");
    return Status::ok();
  }
};

}  // namespace morph

namespace variants {
namespace {

using morph::FixedRows;
using morph::PassFn;
using morph::RowsBesideDefault;
using morph::RowsLaunch;
using morph::U16x2Lanes;
using morph::U8SplitLanes;
using morph::U8x4Lanes;

template <MorphSchedule S>
using LaunchOf = std::conditional_t<morph::is_band_schedule(S), morph::BandLaunch<S>, RowsLaunch>;

constexpr int rows_per_thread(MorphSchedule s) {
  return morph::is_band_schedule(s) ? morph::band_rows_per_thread(s) : s == MorphSchedule::kRegisters2 ? 2 : 4;
}

template <class L, class Rows, class Launch>
PassFn one_channel(const MorphParams& p) {
  return morph::dispatch<morph::SinglePass<L, Rows, Launch>::template At>(1, p);
}

template <template <class, bool> class Lanes, class Rows, class Launch>
PassFn dpx_rect_pass(const MorphParams& p) {
  if (morph::is_compound(p.op)) return nullptr;  // two passes
  return p.op == MorphOp::kDilate ? one_channel<Lanes<ops::Dpx, true>, Rows, Launch>(p)
                                  : one_channel<Lanes<ops::Dpx, false>, Rows, Launch>(p);
}

// The DPX lanes on schedule S: the library's own passes where S is the library's schedule for the
// plane, else the variants' instances.
template <MorphSchedule S>
PassFn dpx_schedule_pass(SampleType type, int channels, const MorphParams& p) {
  constexpr int kRows = rows_per_thread(S);
  const bool u16 = type == SampleType::kU16;
  if constexpr (!morph::is_band_schedule(S)) {
    if (detail::morph_default_rows(type, p.size) == kRows) return morph::dpx_pass(type, channels, p);
  }
  if constexpr (kRows == 4) {
    if constexpr (S == MorphSchedule::kRegisters) {
      if (morph::is_compound(p.op)) return morph::dpx_compound_pass(type, channels, p);  // one pass
      return u16 ? morph::op_pass<U16x2Lanes, ops::Dpx, RowsBesideDefault<SampleType::kU16, 4>>(channels, p)
                 : morph::op_pass<U8SplitLanes, ops::Dpx, RowsBesideDefault<SampleType::kU8, 4>>(channels, p);
    } else {
      return u16 ? morph::op_pass<U16x2Lanes, ops::Dpx, FixedRows<4>, LaunchOf<S>>(channels, p)
                 : morph::op_pass<U8SplitLanes, ops::Dpx, FixedRows<4>, LaunchOf<S>>(channels, p);
    }
  } else {
    if (channels != 1 || p.shape != MorphShape::kRect) return nullptr;
    if constexpr (kRows == 8) {
      return u16 ? dpx_rect_pass<U16x2Lanes, FixedRows<8>, LaunchOf<S>>(p)
                 : dpx_rect_pass<U8SplitLanes, FixedRows<8>, LaunchOf<S>>(p);
    } else {
      return u16 ? nullptr : dpx_rect_pass<U8SplitLanes, RowsBesideDefault<SampleType::kU8, 2>, RowsLaunch>(p);
    }
  }
}

// The plain-op and byte-SIMD lanes: four rows a lane only.
template <MorphSchedule S>
PassFn plain_pass(SampleType type, int channels, const MorphParams& p) {
  if constexpr (rows_per_thread(S) != 4) {
    return nullptr;
  } else {
    return type == SampleType::kU16 ? morph::op_pass<U16x2Lanes, ops::PlainOps, FixedRows<4>, LaunchOf<S>>(channels, p)
                                    : morph::op_pass<U8SplitLanes, ops::PlainOps, FixedRows<4>, LaunchOf<S>>(channels, p);
  }
}

template <MorphSchedule S>
PassFn byte_simd_pass(SampleType, int channels, const MorphParams& p) {
  if constexpr (rows_per_thread(S) != 4) {
    return nullptr;
  } else {
    return morph::op_pass<U8x4Lanes, ops::Dpx, FixedRows<4>, LaunchOf<S>>(channels, p);
  }
}

// Output rows one block of schedule S covers at the least (a stream band is at least a group).
template <MorphSchedule S>
int block_rows(SampleType, int) {
  if constexpr (morph::is_band_schedule(S)) {
    return S == MorphSchedule::kSplit || S == MorphSchedule::kTile64 ? 64 : 32;
  } else {
    return RowsLaunch::block_rows(rows_per_thread(S));
  }
}

template <MorphSchedule S>
morph::FusedPasses passes_of(MorphKernel kernel) {
  PassFn (*const pass_for)(SampleType, int, const MorphParams&) = kernel == MorphKernel::kDpx ? &dpx_schedule_pass<S>
                                                                  : kernel == MorphKernel::kPlain ? &plain_pass<S>
                                                                                                  : &byte_simd_pass<S>;
  return morph::FusedPasses{pass_for, block_rows<S>, morph_schedule_name(S)};
}

morph::FusedPasses passes_of(MorphKernel kernel, MorphSchedule schedule) {
  switch (schedule) {
    case MorphSchedule::kStream: return passes_of<MorphSchedule::kStream>(kernel);
    case MorphSchedule::kSplit: return passes_of<MorphSchedule::kSplit>(kernel);
    case MorphSchedule::kTile32: return passes_of<MorphSchedule::kTile32>(kernel);
    case MorphSchedule::kTile64: return passes_of<MorphSchedule::kTile64>(kernel);
    case MorphSchedule::kRegisters: return passes_of<MorphSchedule::kRegisters>(kernel);
    case MorphSchedule::kRegisters2: break;
  }
  return passes_of<MorphSchedule::kRegisters2>(kernel);
}

}  // namespace

const char* morph_kernel_name(MorphKernel kernel) {
  switch (kernel) {
    case MorphKernel::kDpx: return "dpx";
    case MorphKernel::kPlain: return "plain";
    case MorphKernel::kByteSimd: return "bytesimd";
  }
  return "unknown";
}

Status morph_cuda(MorphKernel kernel, MorphSchedule schedule, const PlaneView& src, const MutablePlaneView& dst,
                  const MorphParams& params, cudaStream_t stream, DeviceBuffer* scratch) {
  if (kernel == MorphKernel::kByteSimd && src.type != SampleType::kU8) {
    return Status(StatusCode::kUnsupported, "morphology: the byte-SIMD kernel takes u8 planes only");
  }
  return morph::morph_cuda_run(src, dst, params, stream, scratch, passes_of(kernel, schedule));
}

Status morph_cuda_shape_tile(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params,
                             cudaStream_t stream, DeviceBuffer* scratch) {
  static constexpr morph::FusedPasses kShapeTile{morph::dpx_pass, morph::dpx_block_rows, "register",
                                                 morph::shape_pass};
  return morph::morph_cuda_run(src, dst, params, stream, scratch, kShapeTile);
}

Status morph_cuda_block_maxima(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params,
                               cudaStream_t stream, DeviceBuffer* scratch) {
  morph::FusedPasses passes = passes_of(MorphKernel::kDpx, morph_default_schedule(src.type, morph_width(params)));
  passes.separable = {morph::block_maxima_row_pass, morph::block_maxima_column_pass};
  return morph::morph_cuda_run(src, dst, params, stream, scratch, passes);
}

}  // namespace variants
}  // namespace dpx
