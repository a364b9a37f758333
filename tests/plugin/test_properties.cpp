// Properties of dpxdilate / dpxerode as gst-inspect shows them: names, ranges, defaults, flags,
// enum values, and what happens to values the element cannot use.
#include <gtest/gtest.h>

#include <gst/gst.h>

#include <set>
#include <string>

#include "plugin_env.h"

namespace dpx {
namespace test {
namespace {

class Properties : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override { element = gst_element_factory_make(GetParam(), nullptr); ASSERT_NE(element, nullptr); }
  void TearDown() override { gst_object_unref(element); }

  GParamSpec* spec(const char* name) {
    GParamSpec* ps = g_object_class_find_property(G_OBJECT_GET_CLASS(element), name);
    EXPECT_NE(ps, nullptr) << name;
    return ps;
  }
  // `mutable_playing` settings also follow GstControlBindings, except the backend choice.
  void expect_documented(GParamSpec* ps, bool mutable_playing) {
    EXPECT_STRNE(g_param_spec_get_nick(ps), g_param_spec_get_name(ps)) << "no nick for " << ps->name;
    EXPECT_GT(std::string(g_param_spec_get_blurb(ps)).size(), 10u) << "no blurb for " << ps->name;
    EXPECT_TRUE(ps->flags & G_PARAM_READWRITE);
    EXPECT_TRUE(ps->flags & G_PARAM_STATIC_STRINGS);
    EXPECT_EQ(bool(ps->flags & GST_PARAM_MUTABLE_PLAYING), mutable_playing) << ps->name;
    EXPECT_EQ(bool(ps->flags & GST_PARAM_CONTROLLABLE), mutable_playing && std::string(ps->name) != "backend")
        << ps->name;
  }
  void expect_int(const char* name, int lo, int hi, int def) {
    GParamSpec* ps = spec(name);
    ASSERT_TRUE(G_IS_PARAM_SPEC_INT(ps));
    EXPECT_EQ(G_PARAM_SPEC_INT(ps)->minimum, lo) << name;
    EXPECT_EQ(G_PARAM_SPEC_INT(ps)->maximum, hi) << name;
    EXPECT_EQ(G_PARAM_SPEC_INT(ps)->default_value, def) << name;
    int v = 0;
    g_object_get(element, name, &v, nullptr);
    EXPECT_EQ(v, def) << name;
  }
  void expect_enum(const char* name, std::set<std::string> nicks, const char* def) {
    GParamSpec* ps = spec(name);
    ASSERT_TRUE(G_IS_PARAM_SPEC_ENUM(ps));
    GEnumClass* ec = G_PARAM_SPEC_ENUM(ps)->enum_class;
    std::set<std::string> got;
    for (guint i = 0; i < ec->n_values; ++i) got.insert(ec->values[i].value_nick);
    EXPECT_EQ(got, nicks) << name;
    EXPECT_STREQ(g_enum_get_value(ec, G_PARAM_SPEC_ENUM(ps)->default_value)->value_nick, def) << name;
    EXPECT_NE(std::string(g_type_name(ps->value_type)).find("GstDpx"), std::string::npos) << name;
  }
  std::string get_string(const char* name) {
    GValue v = G_VALUE_INIT;
    g_value_init(&v, spec(name)->value_type);
    g_object_get_property(G_OBJECT(element), name, &v);
    gchar* s = gst_value_serialize(&v);
    std::string out(s);
    g_free(s);
    g_value_unset(&v);
    return out;
  }

