// Video frames for the plugin tests: the expected plane layout of every supported format (written
// out here, independently of the element), random frames with chosen strides, and the libdpx
// reference of a frame.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "dpx/morphology.h"
#include "test_util.h"

namespace dpx {
namespace test {

struct PlaneLayout {
  int channels;
  int wsub;  // plane width = ceil(width / 2^wsub)
  int hsub;
};

struct FormatCase {
  GstVideoFormat format;
  SampleType type;
  std::vector<PlaneLayout> planes;
};

// Every format the elements take, with the layout the tests expect.
const std::vector<FormatCase>& all_formats();
const FormatCase& format_case(GstVideoFormat format);

MorphParams morph_params(MorphOp op, int size = 3, MorphShape shape = MorphShape::kRect,
                         BorderMode border = BorderMode::kReplicate, int iterations = 1);
std::string format_name(GstVideoFormat format);

// One plane of a frame held in a std::vector, with its geometry.
struct HostPlane {
  std::vector<std::uint8_t> bytes;
  PlaneView view() const;
  int width = 0, height = 0, channels = 1;
  std::size_t pitch = 0;
  SampleType type = SampleType::kU8;
};

using Frame = std::vector<HostPlane>;

// Random frame of `fc` at width x height. `extra_pitch` adds bytes after each row (kept even
// so 16-bit rows stay aligned).
Frame random_frame(std::mt19937_64& rng, const FormatCase& fc, int width, int height, std::size_t extra_pitch = 0);

// A GstBuffer holding `frame` at its pitches, with a GstVideoMeta giving offsets and strides
// (planes packed one after another, `gap` bytes between them).
GstBuffer* frame_to_buffer(const Frame& frame, GstVideoFormat format, int width, int height, std::size_t gap = 0);

// Copies `frame` into a buffer laid out as the caps say (no meta) — e.g. one from a pool.
void fill_buffer(GstBuffer* buffer, const GstVideoInfo& info, const Frame& frame);

// The planes of a buffer as mapped through `info` (and its GstVideoMeta, when it has one).
Frame buffer_to_frame(GstBuffer* buffer, const GstVideoInfo& info, const FormatCase& fc);

// libdpx's result for each plane whose bit is set in `planes`; the other planes are copied.
Frame reference(const Frame& in, const MorphParams& params, unsigned planes = 0xF);

// Compares the visible samples of two frames; describes the first difference in `why`.
bool frames_equal(const Frame& a, const Frame& b, std::string* why);

GstCaps* caps_for(GstVideoFormat format, int width, int height, const char* feature = nullptr);

}  // namespace test
}  // namespace dpx
