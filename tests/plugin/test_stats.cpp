// The elements' `stats` property: frames completed since start and where their time went, on
// every backend, with and without frames in flight, reset when the element starts again.
#include <gtest/gtest.h>

#include <gst/gst.h>

#include <string>

#include "plugin_env.h"
#include "test_util.h"

namespace dpx {
namespace test {
namespace {

struct StatsCase {
  const char* element;
  const char* backend;
  int in_flight;
};

std::string case_name(const ::testing::TestParamInfo<StatsCase>& info) {
  return std::string(info.param.element) + "_" + info.param.backend + "_" +
         std::to_string(info.param.in_flight);
}

class Stats : public ::testing::TestWithParam<StatsCase> {
 protected:
  void SetUp() override {
    if (std::string(GetParam().backend) == "cuda") DPX_REQUIRE_GPU();
  }
};

// Runs the pipeline from NULL to EOS and back to READY.
void run_to_eos(GstElement* pipeline) {
  ASSERT_NE(gst_element_set_state(pipeline, GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE);
  GstBus* bus = gst_element_get_bus(pipeline);
  GstMessage* msg = gst_bus_timed_pop_filtered(
      bus, 60 * GST_SECOND, static_cast<GstMessageType>(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  gst_object_unref(bus);
  ASSERT_NE(msg, nullptr) << "no EOS";
  const bool eos = GST_MESSAGE_TYPE(msg) == GST_MESSAGE_EOS;
  gst_message_unref(msg);
  ASSERT_TRUE(eos);
  ASSERT_EQ(gst_element_set_state(pipeline, GST_STATE_READY), GST_STATE_CHANGE_SUCCESS);
}

double field(const GstStructure* s, const char* name) {
  double v = -1;
  EXPECT_TRUE(gst_structure_get_double(s, name, &v)) << name << " missing";
  return v;
}

TEST_P(Stats, CountsFramesAndTimesTheirStages) {
  const StatsCase c = GetParam();
  const int frames = 7;
  const std::string desc = "videotestsrc num-buffers=" + std::to_string(frames) +
                           " pattern=ball ! video/x-raw,format=NV12,width=96,height=64 ! " + c.element +
                           " name=el backend=" + c.backend +
                           " frames-in-flight=" + std::to_string(c.in_flight) + " ! fakesink sync=false";
  GError* err = nullptr;
  GstElement* pipeline = gst_parse_launch(desc.c_str(), &err);
  ASSERT_NE(pipeline, nullptr) << (err ? err->message : "");
  GstElement* el = gst_bin_get_by_name(GST_BIN(pipeline), "el");

  GstStructure* before = nullptr;
  g_object_get(el, "stats", &before, nullptr);
  ASSERT_NE(before, nullptr);
  EXPECT_STREQ(gst_structure_get_name(before), "dpx-frame-stats");
  guint64 count = 99;
  EXPECT_TRUE(gst_structure_get_uint64(before, "frames", &count));
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(field(before, "process-us"), 0.0);
  gst_structure_free(before);

  for (int round = 0; round < 2; ++round) {
    run_to_eos(pipeline);
    GstStructure* s = nullptr;
    g_object_get(el, "stats", &s, nullptr);
    ASSERT_NE(s, nullptr);
    ASSERT_TRUE(gst_structure_get_uint64(s, "frames", &count));
    EXPECT_EQ(count, static_cast<guint64>(frames)) << "round " << round << ": counted since start";
    EXPECT_GT(field(s, "process-us"), 0.0) << "round " << round;
    EXPECT_GT(field(s, "map-input-us"), 0.0) << "round " << round;
    EXPECT_GE(field(s, "map-output-us"), 0.0) << "round " << round;
    // The output buffer is timed where the element gets it itself: with frames in flight.
    if (c.in_flight > 0) {
      EXPECT_GT(field(s, "allocate-us"), 0.0) << "round " << round;
    } else {
      EXPECT_EQ(field(s, "allocate-us"), 0.0) << "round " << round;
    }
    if (std::string(c.backend) == "cuda") {
      EXPECT_GT(field(s, "wait-us"), 0.0) << "round " << round;
    } else {
      EXPECT_EQ(field(s, "wait-us"), 0.0) << "round " << round << ": the CPU has nothing to wait for";
    }
    gst_structure_free(s);
    ASSERT_EQ(gst_element_set_state(pipeline, GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
  }
  gst_object_unref(el);
  gst_object_unref(pipeline);
}

TEST(StatsProperty, IsReadOnlyAndDocumented) {
  for (const char* name : {"dpxdilate", "dpxerode", "dpxmorph", "dpxmotionest", "dpxdeshake"}) {
    GstElement* e = gst_element_factory_make(name, nullptr);
    ASSERT_NE(e, nullptr) << name;
    GParamSpec* ps = g_object_class_find_property(G_OBJECT_GET_CLASS(e), "stats");
    ASSERT_NE(ps, nullptr) << name;
    EXPECT_EQ(ps->value_type, GST_TYPE_STRUCTURE) << name;
    EXPECT_TRUE(ps->flags & G_PARAM_READABLE) << name;
    EXPECT_FALSE(ps->flags & G_PARAM_WRITABLE) << name;
    EXPECT_NE(std::string(g_param_spec_get_blurb(ps)).find("wait-us"), std::string::npos) << name;
    gst_object_unref(e);
  }
}

INSTANTIATE_TEST_SUITE_P(Cpu, Stats,
                         ::testing::Values(StatsCase{"dpxdilate", "cpu", 0}, StatsCase{"dpxdilate", "cpu", 2},
                                           StatsCase{"dpxmotionest", "cpu", 0},
                                           StatsCase{"dpxdeshake", "cpu", 0}),
                         case_name);
INSTANTIATE_TEST_SUITE_P(Cuda, Stats,
                         ::testing::Values(StatsCase{"dpxdilate", "cuda", 0},
                                           StatsCase{"dpxdilate", "cuda", 2},
                                           StatsCase{"dpxmotionest", "cuda", 1},
                                           StatsCase{"dpxdeshake", "cuda", 1}),
                         case_name);

}  // namespace
}  // namespace test
}  // namespace dpx
