#include "motion_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <climits>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <tuple>

namespace dpx {
namespace test {

TestPlane::TestPlane(int width, int height, SampleType type, int pad)
    : width_(width), height_(height), type_(type),
      pitch_(static_cast<std::size_t>(width) * sample_bytes(type) + pad),
      bytes_(pitch_ * height + 16, 0) {
  // The library refuses 16-bit planes with odd pitches; a test plane is one it accepts.
  if (type == SampleType::kU16 && pad % 2 != 0) throw std::invalid_argument("16-bit test plane with odd padding");
}

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

namespace {

int median_of_three(int a, int b, int c) { return std::max(std::min(a, b), std::min(std::max(a, b), c)); }

// The reference with its edges replicated.
int edge(const TestPlane& ref, int x, int y) {
  return ref.get(std::clamp(x, 0, ref.width() - 1), std::clamp(y, 0, ref.height() - 1));
}

}  // namespace

int reference_sample(const TestPlane& ref, MotionInterpolation mode, int x, int y, int fx, int fy) {
  const int top = ref.max_value();
  auto clip = [top](int v) { return std::clamp(v, 0, top); };
  if (fx == 0 && fy == 0) return ref.get(x, y);
  if (mode == MotionInterpolation::kBilinear) {
    const int a = ref.get(x, y), b = fx ? ref.get(x + 1, y) : a;
    const int c = fy ? ref.get(x, y + 1) : a, d = fx && fy ? ref.get(x + 1, y + 1) : (fx ? b : c);
    return ((4 - fx) * (4 - fy) * a + fx * (4 - fy) * b + (4 - fx) * fy * c + fx * fy * d + 8) >> 4;
  }
  if (mode == MotionInterpolation::kH264) {
    // H.264 8.4.2.2.1, the samples named as there: G at (x, y), H right of it, M below it.
    const int t[6] = {1, -5, 20, 20, -5, 1};
    auto row1 = [&](int xx, int yy) {  // b1: unrounded, between (xx, yy) and (xx + 1, yy)
      int v = 0;
      for (int i = 0; i < 6; ++i) v += t[i] * edge(ref, xx - 2 + i, yy);
      return v;
    };
    auto col1 = [&](int xx, int yy) {
      int v = 0;
      for (int i = 0; i < 6; ++i) v += t[i] * edge(ref, xx, yy - 2 + i);
      return v;
    };
    auto j_at = [&](int xx, int yy) {
      int v = 0;
      for (int i = 0; i < 6; ++i) v += t[i] * row1(xx, yy - 2 + i);
      return clip((v + 512) >> 10);
    };
    const int G = edge(ref, x, y), H = edge(ref, x + 1, y), M = edge(ref, x, y + 1);
    const int b = clip((row1(x, y) + 16) >> 5), h = clip((col1(x, y) + 16) >> 5);
    const int m = clip((col1(x + 1, y) + 16) >> 5), s = clip((row1(x, y + 1) + 16) >> 5), j = j_at(x, y);
    auto avg = [](int p, int q) { return (p + q + 1) >> 1; };
    const int table[4][4] = {// [fy][fx]
                             {G, avg(G, b), b, avg(b, H)},
                             {avg(G, h), avg(b, h), avg(b, j), avg(b, m)},
                             {h, avg(h, j), j, avg(j, m)},
                             {avg(h, M), avg(h, s), avg(j, s), avg(m, s)}};
    return table[fy][fx];
  }
  // HEVC 8.5.3.3.3.1 with its range extensions' shifts: shift1 = min(4, bit depth - 8) on the
  // first pass, shift2 = 6 on the second, then back to samples by shift3 = max(2, 14 - bit depth)
  // with rounding (6 for 8-bit samples, 2 for 16-bit: 6 - shift1 either way).
  const int f[4][8] = {{0, 0, 0, 64, 0, 0, 0, 0},
                       {-1, 4, -10, 58, 17, -5, 1, 0},
                       {-1, 4, -11, 40, 40, -11, 4, -1},
                       {0, 1, -5, 17, 58, -10, 4, -1}};
  const int depth = top == 255 ? 8 : 16;
  const int shift1 = std::min(4, depth - 8), shift3 = std::max(2, 14 - depth);
  auto hsum = [&](int yy) {
    int v = 0;
    for (int i = 0; i < 8; ++i) v += f[fx][i] * edge(ref, x - 3 + i, yy);
    return v;
  };
  long pred;
  if (fy == 0) {
    pred = hsum(y) >> shift1;
  } else if (fx == 0) {
    int v = 0;
    for (int i = 0; i < 8; ++i) v += f[fy][i] * edge(ref, x, y - 3 + i);
    pred = v >> shift1;
  } else {
    long v = 0;
    for (int i = 0; i < 8; ++i) v += f[fy][i] * (hsum(y - 3 + i) >> shift1);
    pred = v >> 6;
  }
  return clip(static_cast<int>((pred + (1L << (shift3 - 1))) >> shift3));
}

namespace {

int floor_div(int v, int s) { return static_cast<int>(std::floor(double(v) / s)); }

}  // namespace

MotionField reference_motion(const TestPlane& cur, const TestPlane& ref, const MotionParams& params) {
  const int b = params.block_size, range = params.search_range, s = static_cast<int>(params.subpel);
  const long lambda = params.lambda;
  const MotionField first = brute_force_motion(cur, ref, motion_params(b, range));
  MotionField out;
  out.resize(first.grid);
  out.grid.scale = s;
  const int cols = first.grid.columns;
  for (int r = 0; r < first.grid.rows; ++r)
    for (int c = 0; c < cols; ++c) {
      // H.264's median of left, top, top-right (top-left at the right edge); the left in the top row.
      int px = 0, py = 0;
      if (lambda > 0) {
        auto at = [&](int cc, int rr, bool ok) { return ok ? first.at(cc, rr) : MotionVector{}; };
        const MotionVector a = at(c - 1, r, c > 0);
        if (r == 0) {
          px = a.dx, py = a.dy;
        } else {
          const MotionVector t = first.at(c, r - 1);
          const MotionVector tr = c + 1 < cols ? first.at(c + 1, r - 1) : at(c - 1, r - 1, c > 0);
          px = median_of_three(a.dx, t.dx, tr.dx), py = median_of_three(a.dy, t.dy, tr.dy);
        }
      }
      const int x0 = c * b, y0 = r * b, bw = std::min(b, cur.width() - x0), bh = std::min(b, cur.height() - y0);
      // A candidate in units of 1/u: inside the range and the frame (interpolation taps included).
      auto sad_in = [&](int u, int vx, int vy, long* sad) {
        const int ix = floor_div(vx, u), iy = floor_div(vy, u), fx = (vx - ix * u) * 4 / u, fy = (vy - iy * u) * 4 / u;
        if (std::abs(vx) > u * range || std::abs(vy) > u * range) return false;
        if (x0 + ix < 0 || x0 + ix + bw + (fx ? 1 : 0) > cur.width()) return false;
        if (y0 + iy < 0 || y0 + iy + bh + (fy ? 1 : 0) > cur.height()) return false;
        *sad = 0;
        for (int y = 0; y < bh; ++y)
          for (int x = 0; x < bw; ++x)
            *sad += std::abs(cur.get(x0 + x, y0 + y) -
                             reference_sample(ref, params.interpolation, x0 + x + ix, y0 + y + iy, fx, fy));
        return true;
      };
      auto sad_at = [&](int vx, int vy, long* sad) { return sad_in(s, vx, vy, sad); };
      using Key = std::tuple<long, int, int, int>;  // cost, |vx| + |vy|, vy, vx
      // The cost in units of 1/u, times `weight`'s share of the SAD.
      auto key_in = [&](int u, long weight, int vx, int vy, long sad) {
        return Key{weight * sad + lambda * (std::abs(vx - u * px) + std::abs(vy - u * py)), std::abs(vx) + std::abs(vy),
                   vy, vx};
      };
      auto key = [&](int vx, int vy, long sad) { return key_in(s, 1, vx, vy, sad); };
      Key best{LONG_MAX, 0, 0, 0};
      for (int dy = -range; dy <= range; ++dy)
        for (int dx = -range; dx <= range; ++dx) {
          long sad = 0;
          if (sad_at(s * dx, s * dy, &sad)) best = std::min(best, key(s * dx, s * dy, sad));
        }
      if (params.interpolation == dpx::MotionInterpolation::kBilinear) {
        for (int step = s / 2; step >= 1; step /= 2) {
          const int cx = std::get<3>(best), cy = std::get<2>(best);
          for (int ny = -1; ny <= 1; ++ny)
            for (int nx = -1; nx <= 1; ++nx) {
              long sad = 0;
              if (sad_at(cx + nx * step, cy + ny * step, &sad)) best = std::min(best, key(cx + nx * step, cy + ny * step, sad));
            }
        }
      } else if (s > 1) {
        // Quarter pixels, the SAD weighted 4 / s: every position within 1 px, the patch moved to a
        // winner on its border at most twice; for half output the best half position within 1/4 px.
        const long w = 4 / s;
        auto qkey = [&](int vx, int vy, long sad) { return key_in(4, w, vx, vy, sad); };
        long sad = 0;
        const int ix = std::get<3>(best) / s, iy = std::get<2>(best) / s;
        sad_in(4, 4 * ix, 4 * iy, &sad);
        Key q = qkey(4 * ix, 4 * iy, sad);
        for (int patch = 0; patch < 3; ++patch) {
          const int cx = std::get<3>(q), cy = std::get<2>(q);
          for (int y = cy - 4; y <= cy + 4; ++y)
            for (int x = cx - 4; x <= cx + 4; ++x)
              if (sad_in(4, x, y, &sad)) q = std::min(q, qkey(x, y, sad));
          if (std::abs(std::get<3>(q) - cx) < 4 && std::abs(std::get<2>(q) - cy) < 4) break;
        }
        if (s == 2) {
          const int qx = std::get<3>(q), qy = std::get<2>(q);
          Key h{LONG_MAX, 0, 0, 0};
          for (int y : {qy - (qy & 1), qy + (qy & 1)})
            for (int x : {qx - (qx & 1), qx + (qx & 1)})
              if (sad_in(4, x, y, &sad)) h = std::min(h, qkey(x, y, sad));
          q = h;
        }
        best = Key{0, 0, std::get<2>(q) / static_cast<int>(w), std::get<3>(q) / static_cast<int>(w)};
      }
      long sad = 0;
      sad_at(std::get<3>(best), std::get<2>(best), &sad);
      MotionVector& v = out.vectors[static_cast<std::size_t>(r) * cols + c];
      v.dx = static_cast<std::int16_t>(std::get<3>(best));
      v.dy = static_cast<std::int16_t>(std::get<2>(best));
      v.sad = static_cast<std::uint32_t>(sad);
    }
  return out;
}

TestPlane quarter_shifted_frame(const Texture& fine, int width, int height, int qx, int qy) {
  const TestPlane big = fine.frame(4 * width, 4 * height, 64 + qx, 64 + qy);
  TestPlane out(width, height, big.type());
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      int sum = 0;
      for (int i = 0; i < 4; ++i)
        for (int k = 0; k < 4; ++k) sum += big.get(4 * x + k, 4 * y + i);
      out.set(x, y, (sum + 8) / 16);
    }
  return out;
}

std::vector<MotionParams> mode_variants(int block_size, int search_range) {
  std::vector<MotionParams> v;
  auto add = [&](MotionSubpel subpel, MotionSearch search, int lambda, int range) {
    MotionParams p = motion_params(block_size, range);
    p.subpel = subpel;
    p.search = search;
    p.lambda = lambda;
    v.push_back(p);
  };
  add(MotionSubpel::kHalf, MotionSearch::kFull, 0, search_range);
  add(MotionSubpel::kQuarter, MotionSearch::kFull, 0, search_range);
  add(MotionSubpel::kNone, MotionSearch::kFull, 3, search_range);
  add(MotionSubpel::kQuarter, MotionSearch::kFull, 2, search_range);
  add(MotionSubpel::kNone, MotionSearch::kPredictive, 0, search_range);
  add(MotionSubpel::kQuarter, MotionSearch::kPredictive, 4, search_range);
  add(MotionSubpel::kHalf, MotionSearch::kPredictive, 1, 2 * search_range + 3);
  // The sub-pel settings again with each interpolation.
  const std::size_t base = v.size();
  for (std::size_t i = 0; i < base; ++i)
    if (v[i].subpel != MotionSubpel::kNone)
      for (MotionInterpolation mode : {MotionInterpolation::kBilinear, MotionInterpolation::kH264, MotionInterpolation::kHevc})
        if (mode != v[i].interpolation) {
          MotionParams p = v[i];
          p.interpolation = mode;
          v.push_back(p);
        }
  return v;
}

std::string photo_dir() {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::read_symlink("/proc/self/exe", ec).parent_path();
  for (; !ec && dir.has_relative_path(); dir = dir.parent_path())
    if (std::filesystem::is_directory(dir / "tests" / "data" / "photos")) return (dir / "tests" / "data" / "photos").string();
  return "tests/data/photos";  // the working directory's
}

std::string first_difference(const MotionField& expected, const MotionField& actual) {
  if (expected.grid.columns != actual.grid.columns || expected.grid.rows != actual.grid.rows ||
      expected.grid.block_size != actual.grid.block_size || expected.grid.scale != actual.grid.scale) {
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
