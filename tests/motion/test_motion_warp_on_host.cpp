// The second stage's warps (refine_warp.cuh) run whole on the host: the CPU's own passes
// (motion_estimate_host) up to the second stage, then every block's warp as the kernels run it —
// 32 lanes meeting at shuffles and __syncwarp (host_warp.h), the build the launcher picks (with or
// without patch planes), a shared-memory buffer of stale samples — against motion_estimate_cpu,
// bit for bit: every interpolation and setting of mode_variants, 8- and 16-bit samples, every block
// size, whole blocks and blocks cut by the frame's edge. The GPU runs the same code
// (MotionCuda.EveryModeMatchesCpu).
#include "cuda_host_shim.h"  // first: the CUDA vocabulary for the kernel header

#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <vector>

#include "dpx/motion.h"
#include "motion_estimate_host.h"
#include "motion_test_util.h"
#include "refine_warp.cuh"
#include "test_util.h"

namespace {

using dpx::MotionField;
using dpx::MotionParams;
using dpx::SampleType;
using dpx::test::TestPlane;
namespace md = dpx::motion_detail;

// Every block of the job, one warp after another, on the build with or without planes.
template <typename T, int B, bool Planes>
bool run_warps(const md::RefineJob& job) {
  using Shared = md::WarpShared<T, B, Planes>;
  std::vector<unsigned char> buffer(Shared::kBytes);
  const Shared mem = Shared::of(buffer.data(), 0);
  for (int r = 0; r < job.rows; ++r)
    for (int c = 0; c < job.columns; ++c) {
      std::fill(buffer.begin(), buffer.end(), 0xA5);  // stale shared memory from the last block
      const bool met = dpx::test::HostWarp::run([&](int lane) {
        if (job.predictive)
          md::predictive_refine_warp(job, mem, c, r, lane);
        else
          md::full_search_subpel_warp(job, mem, c, r, lane);
      });
      if (!met) return false;
    }
  return true;
}

// The launcher's choice of build (refine_cuda.cu), for blocks of side B.
template <typename T, int B>
dpx::Status refine_on_host_warps(const md::RefineJob& job) {
  const bool met = md::uses_patch_planes(job) ? run_warps<T, B, true>(job) : run_warps<T, B, false>(job);
  return met ? dpx::Status::ok() : dpx::invalid_argument("the warp's lanes diverged");
}

template <typename T>
dpx::Status refine_on_host_warps(const md::RefineJob& job) {
  switch (job.block) {
    case 4:
      return refine_on_host_warps<T, 4>(job);
    case 8:
      return refine_on_host_warps<T, 8>(job);
    case 16:
      return refine_on_host_warps<T, 16>(job);
    default:
      return refine_on_host_warps<T, 32>(job);
  }
}

MotionField run_warps_on_host(const TestPlane& cur, const TestPlane& ref, const MotionParams& p) {
  MotionField f;
  const dpx::Status s = md::motion_estimate_host(
      cur.view(), ref.view(), p, &f, 1, {}, [](const md::RefineJob& job, SampleType type) {
        // Poisoned first where the warps do not read it (a full search's vectors are their start): a
        // block the warps skip shows.
        if (job.predictive)
          for (int i = 0; i < job.columns * job.rows; ++i) job.out[i].sad = 0xA5A5A5A5u;
        return type == SampleType::kU8 ? refine_on_host_warps<std::uint8_t>(job)
                                       : refine_on_host_warps<std::uint16_t>(job);
      });
  EXPECT_TRUE(s.is_ok()) << s.message();
  return f;
}

std::string describe(const MotionParams& p, SampleType type) {
  return "block " + std::to_string(p.block_size) + " range " + std::to_string(p.search_range) + " scale " +
         std::to_string(static_cast<int>(p.subpel)) + " lambda " + std::to_string(p.lambda) +
         (p.search == dpx::MotionSearch::kPredictive ? " predictive" : " full") + " interpolation " +
         std::to_string(static_cast<int>(p.interpolation)) + (type == SampleType::kU8 ? " u8" : " u16");
}

// A textured pair moved by a few pixels, frames a block and a half wide so that every block size
// has whole blocks and cut ones.
TEST(MotionWarpOnHost, EveryModeMatchesCpu) {
  auto rng = dpx::test::seeded_rng();
  for (SampleType type : {SampleType::kU8, SampleType::kU16})
    for (int block : {4, 8, 16, 32}) {
      const int w = block * 5 / 2 + 1, h = block + block / 2 + 3, margin = 8;
      const dpx::test::Texture tex(rng, w + 2 * margin, h + 2 * margin, type);
      const TestPlane ref = tex.frame(w, h, margin, margin, 2),
                      cur = tex.frame(w, h, margin + 3, margin - 2, 4);
      for (const MotionParams& p : dpx::test::mode_variants(block, 4)) {
        SCOPED_TRACE(describe(p, type));
        const MotionField want = dpx::test::run_motion_cpu(cur, ref, p);
        EXPECT_EQ(dpx::test::first_difference(want, run_warps_on_host(cur, ref, p)), "");
      }
    }
}

}  // namespace
