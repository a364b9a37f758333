// The CUDA kernel's device code run on the host: each CTA's steps (load, search, store) executed
// for every thread index in turn, with the launcher's own plan, against the CPU implementation.
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

}  // namespace
