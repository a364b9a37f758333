// The morphology variants: the plain-op and byte-SIMD lanes at four rows per thread, and the DPX
// lanes at the rows a lane the library does not build (RowsBesideDefault): four (the band schedules
// and kRegisters), eight (kTile64: one channel, rect) and, for u8, two (kRegisters2: one channel,
// rect), each through the library's launcher.
#include "dpx_ops.cuh"
#include "morph_compound.h"  // is_compound
#include "morph_lanes.cuh"
#include "morph_pass.cuh"
#include "morph_variants.h"

namespace dpx {
namespace variants {
namespace {

using morph::FixedRows;
using morph::PassFn;
using morph::RowsBesideDefault;
using morph::U16x2Lanes;
using morph::U8SplitLanes;
using morph::U8x4Lanes;

template <class L, class Rows>
PassFn one_channel(const MorphParams& p) {
  return morph::dispatch<morph::SinglePass<L, Rows>::template At>(1, p);
}

template <template <class, bool> class Lanes, class Rows>
PassFn pick_dpx_rect(const MorphParams& p) {
  if (morph::is_compound(p.op)) return nullptr;  // two passes
  return p.op == MorphOp::kDilate ? one_channel<Lanes<ops::Dpx, true>, Rows>(p)
                                  : one_channel<Lanes<ops::Dpx, false>, Rows>(p);
}

PassFn pick_dpx(SampleType type, int channels, const MorphParams& p, int rows_per_thread) {
  if (const PassFn library = morph::pick_dpx_pass(type, channels, p, rows_per_thread)) return library;
  const bool u16 = type == SampleType::kU16;
  if (rows_per_thread == 4) {
    if (morph::is_compound(p.op)) return morph::pick_dpx_compound(type, channels, p);  // one pass, any plan
    return u16 ? morph::pick_op<U16x2Lanes, ops::Dpx, RowsBesideDefault<SampleType::kU16, 4>>(channels, p)
               : morph::pick_op<U8SplitLanes, ops::Dpx, RowsBesideDefault<SampleType::kU8, 4>>(channels, p);
  }
  if (channels != 1 || p.shape != MorphShape::kRect) return nullptr;
  if (rows_per_thread == 8) {
    return u16 ? pick_dpx_rect<U16x2Lanes, FixedRows<8>>(p) : pick_dpx_rect<U8SplitLanes, FixedRows<8>>(p);
  }
  return u16 || rows_per_thread != 2 ? nullptr : pick_dpx_rect<U8SplitLanes, RowsBesideDefault<SampleType::kU8, 2>>(p);
}

PassFn pick_plain(SampleType type, int channels, const MorphParams& p, int rows_per_thread) {
  if (rows_per_thread != 4) return nullptr;
  return type == SampleType::kU16 ? morph::pick_op<U16x2Lanes, ops::PlainOps, FixedRows<4>>(channels, p)
                                  : morph::pick_op<U8SplitLanes, ops::PlainOps, FixedRows<4>>(channels, p);
}

PassFn pick_byte_simd(SampleType, int channels, const MorphParams& p, int rows_per_thread) {
  if (rows_per_thread != 4) return nullptr;
  return morph::pick_op<U8x4Lanes, ops::Dpx, FixedRows<4>>(channels, p);
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

Status morph_cuda(MorphKernel kernel, detail::MorphSchedule schedule, const PlaneView& src, const MutablePlaneView& dst,
                  const MorphParams& params, cudaStream_t stream, DeviceBuffer* scratch) {
  if (kernel == MorphKernel::kByteSimd && src.type != SampleType::kU8) {
    return Status(StatusCode::kUnsupported, "morphology: the byte-SIMD kernel takes u8 planes only");
  }
  const morph::PickPass pick = kernel == MorphKernel::kDpx     ? pick_dpx
                               : kernel == MorphKernel::kPlain ? pick_plain
                                                               : pick_byte_simd;
  return morph::morph_cuda_run(src, dst, params, stream, scratch, schedule, pick);
}

}  // namespace variants
}  // namespace dpx
