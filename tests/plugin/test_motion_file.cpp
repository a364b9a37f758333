// dpxmotionest's `location` over a run (docs/motion-output.md): the file is checked, not
// truncated, when the element starts; it is truncated when its first line is due; a run that
// processed frames without a line leaves it empty; `location` changed while playing sends the next
// frames' lines to the new file, and coming back to a file of the same run appends to it.
#include <gtest/gtest.h>

#include <gst/check/gstharness.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "motion_frames.h"
#include "plugin_env.h"
#include "test_util.h"

namespace dpx {
namespace test {
namespace {

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
}

// The `frame` numbers of the lines of `path`.
std::vector<long long> frames_in(const std::string& path) {
  std::vector<long long> frames;
  std::istringstream lines(read_file(path));
  for (std::string line; std::getline(lines, line);) frames.push_back(parse_line(line).frame);
  return frames;
}

// A harness around a dpxmotionest on the CPU whose `location` is set before it starts.
GstHarness* harness_writing_to(const std::string& path, int depth) {
  GstElement* element = gst_element_factory_make("dpxmotionest", nullptr);
  g_object_set(element, "backend", 2 /* cpu */, "frames-in-flight", depth, "location", path.c_str(),
               "search-range", 4, nullptr);
  GstHarness* h = gst_harness_new_with_element(element, "sink", "src");
  gst_object_unref(element);
  gst_harness_set_src_caps(h, caps_of(GST_VIDEO_FORMAT_GRAY8, kW, kH));
  gst_harness_play(h);
  return h;
}

void push_frame(GstHarness* h, const TestPlane& luma, int index) {
  ASSERT_EQ(gst_harness_push(h, make_buffer(GST_VIDEO_FORMAT_GRAY8, luma, index)), GST_FLOW_OK) << "frame " << index;
  while (GstBuffer* out = gst_harness_try_pull(h)) gst_buffer_unref(out);
}

TEST(MotionFile, StartingTheElementLeavesAnExistingFileAlone) {
  const std::string path = temporary_file();
  ASSERT_FALSE(path.empty());
  write_file(path, "a line of an earlier run\n");
  GstElement* element = gst_element_factory_make("dpxmotionest", nullptr);
  g_object_set(element, "backend", 2 /* cpu */, "location", path.c_str(), nullptr);
  ASSERT_NE(gst_element_set_state(element, GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE);
  EXPECT_EQ(read_file(path), "a line of an earlier run\n") << "truncated when the element started";
  gst_element_set_state(element, GST_STATE_NULL);
  gst_object_unref(element);
  EXPECT_EQ(read_file(path), "a line of an earlier run\n") << "truncated by a run without frames";
  std::remove(path.c_str());
}

TEST(MotionFile, TruncatedWhenTheFirstLineIsDue) {
  auto rng = seeded_rng();
  const std::vector<TestPlane> frames = panned_frames(rng, SampleType::kU8, 3);
  const std::string path = temporary_file();
  ASSERT_FALSE(path.empty());
  write_file(path, "a line of an earlier run\n");
  GstHarness* h = harness_writing_to(path, 0);
  push_frame(h, frames[0], 0);  // no reference: no line yet
  EXPECT_EQ(read_file(path), "a line of an earlier run\n");
  push_frame(h, frames[1], 1);
  EXPECT_EQ(frames_in(path), (std::vector<long long>{1}));
  push_frame(h, frames[2], 2);
  EXPECT_EQ(frames_in(path), (std::vector<long long>{1, 2}));
  gst_harness_teardown(h);
  EXPECT_EQ(frames_in(path), (std::vector<long long>{1, 2}));
  std::remove(path.c_str());
}

TEST(MotionFile, ARunWithoutLinesLeavesItEmpty) {
  auto rng = seeded_rng();
  const std::vector<TestPlane> frames = panned_frames(rng, SampleType::kU8, 1);
  const std::string path = temporary_file();
  ASSERT_FALSE(path.empty());
  write_file(path, "a line of an earlier run\n");
  GstHarness* h = harness_writing_to(path, 0);
  push_frame(h, frames[0], 0);
  gst_harness_teardown(h);
  EXPECT_EQ(read_file(path), "");
  std::remove(path.c_str());
}

// Lines follow `location` from the next frame on, at every depth (each frame's line goes to the
// file of its own settings, even when it completes after the change).
TEST(MotionFile, LocationChangedWhilePlayingSwitchesFilesAndLosesNoLine) {
  auto rng = seeded_rng();
  const std::vector<TestPlane> frames = panned_frames(rng, SampleType::kU8, 8);
  for (int depth : {0, 2}) {
    SCOPED_TRACE("frames-in-flight " + std::to_string(depth));
    const std::string a = temporary_file(), b = temporary_file();
    ASSERT_FALSE(a.empty() || b.empty());
    write_file(b, "a line of an earlier run\n");
    GstHarness* h = harness_writing_to(a, depth);
    for (int i = 0; i < 3; ++i) push_frame(h, frames[i], i);
    g_object_set(h->element, "location", b.c_str(), nullptr);
    for (int i = 3; i < 5; ++i) push_frame(h, frames[i], i);
    g_object_set(h->element, "location", a.c_str(), nullptr);
    for (int i = 5; i < 8; ++i) push_frame(h, frames[i], i);
    ASSERT_TRUE(gst_harness_push_event(h, gst_event_new_eos()));
    gst_harness_teardown(h);
    EXPECT_EQ(frames_in(a), (std::vector<long long>{1, 2, 5, 6, 7}));
    EXPECT_EQ(frames_in(b), (std::vector<long long>{3, 4}));
    std::remove(a.c_str());
    std::remove(b.c_str());
  }
}

// A location that cannot be written while playing is an element error at its first line.
TEST(MotionFile, UnwritableLocationWhilePlayingIsAnErrorAtItsFirstLine) {
  auto rng = seeded_rng();
  const std::vector<TestPlane> frames = panned_frames(rng, SampleType::kU8, 3);
  const std::string a = temporary_file();
  ASSERT_FALSE(a.empty());
  GstHarness* h = harness_writing_to(a, 0);
  push_frame(h, frames[0], 0);
  push_frame(h, frames[1], 1);
  g_object_set(h->element, "location", "/nonexistent-dir/vectors.jsonl", nullptr);
  EXPECT_EQ(gst_harness_push(h, make_buffer(GST_VIDEO_FORMAT_GRAY8, frames[2], 2)), GST_FLOW_ERROR);
  gst_harness_teardown(h);
  EXPECT_EQ(frames_in(a), (std::vector<long long>{1}));
  std::remove(a.c_str());
}

// Instances are named after their element: dpxmorph0, never after an internal type.
TEST(ElementNames, DefaultNamesAreTheFactoryNames) {
  for (const char* factory : {"dpxdilate", "dpxerode", "dpxmorph", "dpxmotionest"}) {
    GstElement* element = gst_element_factory_make(factory, nullptr);
    ASSERT_NE(element, nullptr) << factory;
    gchar* name = gst_element_get_name(element);
    const std::string got = name;
    g_free(name);
    EXPECT_EQ(got.rfind(factory, 0), 0u) << got;
    EXPECT_NE(got.find_first_of("0123456789"), std::string::npos) << got;
    EXPECT_EQ(got.find_first_not_of("0123456789", std::string(factory).size()), std::string::npos)
        << got << " is not " << factory << " and a number";
    gst_object_unref(element);
  }
}

}  // namespace
}  // namespace test
}  // namespace dpx
