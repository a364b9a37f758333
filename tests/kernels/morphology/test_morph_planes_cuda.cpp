// dpx::morph_cuda_planes against morph_cpu per plane, bit for bit: the plane sets of real formats
// (NV12/P010: luma + interleaved chroma, I420: three planes, RGBA: one four-channel plane), odd
// sizes, every shape, both sizes, iterations with and without scratch; and the large elements,
// which run plane by plane on the passes morph_cuda chooses. Outputs are poisoned; the pitch
// padding must come back untouched.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dpx/morph_planes.h"
#include "morph_test_util.h"
#include "test_util.h"

namespace dpx {
namespace test {
namespace {

struct PlaneSpec {
  int width, height, channels;
};

// The planes of one frame: host sources, host results and one device copy of each.
struct Frame {
  std::vector<HostPlane> src, got;
  std::vector<DeviceBuffer> d_src, d_got;
};

Frame make_frame(const std::vector<PlaneSpec>& specs, SampleType type, std::mt19937_64& rng) {
  Frame f;
  for (const PlaneSpec& s : specs) {
    f.src.push_back(make_plane(Geometry{s.width, s.height, 3, 0, true}, s.channels, type));
    fill_random(f.src.back(), rng);
    f.got.push_back(make_plane(Geometry{s.width, s.height, 1, 1, false}, s.channels, type));
    std::fill(f.got.back().bytes.begin(), f.got.back().bytes.end(), kPoisonByte);
    f.d_src.emplace_back();
    f.d_got.emplace_back();
  }
  return f;
}

// Uploads, runs morph_cuda_planes on `stream`, downloads.
Status run(Frame& f, const MorphParams& p, cudaStream_t stream, DeviceBuffer* scratch) {
  std::vector<MorphPlane> planes;
  for (std::size_t i = 0; i < f.src.size(); ++i) {
    for (auto [host, dev] : {std::pair{&f.src[i], &f.d_src[i]}, std::pair{&f.got[i], &f.d_got[i]}}) {
      DPX_RETURN_IF_ERROR(dev->allocate(host->bytes.size()));
      // On the kernels' stream: a plain cudaMemcpy runs on the legacy stream, which this non-blocking
      // stream does not wait for, and a pageable upload can return before its DMA ends.
      if (cudaMemcpyAsync(dev->data(), host->bytes.data(), host->bytes.size(), cudaMemcpyHostToDevice,
                          stream) != cudaSuccess)
        return Status(StatusCode::kCudaError, "upload");
    }
    const HostPlane& s = f.src[i];
    const HostPlane& g = f.got[i];
    planes.push_back({PlaneView{f.d_src[i].as<std::uint8_t>() + s.offset, s.width, s.height, s.pitch, s.channels, s.type},
                      MutablePlaneView{f.d_got[i].as<std::uint8_t>() + g.offset, g.width, g.height, g.pitch,
                                       g.channels, g.type}});
  }
  DPX_RETURN_IF_ERROR(morph_cuda_planes(planes.data(), static_cast<int>(planes.size()), p, stream, scratch));
  if (cudaStreamSynchronize(stream) != cudaSuccess) return Status(StatusCode::kCudaError, "synchronize");
  for (std::size_t i = 0; i < f.got.size(); ++i) {
    if (cudaMemcpy(f.got[i].bytes.data(), f.d_got[i].data(), f.got[i].bytes.size(), cudaMemcpyDeviceToHost) !=
        cudaSuccess)
      return Status(StatusCode::kCudaError, "download");
  }
  return Status::ok();
}

// Each plane of `f` against morph_cpu on its source; the pitch padding untouched.
void expect_planes_match_cpu(const Frame& f, const MorphParams& p, const std::string& what) {
  for (std::size_t i = 0; i < f.src.size(); ++i) {
    const HostPlane& src = f.src[i];
    HostPlane want = make_plane(src.width, src.height, src.channels, src.type);
    ASSERT_TRUE(morph_cpu(src.view(), want.mutable_view(), p).is_ok());
    EXPECT_EQ(first_difference(want, f.got[i]), "") << what << " plane " << i;
    EXPECT_TRUE(padding_untouched(f.got[i])) << what << " plane " << i;
  }
}

// A stream and scratch for the calls; skips without a device.
class MorphPlanesCuda : public ::testing::Test {
 protected:
  void SetUp() override {
    DPX_REQUIRE_GPU();
    ASSERT_TRUE(stream.create().is_ok());
  }
  Stream stream;
  DeviceBuffer scratch;
};

TEST_F(MorphPlanesCuda, FramesMatchCpuPerPlane) {
  std::mt19937_64 rng = seeded_rng();
  const std::vector<std::pair<std::string, std::vector<PlaneSpec>>> formats = {
      {"NV12 641x361", {{641, 361, 1}, {321, 181, 2}}},
      {"I420 333x211", {{333, 211, 1}, {167, 106, 1}, {167, 106, 1}}},
      {"RGBA 97x5", {{97, 5, 4}}},
      {"Y444+A 1x1", {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}}},
      {"NV12 3840x2160", {{3840, 2160, 1}, {1920, 1080, 2}}},
  };
  for (const auto& [name, specs] : formats) {
    for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
      for (MorphShape shape : {MorphShape::kRect, MorphShape::kCross, MorphShape::kEllipse}) {
        for (int size : {3, 5}) {
          for (int iterations : {1, 2, 3}) {
            MorphParams p;
            p.op = iterations == 2 ? MorphOp::kErode : MorphOp::kDilate;
            p.shape = shape;
            p.size = size;
            p.iterations = iterations;
            p.border = size == 5 ? BorderMode::kReflect101 : BorderMode::kReplicate;
            Frame f = make_frame(specs, type, rng);
            const Status s = run(f, p, stream.get(), iterations == 3 ? &scratch : nullptr);
            const std::string what = name + (type == SampleType::kU8 ? " u8" : " u16") + " size " +
                                     std::to_string(size) + " shape " + std::to_string(static_cast<int>(shape)) +
                                     " iterations " + std::to_string(iterations);
            ASSERT_TRUE(s.is_ok()) << what << ": " << s.message();
            expect_planes_match_cpu(f, p, what);
          }
        }
      }
    }
  }
}

// The elements whose default takes block maxima or the one-pass schedule (morph_launch.h), plane
// by plane: u8 and u16, every border, odd sizes, interleaved chroma, iterations and a compound
// operation.
TEST_F(MorphPlanesCuda, LargeElementsMatchCpuPerPlane) {
  std::mt19937_64 rng = seeded_rng();
  const std::vector<PlaneSpec> nv12 = {{641, 361, 1}, {321, 181, 2}};
  struct Element {
    MorphShape shape;
    int width, height;
  };
  const Element elements[] = {{MorphShape::kRect, 255, 255},
                              {MorphShape::kRect, 255, 1},
                              {MorphShape::kRect, 1, 255},
                              {MorphShape::kEllipse, 31, 31},
                              {MorphShape::kEllipse, 63, 63}};
  int turn = 0;
  for (const Element& e : elements) {
    for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
      for (BorderMode border : {BorderMode::kReplicate, BorderMode::kReflect101, BorderMode::kNeutral}) {
        MorphParams p;
        p.op = turn % 4 == 3 ? MorphOp::kClose : turn % 2 == 0 ? MorphOp::kDilate : MorphOp::kErode;
        p.shape = e.shape;
        p.width = e.width;
        p.height = e.height;
        p.border = border;
        p.iterations = turn % 3 == 2 ? 2 : 1;
        Frame f = make_frame(nv12, type, rng);
        const Status s = run(f, p, stream.get(), turn % 2 == 0 ? &scratch : nullptr);
        ++turn;
        const std::string what = "NV12 641x361" + std::string(type == SampleType::kU8 ? " u8 " : " u16 ") +
                                 std::to_string(static_cast<int>(e.shape)) + " " + std::to_string(e.width) + "x" +
                                 std::to_string(e.height) + " border " + std::to_string(static_cast<int>(border)) +
                                 " op " + std::to_string(static_cast<int>(p.op)) + " iterations " +
                                 std::to_string(p.iterations);
        ASSERT_TRUE(s.is_ok()) << what << ": " << s.message();
        expect_planes_match_cpu(f, p, what);
      }
    }
  }
}

}  // namespace
}  // namespace test
}  // namespace dpx
