// The stabiliser on CUDA against the CPU, bit for bit: the warp for every
// sample type, channel count, interpolation and border, with turns, zooms and
// subsampled plans, on misaligned rows and poisoned outputs; the analyser's
// fits over a sequence of frames (same vectors, same fit).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "dpx/device.h"
#include "dpx/stabilise.h"
#include "stabilise_test_util.h"
#include "test_util.h"

namespace {

using dpx::Similarity;
using dpx::test::HostImage;

// A device copy of a host image `offset` bytes into its buffer, and a poisoned
// device output.
struct DeviceImage {
  dpx::DeviceBuffer buffer;
  unsigned char *base = nullptr;
  std::size_t bytes = 0;

  DeviceImage(const HostImage &host, std::size_t offset, bool poison_only) {
    bytes = host.pitch * host.height;
    EXPECT_TRUE(buffer.allocate(bytes + offset).is_ok());
    base = buffer.as<unsigned char>() + offset;
    EXPECT_EQ(cudaMemset(buffer.data(), dpx::test::kPoisonByte, bytes + offset),
              cudaSuccess);
    if (!poison_only) {
      EXPECT_EQ(
          cudaMemcpy(base, host.bytes.data(), bytes, cudaMemcpyHostToDevice),
          cudaSuccess);
    }
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  }
  std::vector<std::uint8_t> download() const {
    std::vector<std::uint8_t> out(bytes);
    EXPECT_EQ(cudaMemcpy(out.data(), base, bytes, cudaMemcpyDeviceToHost),
              cudaSuccess);
    return out;
  }
};

TEST(StabiliseCuda, WarpMatchesCpuBitForBit) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  dpx::Stream stream;
  ASSERT_TRUE(stream.create().is_ok());
  int cases = 0;
  for (const auto type : {dpx::SampleType::kU8, dpx::SampleType::kU16})
    for (const int channels : {1, 2, 4})
      for (const auto interp : {dpx::WarpInterpolation::kBilinear,
                                dpx::WarpInterpolation::kBicubic})
        for (const auto border :
             {dpx::WarpBorder::kBlack, dpx::WarpBorder::kReplicate})
          for (const int sub : {1, 2}) {
            const int w = 97 + 13 * sub, h = 41 + 7 * channels;
            const HostImage src =
                dpx::test::random_image(rng, w, h, channels, type, 2 * sub);
            HostImage cpu(w, h, channels, type, 2 * sub);
            const Similarity s{8 * u(rng), 8 * u(rng), 0.05 * u(rng),
                               1 + 0.03 * u(rng)};
            dpx::WarpPlan plan =
                dpx::warp_plan(s, 1 + 0.1 * (u(rng) + 1), w * sub, h * sub, sub,
                               sub, interp, border);
            for (int c = 0; c < 4; ++c)
              plan.fill[c] = static_cast<std::uint16_t>(37 * c + 5);
            ASSERT_TRUE(
                dpx::warp_plane_cpu(src.view(), cpu.mutable_view(), plan)
                    .is_ok());
            const std::size_t offset = type == dpx::SampleType::kU8 ? 3 : 2;
            DeviceImage dsrc(src, offset, false), ddst(cpu, offset, true);
            dpx::PlaneView sv = src.view();
            sv.data = dsrc.base;
            dpx::MutablePlaneView dv = cpu.mutable_view();
            dv.data = ddst.base;
            ASSERT_TRUE(
                dpx::warp_plane_cuda(sv, dv, plan, stream.get()).is_ok());
            ASSERT_TRUE(stream.synchronize().is_ok());
            const auto gpu = ddst.download();
            for (int y = 0; y < h; ++y)
              ASSERT_EQ(0, std::memcmp(gpu.data() + y * cpu.pitch,
                                       cpu.bytes.data() + y * cpu.pitch,
                                       cpu.pitch - 2 * sub))
                  << "row " << y << " channels " << channels << " sub " << sub;
            ++cases;
          }
  EXPECT_EQ(cases, 48);
}

TEST(StabiliseCuda, AnalyserMatchesCpu) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const HostImage scene = dpx::test::random_scene(rng, 900, 600);
  dpx::MotionAnalyser cpu, gpu;
  dpx::Stream stream;
  ASSERT_TRUE(stream.create().is_ok());
  for (int i = 0; i < 6; ++i) {
    const Similarity cam{6 * u(rng), 6 * u(rng), 0.01 * u(rng), 1};
    const HostImage frame = dpx::test::view_of(scene, cam, 120, 100, 656, 368);
    DeviceImage d(frame, 1, false);
    dpx::PlaneView dv = frame.view();
    dv.data = d.base;
    dpx::FrameMotion a, b;
    ASSERT_TRUE(cpu.analyse_cpu(frame.view(), 0, &a).is_ok());
    ASSERT_TRUE(gpu.analyse_cuda(dv, 0, stream.get(), &b).is_ok());
    ASSERT_EQ(a.measured, b.measured);
    EXPECT_EQ(a.fit.reliable, b.fit.reliable);
    EXPECT_EQ(a.fit.inliers, b.fit.inliers);
    EXPECT_EQ(a.fit.candidates, b.fit.candidates);
    EXPECT_EQ(a.motion().tx, b.motion().tx);
    EXPECT_EQ(a.motion().ty, b.motion().ty);
    EXPECT_EQ(a.motion().angle, b.motion().angle);
    EXPECT_EQ(a.motion().scale, b.motion().scale);
    ASSERT_EQ(cpu.field().vectors.size(), gpu.field().vectors.size());
    EXPECT_EQ(
        0, std::memcmp(cpu.field().vectors.data(), gpu.field().vectors.data(),
                       cpu.field().vectors.size() * sizeof(dpx::MotionVector)));
  }
}

} // namespace
