// Photographs moved by exact quarter pixels, and the score of a field on their textured blocks.
#include "photo_shift.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

namespace dpx {
namespace quality {

Status read_pgm(const std::string& path, GreyImage* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return invalid_argument("read_pgm: cannot open " + path);
  std::string magic;
  int maxval = 0;
  GreyImage g;
  if (!(in >> magic >> g.width >> g.height >> maxval) || magic != "P5" || maxval != 255 || g.width < 1 ||
      g.height < 1)
    return invalid_argument("read_pgm: " + path + " is not a binary 8-bit PGM");
  in.get();  // the one whitespace after the header
  g.pixels.resize(static_cast<std::size_t>(g.width) * g.height);
  if (!in.read(reinterpret_cast<char*>(g.pixels.data()), static_cast<std::streamsize>(g.pixels.size())))
    return invalid_argument("read_pgm: " + path + " ends before its pixels do");
  *out = std::move(g);
  return Status::ok();
}

Status read_photos(const std::string& dir, std::vector<GreyImage>* photos, std::vector<std::string>* names) {
  std::error_code ec;
  std::vector<std::filesystem::path> paths;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".pgm") paths.push_back(e.path());
  if (ec) return invalid_argument("read_photos: cannot list " + dir + ": " + ec.message());
  if (paths.empty()) return invalid_argument("read_photos: no .pgm in " + dir);
  std::sort(paths.begin(), paths.end());
  photos->clear();
  names->clear();
  for (const auto& p : paths) {
    GreyImage g;
    DPX_RETURN_IF_ERROR(read_pgm(p.string(), &g));
    photos->push_back(std::move(g));
    names->push_back(p.filename().string());
  }
  return Status::ok();
}

namespace {

// Sample (u, v) of the 4x bilinear upsample, times 16 (exact).
int upsampled_x16(const GreyImage& p, int u, int v) {
  const int x = u >> 2, y = v >> 2, fx = u & 3, fy = v & 3;
  const int x1 = fx ? x + 1 : x, y1 = fy ? y + 1 : y;
  return (4 - fx) * (4 - fy) * p.at(x, y) + fx * (4 - fy) * p.at(x1, y) + (4 - fx) * fy * p.at(x, y1) +
         fx * fy * p.at(x1, y1);
}

}  // namespace

GreyImage quarter_shifted(const GreyImage& photo, int ox, int oy, int width, int height, int qx, int qy) {
  GreyImage f;
  f.width = width;
  f.height = height;
  f.pixels.resize(static_cast<std::size_t>(width) * height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      int sum = 0;
      for (int i = 0; i < 4; ++i)
        for (int k = 0; k < 4; ++k) sum += upsampled_x16(photo, 4 * (ox + x) + k + qx, 4 * (oy + y) + i + qy);
      f.pixels[static_cast<std::size_t>(y) * width + x] = static_cast<std::uint8_t>((sum + 128) >> 8);
    }
  return f;
}

std::vector<std::size_t> textured_blocks(const GreyImage& frame, int block) {
  const MotionGrid g = motion_grid(frame.width, frame.height, block);
  std::vector<std::pair<double, std::size_t>> interior;
  for (int r = 1; r + 1 < g.rows; ++r)
    for (int c = 1; c + 1 < g.columns; ++c) {
      double a = 0, b = 0, d = 0;  // the structure tensor [a b; b d] of central differences
      for (int y = r * block; y < (r + 1) * block; ++y)
        for (int x = c * block; x < (c + 1) * block; ++x) {
          const double gx = frame.at(x + 1, y) - frame.at(x - 1, y),
                       gy = frame.at(x, y + 1) - frame.at(x, y - 1);
          a += gx * gx, b += gx * gy, d += gy * gy;
        }
      const double smaller = (a + d) / 2 - std::sqrt((a - d) * (a - d) / 4 + b * b);
      interior.emplace_back(smaller, static_cast<std::size_t>(r) * g.columns + c);
    }
  std::sort(interior.begin(), interior.end());
  std::vector<std::size_t> out;
  for (std::size_t i = interior.size() / 2; i < interior.size(); ++i) out.push_back(interior[i].second);
  std::sort(out.begin(), out.end());
  return out;
}

ShiftScore score_shift(const MotionField& field, const std::vector<std::size_t>& blocks, int qx, int qy) {
  ShiftScore s;
  const double unit = field.grid.scale;
  for (std::size_t i : blocks) {
    const MotionVector& v = field.vectors[i];
    const double ex = std::abs(v.dx / unit - qx / 4.0), ey = std::abs(v.dy / unit - qy / 4.0);
    s.within += std::max(ex, ey) <= 0.25 + 1e-9;
    s.error_sum += std::hypot(ex, ey);
    ++s.blocks;
  }
  return s;
}

}  // namespace quality
}  // namespace dpx
