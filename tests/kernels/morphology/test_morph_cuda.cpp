// The CUDA morphology against the CPU one (itself held to the brute-force definition), bit-exact,
// on every case of the CPU matrix plus 4K frames, for each kernel variant (DPX, plain max/min,
// byte SIMD) under each schedule built for it (stream, split, tile32, tile64, registers), the
// one-pass cross / ellipse schedule, the separable passes on block maxima, and the public entry
// (with the default's paths for the large elements).
// Outputs are poisoned before each run; the pitch padding and the bytes before the first row must
// come back untouched.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cuda_check.h"
#include "dpx/device.h"
#include "dpx/morphology.h"
#include "morph_launch.h"
#include "morph_test_util.h"
#include "morph_variants.h"
#include "test_util.h"

namespace dpx {
namespace test {
namespace {

using variants::MorphKernel;
using variants::MorphSchedule;

// A host plane's whole buffer (offset bytes, rows and pitch padding) mirrored on the device, so
// device pointers and pitches have the same alignment as the host ones.
class DevicePlane {
 public:
  Status upload(const HostPlane& host, cudaStream_t stream) {
    host_ = &host;
    DPX_RETURN_IF_ERROR(buf_.allocate(host.bytes.size()));
    DPX_CUDA_TRY(cudaMemcpyAsync(buf_.data(), host.bytes.data(), host.bytes.size(), cudaMemcpyHostToDevice, stream));
    return Status::ok();
  }
  Status download(HostPlane& host, cudaStream_t stream) const {
    DPX_CUDA_TRY(cudaMemcpyAsync(host.bytes.data(), buf_.data(), host.bytes.size(), cudaMemcpyDeviceToHost, stream));
    DPX_CUDA_TRY(cudaStreamSynchronize(stream));
    return Status::ok();
  }
  PlaneView view() const {
    return PlaneView{buf_.as<std::uint8_t>() + host_->offset, host_->width, host_->height, host_->pitch,
                     host_->channels, host_->type};
  }
  MutablePlaneView mutable_view() const {
    return MutablePlaneView{buf_.as<std::uint8_t>() + host_->offset, host_->width, host_->height, host_->pitch,
                            host_->channels, host_->type};
  }

