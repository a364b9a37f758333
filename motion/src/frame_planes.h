// The 16 quarter-pel phase planes of a whole reference frame, built once for all its blocks' sharp
// sub-pel searches on the GPU (refine_block.h, filtered_subpel_search), where the CPU builds a
// patch's planes (refine_planes.h) for every patch of every block, neighbouring blocks filtering
// the same samples again. Plane (fx, fy) sample (x, y) is the reference at (x + fx / 4, y + fy / 4) by
// the job's filter (SubpelFilter, the frame's edges replicated), so it is the sample the functor
// gives a candidate directly. The planes reach one sample past the frame on every side: a patch
// around an admissible centre reads no further (its candidates' whole parts lie within 1 px of the
// centre's), so a candidate outside the frame, which never counts, reads inside the buffer too.
// Plane (0, 0) is the frame with that margin; keeping it beside the others gives every candidate
// the same addressing. Host and device code: the kernel (refine_frame_planes.cu) runs a tile's
// steps below one thread index each, a host test runs them for every index.
#pragma once

#include <cstddef>
#include <cstdint>

#include "refine_planes.h"
#include "refine_samples.h"
#include "subpel_filter.h"

namespace dpx {
namespace motion_detail {

constexpr int kFramePlaneMargin = 1;  // samples each plane holds beyond the frame on every side

// Where the planes lie in one buffer, in bytes: rows start on 128-byte lines.
struct FramePlanesLayout {
  std::size_t pitch = 0;        // a row
  std::size_t plane_bytes = 0;  // a plane
  DPX_HD std::size_t total_bytes() const { return 16 * plane_bytes; }
};

inline FramePlanesLayout frame_planes_layout(int width, int height, int sample_bytes) {
  FramePlanesLayout l;
  const std::size_t row = static_cast<std::size_t>(width + 2 * kFramePlaneMargin) * sample_bytes;
  l.pitch = (row + 127) / 128 * 128;
  l.plane_bytes = l.pitch * static_cast<std::size_t>(height + 2 * kFramePlaneMargin);
  return l;
}

// Do the planes take less than 2 GiB, so that every offset between their samples is an int?
inline bool frame_planes_fit(const FramePlanesLayout& l) {
  return l.total_bytes() <= 0x7FFFFFFFu;
}

// A buffer of frame planes, untyped (RefineJob carries it); data null when there is none.
struct PhasePlanes {
  unsigned char* data = nullptr;
  FramePlanesLayout layout;
};

// The planes of a frame of T samples, in frame coordinates.
template <typename T>
struct FramePlanes {
  T* data;               // sample (0, 0) of plane (0, 0)
  int pitch;             // samples a row
  std::ptrdiff_t plane;  // samples a plane

