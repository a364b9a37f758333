// The CUDA block matcher against the CPU one, bit for bit, with both op policies, on the shared
// comparison cases (every type, block size, ranges 1..64, ties, tiny frames, misaligned rows,
// shifted textures) and on a larger shifted texture; outputs are poisoned first so an unwritten
// vector shows. Plus the checks a bad call must fail.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "dpx/device.h"
#include "dpx/motion.h"
#include "frame_planes_on_host.h"
#include "motion_test_util.h"
#include "motion_variants.h"
#include "refine_frame_planes.h"
#include "test_util.h"

namespace {

using dpx::MotionField;
using dpx::MotionParams;
using dpx::MotionVector;
using dpx::SampleType;
using dpx::test::TestPlane;
using dpx::test::motion_params;

// A device copy of a host plane, `offset` bytes into its allocation (misaligned rows when odd).
struct DevicePlane {
  dpx::DeviceBuffer buffer;
  dpx::PlaneView view;

  static DevicePlane upload(const TestPlane& host, std::size_t offset = 0) {
    DevicePlane d;
    const std::size_t bytes = host.pitch() * host.height() + offset;
    EXPECT_TRUE(d.buffer.allocate(bytes).is_ok());
    EXPECT_EQ(cudaMemset(d.buffer.data(), 0x5A, bytes), cudaSuccess);
    auto* base = d.buffer.as<unsigned char>() + offset;
    EXPECT_EQ(cudaMemcpy(base, host.bytes().data(), host.pitch() * host.height(), cudaMemcpyHostToDevice), cudaSuccess);
    // cudaMemcpy/cudaMemset run on the legacy stream, which the non-blocking streams the kernels
    // use do not wait for (a pageable upload can return before its DMA ends): finish them here.
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    d.view = host.view();
    d.view.data = base;
    return d;
  }
};

// A CUDA matcher: the library's or a variant's (motion_variants.h).
using CudaMatcher = dpx::Status (*)(const dpx::PlaneView&, const dpx::PlaneView&, const MotionParams&, MotionVector*,
                                    std::size_t, cudaStream_t, const dpx::MotionPrevious&);

// Runs `matcher` on a poisoned output on its own stream.
MotionField run_matcher(CudaMatcher matcher, const dpx::PlaneView& cur, const dpx::PlaneView& ref,
                        const MotionParams& p, const dpx::MotionPrevious& previous = {}) {
  MotionField f;
  f.resize(dpx::motion_grid(cur.width, cur.height, p.block_size));
  f.grid.scale = dpx::motion_scale(p);
  dpx::DeviceBuffer out;
  dpx::Stream stream;
  EXPECT_TRUE(stream.create().is_ok());
  EXPECT_TRUE(out.allocate(f.vectors.size() * sizeof(MotionVector)).is_ok());
  // On the matcher's stream: a plain cudaMemset runs on the legacy stream, which the non-blocking
  // stream does not wait for, and could land after the kernels.
  EXPECT_EQ(cudaMemsetAsync(out.data(), dpx::test::kPoisonByte, out.size(), stream.get()), cudaSuccess);
  const dpx::Status s = matcher(cur, ref, p, out.as<MotionVector>(), f.vectors.size(), stream.get(), previous);
  EXPECT_TRUE(s.is_ok()) << s.message();
  EXPECT_TRUE(stream.synchronize().is_ok());
  EXPECT_EQ(cudaMemcpy(f.vectors.data(), out.data(), out.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  return f;
}

dpx::Status plain_ops_matcher(const dpx::PlaneView& cur, const dpx::PlaneView& ref, const MotionParams& p,
                              MotionVector* vectors, std::size_t capacity, cudaStream_t stream,
                              const dpx::MotionPrevious& previous) {
  return dpx::variants::motion_estimate_cuda(dpx::OpsPolicy::kPlain, cur, ref, p, vectors, capacity, stream, previous);
}

// Runs the CUDA matcher with `policy`.
MotionField run_cuda(dpx::OpsPolicy policy, const dpx::PlaneView& cur, const dpx::PlaneView& ref, const MotionParams& p,
                     const dpx::MotionPrevious& previous = {}) {
  const CudaMatcher matcher = policy == dpx::OpsPolicy::kDpx ? CudaMatcher{dpx::motion_estimate_cuda} : plain_ops_matcher;
  return run_matcher(matcher, cur, ref, p, previous);
}

TEST(MotionCuda, MatchesCpuOnEveryComparisonCase) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  for (const dpx::test::ComparisonCase& c : dpx::test::comparison_cases(rng)) {
    SCOPED_TRACE(c.name + " offset " + std::to_string(c.offset));
    const MotionField want = dpx::test::run_motion_cpu(c.current, c.reference, c.params);
    const DevicePlane cur = DevicePlane::upload(c.current, c.offset), ref = DevicePlane::upload(c.reference, c.offset);
    EXPECT_EQ(dpx::test::first_difference(want, run_cuda(dpx::OpsPolicy::kDpx, cur.view, ref.view, c.params)), "")
        << "dpx";
    EXPECT_EQ(dpx::test::first_difference(want, run_cuda(dpx::OpsPolicy::kPlain, cur.view, ref.view, c.params)), "")
        << "plain";
  }
}

// Sub-pel, lambda and predictive settings (mode_variants) with every interpolation on a subset of
// the comparison cases: every type, block size, edge and tiny frame (the sharp filters' sub-pel
// search on the reference's phase planes, the others without).
TEST(MotionCuda, EveryModeMatchesCpu) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  const std::vector<dpx::test::ComparisonCase> cases = dpx::test::comparison_cases(rng);
  for (std::size_t i = 0; i < cases.size(); i += 3) {
    const dpx::test::ComparisonCase& c = cases[i];
    const DevicePlane cur = DevicePlane::upload(c.current, c.offset), ref = DevicePlane::upload(c.reference, c.offset);
    for (const MotionParams& p : dpx::test::mode_variants(c.params.block_size, std::min(c.params.search_range, 20))) {
      SCOPED_TRACE(c.name + " scale " + std::to_string(dpx::motion_scale(p)) + " lambda " + std::to_string(p.lambda) +
                   (p.search == dpx::MotionSearch::kPredictive ? " predictive" : " full") + " interpolation " +
                   std::to_string(static_cast<int>(p.interpolation)));
      const MotionField want = dpx::test::run_motion_cpu(c.current, c.reference, p);
      EXPECT_EQ(dpx::test::first_difference(want, run_cuda(dpx::OpsPolicy::kDpx, cur.view, ref.view, p)), "") << "dpx";
      EXPECT_EQ(dpx::test::first_difference(want, run_cuda(dpx::OpsPolicy::kPlain, cur.view, ref.view, p)), "")
          << "plain";
    }
  }
}

// The sharp filters' sub-pel search (phase planes of the whole reference) at the frame's edges:
// frames smaller than a block, odd sizes of a few blocks, 8-bit rows at odd addresses and 16-bit
// rows at even ones, every h264/hevc setting of mode_variants, both op policies.
TEST(MotionCuda, SharpSubpelMatchesCpuOnEdgeFrames) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  struct Size {
    int w, h;
  };
  for (SampleType type : {SampleType::kU8, SampleType::kU16})
    for (int block : {4, 16, 32})
      for (const Size s : {Size{1, 1}, Size{block - 1, block / 2 + 1}, Size{2 * block + 3, block + 5}, Size{67, 3}}) {
        const int margin = 8, bytes = type == SampleType::kU8 ? 1 : 2;
        const dpx::test::Texture tex(rng, s.w + 2 * margin, s.h + 2 * margin, type);
        const TestPlane ref = tex.frame(s.w, s.h, margin, margin, 2), cur = tex.frame(s.w, s.h, margin + 2, margin - 1, 2);
        const std::size_t offset = type == SampleType::kU8 ? 3 : 2 * bytes;
        const DevicePlane dcur = DevicePlane::upload(cur, offset), dref = DevicePlane::upload(ref, offset);
        for (const MotionParams& p : dpx::test::mode_variants(block, 5)) {
          if (p.subpel == dpx::MotionSubpel::kNone || p.interpolation == dpx::MotionInterpolation::kBilinear) continue;
          SCOPED_TRACE(std::to_string(s.w) + "x" + std::to_string(s.h) + (bytes == 1 ? " u8" : " u16") + " block " +
                       std::to_string(block) + " scale " + std::to_string(dpx::motion_scale(p)) + " lambda " +
                       std::to_string(p.lambda) + (p.search == dpx::MotionSearch::kPredictive ? " predictive" : " full") +
                       " interpolation " + std::to_string(static_cast<int>(p.interpolation)));
          const MotionField want = dpx::test::run_motion_cpu(cur, ref, p);
          EXPECT_EQ(dpx::test::first_difference(want, run_cuda(dpx::OpsPolicy::kDpx, dcur.view, dref.view, p)), "")
              << "dpx";
          EXPECT_EQ(dpx::test::first_difference(want, run_cuda(dpx::OpsPolicy::kPlain, dcur.view, dref.view, p)), "")
              << "plain";
        }
      }
}

