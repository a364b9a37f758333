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

HostPlane morph_once(const HostPlane& src, const MorphParams& params, bool dilate,
                     const std::vector<std::uint8_t>& mask) {
  HostPlane out = make_plane(src.width, src.height, src.channels, src.type);
  const int w = morph_width(params), h = morph_height(params);
  // Where each output coordinate's mask column / row reads (resolved once, not per sample).
  std::vector<int> sx(static_cast<std::size_t>(src.width) * w), sy(static_cast<std::size_t>(src.height) * h);
  for (int x = 0; x < src.width; ++x)
    for (int mx = 0; mx < w; ++mx) sx[x * w + mx] = resolve(x + mx - w / 2, src.width, params.border);
  for (int y = 0; y < src.height; ++y)
    for (int my = 0; my < h; ++my) sy[y * h + my] = resolve(y + my - h / 2, src.height, params.border);
  for (int y = 0; y < src.height; ++y) {
    for (int x = 0; x < src.width; ++x) {
      for (int c = 0; c < src.channels; ++c) {
        int acc = dilate ? 0 : type_max(src.type);
        for (int my = 0; my < h; ++my) {
          const int yy = sy[y * h + my];
          if (yy < 0) continue;
          for (int mx = 0; mx < w; ++mx) {
            const int xx = sx[x * w + mx];
            if (!mask[my * w + mx] || xx < 0) continue;
            const int v = src.get(xx, yy, c);
            acc = dilate ? std::max(acc, v) : std::min(acc, v);
          }
        }
        out.set(x, y, c, acc);
      }
    }
  }
  return out;
}

HostPlane morph_repeated(const HostPlane& src, const MorphParams& params, bool dilate,
                         const std::vector<std::uint8_t>& mask) {
  HostPlane cur = morph_once(src, params, dilate, mask);
  for (int it = 1; it < params.iterations; ++it) cur = morph_once(cur, params, dilate, mask);
  return cur;
}

// max(a - b, 0) sample by sample.
HostPlane difference(const HostPlane& a, const HostPlane& b) {
  HostPlane out = make_plane(a.width, a.height, a.channels, a.type);
  for (int y = 0; y < a.height; ++y)
    for (int x = 0; x < a.width; ++x)
      for (int c = 0; c < a.channels; ++c) out.set(x, y, c, std::max(0, a.get(x, y, c) - b.get(x, y, c)));
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
  std::vector<std::uint8_t> mask;
  EXPECT_TRUE(morph_mask(params.shape, morph_width(params), morph_height(params), &mask).is_ok());
  const auto dilated = [&](const HostPlane& in) { return morph_repeated(in, params, true, mask); };
  const auto eroded = [&](const HostPlane& in) { return morph_repeated(in, params, false, mask); };
  switch (params.op) {
    case MorphOp::kDilate: return dilated(src);
    case MorphOp::kErode: return eroded(src);
    case MorphOp::kOpen: return dilated(eroded(src));
    case MorphOp::kClose: return eroded(dilated(src));
    case MorphOp::kGradient: return difference(dilated(src), eroded(src));
    case MorphOp::kTopHat: return difference(src, dilated(eroded(src)));
    case MorphOp::kBlackHat: return difference(eroded(dilated(src)), src);
  }
  ADD_FAILURE() << "unknown operation";
  return src;
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

std::vector<MorphCase> operation_cases() {
  struct Element {
    MorphShape shape;
    int width, height;
  };
  // Size classes per shape: the point, the fused 3x3 / 5x5, lines, unequal sides, the separable
  // path's small and large windows, and each shape's limit.
  const Element elements[] = {
      {MorphShape::kRect, 1, 1},     {MorphShape::kRect, 3, 3},       {MorphShape::kRect, 5, 5},
      {MorphShape::kRect, 1, 15},    {MorphShape::kRect, 15, 1},      {MorphShape::kRect, 9, 7},
      {MorphShape::kRect, 31, 31},   {MorphShape::kRect, 255, 255},   {MorphShape::kCross, 3, 3},
      {MorphShape::kCross, 5, 5},    {MorphShape::kCross, 7, 11},     {MorphShape::kCross, 63, 63},
      {MorphShape::kEllipse, 3, 3},  {MorphShape::kEllipse, 5, 5},    {MorphShape::kEllipse, 9, 5},
      {MorphShape::kEllipse, 5, 1},  {MorphShape::kEllipse, 13, 13},  {MorphShape::kEllipse, 63, 63},
  };
  struct Format {
    int channels;
    SampleType type;
  };
  const Format formats[] = {{1, SampleType::kU8}, {2, SampleType::kU16}, {4, SampleType::kU8},
                            {1, SampleType::kU16}, {2, SampleType::kU8}, {4, SampleType::kU16}};
  std::vector<MorphCase> cases;
  int k = 0;
  for (MorphOp op : {MorphOp::kDilate, MorphOp::kErode, MorphOp::kOpen, MorphOp::kClose, MorphOp::kGradient,
                     MorphOp::kTopHat, MorphOp::kBlackHat})
    for (const Element& e : elements)
      for (BorderMode border : {BorderMode::kReplicate, BorderMode::kReflect101, BorderMode::kNeutral}) {
        MorphCase c;
        c.params.op = op;
        c.params.shape = e.shape;
        c.params.width = e.width;
        c.params.height = e.height;
        c.params.border = border;
        const Format& f = formats[k++ % (sizeof formats / sizeof formats[0])];
        c.channels = f.channels;
        c.type = f.type;
        cases.push_back(c);
      }
  return cases;
}

const std::vector<Geometry>& operation_geometries(const MorphParams& params) {
  // Frames smaller and larger than the element, padded and misaligned; fewer pixels for the large
  // elements, whose definition costs width x height per sample.
  static const std::vector<Geometry> small_element = {
      {1, 1, 0, 0, false}, {2, 7, 3, 1, false}, {37, 19, 0, 0, false}, {67, 35, 13, 1, false}, {70, 9, 0, 0, true}};
  static const std::vector<Geometry> large_element = {
      {1, 1, 0, 0, false}, {2, 7, 3, 1, false}, {29, 11, 5, 1, false}, {9, 40, 0, 0, true}};
  static const std::vector<Geometry> largest_element = {
      {1, 1, 0, 0, false}, {2, 7, 3, 1, false}, {9, 4, 5, 1, false}, {3, 11, 0, 0, true}};
  const int area = morph_width(params) * morph_height(params);
  return area > 10000 ? largest_element : area > 300 ? large_element : small_element;
}

std::string describe(const MorphCase& c) {
  static const char* kOp[] = {"dilate", "erode", "open", "close", "gradient", "tophat", "blackhat"};
  static const char* kShape[] = {"rect", "cross", "ellipse"};
  static const char* kBorder[] = {"replicate", "reflect101", "neutral"};
  std::ostringstream s;
  s << kOp[static_cast<int>(c.params.op)] << " " << kShape[static_cast<int>(c.params.shape)] << " "
    << morph_width(c.params) << "x" << morph_height(c.params) << " " << kBorder[static_cast<int>(c.params.border)]
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
