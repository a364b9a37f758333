// CUDA morphology: the launcher (iterations, operations, intermediate planes, stream) and the DPX
// passes dpx::morph_cuda runs. The fused kernel and its dispatch are in morph_pass.cuh, its device
// code in morph_rows.cuh / morph_tile.cuh (square 3x3 and 5x5), the one-pass compound operations
// in morph_compound_cuda.cu; morph_separable.h covers the rectangles, morph_bars_box.h the crosses
// and ellipses whose row windows fit a box pass, the one-pass schedule (morph_shape.h) the larger
// ellipses, the separable passes the rest (the choice is in morph_launch.h).
#include <cuda_runtime.h>

#include <climits>
#include <string>
#include <vector>

#include "cuda_check.h"
#include "dpx_ops.cuh"
#include "morph_bars_box.h"
#include "morph_compound.h"
#include "morph_lanes.cuh"
#include "morph_pass.cuh"
#include "morph_separable.h"
#include "morph_shape.h"
#include "scratch.h"

namespace dpx {
namespace morph {
namespace {

PassArgs pass_args(const std::uint8_t* src, std::size_t src_pitch, std::uint8_t* dst, std::size_t dst_pitch,
                   const PlaneView& shape, BorderMode border) {
  return PassArgs{src,          src_pitch,     dst,    dst_pitch, shape.width, shape.height,
                  static_cast<int>(shape.row_bytes()), border, vector_ok(src, src_pitch),
                  vector_ok(dst, dst_pitch)};
}

// The device side of run_operation() (morph_compound.h): all iterations of one dilation or
// erosion, ping-ponging between the output and an intermediate plane so that the last lands in
// the output, through the fused tile kernel (square 3x3 / 5x5) or the separable passes; the
// intermediate planes carved from one allocation.
class CudaEngine {
 public:
  CudaEngine(const PlaneView& frame, const MorphParams& params, cudaStream_t stream, bool fused,
             ElementPassFn element_pass)
      : frame_(frame), params_(params), stream_(stream), fused_(fused), element_pass_(element_pass),
        bars_(fused ? std::vector<Bar>{} : mask_bars(params.shape, morph_width(params), morph_height(params))),
        pitch_((frame.row_bytes() + 255) / 256 * 256) {}

  void set_fused(bool dilate, PassFn pass) { (dilate ? dilate_ : erode_) = pass; }
  void set_separable(const SeparableLaunchers& launchers) { separable_ = launchers; }

  // One plane each: the iterations' ping-pong, the first stage of a compound operation, the
  // separable passes' rows.
  Status allocate(runtime::ScratchLease* lease) {
    ping_ = params_.iterations > 1 ? planes_++ : -1;
    stage_ = is_compound(params_.op) ? planes_++ : -1;
    rows_ = fused_ || element_pass_ != nullptr ? -1 : planes_++;
    return lease->acquire_array(pitch_ * frame_.height * planes_, &base_);
  }

  Status run(const PlaneView& in, const MutablePlaneView& out, bool dilate) {
    PlaneView from = in;
    for (int it = 1; it <= params_.iterations; ++it) {
      const MutablePlaneView to = (params_.iterations - it) % 2 == 0 ? out : plane(ping_);
      DPX_RETURN_IF_ERROR(pass(from, to, dilate));
      from = to.as_const();
    }
    return Status::ok();
  }

  Status subtract(const PlaneView& a, const PlaneView& b, const MutablePlaneView& out) {
    return subtract_cuda(a, b, out, stream_);
  }

  MutablePlaneView stage() { return plane(stage_); }

 private:
  MutablePlaneView plane(int index) const {
    return MutablePlaneView{base_ + pitch_ * frame_.height * index, frame_.width, frame_.height, pitch_,
                            frame_.channels, frame_.type};
  }

  Status pass(const PlaneView& in, const MutablePlaneView& out, bool dilate) {
    if (element_pass_ != nullptr) return element_pass_(in, out, bars_, dilate, params_.border, stream_);
    if (!fused_) return separable_pass(in, out, plane(rows_), bars_, dilate, params_.border, stream_, separable_);
    const PassArgs a = pass_args(static_cast<const std::uint8_t*>(in.data), in.pitch,
                                 static_cast<std::uint8_t*>(out.data), out.pitch, frame_, params_.border);
    return (dilate ? dilate_ : erode_)(a, stream_);
  }