// A frame whose 16 phase planes would pass 2 GiB: the sharp filters' sub-pel search says so
// before any launch (the output keeps its poison); bilinear searches the same frame.
TEST(MotionCuda, SharpSubpelPastThePlanesLimitFailsCleanly) {
  DPX_REQUIRE_GPU();
  const int w = 16382, h = 8191;  // planes of 16384 x 8193 bytes: 16 of them just past 2 GiB
  dpx::DeviceBuffer frame, out;
  ASSERT_TRUE(frame.allocate(static_cast<std::size_t>(w) * h).is_ok());
  ASSERT_EQ(cudaMemset(frame.data(), 0x40, frame.size()), cudaSuccess);
  const dpx::PlaneView view{frame.data(), w, h, static_cast<std::size_t>(w), 1, SampleType::kU8};
  MotionParams p = motion_params(16, 4);
  p.subpel = dpx::MotionSubpel::kQuarter;
  const std::size_t count = dpx::motion_grid(w, h, 16).count();
  ASSERT_TRUE(out.allocate(count * sizeof(MotionVector)).is_ok());
  ASSERT_EQ(cudaMemset(out.data(), dpx::test::kPoisonByte, out.size()), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (dpx::MotionInterpolation mode : {dpx::MotionInterpolation::kH264, dpx::MotionInterpolation::kHevc}) {
    p.interpolation = mode;
    const dpx::Status s = dpx::motion_estimate_cuda(view, view, p, out.as<MotionVector>(), count, nullptr);
    EXPECT_EQ(s.code(), dpx::StatusCode::kUnsupported) << s.message();
    EXPECT_NE(s.message().find("2 GiB"), std::string::npos) << s.message();
  }
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<unsigned char> bytes(out.size());
  ASSERT_EQ(cudaMemcpy(bytes.data(), out.data(), out.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_TRUE(std::all_of(bytes.begin(), bytes.end(), [](unsigned char b) { return b == dpx::test::kPoisonByte; }));
  p.interpolation = dpx::MotionInterpolation::kBilinear;
  EXPECT_TRUE(dpx::motion_estimate_cuda(view, view, p, out.as<MotionVector>(), count, nullptr).is_ok());
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

// The plane builder on the device against the filter, sample by sample (as
// MotionFramePlanes.EverySampleMatchesTheFilter on the host): odd sizes, several tiles, padded
// rows at odd offsets (8-bit), both types and filters, into a poisoned buffer.
TEST(MotionCuda, FramePlanesMatchTheFilter) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  struct Size {
    int w, h, pad;
  };
  const Size sizes[] = {{1, 1, 0}, {17, 9, 3}, {63, 33, 5}, {130, 67, 2}, {641, 359, 7}};
  dpx::Stream stream;
  ASSERT_TRUE(stream.create().is_ok());
  for (SampleType type : {SampleType::kU8, SampleType::kU16})
    for (const Size& s : sizes) {
      const int top = type == SampleType::kU8 ? 255 : 65535, bytes = type == SampleType::kU8 ? 1 : 2;
      const TestPlane ref = dpx::test::random_plane(rng, s.w, s.h, type, top, s.pad * bytes);
      // Rows at odd byte addresses for 8-bit samples; 16-bit samples need even ones (motion_validate).
      const DevicePlane dref = DevicePlane::upload(ref, static_cast<std::size_t>(s.pad * bytes));
      for (dpx::MotionInterpolation mode : {dpx::MotionInterpolation::kHevc, dpx::MotionInterpolation::kH264}) {
        SCOPED_TRACE(std::to_string(s.w) + "x" + std::to_string(s.h) + (bytes == 1 ? " u8 " : " u16 ") +
                     (mode == dpx::MotionInterpolation::kHevc ? "hevc" : "h264"));
        dpx::test::HostFramePlanes host(s.w, s.h, bytes);
        dpx::DeviceBuffer planes;
        ASSERT_TRUE(planes.allocate(host.bytes.size()).is_ok());
        ASSERT_EQ(cudaMemsetAsync(planes.data(), dpx::test::kPoisonByte, planes.size(), stream.get()), cudaSuccess);
        dpx::motion_detail::PhasePlanes device = host.planes;
        device.data = planes.as<unsigned char>();
        ASSERT_TRUE(dpx::motion_detail::build_frame_planes_cuda(dref.view, mode, device, stream.get()).is_ok());
        ASSERT_TRUE(stream.synchronize().is_ok());
        ASSERT_EQ(cudaMemcpy(host.bytes.data(), planes.data(), planes.size(), cudaMemcpyDeviceToHost), cudaSuccess);
        EXPECT_EQ(dpx::test::first_plane_difference(ref, mode, host.bytes, host.planes.layout), "");
      }
    }
}

// The previous field as a device array gives the predictive search the same start as on the CPU.
TEST(MotionCuda, PredictiveWithPreviousFieldMatchesCpu) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  const int w = 333, h = 190, margin = 100;
  const dpx::test::Texture tex(rng, w + 2 * margin, h + 2 * margin, SampleType::kU8);
  const TestPlane ref = tex.frame(w, h, margin, margin, 3), cur = tex.frame(w, h, margin + 71, margin - 40, 3);
  for (int block : {4, 8, 16, 32}) {
    MotionParams p = motion_params(block, 100);
    p.search = dpx::MotionSearch::kPredictive;
    p.subpel = dpx::MotionSubpel::kQuarter;
    p.lambda = 2;
    std::vector<MotionVector> last(dpx::motion_grid(w, h, block).count());
    std::uniform_int_distribution<int> any(-400, 400);
    for (MotionVector& v : last) v.dx = static_cast<std::int16_t>(any(rng)), v.dy = static_cast<std::int16_t>(any(rng));
    dpx::DeviceBuffer d_last;
    ASSERT_TRUE(d_last.allocate(last.size() * sizeof(MotionVector)).is_ok());
    ASSERT_EQ(cudaMemcpy(d_last.data(), last.data(), d_last.size(), cudaMemcpyHostToDevice), cudaSuccess);
    MotionField want;
    ASSERT_TRUE(dpx::motion_estimate_cpu(cur.view(), ref.view(), p, &want, 0, dpx::MotionPrevious{last.data(), 4}).is_ok());
    const DevicePlane dcur = DevicePlane::upload(cur), dref = DevicePlane::upload(ref);
    EXPECT_EQ(dpx::test::first_difference(want, run_cuda(dpx::OpsPolicy::kDpx, dcur.view, dref.view, p,
                                                         dpx::MotionPrevious{d_last.as<MotionVector>(), 4})),
              "")
        << "block " << block;
  }
}

TEST(MotionCuda, ShiftedTextureMatchesCpuAndTheShift) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  const int w = 640, h = 360, margin = 40;
  for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
    const dpx::test::Texture tex(rng, w + 2 * margin, h + 2 * margin, type);
    const TestPlane ref = tex.frame(w, h, margin, margin, 32);
    const int shifts[][2] = {{5, -3}, {-16, 16}, {-29, 11}};
    for (const auto& s : shifts) {
      const TestPlane cur = tex.frame(w, h, margin + s[0], margin + s[1], 32);
      for (int range : {16, 32}) {
        const MotionParams p = motion_params(16, range);
        const DevicePlane dcur = DevicePlane::upload(cur), dref = DevicePlane::upload(ref);
        const MotionField got = run_cuda(dpx::OpsPolicy::kDpx, dcur.view, dref.view, p);
        EXPECT_EQ(dpx::test::first_difference(dpx::test::run_motion_cpu(cur, ref, p), got), "");
        if (std::abs(s[0]) <= range && std::abs(s[1]) <= range) {
          const MotionVector& v = got.at(got.grid.columns / 2, got.grid.rows / 2);
          EXPECT_EQ(v.dx, s[0]);
          EXPECT_EQ(v.dy, s[1]);
          EXPECT_EQ(v.sad, 0u);
        }
      }
    }
  }
}

