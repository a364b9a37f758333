// The CUDA kernels' device code run on the host: each CTA's steps (load, search, store) executed
// for every thread index in turn, with the launcher's own plan, against the CPU implementation;
// and the second stage's shared-memory window (refine_shared.cuh), staged and read lane by lane.
// This checks the kernel's indexing, window layout, runs, tie order and edge masks where no GPU
// exists; the GPU tests (test_motion_cuda.cpp) check the same code on the device.
#include "cuda_host_shim.h"  // first: the CUDA vocabulary for the kernel header

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "block_match_kernel.cuh"
#include "block_match_cpu.h"
#include "block_match_plan.h"
#include "motion_pipeline.h"
#include "refine_planes.h"
#include "refine_shared.cuh"
#include "dpx/motion.h"
#include "dpx_ops.cuh"
#include "motion_test_util.h"
#include "test_util.h"

namespace {

using dpx::MotionField;
using dpx::SampleType;
using dpx::test::TestPlane;
namespace md = dpx::motion_detail;

template <typename Ops, typename T, int B>
void run_grid(const md::SearchGeometry& planned, const md::LaunchShape& shape) {
  using Steps = md::TileSteps<Ops, T, B>;
  std::vector<std::uint32_t> smem(shape.smem_bytes / 4 + 4);
  blockDim.x = static_cast<unsigned>(shape.threads);
  for (unsigned by = 0; by < shape.grid_y; ++by)
    for (unsigned bx = 0; bx < shape.grid_x; ++bx) {
      blockIdx.x = bx;
      blockIdx.y = by;
      std::fill(smem.begin(), smem.end(), 0xA5A5A5A5u);  // stale shared memory from the last CTA
      const md::Tile t = md::make_tile<T, B>(planned, smem.data());
      for (unsigned tid = 0; tid < blockDim.x; ++tid) threadIdx.x = tid, Steps::load(planned, t);
      for (unsigned tid = 0; tid < blockDim.x; ++tid) threadIdx.x = tid, Steps::search(planned, t);
      for (unsigned tid = 0; tid < blockDim.x; ++tid) threadIdx.x = tid, Steps::store(planned, t);
    }
}

template <typename Ops, typename T>
void run_for_block(int block, const md::SearchGeometry& g) {
  auto run = [&](auto b) {
    md::SearchGeometry planned = g;
    const md::LaunchShape shape = md::plan_search<T, decltype(b)::value>(&planned);
    EXPECT_LE(shape.threads, md::kMaxThreads);
    EXPECT_LE(shape.smem_bytes, 227u * 1024u);  // what one H100/H200 CTA can have
    run_grid<Ops, T, decltype(b)::value>(planned, shape);
  };
  switch (block) {
    case 4: run(std::integral_constant<int, 4>{}); break;
    case 8: run(std::integral_constant<int, 8>{}); break;
    case 16: run(std::integral_constant<int, 16>{}); break;
    default: run(std::integral_constant<int, 32>{}); break;
  }
}

// Runs the kernel's steps with policy Ops over the case's frames, rows `offset` bytes into a copy.
template <typename Ops>
MotionField emulate(const dpx::test::ComparisonCase& c, const md::CostModel& cost = {}) {
  auto shifted = [&c](const TestPlane& p, std::vector<std::uint8_t>* store) {
    store->assign(p.bytes().size() + c.offset, 0);
    std::copy(p.bytes().begin(), p.bytes().end(), store->begin() + c.offset);
    dpx::PlaneView v = p.view();
    v.data = store->data() + c.offset;
    return v;
  };
  std::vector<std::uint8_t> cur_store, ref_store;
  const dpx::PlaneView cur = shifted(c.current, &cur_store), ref = shifted(c.reference, &ref_store);
  MotionField f;
  f.resize(dpx::motion_grid(cur.width, cur.height, c.params.block_size));
  dpx::MotionVector poison;
  poison.dx = poison.dy = -32000;
  poison.sad = 0xA5A5A5A5u;
  std::fill(f.vectors.begin(), f.vectors.end(), poison);
  md::SearchGeometry g = md::search_geometry(cur, ref, c.params, f.vectors.data());
  g.cost = cost;
  if (cur.type == SampleType::kU8)
    run_for_block<Ops, std::uint8_t>(c.params.block_size, g);
  else
    run_for_block<Ops, std::uint16_t>(c.params.block_size, g);
  return f;
}

TEST(MotionKernelOnHost, MatchesCpuOnEveryComparisonCase) {
  auto rng = dpx::test::seeded_rng();
  for (const dpx::test::ComparisonCase& c : dpx::test::comparison_cases(rng)) {
    SCOPED_TRACE(c.name + " offset " + std::to_string(c.offset));
    const MotionField want = dpx::test::run_motion_cpu(c.current, c.reference, c.params);
    EXPECT_EQ(dpx::test::first_difference(want, emulate<dpx::ops::Dpx>(c)), "") << "dpx";
    EXPECT_EQ(dpx::test::first_difference(want, emulate<dpx::ops::PlainOps>(c)), "") << "plain";
  }
}

// lambda > 0: the kernel ranks SAD + penalty (predictors from a first pass) as the CPU full search
// does; both store the winner's cost.
TEST(MotionKernelOnHost, RanksCostsLikeTheCpuWithLambda) {
  auto rng = dpx::test::seeded_rng();
  const std::vector<dpx::test::ComparisonCase> cases = dpx::test::comparison_cases(rng);
  for (std::size_t i = 0; i < cases.size(); i += 3) {
    const dpx::test::ComparisonCase& c = cases[i];
    if (c.params.search_range > 16) continue;  // the CPU suite keeps to seconds
    SCOPED_TRACE(c.name + " offset " + std::to_string(c.offset));
    const MotionField first = dpx::test::run_motion_cpu(c.current, c.reference, c.params);
    for (int lambda : {1, 200}) {
      dpx::MotionParams p = c.params;
      p.lambda = lambda;
      p.subpel = dpx::MotionSubpel::kQuarter;
      const md::CostModel cost = md::cost_model(p, first.vectors.data(), first.grid.columns);
      MotionField want;
      ASSERT_TRUE(md::full_search_cpu(c.current.view(), c.reference.view(), p, cost, &want, 0).is_ok());
      EXPECT_EQ(dpx::test::first_difference(want, emulate<dpx::ops::Dpx>(c, cost)), "") << "lambda " << lambda;
    }
  }
}

// The sub-pel stage's shared window on the host: the window staged as the kernel stages it (32
// lanes, the frame's edges replicated, into a buffer of stale samples), each lane's part of a
// candidate's SAD summed over the warp — the kernel's partial_sad on the shared samples (bilinear
// and whole offsets), with the whole-block addressing (B) where the block is whole — against the
// CPU's partial_sad on the frames: every interpolation, 8- and 16-bit, every sub-pel offset around
// integer vectors that put the taps past every edge. (The sharp filters' sub-pel candidates read
// the frame's phase planes: MotionFramePlanes, MotionWarpOnHost.)
template <typename T, int B>
void check_shared_window(std::mt19937_64& rng, int w, int h) {
  const int block = B;
  const SampleType type = sizeof(T) == 1 ? SampleType::kU8 : SampleType::kU16;
  const int top = sizeof(T) == 1 ? 255 : 65535;
  const TestPlane cur = dpx::test::random_plane(rng, w, h, type, top, 3 * static_cast<int>(sizeof(T)));
  const TestPlane ref = dpx::test::random_plane(rng, w, h, type, top, 5 * static_cast<int>(sizeof(T)));
  dpx::MotionParams p = dpx::test::motion_params(block, 4);
  p.subpel = dpx::MotionSubpel::kQuarter;
  for (dpx::MotionInterpolation mode : {dpx::MotionInterpolation::kBilinear, dpx::MotionInterpolation::kH264,
                                        dpx::MotionInterpolation::kHevc}) {
    p.interpolation = mode;
    const md::RefineJob j = md::refine_job(cur.view(), ref.view(), p, md::CostModel{}, {}, nullptr, nullptr);
    const md::FrameSamples<T> frames{j.cur, j.ref, j.cur_pitch, j.ref_pitch, j.width, j.height};
    std::vector<T> cur_buf(md::kMaxBlock * md::kPitch), ref_buf((md::kMaxWindow + 1) * md::kPitch);
    for (int r = 0; r < j.rows; ++r)
      for (int c = 0; c < j.columns; ++c) {
        const md::BlockSpan whole = md::block_span(j, c, r, 0, 1);
        for (int cy = -1; cy <= 1; ++cy)
          for (int cx = -1; cx <= 1; ++cx) {
            std::fill(cur_buf.begin(), cur_buf.end(), T(0x5A5A & top));
            std::fill(ref_buf.begin(), ref_buf.end(), T(0xA5A5 & top));
            const md::Window win = md::window_around(whole, cx, cy, md::subpel_reach(mode));
            for (int lane = 0; lane < 32; ++lane) {
              md::stage_rows(j.cur, j.cur_pitch, j.width, j.height, whole.x0, whole.y0, whole.bw, whole.bh, lane,
                             cur_buf.data());
              md::stage_rows(j.ref, j.ref_pitch, j.width, j.height, win.rx, win.ry, win.rw, win.rh, lane, ref_buf.data());
            }
            const md::SharedSamples<T, 0> shared{cur_buf.data(), ref_buf.data(), win.rx, win.ry};
            const md::SharedSamples<T, B> fixed{cur_buf.data(), ref_buf.data(), win.rx, win.ry};
            const bool is_whole = whole.bw == B && whole.bh == B;
            // Bilinear: the neighbours of (cx, cy) within 3/4 px. The filters: the whole offsets
            // within 1 px of (cx, cy).
            const bool bilinear = mode == dpx::MotionInterpolation::kBilinear;
            const int spread = bilinear ? 3 : 4;
            for (int vy = 4 * cy - spread; vy <= 4 * cy + spread; ++vy)
              for (int vx = 4 * cx - spread; vx <= 4 * cx + spread; ++vx) {
                const md::SubpelOffset ox = md::subpel_offset(vx, 4), oy = md::subpel_offset(vy, 4);
                // Only candidates the search admits (their bilinear footprint inside the frame).
                if (!md::component_inside(vx, 4, whole.x0, whole.bw, w, 4) ||
                    !md::component_inside(vy, 4, whole.y0, whole.bh, h, 4))
                  continue;
                // The window's own samples: bilinear's, and whole offsets for every filter.
                if (!bilinear && (ox.quarter | oy.quarter) != 0) continue;
                std::uint32_t generic = 0, at_offsets = 0;
                for (int lane = 0; lane < 32; ++lane) {
                  const md::BlockSpan span = md::block_span(j, c, r, lane, 32);
                  generic += md::partial_sad(shared, j.filter, span, vx, vy, 4);
                  if (is_whole) at_offsets += md::partial_sad(fixed, j.filter, span, vx, vy, 4);
                }
                const std::uint32_t want = md::partial_sad(frames, j.filter, whole, vx, vy, 4);
                if (is_whole) {
                  ASSERT_EQ(at_offsets, want) << "whole-block addressing";
                }
                ASSERT_EQ(generic, want)
                    << "mode " << static_cast<int>(mode) << " block (" << c << ", " << r << ") v (" << vx << ", " << vy
                    << ") " << w << "x" << h << (type == SampleType::kU8 ? " u8" : " u16");
              }
          }
      }
  }
}

TEST(MotionKernelOnHost, SharedWindowFiltersLikeTheCpu) {
  auto rng = dpx::test::seeded_rng();
  check_shared_window<std::uint8_t, 8>(rng, 37, 21);
  check_shared_window<std::uint8_t, 32>(rng, 35, 33);
  check_shared_window<std::uint16_t, 16>(rng, 19, 26);
  check_shared_window<std::uint8_t, 4>(rng, 6, 5);
  check_shared_window<std::uint16_t, 4>(rng, 13, 9);
}

}  // namespace
