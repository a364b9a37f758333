// How a block of the CUDA morphology moves down its column: a band of output rows, filtered in
// groups of kThreadsY x kRowsPerThread rows, with the input rows streamed through a ring in shared
// memory.
//
// Input row u of a band starting at output row y0 is image row y0 - R + u. The input arrives in
// units: unit 0 is rows 0 .. G + 2R - 1 (the first group and its halo), unit k > 0 the G rows that
// group k adds, kG + 2R .. (k + 1)G + 2R - 1. Group k needs units 0 .. k, so each unit is read once
// and the halo rows come from the ring. Units 0 .. P are requested first; after group k is filtered
// and stored, its first G rows are free and unit k + P + 1 is requested into them — P units are
// always in flight while a group is filtered, and the loads of one group overlap the stores of the
// one before. The ring holds (P + 1)G + 2R rows.
//
// One band of G rows and P = 0 is the plain tile (load, filter, store); the band schedules of
// morph_schedules.h are such parameters (plan_band()). Only the variants library builds them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "morph_lanes.cuh"
#include "morph_schedules.h"
#include "morph_tile.cuh"

namespace dpx {
namespace morph {

struct BandArgs {
  int band_rows;  // output rows per block, a multiple of the group's rows
  int prefetch;   // P: units requested ahead of the group being filtered
  int ring_rows;  // input rows the shared ring holds
};

template <int kRowsPerThread>
struct Band {
  static constexpr int kGroupRows = Tile::kThreadsY * kRowsPerThread;
  static constexpr int ring_rows(int band_rows, int prefetch, int radius) {
    return ((prefetch < band_rows / kGroupRows - 1 ? prefetch : band_rows / kGroupRows - 1) + 1) * kGroupRows +
           2 * radius;
  }
};

// Calls f(out, sy, gx, fast) for each of this thread's chunks of input rows u_begin .. u_end - 1:
// `out` its place in the ring, `sy` the source row (-1: none), `gx` its first byte in the row,
// `fast` whether one 16-byte copy fetches it.
template <int R, class F>
__device__ __forceinline__ void for_each_chunk(const PassArgs& a, const BandArgs& b, std::uint8_t* ring, int x0, int y0,
                                               int u_begin, int u_end, const F& f) {
  const int total = (u_end - u_begin) * Tile::kChunks;
  const int slot0 = u_begin % b.ring_rows;
  for (int i = threadIdx.x; i < total; i += Tile::kThreads) {
    const int row = i / Tile::kChunks;
    const int chunk = i - row * Tile::kChunks;
    const int slot = slot0 + row >= b.ring_rows ? slot0 + row - b.ring_rows : slot0 + row;
    const int sy = resolve(y0 - R + u_begin + row, a.height, a.border);
    const int gx = x0 - Tile::kChunk + chunk * Tile::kChunk;
    const bool fast = a.src_vector && sy >= 0 && gx >= 0 && gx + Tile::kChunk <= a.row_bytes;
    f(ring + slot * Tile::kStride + chunk * Tile::kChunk, sy, gx, fast);
  }
}

// The threads of a block on the device: each runs its own part; sync() is the block barrier. (The
// host emulation test runs the same schedule with every thread in turn.)
struct DeviceThreads {
  template <class F>
  __device__ __forceinline__ void each(const F& f) const {
    f();
  }
  __device__ __forceinline__ void sync() const { __syncthreads(); }
};

// One block: output bytes bx * 256 .. + 255 of rows by * band_rows .. + band_rows - 1, in the
// lanes LanesFor<Format, C>.
template <class Format, int C, int Size, MorphShape Shape, int kRowsPerThread, class Threads>
__device__ void band_pass(const Threads& threads, const PassArgs& a, const BandArgs& b, std::uint8_t* ring, int bx,
                          int by) {
  using L = LanesFor<Format, C>;
  constexpr int R = Size / 2;
  constexpr int G = Band<kRowsPerThread>::kGroupRows;
  using Sample = typename L::Sample;
  const int x0 = bx * Tile::kWidthBytes;
  const int y0 = by * b.band_rows;
  const int rows = b.band_rows < a.height - y0 ? b.band_rows : a.height - y0;
  const int groups = (rows + G - 1) / G;
  const auto unit_begin = [&](int k) { return k == 0 ? 0 : k * G + 2 * R; };
  const auto unit_end = [&](int k) { return ((k + 1) * G < rows ? (k + 1) * G : rows) + 2 * R; };

  // Every thread commits one group per unit number, empty or not, so "units 0 .. k landed" is
  // always "at most P groups pending".
  const auto request = [&](int k) {
    threads.each([&] {
      if (k < groups) {
        for_each_chunk<R>(a, b, ring, x0, y0, unit_begin(k), unit_end(k),
                          [&](std::uint8_t* out, int sy, int gx, bool fast) {
                            if (fast) copy_async<16>(out, a.src + static_cast<std::size_t>(sy) * a.src_pitch + gx);
                          });
      }
      commit_async_copies();
    });
  };
  for (int k = 0; k <= b.prefetch; ++k) request(k);

  for (int k = 0; k < groups; ++k) {
    // Border chunks are built once their unit's copies landed: their samples are then in L2.
    threads.each([&] {
      wait_async_copies(b.prefetch);
      for_each_chunk<R>(a, b, ring, x0, y0, unit_begin(k), unit_end(k),
                        [&](std::uint8_t* out, int sy, int gx, bool fast) {
                          if (!fast) fill_chunk_by_border<Sample, C>(a, out, sy, gx, L::kNeutral);
                        });
    });
    threads.sync();
    threads.each([&] {
      const int tx = threadIdx.x % Tile::kThreadsX;
      const int ty = threadIdx.x / Tile::kThreadsX;
      const int xb = x0 + tx * Tile::kChunk;
      const int first = k * G + ty * kRowsPerThread;  // input row of the window's top
      if (xb >= a.row_bytes || y0 + first >= a.height) return;
      const RingWindow window{ring + Tile::kChunk + tx * Tile::kChunk, first % b.ring_rows, b.ring_rows};
      filter_chunk<L, C, Size, Shape, kRowsPerThread>(a, window, xb, y0 + first);
    });
    threads.sync();  // the group's first G rows are overwritten next
    request(k + b.prefetch + 1);
  }
}

// --- the schedules -------------------------------------------------------------------------------

// Blocks per SM the streaming schedule aims at: few enough that each band is several groups long,
// enough that an SM has loads in flight while one block filters.
constexpr int kStreamBlocksPerSm = 2;

// A band schedule's grid and ring.
struct BandPlan {
  int rows_per_thread;  // the kernel's compile-time kRowsPerThread
  BandArgs args;
  int blocks_x, blocks_y;
  std::size_t shared_bytes;
};

// Grid and ring of bands of `band_rows` (a multiple of 8 x rows_per_thread) with `prefetch`
// groups ahead, for a plane of `height` rows x `row_bytes` and window radius `radius`.
inline BandPlan plan_bands(int rows_per_thread, int band_rows, int prefetch, int height, int row_bytes, int radius) {
  BandPlan p{};
  p.rows_per_thread = rows_per_thread;
  p.args.band_rows = band_rows;
  p.args.prefetch = prefetch;
  p.args.ring_rows = rows_per_thread == 8 ? Band<8>::ring_rows(band_rows, prefetch, radius)
                                          : Band<4>::ring_rows(band_rows, prefetch, radius);
  p.blocks_x = (row_bytes + Tile::kWidthBytes - 1) / Tile::kWidthBytes;
  p.blocks_y = (height + band_rows - 1) / band_rows;
  p.shared_bytes = static_cast<std::size_t>(p.args.ring_rows) * Tile::kStride;
  return p;
}

// Whether `schedule` is one of the band schedules (not the register kernel's).
constexpr bool is_band_schedule(variants::MorphSchedule schedule) {
  return schedule != variants::MorphSchedule::kRegisters && schedule != variants::MorphSchedule::kRegisters2;
}

// The rows a lane of a band schedule.
constexpr int band_rows_per_thread(variants::MorphSchedule schedule) {
  return schedule == variants::MorphSchedule::kTile64 ? 8 : 4;
}

// The band parameters of band `schedule` on a device with `sm_count` SMs.
inline BandPlan plan_band(variants::MorphSchedule schedule, int height, int row_bytes, int radius, int sm_count) {
  using variants::MorphSchedule;
  constexpr int kGroup = Band<4>::kGroupRows;
  switch (schedule) {
    case MorphSchedule::kStream: {
      const int columns = (row_bytes + Tile::kWidthBytes - 1) / Tile::kWidthBytes;
      const int bands = std::max(1, sm_count * kStreamBlocksPerSm / columns);
      const int band_rows = ((height + bands - 1) / bands + kGroup - 1) / kGroup * kGroup;
      return plan_bands(4, band_rows, 2, height, row_bytes, radius);
    }
    case MorphSchedule::kSplit: return plan_bands(4, 2 * kGroup, 1, height, row_bytes, radius);
    case MorphSchedule::kTile64: return plan_bands(8, Band<8>::kGroupRows, 0, height, row_bytes, radius);
    default: break;
  }
  return plan_bands(4, kGroup, 0, height, row_bytes, radius);  // kTile32
}

}  // namespace morph
}  // namespace dpx