  DPX_HD static FramePlanes of(const PhasePlanes& p) {
    const int pitch = static_cast<int>(p.layout.pitch / sizeof(T));
    return FramePlanes{reinterpret_cast<T*>(p.data) + (pitch + 1) * kFramePlaneMargin, pitch,
                       static_cast<std::ptrdiff_t>(p.layout.plane_bytes / sizeof(T))};
  }
  // Sample (x, y) of plane (fx, fy), x in -1 .. width, y in -1 .. height.
  DPX_HD T* sample(int x, int y, int fx, int fy) const {
    return data + (fy * 4 + fx) * plane + static_cast<std::ptrdiff_t>(y) * pitch + x;
  }
};

// The frame's planes seen as one patch's (PatchPlanes' interface): the patch around whole pixel
// (cx, cy) of the block at (bx, by), its sample (0, 0) at frame (bx + cx - 1, by + cy - 1).
template <typename T>
struct FramePatch {
  FramePlanes<const T> frame;
  int x0, y0;
  int cx, cy;
  DPX_HD int at(int x, int y, int fx, int fy) const { return *frame.sample(x0 + x, y0 + y, fx, fy); }
};

// The plane builder's tile: a CTA's 64 x 32 samples of every plane, from the reference region they
// read, staged once with the frame's edges replicated (what the taps past the edge read): 3
// samples left of and above the tile, 4 right of and below it (HEVC's taps; H.264's reach 2 and 4).
// Tile (tx, ty) starts at plane sample (64 tx - 1, 32 ty - 1).
struct FramePlaneTile {
  static constexpr int kColumns = 64, kRows = 32, kThreads = 256;
  static constexpr int kBefore = 3, kAfter = 4;
  static constexpr int kPitch = kColumns + kBefore + kAfter;
  static constexpr int kSamples = kPitch * (kRows + kBefore + kAfter);
  // Tiles a frame's planes take, across and down.
  DPX_HD static int columns(int width) { return (width + 2 * kFramePlaneMargin + kColumns - 1) / kColumns; }
  DPX_HD static int rows(int height) { return (height + 2 * kFramePlaneMargin + kRows - 1) / kRows; }
};

// The staged samples, in the tile's coordinates: (0, 0) is frame (64 tx - 1 - kBefore, 32 ty - 1 - kBefore).
template <typename T>
struct TileSamples {
  const T* tile;
  DPX_HD int operator()(int x, int y) const { return tile[y * FramePlaneTile::kPitch + x]; }
};

// Step 1 of tile (tx, ty), by thread `thread` of kThreads: its share of the reference region into `tile`.
template <typename T>
DPX_HD void stage_plane_tile(const FrameSamples<T>& frame, int tx, int ty, int thread, T* tile) {
  using Tile = FramePlaneTile;
  const int x0 = tx * Tile::kColumns - kFramePlaneMargin - Tile::kBefore;
  const int y0 = ty * Tile::kRows - kFramePlaneMargin - Tile::kBefore;
  for (int i = thread; i < Tile::kSamples; i += Tile::kThreads) {
    const int y = i / Tile::kPitch, x = i - y * Tile::kPitch;
    tile[i] = static_cast<T>(frame.ref_edge(x0 + x, y0 + y));
  }
}

// H.264's 16 phases of the sample at (x, y) of `at`: the 9 integer and half samples around it
// (SubpelFilter::h264_half_at) computed once, each phase from them by the functor's own rule
// (SubpelFilter::h264_quarter). Phase (fx, fy) goes to out[(fy * 4 + fx) * phase_step].
template <typename At, typename T>
DPX_HD void h264_phases(const SubpelFilter& f, const At& at, int x, int y, T* out,
                        std::ptrdiff_t phase_step) {
  int half[3][3];
  DPX_UNROLL
  for (int qy = 0; qy < 3; ++qy) {
    DPX_UNROLL
    for (int qx = 0; qx < 3; ++qx) half[qy][qx] = f.h264_half_at(at, x, y, 2 * qx, 2 * qy);
  }
  DPX_UNROLL
  for (int p = 0; p < 16; ++p)
    out[p * phase_step] = static_cast<T>(
        SubpelFilter::h264_quarter([&](int qx, int qy) { return half[qy >> 1][qx >> 1]; }, p & 3, p >> 2));
}

// Step 2 of tile (tx, ty) of a width x height frame, by thread `thread` of kThreads, once every
// thread has staged its share:
// HEVC, thread t builds column t % 64 of the 4 planes of horizontal phase t / 64
// (hevc_phase_column); H.264, thread t the 16 phases of 8 samples of column t % 64, rows 8 (t / 64)
// on. The filter must be subpel_filter(mode, sizeof(T)) of an interpolation other than bilinear.
template <typename T>
DPX_HD void build_plane_tile(const SubpelFilter& f, const FramePlanes<T>& planes, int width, int height,
                             int tx, int ty, int thread, const T* tile) {
  using Tile = FramePlaneTile;
  const int x0 = tx * Tile::kColumns - kFramePlaneMargin, y0 = ty * Tile::kRows - kFramePlaneMargin;
  const int right = width + kFramePlaneMargin, bottom = height + kFramePlaneMargin;
  const int columns = right - x0 < Tile::kColumns ? right - x0 : Tile::kColumns;
  const int rows = bottom - y0 < Tile::kRows ? bottom - y0 : Tile::kRows;
  const int x = thread % Tile::kColumns, part = thread / Tile::kColumns;
  if (x >= columns) return;
  const TileSamples<T> at{tile};
  if (f.mode == MotionInterpolation::kHevc) {
    const auto column = [&](int fx) {
      hevc_phase_column(f, at, Tile::kBefore + x, Tile::kBefore, fx, rows, planes.sample(x0 + x, y0, fx, 0),
                        planes.pitch, 4 * static_cast<int>(planes.plane));
    };
    // The phase a constant in each call (all inlined): its taps are immediates and nothing
    // branches on it row by row.
    switch (part) {
      case 0: column(0); break;
      case 1: column(1); break;
      case 2: column(2); break;
      default: column(3); break;
    }
    return;
  }
  constexpr int kRowsEach = Tile::kRows * Tile::kColumns / Tile::kThreads;
  for (int y = part * kRowsEach; y < (part + 1) * kRowsEach && y < rows; ++y)
    h264_phases(f, at, Tile::kBefore + x, Tile::kBefore + y, planes.sample(x0 + x, y0 + y, 0, 0),
                planes.plane);
}

}  // namespace motion_detail
}  // namespace dpx
