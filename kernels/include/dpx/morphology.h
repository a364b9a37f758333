// Grayscale / per-channel morphology: dilation (local maximum) and erosion (local minimum) of
// one image plane over a 3x3 or 5x5 structuring element.
//
//   dpx::MorphParams p;  p.op = dpx::MorphOp::kDilate;  p.size = 5;  p.shape = dpx::MorphShape::kEllipse;
//   dpx::Status s = dpx::morph_cuda(src, dst, p, stream);   // device pointers, asynchronous
//   dpx::Status s = dpx::morph_cpu(src, dst, p);            // host pointers, multi-threaded
//
// Both implementations give bit-identical results. Channels (1, 2 or 4 interleaved) are
// processed independently; samples are u8 or u16.
#pragma once

#include <cstdint>

#include "dpx/device.h"
#include "dpx/plane.h"
#include "dpx/status.h"

namespace dpx {

enum class MorphOp { kDilate, kErode };

// The masks of OpenCV's getStructuringElement for the same size.
enum class MorphShape { kRect, kCross, kEllipse };

enum class BorderMode {
  kReplicate,   // outside pixels repeat the edge (OpenCV BORDER_REPLICATE); the default
  kReflect101,  // mirror without repeating the edge (OpenCV BORDER_REFLECT_101): gfedcb|abcdefgh|gfedcba
  kNeutral,     // outside pixels never win: 0 for dilate, the type's maximum for erode
};

struct MorphParams {
  MorphOp op = MorphOp::kDilate;
  MorphShape shape = MorphShape::kRect;
  int size = 3;                 // 3 or 5
  int iterations = 1;           // >= 1: the operation applied this many times
  BorderMode border = BorderMode::kReplicate;
};

constexpr int kMorphMaxIterations = 1024;

// The structuring element as a size x size row-major 0/1 mask (mask[dy * size + dx]);
// fails for sizes other than 3 and 5.
Status morph_mask(MorphShape shape, int size, std::uint8_t mask[25]);

// Checks parameters and planes (both backends call it first): sizes, pitches, null pointers,
// src/dst shapes equal, size in {3, 5}, iterations in [1, kMorphMaxIterations], u16 planes
// 2-byte aligned (pointer and pitch), src and dst not overlapping.
Status morph_validate(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params);

// CPU implementation on host memory. `threads` = 0 uses every hardware thread.
// src and dst must not overlap.
Status morph_cpu(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params,
                 int threads = 0);

// CUDA implementation on device memory, asynchronous on `stream` (nothing synchronises).
// src and dst must not overlap. With iterations > 1 an intermediate plane is needed: pass
// `scratch` to reuse one across calls (growing it is a cudaFree + cudaMalloc, which do
// synchronise; it must not be in use by other streams); with nullptr the call allocates
// stream-ordered memory (cudaMallocAsync) and frees it on the same stream.
Status morph_cuda(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params,
                  cudaStream_t stream, DeviceBuffer* scratch = nullptr);

}  // namespace dpx