 private:
  const HostPlane* host_ = nullptr;
  DeviceBuffer buf_;
};

std::vector<MorphKernel> kernels_for(SampleType type) {
  if (type == SampleType::kU16) return {MorphKernel::kDpx, MorphKernel::kPlain};
  return {MorphKernel::kDpx, MorphKernel::kPlain, MorphKernel::kByteSimd};
}

// The schedules built for a variant and case: all of them at 4 rows per thread; for the DPX kernel
// kTile64 on one channel and rect, and kRegisters2 there and wherever it is the default
// (morph_launch.h).
std::vector<MorphSchedule> schedules_for(MorphKernel kernel, SampleType type, int channels, const MorphParams& params) {
  std::vector<MorphSchedule> s = {MorphSchedule::kStream, MorphSchedule::kSplit, MorphSchedule::kTile32,
                                   MorphSchedule::kRegisters};
  if (kernel != MorphKernel::kDpx) return s;
  const bool one_channel_rect = channels == 1 && params.shape == MorphShape::kRect;
  if (one_channel_rect) s.push_back(MorphSchedule::kTile64);
  if (one_channel_rect || variants::morph_default_schedule(type, morph_width(params)) == MorphSchedule::kRegisters2) {
    s.push_back(MorphSchedule::kRegisters2);
  }
  return s;
}

HostPlane cpu_result(const HostPlane& src, const MorphParams& params) {
  HostPlane want = make_plane(src.width, src.height, src.channels, src.type);
  const Status s = morph_cpu(src.view(), want.mutable_view(), params);
  EXPECT_TRUE(s.is_ok()) << s.message();
  return want;
}

// Runs run(src, dst, stream) (a variant's call) on a poisoned copy of `dst_layout` and compares
// with `want`.
template <class Run>
void expect_run_matches(const HostPlane& want, const HostPlane& src, const HostPlane& dst_layout,
                        const Run& run, const std::string& what) {
  Stream stream;
  ASSERT_TRUE(stream.create().is_ok());
  HostPlane got = dst_layout;
  DevicePlane d_src, d_dst;
  Status s = d_src.upload(src, stream.get());
  ASSERT_TRUE(s.is_ok()) << s.message();
  s = d_dst.upload(got, stream.get());
  ASSERT_TRUE(s.is_ok()) << s.message();
  s = run(d_src.view(), d_dst.mutable_view(), stream.get());
  ASSERT_TRUE(s.is_ok()) << what << ": " << s.message();
  s = d_dst.download(got, stream.get());
  ASSERT_TRUE(s.is_ok()) << what << ": " << s.message();
  EXPECT_EQ(first_difference(want, got), "") << what;
  EXPECT_TRUE(padding_untouched(got)) << what << ": wrote into the pitch padding or before the first row";
}

// One kernel variant under one schedule; `scratch` is passed through (nullptr: stream-ordered
// allocation inside the call).
void expect_gpu_matches(const HostPlane& want, const HostPlane& src, const HostPlane& dst_layout,
                        const MorphParams& params, MorphKernel kernel, MorphSchedule schedule,
                        DeviceBuffer* scratch, const std::string& what_case) {
  const std::string what = what_case + " [" + variants::morph_kernel_name(kernel) + "-" +
                           variants::morph_schedule_name(schedule) + "]";
  expect_run_matches(
      want, src, dst_layout,
      [&](const PlaneView& in, const MutablePlaneView& out, cudaStream_t stream) {
        return variants::morph_cuda(kernel, schedule, in, out, params, stream, scratch);
      },
      what);
}

// The one-pass cross / ellipse schedule.
void expect_shape_tile_matches(const HostPlane& want, const HostPlane& src, const HostPlane& dst_layout,
                               const MorphParams& params, DeviceBuffer* scratch,
                               const std::string& what_case) {
  expect_run_matches(
      want, src, dst_layout,
      [&](const PlaneView& in, const MutablePlaneView& out, cudaStream_t stream) {
        return variants::morph_cuda_shape_tile(in, out, params, stream, scratch);
      },
      what_case + " [" + variants::kShapeTileName + "]");
}

// dst layouts: the source's own, and a different pitch/offset so src and dst alignment differ.
HostPlane other_layout(const Geometry& g, int channels, SampleType type) {
  if (g.align16) return make_plane(g.width, g.height, channels, type, g.pitch_pad + 5, 1);
  return make_plane(Geometry{g.width, g.height, g.pitch_pad + 16 / sample_bytes(type), 0, true}, channels, type);
}

// For each geometry and 1, 2, 3 iterations: a random source, a dst of the same layout and one of
// another, the CPU result; check(want, src, same, other, iterations, what) runs the GPU variants.
template <class Check>
void for_each_frame(const std::vector<Geometry>& geometries, MorphCase c, const Check& check) {
  std::mt19937_64 rng = seeded_rng();
  for (const Geometry& g : geometries) {
    HostPlane src = make_plane(g, c.channels, c.type);
    fill_random(src, rng);
    const HostPlane same = make_plane(g, c.channels, c.type);
    const HostPlane other = other_layout(g, c.channels, c.type);
    for (int iterations : {1, 2, 3}) {
      c.params.iterations = iterations;
      const std::string what = describe(c) + " " + std::to_string(g.width) + "x" + std::to_string(g.height) +
                               " pitch " + std::to_string(src.pitch) + " offset " + std::to_string(src.offset);
      check(cpu_result(src, c.params), src, same, other, c.params, what);
    }
  }
}

class MorphCudaMatrix : public ::testing::TestWithParam<MorphCase> {};

TEST_P(MorphCudaMatrix, MatchesCpuOnEdgeGeometries) {
  DPX_REQUIRE_GPU();
  const MorphCase c = GetParam();
  DeviceBuffer scratch;  // reused across the calls, grown as needed
  for_each_frame(edge_geometries(), c,
                 [&](const HostPlane& want, const HostPlane& src, const HostPlane& same, const HostPlane& other,
                     const MorphParams& p, const std::string& what) {
                   for (MorphKernel k : kernels_for(c.type)) {
                     for (MorphSchedule sched : schedules_for(k, c.type, c.channels, p)) {
                       expect_gpu_matches(want, src, same, p, k, sched, p.iterations == 2 ? nullptr : &scratch, what);
                       expect_gpu_matches(want, src, other, p, k, sched, &scratch, what + " (other dst layout)");
                     }
                   }
                 });
}

INSTANTIATE_TEST_SUITE_P(AllCases, MorphCudaMatrix, ::testing::ValuesIn(all_morph_cases()));

// Every operation, shape, size class and border (the CPU matrix's cases), default variant and
// schedule, both dst layouts, with and without reused scratch.
class MorphCudaOperations : public ::testing::TestWithParam<MorphCase> {};

TEST_P(MorphCudaOperations, MatchCpu) {
  DPX_REQUIRE_GPU();
  const MorphCase c = GetParam();
  const MorphKernel k = MorphKernel::kDpx;
  DeviceBuffer scratch;
  for_each_frame(operation_geometries(c.params), c,
                 [&](const HostPlane& want, const HostPlane& src, const HostPlane& same, const HostPlane& other,
                     const MorphParams& p, const std::string& what) {
                   const MorphSchedule sched = variants::morph_default_schedule(c.type, morph_width(p));
                   expect_gpu_matches(want, src, same, p, k, sched, nullptr, what);
                   expect_gpu_matches(want, src, other, p, k, sched, &scratch, what + " (other dst layout)");
                 });
}

INSTANTIATE_TEST_SUITE_P(AllOperations, MorphCudaOperations, ::testing::ValuesIn(operation_cases()));

// The one-pass cross / ellipse schedule on the CPU matrix's crosses and ellipses: every operation,
// size class, border, channel count and type, 1 to 3 iterations, both dst layouts.
class MorphCudaShapeTile : public ::testing::TestWithParam<MorphCase> {};

TEST_P(MorphCudaShapeTile, MatchesCpu) {
  DPX_REQUIRE_GPU();
  const MorphCase c = GetParam();
  DeviceBuffer scratch;
  for_each_frame(operation_geometries(c.params), c,
                 [&](const HostPlane& want, const HostPlane& src, const HostPlane& same,
                     const HostPlane& other, const MorphParams& p, const std::string& what) {
                   expect_shape_tile_matches(want, src, same, p, nullptr, what);
                   expect_shape_tile_matches(want, src, other, p, &scratch, what + " (other dst layout)");
                 });
}

std::vector<MorphCase> shape_cases() {
  std::vector<MorphCase> cases;
  for (const MorphCase& c : operation_cases()) {
    if (c.params.shape != MorphShape::kRect) cases.push_back(c);
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(CrossesAndEllipses, MorphCudaShapeTile, ::testing::ValuesIn(shape_cases()));

// Which pass a cross or ellipse takes (detail::morph_element_pass): the bars box pass where the
// widest row window fits a box pass on rows of whole words in both planes (crosses up to 63 rows
// high), else the one-pass schedule for the larger ellipses, else the separable passes; the square
// 3x3 / 5x5 ones are the fused kernel's.
TEST(MorphCuda, CrossesAndEllipsesTakeTheBarsBoxPassWhereItFits) {
  using detail::ElementPass;
  const auto path = [](int channels, SampleType type, MorphShape shape, int size, std::size_t src_pad = 0,
                       std::size_t dst_pad = 0) {
    const std::size_t row = 3840u * channels * sample_bytes(type);
    const void* base = reinterpret_cast<const void*>(std::uintptr_t{1} << 20);
    const PlaneView src{base, 3840, 2160, row + src_pad, channels, type};
    const PlaneView dst{base, 3840, 2160, row + dst_pad, channels, type};
    MorphParams p;
    p.shape = shape;
    p.size = size;
    return detail::morph_element_pass(src, dst, p);
  };
  EXPECT_EQ(path(1, SampleType::kU8, MorphShape::kEllipse, 63), ElementPass::kBarsBox);
  EXPECT_EQ(path(1, SampleType::kU8, MorphShape::kCross, 63), ElementPass::kBarsBox);
  EXPECT_EQ(path(1, SampleType::kU8, MorphShape::kCross, 65), ElementPass::kSeparable)
      << "a long column window";
  EXPECT_EQ(path(1, SampleType::kU8, MorphShape::kEllipse, 7), ElementPass::kBarsBox);
  EXPECT_EQ(path(1, SampleType::kU16, MorphShape::kEllipse, 33), ElementPass::kBarsBox);
  EXPECT_EQ(path(1, SampleType::kU16, MorphShape::kEllipse, 35), ElementPass::kOnePass);
  EXPECT_EQ(path(4, SampleType::kU8, MorphShape::kEllipse, 17), ElementPass::kBarsBox);
  EXPECT_EQ(path(4, SampleType::kU8, MorphShape::kEllipse, 19), ElementPass::kSeparable);
  EXPECT_EQ(path(4, SampleType::kU8, MorphShape::kEllipse, 31), ElementPass::kOnePass);
  EXPECT_EQ(path(1, SampleType::kU8, MorphShape::kEllipse, 63, 2), ElementPass::kOnePass)
      << "src: half words";
  EXPECT_EQ(path(1, SampleType::kU8, MorphShape::kEllipse, 63, 0, 2), ElementPass::kOnePass)
      << "dst: half words";
  EXPECT_EQ(path(1, SampleType::kU8, MorphShape::kEllipse, 15, 0, 2), ElementPass::kSeparable)
      << "dst: half words";
  EXPECT_EQ(path(1, SampleType::kU8, MorphShape::kEllipse, 5), ElementPass::kSeparable)
      << "the fused kernel's";
  EXPECT_EQ(path(1, SampleType::kU8, MorphShape::kRect, 31), ElementPass::kSeparable);
}

// The bars box pass through the public entry on one frame of several blocks across and down (a
// padded, 16-byte aligned pitch, rows of whole words in every type and channel count): crosses and
// ellipses with one- and two-pixel row steps and the general row window, a cross 63 rows high (a
// long shared core), runs of 4 and 8 rows, u8 and u16, one and two channels, every border rule,
// dilate and erode. Small enough for racecheck (the tile's barriers).
TEST(MorphCuda, BarsBoxPassMatchesCpu) {
  DPX_REQUIRE_GPU();
  std::mt19937_64 rng = seeded_rng();
  struct Element {
    MorphShape shape;
    int width, height;
  };
  const Element elements[] = {{MorphShape::kEllipse, 15, 15},
                              {MorphShape::kEllipse, 31, 9},
                              {MorphShape::kEllipse, 63, 63},
                              {MorphShape::kCross, 9, 5},
                              {MorphShape::kCross, 15, 63}};
  const Geometry g{332, 211, 5, 0, true};
  int turn = 0, ran = 0;
  for (const Element& e : elements) {
    for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
      for (int channels : {1, 2}) {
        MorphCase mc;
        mc.params.op = turn % 2 == 0 ? MorphOp::kDilate : MorphOp::kErode;
        mc.params.shape = e.shape;
        mc.params.width = e.width;
        mc.params.height = e.height;
        mc.params.border = static_cast<BorderMode>(turn % 3);
        mc.channels = channels;
        mc.type = type;
        ++turn;
        HostPlane src = make_plane(g, channels, type);
        fill_random(src, rng);
        const PlaneView frame = src.view();
        if (detail::morph_element_pass(frame, frame, mc.params) != detail::ElementPass::kBarsBox) continue;
        const std::string what =
            describe(mc) + " " + std::to_string(g.width) + "x" + std::to_string(g.height);
        expect_gpu_matches(cpu_result(src, mc.params), src, make_plane(g, channels, type), mc.params,
                           MorphKernel::kDpx, variants::morph_default_schedule(type, e.width), nullptr, what);
        ++ran;
      }
    }
  }
  // A row window of at most 32 bytes a side fits the box's halo: all but the 63x63 ellipse on two
  // channels or u16 and the 31x9 ellipse on u16 with two channels (half-widths of 60 bytes and more).
  EXPECT_EQ(ran, 16);
}

// The same schedule on frames of many blocks, tight and odd pitches: the sizes dpx-bench times,
// every border, u8 and u16, one and four channels.
TEST(MorphCuda, ShapeTileFramesMatchCpu) {
  DPX_REQUIRE_GPU();
  std::mt19937_64 rng = seeded_rng();
  for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
    for (int channels : {1, 4}) {
      const Geometry g = channels == 1 ? Geometry{1921, 1083, 13, 1, false} : Geometry{640, 361, 0, 0, true};
      HostPlane src = make_plane(g, channels, type);
      fill_random(src, rng);
      for (MorphShape shape : {MorphShape::kCross, MorphShape::kEllipse}) {
        for (int size : {5, 15, 31, 63}) {
          MorphCase mc;
          mc.params.op = (size / 2 + static_cast<int>(shape)) % 2 == 0 ? MorphOp::kDilate : MorphOp::kErode;
          mc.params.shape = shape;
          mc.params.size = size;
          mc.params.border = static_cast<BorderMode>(size % 3);
          mc.channels = channels;
          mc.type = type;
          const std::string what =
              describe(mc) + " " + std::to_string(g.width) + "x" + std::to_string(g.height);
          expect_shape_tile_matches(cpu_result(src, mc.params), src, make_plane(g, channels, type), mc.params,
                                    nullptr, what);
        }
      }
    }
  }
}

// The separable and box passes on full frames: many row tiles and column strips, long windows,
// every channel count, tight and odd pitches.
TEST(MorphCuda, LargeElementsOnFramesMatchCpu) {
  DPX_REQUIRE_GPU();
  std::mt19937_64 rng = seeded_rng();
  struct Case {
    MorphOp op;
    MorphShape shape;
    int width, height, channels;
    SampleType type;
    Geometry g;
  };
  const Case cases[] = {
      {MorphOp::kDilate, MorphShape::kRect, 31, 31, 1, SampleType::kU8, {3840, 2160, 0, 0, false}},
      {MorphOp::kErode, MorphShape::kRect, 255, 255, 1, SampleType::kU16, {1921, 1083, 13, 1, false}},
      {MorphOp::kOpen, MorphShape::kEllipse, 63, 63, 4, SampleType::kU8, {1280, 720, 0, 0, true}},
      {MorphOp::kTopHat, MorphShape::kRect, 1, 255, 2, SampleType::kU16, {999, 777, 7, 0, true}},
      {MorphOp::kGradient, MorphShape::kCross, 63, 7, 1, SampleType::kU8, {3840, 2160, 3, 1, false}},
      {MorphOp::kClose, MorphShape::kRect, 3, 3, 1, SampleType::kU8, {3840, 2160, 0, 0, true}},
      {MorphOp::kBlackHat, MorphShape::kRect, 5, 5, 1, SampleType::kU16, {3840, 2160, 0, 0, true}},
      // Box passes: the widest row window of u16 samples, and two channels with a half chunk at
      // each row's end.
      {MorphOp::kErode, MorphShape::kRect, 33, 17, 1, SampleType::kU16, {1000, 500, 8, 0, false}},
      {MorphOp::kDilate, MorphShape::kEllipse, 15, 21, 2, SampleType::kU8, {1282, 301, 4, 0, false}},
  };
  for (const Case& c : cases) {
    for (BorderMode border : {BorderMode::kReplicate, BorderMode::kReflect101, BorderMode::kNeutral}) {
      MorphCase mc;
      mc.params.op = c.op;
      mc.params.shape = c.shape;
      mc.params.width = c.width;
      mc.params.height = c.height;
      mc.params.border = border;
      mc.channels = c.channels;
      mc.type = c.type;
      HostPlane src = make_plane(c.g, c.channels, c.type);
      fill_random(src, rng);
      const HostPlane want = cpu_result(src, mc.params);
      const std::string what = describe(mc) + " " + std::to_string(c.g.width) + "x" + std::to_string(c.g.height);
      const MorphKernel k = MorphKernel::kDpx;
      expect_gpu_matches(want, src, make_plane(c.g, c.channels, c.type), mc.params, k,
                         variants::morph_default_schedule(c.type, c.width), nullptr, what);
    }
  }
}

// The compound operations with square 3x3 / 5x5 rectangles, one iteration: every operation,
// border, channel count and type, on frames at and just above the element's size, across the
// edges of a block's 256 output bytes and of its row groups, both dst layouts; the default
// schedule (each operation's passes and the difference between planes).
TEST(MorphCuda, CompoundOperationsMatchCpu) {
  DPX_REQUIRE_GPU();
  std::mt19937_64 rng = seeded_rng();
  const Geometry geometries[] = {{3, 3, 0, 0, false},   {5, 5, 1, 1, false},    {6, 9, 0, 0, true},
                                 {17, 8, 3, 1, false},  {121, 17, 0, 0, true}, {241, 33, 5, 3, false},
                                 {481, 19, 0, 0, true}, {1023, 70, 16, 0, true}};
  // The dilate cases' sizes, borders, channel counts and types with each compound operation.
  for (MorphCase mc : all_morph_cases()) {
    if (mc.params.op != MorphOp::kDilate || mc.params.shape != MorphShape::kRect) continue;
    for (MorphOp op : {MorphOp::kOpen, MorphOp::kClose, MorphOp::kGradient, MorphOp::kTopHat, MorphOp::kBlackHat}) {
      mc.params.op = op;
      for (const Geometry& g : geometries) {
        if (g.width < mc.params.size || g.height < mc.params.size) continue;
        HostPlane src = make_plane(g, mc.channels, mc.type);
        fill_random(src, rng);
        const std::string what = describe(mc) + " " + std::to_string(g.width) + "x" + std::to_string(g.height);
        const HostPlane want = cpu_result(src, mc.params);
        for (const HostPlane& dst : {make_plane(g, mc.channels, mc.type), other_layout(g, mc.channels, mc.type)}) {
          expect_gpu_matches(want, src, dst, mc.params, MorphKernel::kDpx,
                             variants::morph_default_schedule(mc.type, mc.params.size), nullptr, what);
        }
      }
    }
  }
}

// The library with the separable row and column passes on block maxima (morph_cuda_block_maxima):
// the rectangles dpx-bench times and small ones, u8 and u16, every border, dilate and erode, on
// one pixel, frames smaller than the element, odd widths and padded, misaligned pitches, 4K; and
// the elements whose column bar merges with a row bar (a cross, an ellipse) through iterations
// (the 13x11 ellipse on the separable passes; the 63x45 one takes the one-pass schedule, as in
// the library).
TEST(MorphCuda, BlockMaximaPassesMatchCpu) {
  DPX_REQUIRE_GPU();
  std::mt19937_64 rng = seeded_rng();
  struct Case {
    MorphOp op;
    MorphShape shape;
    int width, height, iterations;
  };
  std::vector<Case> cases;
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{3, 1}, {1, 3}, {5, 7}, {31, 31}, {63, 63}, {127, 127},
                                                             {255, 255}, {255, 1}, {1, 255}, {1, 33}, {9, 65}}) {
    for (MorphOp op : {MorphOp::kDilate, MorphOp::kErode}) cases.push_back({op, MorphShape::kRect, w, h, 1});
  }
  cases.push_back({MorphOp::kOpen, MorphShape::kCross, 63, 63, 2});
  cases.push_back({MorphOp::kGradient, MorphShape::kEllipse, 63, 45, 1});
  cases.push_back({MorphOp::kClose, MorphShape::kEllipse, 13, 11, 2});
  const Geometry frames[] = {{1, 1, 0, 0, false}, {37, 19, 1, 1, false}, {261, 300, 3, 1, false},
                             {1921, 1083, 13, 1, false}, {3840, 2160, 0, 0, false}};
  int turn = 0;
  for (const Case& c : cases) {
    for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
      for (const Geometry& g : frames) {
        MorphCase mc;
        mc.params.op = c.op;
        mc.params.shape = c.shape;
        mc.params.width = c.width;
        mc.params.height = c.height;
        mc.params.iterations = c.iterations;
        mc.params.border = static_cast<BorderMode>(turn % 3);
        mc.channels = g.width < 1000 ? 1 << (turn % 3) : 1;
        mc.type = type;
        ++turn;
        HostPlane src = make_plane(g, mc.channels, type);
        fill_random(src, rng);
        const std::string what = describe(mc) + " " + std::to_string(g.width) + "x" + std::to_string(g.height) +
                                 " pitch " + std::to_string(src.pitch) + " [" + variants::kBlockMaximaName +
                                 "]";
        const MorphParams& p = mc.params;
        expect_run_matches(
            cpu_result(src, p), src, other_layout(g, mc.channels, type),
            [&](const PlaneView& in, const MutablePlaneView& out, cudaStream_t stream) {
              return variants::morph_cuda_block_maxima(in, out, p, stream, nullptr);
            },
            what);
      }
    }
  }
}

