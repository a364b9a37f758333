// Frames and outputs of the dpxmotionest tests: a texture panned by (kVx, kVy) per frame as buffers
// of any luma format, the meta as a MotionField, and a reader of the element's JSON lines.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <random>
#include <string>
#include <vector>

#include "dpx/motion.h"
#include "gstdpxmotionmeta.h"
#include "motion_test_util.h"
#include "plugin_env.h"

namespace dpx {
namespace test {

constexpr int kW = 96, kH = 72, kMargin = 40;
constexpr int kVx = 3, kVy = -2;  // the texture pans by this per frame: vectors (kVx, kVy)

// Caps of `format` at w x h, 30 frames/s.
GstCaps* caps_of(GstVideoFormat format, int w, int h);

// A buffer of `format` whose luma plane is `luma` (16-bit formats take its u16 samples) and whose
// other planes hold fixed bytes; PTS = index * 10 ms.
GstBuffer* make_buffer(GstVideoFormat format, const TestPlane& luma, int index);

// Plane 0 of a buffer as a TestPlane.
TestPlane luma_of(GstBuffer* buf, GstVideoFormat format, int w, int h);

MotionField field_of(const GstDpxMotionMeta* meta);

// The panned texture's frames: frame t is the canvas at (kMargin + t * kVx, kMargin + t * kVy).
std::vector<TestPlane> panned_frames(std::mt19937_64& rng, SampleType type, int count, int w = kW, int h = kH);

// The outputs of a test, released at the end.
struct Pushed {
  std::vector<GstBuffer*> out;
  ~Pushed() {
    for (GstBuffer* b : out) gst_buffer_unref(b);
  }
};

// Pushes each frame (PTS from `first_index` on) and pulls its output into `pushed`.
void push_all(Harness& hz, GstVideoFormat format, const std::vector<TestPlane>& frames, Pushed* pushed,
              int first_index = 0);

// A minimal reader of the element's JSON lines (the format of docs/motion-output.md).
struct JsonLine {
  long long frame = -1, pts = -1, reference_pts = -1;
  int block_size = 0, columns = 0, rows = 0;
  std::vector<int> values;  // dx, dy, sad per block
};
JsonLine parse_line(const std::string& line);

// A new empty file under /tmp ("" when none can be made).
std::string temporary_file();

// The bytes of a file ("" when it cannot be read).
std::string read_file(const std::string& path);

}  // namespace test
}  // namespace dpx
