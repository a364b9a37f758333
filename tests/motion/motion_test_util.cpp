#include "motion_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <tuple>

namespace dpx {
namespace test {

TestPlane::TestPlane(int width, int height, SampleType type, int pad)
    : width_(width), height_(height), type_(type),
      pitch_(static_cast<std::size_t>(width) * sample_bytes(type) + pad),
      bytes_(pitch_ * height + 16, 0) {}

int TestPlane::get(int x, int y) const {
  const std::uint8_t* p = bytes_.data() + y * pitch_ + x * sample_bytes(type_);
  if (type_ == SampleType::kU8) return *p;
  std::uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}

void TestPlane::set(int x, int y, int v) {
  std::uint8_t* p = bytes_.data() + y * pitch_ + x * sample_bytes(type_);
  if (type_ == SampleType::kU8) {
    *p = static_cast<std::uint8_t>(v);
  } else {
    const auto w = static_cast<std::uint16_t>(v);
    std::memcpy(p, &w, 2);
  }
}

Texture::Texture(std::mt19937_64& rng, int canvas_width, int canvas_height, SampleType type)
    : width_(canvas_width), height_(canvas_height), type_(type), values_(static_cast<std::size_t>(canvas_width) * canvas_height) {
  // Two octaves of value noise (lattice 24 and 7 pixels, bilinear with smoothstep) and a few
  // soft blobs, plus per-pixel grain so no two places of a block-sized patch look alike.
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto lattice = [&](int step) {
    const int lw = canvas_width / step + 2, lh = canvas_height / step + 2;
    std::vector<double> g(static_cast<std::size_t>(lw) * lh);
    for (auto& v : g) v = unit(rng);
    return std::make_tuple(step, lw, g);
  };
  const auto coarse = lattice(24), fine = lattice(7);
  auto sample = [](const std::tuple<int, int, std::vector<double>>& l, int x, int y) {
    const int step = std::get<0>(l), lw = std::get<1>(l);
    const std::vector<double>& g = std::get<2>(l);
    const int gx = x / step, gy = y / step;
    auto smooth = [](double t) { return t * t * (3 - 2 * t); };
    const double fx = smooth(double(x % step) / step), fy = smooth(double(y % step) / step);
    auto at = [&](int i, int j) { return g[static_cast<std::size_t>(j) * lw + i]; };
    const double top = at(gx, gy) * (1 - fx) + at(gx + 1, gy) * fx;
    const double bottom = at(gx, gy + 1) * (1 - fx) + at(gx + 1, gy + 1) * fx;
    return top * (1 - fy) + bottom * fy;
  };
  struct Blob {
    double x, y, r, a;
  };
  std::vector<Blob> blobs(8 + canvas_width * canvas_height / 20000);
  for (auto& b : blobs) b = Blob{unit(rng) * canvas_width, unit(rng) * canvas_height, 6 + 30 * unit(rng), unit(rng) - 0.5};
  std::uniform_int_distribution<int> grain(-6, 6);
  const double top = type == SampleType::kU8 ? 255.0 : 65535.0;
  for (int y = 0; y < canvas_height; ++y)
    for (int x = 0; x < canvas_width; ++x) {
      double v = 0.55 * sample(coarse, x, y) + 0.3 * sample(fine, x, y) + 0.08;
      for (const Blob& b : blobs) {
        const double d2 = ((x - b.x) * (x - b.x) + (y - b.y) * (y - b.y)) / (b.r * b.r);
        if (d2 < 9) v += 0.4 * b.a * std::exp(-d2);
      }
      const double scaled = v * top + grain(rng) * (top / 255.0);
      values_[static_cast<std::size_t>(y) * canvas_width + x] = static_cast<int>(std::clamp(scaled, 0.0, top));
    }
}

TestPlane Texture::frame(int width, int height, int ox, int oy, int pad) const {
  TestPlane p(width, height, type_, pad);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) p.set(x, y, values_.at(static_cast<std::size_t>(y + oy) * width_ + (x + ox)));
  return p;
}

TestPlane random_plane(std::mt19937_64& rng, int width, int height, SampleType type, int max_value, int pad) {
  TestPlane p(width, height, type, pad);
  std::uniform_int_distribution<int> dist(0, max_value);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) p.set(x, y, dist(rng));
  return p;
}

