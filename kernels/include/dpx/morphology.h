// Grayscale / per-channel morphology of one image plane: dilation (local maximum), erosion (local
// minimum) and the compound operations of OpenCV's morphologyEx, over rectangles of any odd width
// and height up to 255 and crosses and ellipses up to 63.
//
//   dpx::MorphParams p;  p.op = dpx::MorphOp::kOpen;  p.size = 5;  p.shape = dpx::MorphShape::kEllipse;
//   p.width = 1;  p.height = 15;                             // or a vertical line instead of the square
//   dpx::Status s = dpx::morph_cuda(src, dst, p, stream);   // device pointers, asynchronous
//   dpx::Status s = dpx::morph_cpu(src, dst, p);            // host pointers, multi-threaded
//
// Both implementations give bit-identical results. Channels (1, 2 or 4 interleaved) are
// processed independently; samples are u8 or u16.
#pragma once

#include <cstdint>
#include <vector>

#include "dpx/device.h"
#include "dpx/plane.h"
#include "dpx/status.h"

namespace dpx {

// The operations of OpenCV's dilate, erode and morphologyEx; `iterations` means what it means
// there: open with 2 iterations is erode, erode, dilate, dilate. Differences saturate at 0.
enum class MorphOp {
  kDilate,
  kErode,
  kOpen,      // erode, then dilate
  kClose,     // dilate, then erode
  kGradient,  // dilate - erode
  kTopHat,    // src - open
  kBlackHat,  // close - src
};

// The masks of OpenCV's getStructuringElement for the same width and height, anchor at the centre.
enum class MorphShape { kRect, kCross, kEllipse };

enum class BorderMode {
  kReplicate,   // outside pixels repeat the edge (OpenCV BORDER_REPLICATE); the default
  kReflect101,  // mirror without repeating the edge (OpenCV BORDER_REFLECT_101): gfedcb|abcdefgh|gfedcba
  kNeutral,     // outside pixels never win: 0 for dilate, the type's maximum for erode
};

struct MorphParams {
  MorphOp op = MorphOp::kDilate;
  MorphShape shape = MorphShape::kRect;
  int size = 3;                 // side of a square element; odd
  int width = 0;                // element width, odd; 0 takes `size`
  int height = 0;               // element height, odd; 0 takes `size`
  int iterations = 1;           // >= 1: see MorphOp
  BorderMode border = BorderMode::kReplicate;
};

constexpr int kMorphMaxIterations = 1024;
constexpr int kMorphMaxRectSize = 255;   // widest and tallest rectangle
constexpr int kMorphMaxShapeSize = 63;   // widest and tallest cross or ellipse

// The element's width and height after `size` stands in for a 0 width or height.
inline int morph_width(const MorphParams& p) { return p.width != 0 ? p.width : p.size; }
inline int morph_height(const MorphParams& p) { return p.height != 0 ? p.height : p.size; }

// The structuring element as a width x height row-major 0/1 mask (mask[dy * width + dx]);
// fails for even sizes and sizes over the shape's limit.
Status morph_mask(MorphShape shape, int width, int height, std::vector<std::uint8_t>* mask);

// Checks parameters and planes (both backends call it first): sizes, pitches, null pointers,
// src/dst shapes equal, element width and height odd and within the shape's limit, iterations
// in [1, kMorphMaxIterations], u16 planes 2-byte aligned (pointer and pitch), src and dst not
// overlapping.
Status morph_validate(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params);

// CPU implementation on host memory. `threads` = 0 uses every hardware thread.
// src and dst must not overlap.
Status morph_cpu(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params,
                 int threads = 0);

// CUDA implementation on device memory, asynchronous on `stream` (nothing synchronises).
// src and dst must not overlap. Iterations, compound operations and elements other than square
// 3x3 and 5x5 need intermediate planes: pass `scratch` to reuse them across calls (growing it is
// a cudaFree + cudaMalloc, which do synchronise; it must not be in use by other streams); with
// nullptr the call takes stream-ordered memory from libdpx's pool (see DeviceBuffer in device.h)
// and frees it on the same stream.
Status morph_cuda(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params,
                  cudaStream_t stream, DeviceBuffer* scratch = nullptr);

}  // namespace dpx
