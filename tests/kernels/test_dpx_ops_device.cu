// The DPX instructions on the device against the portable definitions (what the CPU twins use),
// on random words plus the edge values, and the documented facts about predicates and lanes.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "cuda_check.h"
#include "dpx/device.h"
#include "dpx_ops.cuh"
#include "test_util.h"

namespace {

using dpx::ops::Dpx;
using dpx::ops::Plain;
using dpx::ops::PlainOps;

constexpr int kOpCount = 38;

// Applies operation `op` of policy Ops; the predicate bits go to bit 0 (first/lo) and bit 1 (hi).
template <typename Ops>
__host__ __device__ std::uint32_t apply(int op, std::uint32_t a, std::uint32_t b, std::uint32_t c,
                                        std::uint32_t* preds) {
  const auto sa = static_cast<std::int32_t>(a), sb = static_cast<std::int32_t>(b),
             sc = static_cast<std::int32_t>(c);
  bool p0 = false, p1 = false;
  std::uint32_t r = 0;
  switch (op) {
    case 0: r = Ops::max3_s32(sa, sb, sc); break;
    case 1: r = Ops::min3_s32(sa, sb, sc); break;
    case 2: r = Ops::max3_u32(a, b, c); break;
    case 3: r = Ops::min3_u32(a, b, c); break;
    case 4: r = Ops::max_s32_relu(sa, sb); break;
    case 5: r = Ops::max3_s32_relu(sa, sb, sc); break;
    case 6: r = Ops::min3_s32_relu(sa, sb, sc); break;
    case 7: r = Ops::max3_u16x2(a, b, c); break;
    case 8: r = Ops::min3_u16x2(a, b, c); break;
    case 9: r = Ops::max3_s16x2(a, b, c); break;
    case 10: r = Ops::min3_s16x2(a, b, c); break;
    case 11: r = Ops::max_s16x2_relu(a, b); break;
    case 12: r = Ops::min_s16x2_relu(a, b); break;
    case 13: r = Ops::max3_s16x2_relu(a, b, c); break;
    case 14: r = Ops::min3_s16x2_relu(a, b, c); break;
    case 15: r = Ops::addmax_s32(sa, sb, sc); break;
    case 16: r = Ops::addmin_s32(sa, sb, sc); break;
    case 17: r = Ops::addmax_s32_relu(sa, sb, sc); break;
    case 18: r = Ops::addmax_u32(a, b, c); break;
    case 19: r = Ops::addmin_u32(a, b, c); break;
    case 20: r = Ops::addmax_s16x2(a, b, c); break;
    case 21: r = Ops::addmin_s16x2(a, b, c); break;
    case 22: r = Ops::addmax_s16x2_relu(a, b, c); break;
    case 23: r = Ops::addmax_u16x2(a, b, c); break;
    case 24: r = Ops::addmin_u16x2(a, b, c); break;
    case 25: r = Ops::bmax_s32(sa, sb, &p0); break;
    case 26: r = Ops::bmin_s32(sa, sb, &p0); break;
    case 27: r = Ops::bmax_u32(a, b, &p0); break;
    case 28: r = Ops::bmin_u32(a, b, &p0); break;
    case 29: r = Ops::bmax_s16x2(a, b, &p1, &p0); break;
    case 30: r = Ops::max_u8x4(a, b); break;
    case 31: r = Ops::min_u8x4(a, b); break;
    case 32: r = Ops::max_s16x2(a, b); break;
    case 33: r = Ops::min_s16x2(a, b); break;
    case 34: r = Ops::sad_u8x4(a, b, c); break;
    case 35: r = Ops::sad_u32(a, b, c); break;
    case 36: r = Ops::add_s16x2(a, b); break;
    case 37: {  // the kept lanes ORed into bits that already hold c's bits 2 and 3
      std::uint32_t bits = c & 12u;
      r = Ops::bmax_s16x2_bits(a, b, &bits, 1u, 2u);
      *preds = bits;
      return r;
    }
  }
  *preds = (p0 ? 1u : 0u) | (p1 ? 2u : 0u);
  return r;
}

template <typename Ops>
__global__ void apply_kernel(int op, const std::uint32_t* a, const std::uint32_t* b,
                             const std::uint32_t* c, std::uint32_t* out, std::uint32_t* preds,
                             int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = apply<Ops>(op, a[i], b[i], c[i], &preds[i]);
}

struct DeviceRun {
  std::vector<std::uint32_t> out, preds;
};

// Runs every op of policy Ops on the device over (a, b, c); returns outputs op-major.
template <typename Ops>
dpx::Status run_on_device(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b,
                          const std::vector<std::uint32_t>& c, DeviceRun* run) {
  const int n = static_cast<int>(a.size());
  const std::size_t bytes = a.size() * sizeof(std::uint32_t);
  dpx::DeviceBuffer da, db, dc, dout, dpred;
  DPX_RETURN_IF_ERROR(da.allocate(bytes));
  DPX_RETURN_IF_ERROR(db.allocate(bytes));
  DPX_RETURN_IF_ERROR(dc.allocate(bytes));
  DPX_RETURN_IF_ERROR(dout.allocate(bytes));
  DPX_RETURN_IF_ERROR(dpred.allocate(bytes));
  DPX_CUDA_TRY(cudaMemcpy(da.data(), a.data(), bytes, cudaMemcpyHostToDevice));
  DPX_CUDA_TRY(cudaMemcpy(db.data(), b.data(), bytes, cudaMemcpyHostToDevice));
  DPX_CUDA_TRY(cudaMemcpy(dc.data(), c.data(), bytes, cudaMemcpyHostToDevice));
  run->out.assign(a.size() * kOpCount, 0);
  run->preds.assign(a.size() * kOpCount, 0);
  for (int op = 0; op < kOpCount; ++op) {
    DPX_CUDA_TRY(cudaMemset(dout.data(), 0xA5, bytes));
    DPX_CUDA_TRY(cudaMemset(dpred.data(), 0xA5, bytes));
    apply_kernel<Ops><<<(n + 255) / 256, 256>>>(op, da.as<std::uint32_t>(), db.as<std::uint32_t>(),
                                               dc.as<std::uint32_t>(), dout.as<std::uint32_t>(),
                                               dpred.as<std::uint32_t>(), n);
    DPX_CUDA_CHECK_LAUNCH("apply_kernel");
    DPX_CUDA_TRY(cudaMemcpy(run->out.data() + op * a.size(), dout.data(), bytes, cudaMemcpyDeviceToHost));
    DPX_CUDA_TRY(cudaMemcpy(run->preds.data() + op * a.size(), dpred.data(), bytes, cudaMemcpyDeviceToHost));
  }
  return dpx::Status::ok();
}

// Random words plus every combination of the 16- and 32-bit edge values.
void make_inputs(std::vector<std::uint32_t>* a, std::vector<std::uint32_t>* b,
                 std::vector<std::uint32_t>* c) {
  const std::uint32_t edges[] = {0u, 1u, 0x7FFFu, 0x8000u, 0xFFFFu, 0x7FFF8000u, 0x80007FFFu,
                                 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu, 0x00010001u, 0xFFFF0000u};
  for (auto x : edges)
    for (auto y : edges)
      for (auto z : edges) {
        a->push_back(x);
        b->push_back(y);
        c->push_back(z);
      }
  auto rng = dpx::test::seeded_rng();
  for (int i = 0; i < 100000; ++i) {
    a->push_back(static_cast<std::uint32_t>(rng()));
    // every fourth b equals a, so ties are exercised
    b->push_back(i % 4 == 0 ? a->back() : static_cast<std::uint32_t>(rng()));
    c->push_back(static_cast<std::uint32_t>(rng()));
  }
}

template <typename Ops>
void expect_matches_portable_definitions() {
  DPX_REQUIRE_GPU();
  std::vector<std::uint32_t> a, b, c;
  make_inputs(&a, &b, &c);
  DeviceRun run;
  const dpx::Status s = run_on_device<Ops>(a, b, c, &run);
  ASSERT_TRUE(s.is_ok()) << s.message();
  for (int op = 0; op < kOpCount; ++op) {
    int mismatches = 0;
    for (std::size_t i = 0; i < a.size() && mismatches < 5; ++i) {
      std::uint32_t want_pred = 0;
      const std::uint32_t want = apply<Plain>(op, a[i], b[i], c[i], &want_pred);
      const std::uint32_t got = run.out[op * a.size() + i];
      const std::uint32_t got_pred = run.preds[op * a.size() + i];
      if (got != want || got_pred != want_pred) {
        ++mismatches;
        ADD_FAILURE() << Ops::kName << " op " << op << " a=" << std::hex << a[i] << " b=" << b[i]
                      << " c=" << c[i] << ": device " << got << "/" << got_pred << ", definition "
                      << want << "/" << want_pred;
      }
    }
  }
}

TEST(DpxOpsDevice, DpxInstructionsMatchDefinitions) { expect_matches_portable_definitions<Dpx>(); }
TEST(DpxOpsDevice, PlainVariantMatchesDefinitions) { expect_matches_portable_definitions<PlainOps>(); }

// The facts the rest of the library relies on, checked on the hardware itself.
__global__ void facts_kernel(int* out) {
  bool p;
  out[0] = __vibmin_s32(4, 4, &p);
  out[1] = p;  // tie: first operand is the result -> true
  out[2] = __vibmin_s32(5, 3, &p);
  out[3] = p;  // second wins -> false
  out[4] = __vibmax_s32(7, 7, &p);
  out[5] = p;
  out[6] = __vibmax_s32(-9, 2, &p);
  out[7] = p;
  // lanes: lo = max(-5,-7,-1) = -1 -> relu 0; hi = max(100,-3,20) = 100
  out[8] = static_cast<int>(__vimax3_s16x2_relu(0x0064FFFBu, 0xFFFDFFF9u, 0x0014FFFFu));
  out[9] = __viaddmax_s32_relu(-10, 3, -2);  // max(-7, -2) = -2 -> 0
  out[10] = __viaddmax_s32_relu(10, 3, -2);  // 13
}

TEST(DpxOpsDevice, PredicatePolarityTiesAndLanes) {
  DPX_REQUIRE_GPU();
  dpx::DeviceBuffer d;
  ASSERT_TRUE(d.allocate(11 * sizeof(int)).is_ok());
  facts_kernel<<<1, 1>>>(d.as<int>());
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  int h[11] = {};
  ASSERT_EQ(cudaMemcpy(h, d.data(), sizeof(h), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(h[0], 4);
  EXPECT_EQ(h[1], 1);
  EXPECT_EQ(h[2], 3);
  EXPECT_EQ(h[3], 0);
  EXPECT_EQ(h[4], 7);
  EXPECT_EQ(h[5], 1);
  EXPECT_EQ(h[6], 2);
  EXPECT_EQ(h[7], 0);
  EXPECT_EQ(static_cast<unsigned>(h[8]), 0x00640000u);
  EXPECT_EQ(h[9], 0);
  EXPECT_EQ(h[10], 13);
}

// A running best carried in one register, best = bmax(best, v), as the local alignment kernel keeps
// it: the predicates must say which lane took v. CUDA's own __vibmax_s16x2 got the register of `a`
// reused for its result in such a loop and reported "a kept" every time (dpx_ops.cuh).
template <typename Ops>
__global__ void running_best_kernel(const std::uint32_t* in, int n, int* out) {
  std::uint32_t best = 0;
  int last_lo = -1, last_hi = -1;
  for (int i = 0; i < n; ++i) {
    bool kept_hi, kept_lo;
    best = Ops::bmax_s16x2(best, in[i], &kept_hi, &kept_lo);
    if (!kept_lo) last_lo = i;
    if (!kept_hi) last_hi = i;
  }
  out[0] = last_lo;
  out[1] = last_hi;
  out[2] = static_cast<int>(best);
}

TEST(DpxOpsDevice, RunningBestReportsTheLaneThatGrew) {
  DPX_REQUIRE_GPU();
  // lo: 3, 7, 1, ... grows at 1; hi: 5, 2, 9, ... grows at 2 (n = 3 runs only the loop's remainder)
  const std::vector<std::uint32_t> words = {0x00050003u, 0x00020007u, 0x00090001u, 0x00010002u, 0x00080006u,
                                            0x000A0005u, 0x00000000u};
  dpx::DeviceBuffer din, dout;
  ASSERT_TRUE(din.allocate(words.size() * sizeof(std::uint32_t)).is_ok());
  ASSERT_TRUE(dout.allocate(3 * sizeof(int)).is_ok());
  ASSERT_EQ(cudaMemcpy(din.data(), words.data(), words.size() * sizeof(std::uint32_t), cudaMemcpyHostToDevice),
            cudaSuccess);
  struct Want {
    int n, lo, hi;
    std::uint32_t best;
  };
  for (const Want& w : {Want{3, 1, 2, 0x00090007u}, Want{7, 1, 5, 0x000A0007u}, Want{1, 0, 0, 0x00050003u}}) {
    for (int policy = 0; policy < 2; ++policy) {
      ASSERT_EQ(cudaMemset(dout.data(), 0xA5, 3 * sizeof(int)), cudaSuccess);
      if (policy == 0) running_best_kernel<Dpx><<<1, 1>>>(din.as<std::uint32_t>(), w.n, dout.as<int>());
      else running_best_kernel<PlainOps><<<1, 1>>>(din.as<std::uint32_t>(), w.n, dout.as<int>());
      ASSERT_EQ(cudaGetLastError(), cudaSuccess);
      int h[3] = {};
      ASSERT_EQ(cudaMemcpy(h, dout.data(), sizeof(h), cudaMemcpyDeviceToHost), cudaSuccess);
      const char* name = policy == 0 ? "dpx" : "plain";
      EXPECT_EQ(h[0], w.lo) << name << " n=" << w.n;
      EXPECT_EQ(h[1], w.hi) << name << " n=" << w.n;
      EXPECT_EQ(static_cast<std::uint32_t>(h[2]), w.best) << name << " n=" << w.n;
    }
  }
}

}  // namespace