// The public entry on the elements whose default takes block maxima (windows of 127 samples or more on u8,
// 129 on u16), the bars box pass (ellipses whose row windows fit a box pass: all but u16 wider than
// 33 and u8 of four channels wider than 17; crosses up to 31 rows high) or the one-pass schedule (the larger
// ellipses), and those just below the thresholds (morph_launch.h): u8 and u16, every border, dilate and
// erode, odd frame sizes from one pixel to larger than the element with padded, misaligned pitches; every
// channel count, iterations and a compound operation on some.
TEST(MorphCuda, DefaultPathsOfLargeElementsMatchCpu) {
  DPX_REQUIRE_GPU();
  DeviceBuffer scratch;  // every other call: the rest take stream-ordered memory
  std::mt19937_64 rng = seeded_rng();
  struct Element {
    MorphShape shape;
    int width, height;
  };
  const Element elements[] = {
      {MorphShape::kRect, 255, 255},  {MorphShape::kRect, 255, 1},    {MorphShape::kRect, 1, 255},
      {MorphShape::kRect, 127, 127},  {MorphShape::kRect, 127, 255},  {MorphShape::kEllipse, 31, 31},
      {MorphShape::kEllipse, 63, 63}, {MorphShape::kEllipse, 29, 29}, {MorphShape::kEllipse, 15, 15},
      {MorphShape::kEllipse, 13, 13}, {MorphShape::kEllipse, 63, 31}, {MorphShape::kRect, 125, 127},
      {MorphShape::kCross, 63, 63},   {MorphShape::kCross, 31, 31},   {MorphShape::kCross, 7, 9},
      {MorphShape::kEllipse, 33, 33}, {MorphShape::kEllipse, 35, 35}, {MorphShape::kEllipse, 7, 61}};
  const Geometry frames[] = {{1, 1, 0, 0, false}, {37, 19, 1, 1, false}, {301, 287, 3, 1, false},
                             {1001, 517, 0, 0, true}};
  int turn = 0;
  for (const Element& e : elements) {
    for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
      for (BorderMode border : {BorderMode::kReplicate, BorderMode::kReflect101, BorderMode::kNeutral}) {
        for (MorphOp op : {MorphOp::kDilate, MorphOp::kErode}) {
          for (const Geometry& g : frames) {
            MorphCase mc;
            mc.params.op = turn % 7 == 6 ? MorphOp::kGradient : op;
            mc.params.shape = e.shape;
            mc.params.width = e.width;
            mc.params.height = e.height;
            mc.params.border = border;
            mc.params.iterations = turn % 5 == 4 ? 2 : 1;
            mc.channels = 1 << (turn % 3);
            mc.type = type;
            ++turn;
            HostPlane src = make_plane(g, mc.channels, type);
            fill_random(src, rng);
            const std::string what = describe(mc) + " " + std::to_string(g.width) + "x" +
                                     std::to_string(g.height) + " pitch " + std::to_string(src.pitch) + " [default]";
            const MorphParams& p = mc.params;
            expect_run_matches(
                cpu_result(src, p), src, other_layout(g, mc.channels, type),
                [&](const PlaneView& in, const MutablePlaneView& out, cudaStream_t s) {
                  return morph_cuda(in, out, p, s, turn % 2 == 0 ? &scratch : nullptr);
                },
                what);
          }
        }
      }
    }
  }
}