MotionField brute_force_motion(const TestPlane& cur, const TestPlane& ref, const MotionParams& params) {
  const int b = params.block_size, r = params.search_range;
  MotionField field;
  field.resize(motion_grid(cur.width(), cur.height(), b));
  for (int row = 0; row < field.grid.rows; ++row)
    for (int col = 0; col < field.grid.columns; ++col) {
      const int x0 = col * b, y0 = row * b;
      const int bw = std::min(b, cur.width() - x0), bh = std::min(b, cur.height() - y0);
      std::tuple<long, int, int, int> best{-1, 0, 0, 0};
      for (int dy = -r; dy <= r; ++dy)
        for (int dx = -r; dx <= r; ++dx) {
          if (x0 + dx < 0 || x0 + dx + bw > cur.width() || y0 + dy < 0 || y0 + dy + bh > cur.height()) continue;
          long sad = 0;
          for (int y = 0; y < bh; ++y)
            for (int x = 0; x < bw; ++x) sad += std::abs(cur.get(x0 + x, y0 + y) - ref.get(x0 + x + dx, y0 + y + dy));
          const std::tuple<long, int, int, int> here{sad, std::abs(dx) + std::abs(dy), dy, dx};
          if (std::get<0>(best) < 0 || here < best) best = here;
        }
      MotionVector& v = field.vectors[static_cast<std::size_t>(row) * field.grid.columns + col];
      v.sad = static_cast<std::uint32_t>(std::get<0>(best));
      v.dy = static_cast<std::int16_t>(std::get<2>(best));
      v.dx = static_cast<std::int16_t>(std::get<3>(best));
    }
  return field;
}

MotionParams motion_params(int block_size, int search_range) {
  MotionParams p;
  p.block_size = block_size;
  p.search_range = search_range;
  return p;
}

MotionField run_motion_cpu(const TestPlane& cur, const TestPlane& ref, const MotionParams& params, int threads) {
  MotionField f;
  const Status s = motion_estimate_cpu(cur.view(), ref.view(), params, &f, threads);
  EXPECT_TRUE(s.is_ok()) << s.message();
  return f;
}

std::vector<ComparisonCase> comparison_cases(std::mt19937_64& rng) {
  std::vector<ComparisonCase> cases;
  auto name_of = [](const char* what, SampleType type, const MotionParams& p, int w, int h) {
    return std::string(what) + (type == SampleType::kU8 ? " u8 " : " u16 ") + std::to_string(w) + "x" +
           std::to_string(h) + " block " + std::to_string(p.block_size) + " range " + std::to_string(p.search_range);
  };
  auto add_random = [&](const char* what, int w, int h, SampleType type, int top, int pad, MotionParams p,
                        std::size_t offset = 0) {
    TestPlane cur = random_plane(rng, w, h, type, top, pad), ref = random_plane(rng, w, h, type, top, pad);
    cases.push_back(ComparisonCase{name_of(what, type, p, w, h), std::move(cur), std::move(ref), p, offset});
  };
  for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
    const int top = type == SampleType::kU8 ? 255 : 65535, pad = type == SampleType::kU8 ? 5 : 6;
    for (int block : {4, 8, 16, 32}) {
      for (int range : {1, 5, 8, 13}) add_random("random", 75, 53, type, top, pad, motion_params(block, range));
      add_random("ties", 70, 45, type, 1, 0, motion_params(block, 7));  // samples 0 or 1: equal SADs abound
    }
  }
  for (int block : {4, 8, 16, 32}) add_random("largest range", 140, 75, SampleType::kU8, 255, 3, motion_params(block, 64));
  for (int block : {8, 32}) add_random("largest range", 100, 90, SampleType::kU16, 65535, 2, motion_params(block, 64));
  for (int w : {1, 3, 6, 17})
    for (int h : {1, 4, 9}) add_random("tiny", w, h, SampleType::kU8, 255, 0, motion_params(4, 3));
  for (std::size_t offset : {1u, 2u, 3u})
    for (int pad : {1, 5}) add_random("misaligned", 130, 45, SampleType::kU8, 255, pad, motion_params(16, 11), offset);
  add_random("misaligned", 64, 40, SampleType::kU16, 65535, 6, motion_params(8, 7), 2);
  for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
    const int w = 200, h = 120, margin = 40;
    const Texture tex(rng, w + 2 * margin, h + 2 * margin, type);
    for (const MotionParams& p : {motion_params(16, 16), motion_params(8, 32)})
      cases.push_back(ComparisonCase{name_of("shifted texture", type, p, w, h), tex.frame(w, h, margin - 9, margin + 14, 2),
                                     tex.frame(w, h, margin, margin, 2), p, 0});
  }
  return cases;
}

std::string first_difference(const MotionField& expected, const MotionField& actual) {
  if (expected.grid.columns != actual.grid.columns || expected.grid.rows != actual.grid.rows ||
      expected.grid.block_size != actual.grid.block_size) {
    return "grids differ";
  }
  for (int row = 0; row < expected.grid.rows; ++row)
    for (int col = 0; col < expected.grid.columns; ++col) {
      const MotionVector& e = expected.at(col, row);
      const MotionVector& a = actual.at(col, row);
      if (e.dx != a.dx || e.dy != a.dy || e.sad != a.sad) {
        return "block (" + std::to_string(col) + ", " + std::to_string(row) + "): expected (" + std::to_string(e.dx) +
               ", " + std::to_string(e.dy) + ") sad " + std::to_string(e.sad) + ", got (" + std::to_string(a.dx) + ", " +
               std::to_string(a.dy) + ") sad " + std::to_string(a.sad);
      }
    }
  return "";
}

}  // namespace test
}  // namespace dpx