TEST(MotionCuda, RejectsBadInputWithoutLaunching) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  const TestPlane a = dpx::test::random_plane(rng, 64, 32, SampleType::kU8, 255);
  const DevicePlane da = DevicePlane::upload(a), db = DevicePlane::upload(a);
  const std::size_t count = dpx::motion_grid(64, 32, 16).count();
  dpx::DeviceBuffer out;
  ASSERT_TRUE(out.allocate(count * sizeof(MotionVector)).is_ok());
  auto call = [&](const dpx::PlaneView& cur, const dpx::PlaneView& ref, const MotionParams& p, MotionVector* v,
                  std::size_t capacity) { return dpx::motion_estimate_cuda(cur, ref, p, v, capacity, nullptr); };
  auto* vectors = out.as<MotionVector>();
  EXPECT_EQ(call(da.view, db.view, motion_params(16, 8), nullptr, count).code(), dpx::StatusCode::kInvalidArgument);
  const dpx::Status small = call(da.view, db.view, motion_params(16, 8), vectors, count - 1);
  EXPECT_EQ(small.code(), dpx::StatusCode::kInvalidArgument);
  EXPECT_NE(small.message().find("needs " + std::to_string(count)), std::string::npos) << small.message();
  EXPECT_EQ(call(da.view, db.view, motion_params(7, 8), vectors, count).code(), dpx::StatusCode::kInvalidArgument);
  EXPECT_EQ(call(da.view, db.view, motion_params(16, 99), vectors, count).code(), dpx::StatusCode::kInvalidArgument);
  MotionParams bad_lambda = motion_params(16, 8);
  bad_lambda.lambda = -3;
  EXPECT_EQ(call(da.view, db.view, bad_lambda, vectors, count).code(), dpx::StatusCode::kInvalidArgument);
  // Host memory the GPU cannot read where device memory belongs: an error, and the context stays
  // usable (a GPU with pageable-memory access reads it).
  int device = 0, pageable = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, device), cudaSuccess);
  if (!pageable) {
    MotionParams predictive = motion_params(16, 8);
    predictive.search = dpx::MotionSearch::kPredictive;
    std::vector<MotionVector> host_previous(count);
    const dpx::Status host_prev = dpx::motion_estimate_cuda(da.view, db.view, predictive, vectors, count, nullptr,
                                                            dpx::MotionPrevious{host_previous.data(), 1});
    EXPECT_EQ(host_prev.code(), dpx::StatusCode::kInvalidArgument);
    EXPECT_NE(host_prev.message().find("previous"), std::string::npos) << host_prev.message();
    const dpx::Status host = call(a.view(), db.view, motion_params(16, 8), vectors, count);
    EXPECT_EQ(host.code(), dpx::StatusCode::kInvalidArgument);
    EXPECT_NE(host.message().find("current is ordinary host memory"), std::string::npos) << host.message();
    std::vector<MotionVector> host_out(count);
    EXPECT_EQ(call(da.view, db.view, motion_params(16, 8), host_out.data(), count).code(),
              dpx::StatusCode::kInvalidArgument);
  }
  EXPECT_TRUE(call(da.view, db.view, motion_params(16, 8), vectors, count).is_ok());
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

}  // namespace
