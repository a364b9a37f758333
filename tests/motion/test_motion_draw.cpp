// Drawing a field: the CPU version marks exactly the pixels of each block's segment, the CUDA
// version writes the same bytes.
#include <gtest/gtest.h>

#include <set>
#include <utility>
#include <vector>

#include "dpx/motion.h"
#include "motion_test_util.h"
#include "test_util.h"

#if DPX_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "dpx/device.h"
#endif

namespace {

using dpx::MotionVector;
using dpx::SampleType;
using dpx::test::TestPlane;

MotionVector vec(int dx, int dy) {
  MotionVector v;
  v.dx = static_cast<std::int16_t>(dx);
  v.dy = static_cast<std::int16_t>(dy);
  v.sad = 123;
  return v;
}

// Pixels whose value changed between two planes.
std::set<std::pair<int, int>> changed(const TestPlane& before, const TestPlane& after) {
  std::set<std::pair<int, int>> s;
  for (int y = 0; y < before.height(); ++y)
    for (int x = 0; x < before.width(); ++x)
      if (before.get(x, y) != after.get(x, y)) s.insert({x, y});
  return s;
}

// Quarter-pel vectors are drawn at their length in pixels (rounded, halves away from zero).
TEST(MotionDraw, SubpelVectorsAreDrawnAtTheirTrueLength) {
  TestPlane plane(32, 16, SampleType::kU8);
  const TestPlane before = plane;
  dpx::MotionGrid grid = dpx::motion_grid(32, 16, 16);
  grid.scale = 4;
  const std::vector<MotionVector> v = {vec(14, 0), vec(-2, -5)};  // 3.5 -> 4; (-0.5, -1.25) -> (-1, -1)
  ASSERT_TRUE(dpx::draw_motion_cpu(plane.mutable_view(), grid, v.data()).is_ok());
  const std::set<std::pair<int, int>> want = {{8, 8}, {9, 8}, {10, 8}, {11, 8}, {12, 8}, {24, 8}, {23, 7}};
  EXPECT_EQ(changed(before, plane), want);
  grid.scale = 3;
  EXPECT_EQ(dpx::draw_motion_cpu(plane.mutable_view(), grid, v.data()).code(), dpx::StatusCode::kInvalidArgument);
}

TEST(MotionDraw, MarksEachSegmentFromTheBlockCentre) {
  for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
    // 2 x 2 blocks of 16 over 32 x 28: the bottom row is 12 rows tall, so its centre row is 16 + 6.
    TestPlane plane(32, 28, type, 4);
    for (int y = 0; y < 28; ++y)
      for (int x = 0; x < 32; ++x) plane.set(x, y, 100);
    const TestPlane before = plane;
    const dpx::MotionGrid grid = dpx::motion_grid(32, 28, 16);
    const std::vector<MotionVector> v = {vec(4, 0), vec(0, -3), vec(2, 2), vec(0, 0)};
    ASSERT_TRUE(dpx::draw_motion_cpu(plane.mutable_view(), grid, v.data()).is_ok());
    const std::set<std::pair<int, int>> want = {
        {8, 8},   {9, 8},   {10, 8},  {11, 8}, {12, 8},  // block (0,0): right 4
        {24, 8},  {24, 7},  {24, 6},  {24, 5},           // block (1,0): up 3
        {8, 22},  {9, 23},  {10, 24},                    // block (0,1): diagonal
        {24, 22},                                        // block (1,1): centre only
    };
    EXPECT_EQ(changed(before, plane), want);
    for (const auto& p : want) EXPECT_EQ(plane.get(p.first, p.second), plane.max_value());
  }
}

TEST(MotionDraw, ClipsAtThePlaneAndRejectsMismatchedGrids) {
  TestPlane plane(16, 16, SampleType::kU8);
  const dpx::MotionGrid grid = dpx::motion_grid(16, 16, 16);
  const std::vector<MotionVector> v = {vec(-30, 40)};
  ASSERT_TRUE(dpx::draw_motion_cpu(plane.mutable_view(), grid, v.data()).is_ok());
  EXPECT_EQ(plane.get(8, 8), 255);
  const dpx::MotionGrid wrong = dpx::motion_grid(32, 16, 16);
  EXPECT_EQ(dpx::draw_motion_cpu(plane.mutable_view(), wrong, v.data()).code(), dpx::StatusCode::kInvalidArgument);
  EXPECT_EQ(dpx::draw_motion_cpu(plane.mutable_view(), grid, nullptr).code(), dpx::StatusCode::kInvalidArgument);
  dpx::MotionGrid bad_block = grid;
  bad_block.block_size = 12;
  EXPECT_EQ(dpx::draw_motion_cpu(plane.mutable_view(), bad_block, v.data()).code(), dpx::StatusCode::kInvalidArgument);
}

#if DPX_HAVE_CUDA
TEST(MotionDraw, CudaWritesTheSameBytesAsCpu) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  for (SampleType type : {SampleType::kU8, SampleType::kU16})
    for (int block : {4, 16}) {
      const int top = type == SampleType::kU8 ? 255 : 65535;
      TestPlane plane = dpx::test::random_plane(rng, 101, 67, type, top / 2, 6);
      const dpx::MotionGrid grid = dpx::motion_grid(101, 67, block);
      std::vector<MotionVector> v(grid.count());
      std::uniform_int_distribution<int> d(-20, 20);
      for (auto& x : v) x = vec(d(rng), d(rng));
      dpx::DeviceBuffer dplane, dvec;
      const std::size_t bytes = plane.pitch() * plane.height();
      ASSERT_TRUE(dplane.allocate(bytes).is_ok());
      ASSERT_TRUE(dvec.allocate(v.size() * sizeof(MotionVector)).is_ok());
      ASSERT_EQ(cudaMemcpy(dplane.data(), plane.bytes().data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
      ASSERT_EQ(cudaMemcpy(dvec.data(), v.data(), dvec.size(), cudaMemcpyHostToDevice), cudaSuccess);
      dpx::MutablePlaneView dview = plane.mutable_view();
      dview.data = dplane.data();
      ASSERT_TRUE(dpx::draw_motion_cuda(dview, grid, dvec.as<MotionVector>(), nullptr).is_ok());
      ASSERT_TRUE(dpx::draw_motion_cpu(plane.mutable_view(), grid, v.data()).is_ok());
      std::vector<std::uint8_t> got(bytes);
      ASSERT_EQ(cudaMemcpy(got.data(), dplane.data(), bytes, cudaMemcpyDeviceToHost), cudaSuccess);
      EXPECT_TRUE(std::equal(got.begin(), got.end(), plane.bytes().begin())) << "block " << block;
      // Host memory is refused, not dereferenced.
      EXPECT_EQ(dpx::draw_motion_cuda(dview, grid, v.data(), nullptr).code(), dpx::StatusCode::kInvalidArgument);
    }
}
#endif

}  // namespace
