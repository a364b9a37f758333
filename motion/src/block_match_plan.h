// How a CUDA search is cut up: the shape of the work per block size and sample type, and the CTA
// plan (blocks per CTA, shared-memory window, threads, grid). Host code with no CUDA in it, shared
// by the launcher and by the tests that run the kernel's steps on the host.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dpx/motion.h"
#include "motion_cost.h"

namespace dpx {
namespace motion_detail {

template <typename T, int B>
struct Shape {
  static constexpr int kPixels = sizeof(T) == 1 ? 4 : 1;  // samples per 32-bit word
  static constexpr int kWords = B / kPixels;               // words in a block row
  // Candidates per run: each loaded reference row serves kRun of them; kRun rows of kWords words
  // live in registers, so wide rows get shorter runs.
  static constexpr int kRun = 64 / kWords >= 8 ? 8 : (64 / kWords >= 1 ? 64 / kWords : 1);
};

constexpr int kMaxThreads = 256;

// Everything the kernel needs, computed once on the host.
struct SearchGeometry {
  const unsigned char* cur;
  const unsigned char* ref;
  std::size_t cur_pitch, ref_pitch;
  int width, height;
  int range;           // R
  int columns, rows;   // the block grid
  MotionVector* out;
  CostModel cost;      // lambda 0: candidates ranked by SAD alone
  // Filled by plan_search:
  int side_runs;       // runs per side of dy = 0 at each dx: ceil(R / kRun)
  int reach;           // side_runs * kRun >= R: rows the window extends above and below the strip
  int blocks_per_cta;  // M: blocks of one row per CTA
  int window_rows;     // B + 2 * reach
  int window_stride;   // words per window row (multiple of 4)
};

// The planes, parameters and output of one search (the CTA fields are left to plan_search).
inline SearchGeometry search_geometry(const PlaneView& current, const PlaneView& reference,
                                      const MotionParams& params, MotionVector* out) {
  const MotionGrid grid = motion_grid(current.width, current.height, params.block_size);
  SearchGeometry g{};
  g.cur = static_cast<const unsigned char*>(current.data);
  g.ref = static_cast<const unsigned char*>(reference.data);
  g.cur_pitch = current.pitch;
  g.ref_pitch = reference.pitch;
  g.width = current.width;
  g.height = current.height;
  g.range = params.search_range;
  g.columns = grid.columns;
  g.rows = grid.rows;
  g.out = out;
  return g;
}

struct LaunchShape {
  unsigned grid_x, grid_y;
  int threads;
  std::size_t smem_bytes;
};

// A strip of blocks about 32 pixels wide per CTA (neighbours share one window), a window tall
// enough for the outermost runs, and a thread per unit up to kMaxThreads.
template <typename T, int B>
LaunchShape plan_search(SearchGeometry* g) {
  using S = Shape<T, B>;
  auto round_up = [](int v, int m) { return (v + m - 1) / m * m; };
  g->blocks_per_cta = B >= 32 ? 1 : 32 / B;
  g->side_runs = (g->range + S::kRun - 1) / S::kRun;
  g->reach = g->side_runs * S::kRun;
  g->window_rows = B + 2 * g->reach;
  // Sliding words start at every column a candidate word can begin at; padded to whole uint4
  // stores, and off a multiple of 32 words so rows in flight together fall in different banks.
  g->window_stride = round_up(g->blocks_per_cta * B + 2 * g->range - S::kPixels + 1, 4);
  if (g->window_stride % 32 == 0) g->window_stride += 4;

  LaunchShape s;
  s.smem_bytes = sizeof(std::uint32_t) * (static_cast<std::size_t>(g->window_rows) * g->window_stride +
                                          static_cast<std::size_t>(g->blocks_per_cta) * B * S::kWords) +
                 sizeof(unsigned long long) * g->blocks_per_cta;
  const int units = (2 * g->side_runs + 1) * g->blocks_per_cta * (2 * g->range + 1);
  s.threads = units < kMaxThreads ? round_up(units, 32) : kMaxThreads;
  s.grid_x = static_cast<unsigned>((g->columns + g->blocks_per_cta - 1) / g->blocks_per_cta);
  s.grid_y = static_cast<unsigned>(g->rows);
  return s;
}

}  // namespace motion_detail
}  // namespace dpx