// Full frames, tight and odd pitches, every variant and schedule; dilate and erode. Here the
// streaming schedule's bands are several groups long, so its ring wraps.
TEST(MorphCuda, Frames4kMatchCpu) {
  DPX_REQUIRE_GPU();
  std::mt19937_64 rng = seeded_rng();
  for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
    for (const Geometry& g : {Geometry{3840, 2160, 0, 0, false}, Geometry{3840, 2160, 13, 1, false},
                              Geometry{1921, 1083, 64, 0, true}}) {
      HostPlane src = make_plane(g, 1, type);
      fill_random(src, rng);
      const HostPlane dst = make_plane(g, 1, type);
      for (MorphOp op : {MorphOp::kDilate, MorphOp::kErode}) {
        for (int size : {3, 5}) {
          MorphParams p;
          p.op = op;
          p.size = size;
          const std::string what = std::string(op == MorphOp::kDilate ? "dilate" : "erode") + " rect " +
                                   std::to_string(size) + " " + std::to_string(g.width) + "x" +
                                   std::to_string(g.height) + " pitch " + std::to_string(src.pitch) +
                                   (type == SampleType::kU8 ? " u8" : " u16");
          const HostPlane want = cpu_result(src, p);
          for (MorphKernel k : kernels_for(type)) {
            for (MorphSchedule sched : schedules_for(k, type, 1, p)) {
              expect_gpu_matches(want, src, dst, p, k, sched, nullptr, what);
            }
          }
        }
      }
    }
  }
}

