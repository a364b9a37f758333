// The JSON line of dpxmotionest's `location` file, byte for byte (docs/motion-output.md), and the
// `dpx-motion` message's unit.
#include <gtest/gtest.h>

#include <vector>

#include "gstdpxmotionreport.h"

namespace dpx {
namespace test {
namespace {

std::string line_of(std::uint64_t frame, GstClockTime pts, GstClockTime reference_pts, int block_size, int columns,
                    int rows, const std::vector<MotionVector>& vectors, int scale = 1) {
  MotionGrid grid;
  grid.block_size = block_size;
  grid.columns = columns;
  grid.rows = rows;
  grid.scale = scale;
  return gstdpx::motion_json_line({frame, pts, reference_pts, grid, vectors.data()});
}

TEST(MotionReport, JsonLineBytes) {
  std::vector<MotionVector> v(3);
  v[0].dx = -16;
  v[0].dy = 3;
  v[0].sad = 4000000000u;
  v[1].dx = 0;
  v[1].dy = -1;
  v[1].sad = 0;
  v[2].dx = 32;
  v[2].dy = -32;
  v[2].sad = 65535;
  EXPECT_EQ(line_of(12, 400000000, 366666666, 16, 3, 1, v),
            "{\"frame\":12,\"pts\":400000000,\"reference_pts\":366666666,\"block_size\":16,\"columns\":3,"
            "\"rows\":1,\"scale\":1,\"vectors\":[[-16,3,4000000000],[0,-1,0],[32,-32,65535]]}\n");
  EXPECT_EQ(line_of(12, 400000000, 366666666, 16, 3, 1, v, 4),
            "{\"frame\":12,\"pts\":400000000,\"reference_pts\":366666666,\"block_size\":16,\"columns\":3,"
            "\"rows\":1,\"scale\":4,\"vectors\":[[-16,3,4000000000],[0,-1,0],[32,-32,65535]]}\n");
}

TEST(MotionReport, UnknownTimesAreNullAndAnEmptyGridHasNoVectors) {
  EXPECT_EQ(line_of(0, GST_CLOCK_TIME_NONE, GST_CLOCK_TIME_NONE, 4, 0, 0, {}),
            "{\"frame\":0,\"pts\":null,\"reference_pts\":null,\"block_size\":4,\"columns\":0,\"rows\":0,"
            "\"scale\":1,\"vectors\":[]}\n");
}

// Quarter-pel vectors: the message says scale 4 and measures lengths in pixels.
TEST(MotionReport, MessageCarriesTheScaleAndPixelLengths) {
  std::vector<MotionVector> v(2);
  v[0].dx = 12;  // 3 pixels
  v[0].dy = -16; // 4 pixels: length 5
  v[1].dx = 2;   // 0.5 pixels
  MotionGrid grid;
  grid.block_size = 8;
  grid.columns = 2;
  grid.rows = 1;
  grid.scale = 4;
  GstStructure* s = gstdpx::motion_message_structure({3, 0, 0, grid, v.data()}, 1.0);
  guint scale = 0;
  gdouble mean = 0, moving = 0;
  ASSERT_TRUE(gst_structure_get_uint(s, "scale", &scale));
  ASSERT_TRUE(gst_structure_get_double(s, "mean-length", &mean));
  ASSERT_TRUE(gst_structure_get_double(s, "moving-fraction", &moving));
  EXPECT_EQ(scale, 4u);
  EXPECT_DOUBLE_EQ(mean, 2.75);
  EXPECT_DOUBLE_EQ(moving, 0.5);
  gst_structure_free(s);
}

}  // namespace
}  // namespace test
}  // namespace dpx