  const PlaneView frame_;
  const MorphParams& params_;
  const cudaStream_t stream_;
  const bool fused_;  // the fused kernels, else element_pass_ where set, else the separable passes
  const ElementPassFn element_pass_;
  const std::vector<Bar> bars_;
  const std::size_t pitch_;
  PassFn dilate_ = nullptr, erode_ = nullptr;
  SeparableLaunchers separable_;
  int planes_ = 0, ping_ = -1, stage_ = -1, rows_ = -1;
  std::uint8_t* base_ = nullptr;
};

ElementPassFn library_element_pass(const PlaneView& src, const PlaneView& dst, const MorphParams& params) {
  switch (detail::morph_element_pass(src, dst, params)) {
    case detail::ElementPass::kBarsBox:
      return bars_box_pass;
    case detail::ElementPass::kOnePass:
      return shape_pass;
    case detail::ElementPass::kSeparable:
      break;
  }
  return nullptr;
}

}  // namespace

PassFn dpx_pass(SampleType type, int channels, const MorphParams& p) {
  if (is_compound(p.op)) return dpx_compound_pass(type, channels, p);
  return type == SampleType::kU16 ? op_pass<U16x2Lanes, ops::Dpx, DefaultRows<SampleType::kU16>>(channels, p)
                                  : op_pass<U8SplitLanes, ops::Dpx, DefaultRows<SampleType::kU8>>(channels, p);
}

int dpx_block_rows(SampleType type, int size) {
  return RowsLaunch::block_rows(detail::morph_default_rows(type, size));
}

Status morph_cuda_run(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params,
                      cudaStream_t stream, DeviceBuffer* scratch, const FusedPasses& passes) {
  // Byte offsets inside a row are ints.
  const std::string too_large = "morphology: plane of " + std::to_string(src.width) + "x" +
                                std::to_string(src.height) + " is too large for the CUDA kernel";
  if (src.row_bytes() > static_cast<std::size_t>(INT_MAX / 2)) return Status(StatusCode::kUnsupported, too_large);
  const int side = morph_width(params);
  const int block_rows = passes.block_rows(src.type, side);
  if ((src.height + block_rows - 1) / block_rows > 65535) return Status(StatusCode::kUnsupported, too_large);
  const ElementPassFn element_pass = params.shape == MorphShape::kRect ? nullptr
                                     : passes.element_pass != nullptr
                                         ? passes.element_pass
                                         : library_element_pass(src, dst.as_const(), params);
  const bool fused = element_pass == nullptr && side == morph_height(params) && (side == 3 || side == 5);
  MorphParams p = params;
  p.size = side;
  if (fused && params.iterations == 1 && is_compound(params.op)) {
    if (const PassFn one_pass = passes.pass_for(src.type, src.channels, p)) {
      return one_pass(pass_args(static_cast<const std::uint8_t*>(src.data), src.pitch,
                                static_cast<std::uint8_t*>(dst.data), dst.pitch, src, params.border),
                      stream);
    }
  }
  CudaEngine engine(src, params, stream, fused, element_pass);
  engine.set_separable(passes.separable);
  if (fused) {
    for (const MorphOp op : {MorphOp::kDilate, MorphOp::kErode}) {
      p.op = op;
      const PassFn pass = passes.pass_for(src.type, src.channels, p);
      if (pass == nullptr) {
        return Status(StatusCode::kUnsupported, std::string("morphology: no CUDA kernel for this combination with the ") +
                                                    passes.schedule + " schedule");
      }
      engine.set_fused(op == MorphOp::kDilate, pass);
    }
  }
  runtime::ScratchLease lease(scratch, stream);
  DPX_RETURN_IF_ERROR(engine.allocate(&lease));
  const Status status = run_operation(engine, src, dst, params.op);
  const Status freed = lease.release();
  return status.is_ok() ? freed : status;
}

}  // namespace morph

namespace detail {

ElementPass morph_element_pass(const PlaneView& src, const PlaneView& dst, const MorphParams& params) {
  if (params.shape == MorphShape::kRect) return ElementPass::kSeparable;
  if (morph_bars_box_element(params)) {
    const std::vector<morph::Bar> bars =
        morph::mask_bars(params.shape, morph_width(params), morph_height(params));
    if (morph::bars_box_fits(src, bars) && morph::bars_box_fits(dst, bars)) return ElementPass::kBarsBox;
  }
  return morph_one_pass_shape(src.type, params) ? ElementPass::kOnePass : ElementPass::kSeparable;
}

Status morph_cuda_launch(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params,
                         cudaStream_t stream, DeviceBuffer* scratch) {
  static constexpr morph::FusedPasses kLibrary{morph::dpx_pass, morph::dpx_block_rows, "register"};
  return morph::morph_cuda_run(src, dst, params, stream, scratch, kLibrary);
}

}  // namespace detail
}  // namespace dpx