// The public entry: validation, the default variant, both ways of getting the intermediate
// plane, and a second poison value (so an unwritten pixel cannot hide behind a lucky match).
TEST(MorphCuda, PublicEntryMatchesCpu) {
  DPX_REQUIRE_GPU();
  std::mt19937_64 rng = seeded_rng();
  Stream stream;
  ASSERT_TRUE(stream.create().is_ok());
  DeviceBuffer scratch;
  for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
    for (int channels : {1, 2, 4}) {
      HostPlane src = make_plane(Geometry{333, 211, 7, 0, true}, channels, type);
      fill_random(src, rng);
      for (int iterations : {1, 4}) {
        for (bool own_scratch : {false, true}) {
          MorphParams p;
          p.op = MorphOp::kErode;
          p.shape = MorphShape::kEllipse;
          p.size = 5;
          p.iterations = iterations;
          p.border = BorderMode::kNeutral;
          const HostPlane want = cpu_result(src, p);
          HostPlane got = make_plane(Geometry{333, 211, 3, 0, false}, channels, type);
          std::fill(got.bytes.begin(), got.bytes.end(), static_cast<std::uint8_t>(~kPoisonByte));
          const std::vector<std::uint8_t> poisoned = got.bytes;
          DevicePlane d_src, d_dst;
          ASSERT_TRUE(d_src.upload(src, stream.get()).is_ok());
          ASSERT_TRUE(d_dst.upload(got, stream.get()).is_ok());
          const Status s = morph_cuda(d_src.view(), d_dst.mutable_view(), p, stream.get(),
                                      own_scratch ? &scratch : nullptr);
          ASSERT_TRUE(s.is_ok()) << s.message();
          ASSERT_TRUE(d_dst.download(got, stream.get()).is_ok());
          EXPECT_EQ(first_difference(want, got), "") << channels << "ch iterations " << iterations;
          for (int y = 0; y < got.height; ++y) {
            const std::size_t row = static_cast<std::size_t>(y) * got.pitch;
            for (std::size_t i = row + got.row_bytes(); i < row + got.pitch; ++i)
              ASSERT_EQ(got.bytes[i], poisoned[i]) << "pitch padding written at row " << y;
          }
        }
      }
    }
  }
}

