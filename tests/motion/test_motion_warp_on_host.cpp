// The second stage's warps (refine_warp.cuh) run whole on the host: the CPU's own passes
// (motion_estimate_host) up to the second stage, then every block's warp as the kernels run it —
// 32 lanes meeting at shuffles and __syncwarp (host_warp.h), the build the launcher picks (without
// planes, or for the sharp filters' sub-pel search on the frame-wide phase planes, built first by
// the plane kernel's own steps: refine_frame_planes.h), a shared-memory buffer of stale samples —
// against motion_estimate_cpu, bit for bit: every interpolation and setting of mode_variants, 8-
// and 16-bit samples, every block size, whole blocks and blocks cut by the frame's edge, frames
// smaller than a block. The GPU runs the same code (MotionCuda.EveryModeMatchesCpu,
// MotionCuda.SharpSubpelMatchesCpuOnEdgeFrames).
#include "cuda_host_shim.h"  // first: the CUDA vocabulary for the kernel header

#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <vector>

#include "dpx/motion.h"
#include "frame_planes_on_host.h"
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

// Every block of the job, one warp after another, on the build P.
template <typename T, int B, md::PlaneSource P>
bool run_warps(const md::RefineJob& job) {
  using Shared = md::WarpShared<T, B, P>;
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

// The build P for the job's block size (refine_launch.cuh, launch_for_block).
template <typename T, md::PlaneSource P>
dpx::Status run_build(const md::RefineJob& job) {
  bool met = false;
  switch (job.block) {
    case 4: met = run_warps<T, 4, P>(job); break;
    case 8: met = run_warps<T, 8, P>(job); break;
    case 16: met = run_warps<T, 16, P>(job); break;
    default: met = run_warps<T, 32, P>(job); break;
  }
  return met ? dpx::Status::ok() : dpx::invalid_argument("the warp's lanes diverged");
}

// The library's choice of build (refine_cuda.cu): the jobs that search patches on the reference's
// phase planes, built first by the plane kernel's steps (refine_frame_planes.cu), the others
// without planes.
template <typename T>
dpx::Status refine_on_host_warps(const md::RefineJob& job) {
  if (!md::uses_patch_planes(job)) return run_build<T, md::PlaneSource::kNone>(job);
  dpx::test::HostFramePlanes planes(job.width, job.height, sizeof(T));
  dpx::test::build_frame_planes_on_host<T>(job.ref, job.ref_pitch, job.width, job.height, job.filter.mode,
                                           planes.planes);
  md::RefineJob j = job;
  j.phases = planes.planes;
  return run_build<T, md::PlaneSource::kFrame>(j);
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

// Frames smaller than a block (a single block cut on both sides), and odd sizes of a few blocks.
TEST(MotionWarpOnHost, SmallAndOddFramesMatchCpu) {
  auto rng = dpx::test::seeded_rng();
  struct Size {
    int w, h;
  };
  for (SampleType type : {SampleType::kU8, SampleType::kU16})
    for (int block : {8, 32})
      for (const Size s : {Size{block - 3, block / 2 + 1}, Size{1, 1}, Size{2 * block + 5, 3}}) {
        const int margin = 8;
        const dpx::test::Texture tex(rng, s.w + 2 * margin, s.h + 2 * margin, type);
        const TestPlane ref = tex.frame(s.w, s.h, margin, margin, 2),
                        cur = tex.frame(s.w, s.h, margin + 1, margin - 1, 2);
        for (const MotionParams& p : dpx::test::mode_variants(block, 3)) {
          if (p.subpel == dpx::MotionSubpel::kNone || p.interpolation == dpx::MotionInterpolation::kBilinear) continue;
          SCOPED_TRACE(describe(p, type) + " " + std::to_string(s.w) + "x" + std::to_string(s.h));
          EXPECT_EQ(dpx::test::first_difference(dpx::test::run_motion_cpu(cur, ref, p), run_warps_on_host(cur, ref, p)),
                    "");
        }
      }
}

}  // namespace
