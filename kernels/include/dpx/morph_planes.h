// Morphology of every plane of a video frame at once: the same operation on up to four planes of
// one sample type (e.g. NV12's luma and interleaved chroma, I420's three planes), each plane with
// its own size, pitch and channels.
//
//   dpx::MorphPlane planes[2] = {{y_src, y_dst}, {uv_src, uv_dst}};
//   dpx::Status s = dpx::morph_cuda_planes(planes, 2, params, stream);   // one launch per iteration
//   dpx::Status s = dpx::morph_cpu_planes(planes, 2, params);             // the CPU twin
//
// The results are those of morph_cuda / morph_cpu on each plane, bit for bit.
#pragma once

#include "dpx/device.h"
#include "dpx/morphology.h"
#include "dpx/plane.h"
#include "dpx/status.h"

namespace dpx {

constexpr int kMorphMaxPlanes = 4;

struct MorphPlane {
  PlaneView src;
  MutablePlaneView dst;
};

// Checks every plane with morph_validate, a count of 1 .. kMorphMaxPlanes and one sample type.
Status morph_planes_validate(const MorphPlane* planes, int count, const MorphParams& params);

// CPU: morph_cpu on each plane. `threads` = 0 uses every hardware thread.
Status morph_cpu_planes(const MorphPlane* planes, int count, const MorphParams& params, int threads = 0);

// CUDA, asynchronous on `stream`: every plane in one kernel launch per iteration for square 3x3 /
// 5x5 dilations and erosions; other elements and the compound operations run morph_cuda's passes
// plane by plane, one plane after the other on `stream`. Intermediate planes live in `scratch`
// (grown as needed; growing synchronises) or, with nullptr, in stream-ordered memory allocated
// and freed on `stream`.
Status morph_cuda_planes(const MorphPlane* planes, int count, const MorphParams& params, cudaStream_t stream,
                         DeviceBuffer* scratch = nullptr);

}  // namespace dpx
