// What the host emulations of the morphology device code share (test_morph_tile_emulated.cpp,
// test_morph_rows_emulated.cpp): the stand-ins for the CUDA built-ins, then the kernel arguments
// for host planes.
#pragma once

#include "cuda_host_shim.h"  // first: defines what the device headers expect

#include "../../../kernels/morphology/morph_tile.cuh"
#include "morph_test_util.h"

namespace dpx {
namespace test {

// The kernels' arguments for filtering `src` into `dst` (same shape) under `border`.
inline morph::PassArgs emulated_args(const HostPlane& src, HostPlane& dst, BorderMode border) {
  const auto* in = static_cast<const std::uint8_t*>(src.view().data);
  auto* out = static_cast<std::uint8_t*>(dst.mutable_view().data);
  return morph::PassArgs{in,         src.pitch, out,    dst.pitch, src.width, src.height, static_cast<int>(src.row_bytes()),
                         border,     morph::vector_ok(in, src.pitch), morph::vector_ok(out, dst.pitch)};
}

}  // namespace test
}  // namespace dpx