// kTile64 is built for the DPX kernel on one-channel rect windows only; elsewhere it says so.
TEST(MorphCuda, Tile64OutsideItsCasesIsUnsupported) {
  DPX_REQUIRE_GPU();
  HostPlane src = make_plane(40, 20, 2, SampleType::kU8), dst = make_plane(40, 20, 2, SampleType::kU8);
  std::mt19937_64 rng = seeded_rng();
  fill_random(src, rng);
  Stream stream;
  ASSERT_TRUE(stream.create().is_ok());
  DevicePlane d_src, d_dst;
  ASSERT_TRUE(d_src.upload(src, stream.get()).is_ok());
  ASSERT_TRUE(d_dst.upload(dst, stream.get()).is_ok());
  const Status s = variants::morph_cuda(MorphKernel::kDpx, MorphSchedule::kTile64, d_src.view(), d_dst.mutable_view(),
                                        MorphParams{}, stream.get(), nullptr);
  EXPECT_EQ(s.code(), StatusCode::kUnsupported);
  EXPECT_NE(s.message().find("tile64"), std::string::npos) << s.message();
}

TEST(MorphCuda, ByteSimdRejectsU16) {
  DPX_REQUIRE_GPU();
  HostPlane src = make_plane(8, 8, 1, SampleType::kU16), dst = make_plane(8, 8, 1, SampleType::kU16);
  Stream stream;
  ASSERT_TRUE(stream.create().is_ok());
  DevicePlane d_src, d_dst;
  ASSERT_TRUE(d_src.upload(src, stream.get()).is_ok());
  ASSERT_TRUE(d_dst.upload(dst, stream.get()).is_ok());
  const Status s = variants::morph_cuda(MorphKernel::kByteSimd, variants::MorphSchedule::kRegisters, d_src.view(),
                                        d_dst.mutable_view(), MorphParams{}, stream.get(), nullptr);
  EXPECT_EQ(s.code(), StatusCode::kUnsupported);
  EXPECT_NE(s.message().find("u8"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace test
}  // namespace dpx