  GstElement* element = nullptr;
};

TEST_P(Properties, RangesAndDefaults) {
  expect_int("size", 1, 255, 3);
  expect_int("iterations", 1, 64, 1);
  expect_int("cuda-device-id", -1, G_MAXINT, -1);
  expect_enum("shape", {"rect", "cross", "ellipse"}, "rect");
  expect_enum("border", {"replicate", "reflect101", "neutral"}, "replicate");
  expect_enum("backend", {"auto", "cuda", "cpu"}, "auto");
  GParamSpec* planes = spec("planes");
  ASSERT_TRUE(G_IS_PARAM_SPEC_UINT(planes));
  EXPECT_EQ(G_PARAM_SPEC_UINT(planes)->minimum, 0u);
  EXPECT_EQ(G_PARAM_SPEC_UINT(planes)->maximum, 15u);
  EXPECT_EQ(G_PARAM_SPEC_UINT(planes)->default_value, 15u);
  for (const char* name : {"size", "shape", "iterations", "border", "planes", "backend"})
    expect_documented(spec(name), true);
  expect_documented(spec("cuda-device-id"), false);
}

TEST_P(Properties, SizeFourIsRejectedAndTheOldValueKept) {
  g_object_set(element, "size", 5, nullptr);
  g_object_set(element, "size", 4, nullptr);   // warns
  int size = 0;
  g_object_get(element, "size", &size, nullptr);
  EXPECT_EQ(size, 5);
  g_object_set(element, "size", 3, nullptr);
  g_object_get(element, "size", &size, nullptr);
  EXPECT_EQ(size, 3);
}

TEST_P(Properties, OutOfRangeValuesAreRefusedByTheParamSpecs) {
  // GObject validates against the spec: the value is clamped or ignored with a warning, never
  // stored out of range.
  GValue v = G_VALUE_INIT;
  g_value_init(&v, G_TYPE_INT);
  for (int bad : {0, -3, 65, 1000}) {
    g_value_set_int(&v, bad);
    EXPECT_TRUE(g_param_value_validate(spec("iterations"), &v)) << bad;  // TRUE: it had to change it
    EXPECT_GE(g_value_get_int(&v), 1);
    EXPECT_LE(g_value_get_int(&v), 64);
  }
  g_value_unset(&v);
  gst_util_set_object_arg(G_OBJECT(element), "shape", "triangle");  // not a value: ignored
  EXPECT_EQ(get_string("shape"), "rect");
  EXPECT_EQ(get_string("border"), "replicate");
}

TEST_P(Properties, EnumsByNick) {
  gst_util_set_object_arg(G_OBJECT(element), "shape", "ellipse");
  gst_util_set_object_arg(G_OBJECT(element), "border", "reflect101");
  gst_util_set_object_arg(G_OBJECT(element), "backend", "cpu");
  EXPECT_EQ(get_string("shape"), "ellipse");
  EXPECT_EQ(get_string("border"), "reflect101");
  EXPECT_EQ(get_string("backend"), "cpu");
}

TEST_P(Properties, ElementMetadata) {
  GstElementFactory* f = gst_element_get_factory(element);
  EXPECT_STREQ(gst_element_factory_get_metadata(f, GST_ELEMENT_METADATA_KLASS), "Filter/Effect/Video");
  EXPECT_NE(gst_element_factory_get_metadata(f, GST_ELEMENT_METADATA_DESCRIPTION), nullptr);
}

using MorphProperties = Properties;

// dpxmorph: the operation, width and height instead of size; the family's other properties.
TEST_P(MorphProperties, RangesAndDefaults) {
  expect_enum("operation", {"dilate", "erode", "open", "close", "gradient", "tophat", "blackhat"}, "dilate");
  expect_int("width", 1, 255, 3);
  expect_int("height", 1, 255, 3);
  expect_int("iterations", 1, 64, 1);
  expect_enum("shape", {"rect", "cross", "ellipse"}, "rect");
  expect_enum("border", {"replicate", "reflect101", "neutral"}, "replicate");
  EXPECT_EQ(g_object_class_find_property(G_OBJECT_GET_CLASS(element), "size"), nullptr);
  for (const char* name : {"operation", "width", "height", "shape", "iterations", "border", "planes", "backend"})
    expect_documented(spec(name), true);
  expect_documented(spec("cuda-device-id"), false);
}

TEST_P(MorphProperties, EvenSidesAreRejectedAndTheOldValueKept) {
  g_object_set(element, "width", 15, "height", 255, nullptr);
  g_object_set(element, "width", 16, "height", 2, nullptr);  // warns twice
  int width = 0, height = 0;
  g_object_get(element, "width", &width, "height", &height, nullptr);
  EXPECT_EQ(width, 15);
  EXPECT_EQ(height, 255);
  gst_util_set_object_arg(G_OBJECT(element), "operation", "blackhat");
  EXPECT_EQ(get_string("operation"), "blackhat");
}

INSTANTIATE_TEST_SUITE_P(Elements, MorphProperties, ::testing::Values("dpxmorph"),
                         [](const ::testing::TestParamInfo<const char*>& info) { return std::string(info.param); });

INSTANTIATE_TEST_SUITE_P(Elements, Properties, ::testing::Values("dpxdilate", "dpxerode"),
                         [](const ::testing::TestParamInfo<const char*>& info) { return std::string(info.param); });

}  // namespace
}  // namespace test
}  // namespace dpx
