#include "morph_test_util.h"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "test_util.h"

namespace dpx {
namespace test {

namespace {

int type_max(SampleType type) { return type == SampleType::kU8 ? 0xFF : 0xFFFF; }

// Where coordinate p of a line of n reads, or -1 when it reads nothing (neutral border).
int resolve(int p, int n, BorderMode border) {
  if (p >= 0 && p < n) return p;
  switch (border) {
    case BorderMode::kReplicate:
      return p < 0 ? 0 : n - 1;
    case BorderMode::kReflect101: {
      if (n == 1) return 0;
      const int period = 2 * n - 2;  // gfedcb|abcdefgh|gfedcb|...
      int q = ((p % period) + period) % period;
      return q < n ? q : period - q;
    }
    case BorderMode::kNeutral:
      break;
  }
  return -1;
}

HostPlane morph_once(const HostPlane& src, const MorphParams& params, const std::uint8_t mask[25]) {
  HostPlane out = make_plane(src.width, src.height, src.channels, src.type);
  const int r = params.size / 2;
  const bool dilate = params.op == MorphOp::kDilate;
  for (int y = 0; y < src.height; ++y) {
    for (int x = 0; x < src.width; ++x) {
      for (int c = 0; c < src.channels; ++c) {
        int acc = dilate ? 0 : type_max(src.type);
        for (int my = 0; my < params.size; ++my) {
          for (int mx = 0; mx < params.size; ++mx) {
            if (!mask[my * params.size + mx]) continue;
            const int sx = resolve(x + mx - r, src.width, params.border);
            const int sy = resolve(y + my - r, src.height, params.border);
            if (sx < 0 || sy < 0) continue;
            const int v = src.get(sx, sy, c);
            acc = dilate ? std::max(acc, v) : std::min(acc, v);
          }
        }
        out.set(x, y, c, acc);
      }
    }
  }
  return out;
}

}  // namespace

int HostPlane::get(int x, int y, int c) const {
  const std::uint8_t* p = bytes.data() + offset + static_cast<std::size_t>(y) * pitch +
                          (static_cast<std::size_t>(x) * channels + c) * sample_bytes(type);
  if (type == SampleType::kU8) return *p;
  std::uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}

void HostPlane::set(int x, int y, int c, int v) {
  std::uint8_t* p = bytes.data() + offset + static_cast<std::size_t>(y) * pitch +
                    (static_cast<std::size_t>(x) * channels + c) * sample_bytes(type);
  if (type == SampleType::kU8) {
    *p = static_cast<std::uint8_t>(v);
  } else {
    const auto w = static_cast<std::uint16_t>(v);
    std::memcpy(p, &w, 2);
  }
}

HostPlane make_plane(int width, int height, int channels, SampleType type, std::size_t pitch_pad,
                     std::size_t offset) {
  HostPlane p;
  p.width = width;
  p.height = height;
  p.channels = channels;
  p.type = type;
  p.pitch = p.row_bytes() + pitch_pad * sample_bytes(type);
  p.offset = offset * sample_bytes(type);
  p.bytes.assign(p.offset + p.pitch * height, kPoisonByte);
  return p;
}

std::size_t aligned_pitch(int width, int channels, SampleType type, std::size_t pitch_pad) {
  const std::size_t bytes = (static_cast<std::size_t>(width) * channels + pitch_pad) * sample_bytes(type);
  return (bytes + 15) / 16 * 16;
}

HostPlane make_plane(const Geometry& g, int channels, SampleType type) {
  if (!g.align16) return make_plane(g.width, g.height, channels, type, g.pitch_pad, g.offset);
  HostPlane p = make_plane(g.width, g.height, channels, type);
  p.pitch = aligned_pitch(g.width, channels, type, g.pitch_pad);
  p.bytes.assign(p.pitch * g.height, kPoisonByte);
  return p;
}

void fill_random(HostPlane& plane, std::mt19937_64& rng) {
  const int top = type_max(plane.type);
  std::uniform_int_distribution<int> value(0, top), pick(0, 15);
  for (int y = 0; y < plane.height; ++y) {
    for (int x = 0; x < plane.width; ++x) {
      for (int c = 0; c < plane.channels; ++c) {
        const int k = pick(rng);
        plane.set(x, y, c, k == 0 ? 0 : k == 1 ? top : value(rng));
      }
    }
  }
}

HostPlane reference_morph(const HostPlane& src, const MorphParams& params) {
  std::uint8_t mask[25];
  EXPECT_TRUE(morph_mask(params.shape, params.size, mask).is_ok());
  HostPlane cur = morph_once(src, params, mask);
  for (int it = 1; it < params.iterations; ++it) cur = morph_once(cur, params, mask);
  return cur;
}

std::string first_difference(const HostPlane& expected, const HostPlane& actual) {
  for (int y = 0; y < expected.height; ++y) {
    for (int x = 0; x < expected.width; ++x) {
      for (int c = 0; c < expected.channels; ++c) {
        const int e = expected.get(x, y, c), a = actual.get(x, y, c);
        if (e != a) {
          std::ostringstream s;
          s << "x " << x << " y " << y << " c " << c << ": expected " << e << ", got " << a;
          return s.str();
        }
      }
    }
  }
  return "";
}

bool padding_untouched(const HostPlane& plane) {
  for (std::size_t i = 0; i < plane.offset; ++i)
    if (plane.bytes[i] != kPoisonByte) return false;
  for (int y = 0; y < plane.height; ++y) {
    const std::size_t row = plane.offset + static_cast<std::size_t>(y) * plane.pitch;
    for (std::size_t i = row + plane.row_bytes(); i < row + plane.pitch; ++i)
      if (plane.bytes[i] != kPoisonByte) return false;
  }
  return true;
}

std::vector<MorphCase> all_morph_cases() {
  std::vector<MorphCase> cases;
  for (MorphOp op : {MorphOp::kDilate, MorphOp::kErode})
    for (MorphShape shape : {MorphShape::kRect, MorphShape::kCross, MorphShape::kEllipse})
      for (int size : {3, 5})
        for (BorderMode border : {BorderMode::kReplicate, BorderMode::kReflect101, BorderMode::kNeutral})
          for (int channels : {1, 2, 4})
            for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
              MorphCase c;
              c.params.op = op;
              c.params.shape = shape;
              c.params.size = size;
              c.params.border = border;
              c.channels = channels;
              c.type = type;
              cases.push_back(c);
            }
  return cases;
}

std::string describe(const MorphCase& c) {
  static const char* kShape[] = {"rect", "cross", "ellipse"};
  static const char* kBorder[] = {"replicate", "reflect101", "neutral"};
  std::ostringstream s;
  s << (c.params.op == MorphOp::kDilate ? "dilate " : "erode ") << kShape[static_cast<int>(c.params.shape)]
    << " " << c.params.size << "x" << c.params.size << " " << kBorder[static_cast<int>(c.params.border)]
    << " x" << c.params.iterations << " " << c.channels << "ch " << (c.type == SampleType::kU8 ? "u8" : "u16");
  return s.str();
}

const std::vector<Geometry>& edge_geometries() {
  static const std::vector<Geometry> g = {
      {1, 1, 0, 0, false},    {1, 9, 3, 1, false},    {9, 1, 0, 0, false},   {2, 2, 1, 0, false},
      {3, 2, 0, 1, false},    {2, 5, 0, 0, false},    {7, 4, 5, 3, false},   {37, 19, 0, 0, false},
      {67, 35, 13, 1, false}, {131, 33, 16, 0, false}, {130, 70, 7, 2, false}, {5, 3, 0, 0, true},
      {37, 19, 0, 0, true},   {100, 9, 16, 0, true},  {130, 70, 0, 0, true}, {96, 67, 0, 0, true},
      {47, 21, 0, 0, true},   {13, 6, 3, 0, true},
  };
  return g;
}

}  // namespace test
}  // namespace dpx
