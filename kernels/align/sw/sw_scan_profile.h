// One thread of the database scan with a query profile: the same scan as sw_scan.h (local, score
// only, one query against many, two targets a slot in the packed 16-bit lanes), transposed. The
// query runs along the strip's columns and the two targets down its rows, so a step's letters are
// one target letter per lane and R query letters that stay fixed for the pass. The scores come
// from the query profile in shared memory: per database letter x, s(query[c], x) for every column
// c as int8, 16 columns in 16 bytes. A step loads R / 16 such chunks per lane (LDS.128) and builds
// each column pair's s16x2 word with one byte permute (sign-extending both lanes' bytes), where
// the paired table takes one 32-bit lookup and an add per column pair.
//
// Chunk layout: chunk j of thread t in pass p of letter x's row is chunk p * G * R / 16 + j * G + t
// of the row (rows of passes * G * R bytes, a multiple of 128), so the chunk's 16-byte bank group
// is t % 8 whatever the letter: the 8 threads of a quarter warp (consecutive t, G >= 8) read 8
// different bank groups, and every LDS.128 takes the minimum of 4 wavefronts.
//
// Every thread runs every step of its warp's longest slot: rows past a target's end and columns
// past the query's end score 0 (the padding letter's row is zeros, so are the profile bytes past
// the query), which cannot raise a local maximum (sw_scan.h). Local alignment is symmetric in the
// two sequences for equal gap costs in both directions, and the profile keeps s(query, target)'s
// orientation, so the scores are the paired scan's exactly.
//
// Host and device code: the kernel (sw_scan_profile.cuh) and the host simulation (tests) both run
// it.
#pragma once

#include <cstdint>

#include "sw_plan.h"
#include "sw_scan.h"

namespace dpx {
namespace align {

// Profile shapes (G threads of R query columns a pass), narrowest first; G >= 8 and R a multiple
// of 16 keep the chunk layout conflict-free. Groups of 8: a pass costs every slot G - 1 steps of
// filling and emptying over its target's rows, the same work whatever the width, so narrow groups
// in more passes do less (the column store between passes is 16 bytes a row).
constexpr StripConfig kProfileConfigs[] = {{8, 16}, {8, 32}};
constexpr int kProfileConfigCount = sizeof(kProfileConfigs) / sizeof(kProfileConfigs[0]);
constexpr int kProfileChunk = 16;               // bytes (columns) of one LDS.128
constexpr int kProfileThreads = 512;            // a block: one per SM beside a profile of up to 227 KB
constexpr int kProfileMaxBytes = 232448 - 256;  // the block's shared memory less the letter codes

// Passes of a query of n letters in shapes `width` (G * R) columns wide, at least one, and the
// bytes of one letter's profile row.
DPX_HD std::int32_t profile_passes(std::int32_t n, std::int32_t width) {
  return n > width ? (n + width - 1) / width : 1;
}
DPX_HD std::int32_t profile_row_bytes(std::int32_t n, std::int32_t width) {
  return profile_passes(n, width) * width;
}

// The profile shape for a query of n letters: the least work a row of the targets, counting per
// pass and thread its R cells at about 7 instructions each and about 16 for the step itself (the
// letters, the loads, the shuffles); the wider on a tie (fewer passes).
inline int profile_config(std::int32_t n) {
  int best = 0;
  std::int64_t least = -1;
  for (int c = 0; c < kProfileConfigCount; ++c) {
    const StripConfig s = kProfileConfigs[c];
    const std::int64_t work = std::int64_t(profile_passes(n, s.width())) * (7 * s.width() + 16 * s.group);
    if (least < 0 || work <= least) {
      best = c;
      least = work;
    }
  }
  return best;
}

// True when the profile of a query of n letters over d letters fits a block's shared memory.
inline bool profile_scan_fits(int d, std::int32_t n) {
  return std::int64_t(d) * profile_row_bytes(n, kProfileConfigs[profile_config(n)].width()) <=
         kProfileMaxBytes;
}

// Where chunk j of thread t in pass p starts in a letter's profile row, in shape (G, R).
DPX_HD std::int32_t profile_chunk(std::int32_t p, int t, int j, int group, int columns) {
  return p * group * columns + (j * group + t) * kProfileChunk;
}

// The query column (0-based) that byte `at` of a profile row holds, in shape (G, R): the inverse
// of the chunk layout above.
DPX_HD std::int32_t profile_column(std::int32_t at, int group, int columns) {
  const std::int32_t width = group * columns, p = at / width, in_pass = at % width;
  const std::int32_t chunk = in_pass / kProfileChunk;
  const std::int32_t j = chunk / group, t = chunk % group;
  return p * width + t * columns + j * kProfileChunk + in_pass % kProfileChunk;
}

// Byte `at` of the profile, in shape (G, R), of a query of n letters (letter(c): the matrix index
// of query[c], 0-based) over letters 0..d-1 (d - 1 the padding letter), score(q, x) the
// substitution score.
template <class LetterOf, class ScoreOf>
DPX_HD std::int8_t profile_byte(std::int32_t at, std::int32_t n, int group, int columns, int d,
                                const LetterOf& letter, const ScoreOf& score) {
  const std::int32_t row = profile_row_bytes(n, group * columns), x = at / row;
  const std::int32_t c = profile_column(at % row, group, columns);
  return static_cast<std::int8_t>(c < n && x < d - 1 ? score(letter(c), x) : 0);
}

// pack(lane 0: byte k of a, lane 1: byte k of b), each byte sign-extended to 16 bits: one PRMT.
DPX_HD std::uint32_t pack_bytes(std::uint32_t a, std::uint32_t b, int k) {
#ifdef __CUDA_ARCH__
  // Selector nibbles: byte k of a, its sign, byte 4 + k (b's k), its sign: bit 3 of a nibble
  // replicates the byte's sign. PTX prmt, as __byte_perm keeps 3 bits of each nibble and so
  // drops the sign (a constant selector folds into the instruction).
  std::uint32_t r;
  asm("prmt.b32 %0, %1, %2, %3;"
      : "=r"(r)
      : "r"(a), "r"(b), "r"(static_cast<unsigned>(k | (k | 8) << 4 | (4 + k) << 8 | ((4 + k) | 8) << 12)));
  return r;
#else
  const auto lo = static_cast<std::uint16_t>(static_cast<std::int8_t>(a >> (8 * k)));
  const auto hi = static_cast<std::uint16_t>(static_cast<std::int8_t>(b >> (8 * k)));
  return static_cast<std::uint32_t>(lo) | static_cast<std::uint32_t>(hi) << 16;
#endif
}

struct alignas(16) ProfileChunk {
  std::uint32_t w[4];
};

template <class Ops, int G, int R, bool kPasses>
struct ProfileScanThread : ScanStrip<Ops, G, R, kPasses> {
  using Strip = ScanStrip<Ops, G, R, kPasses>;
  using typename Strip::L;
  using typename Strip::V;
  static constexpr int kChunks = R / kProfileChunk;
  static_assert(R % kProfileChunk == 0 && G >= 8, "the conflict-free chunk layout");

  const unsigned char* profile = nullptr;  // d rows of row_bytes
  std::int32_t row_bytes = 0;
  const std::uint8_t* code = nullptr;  // letter -> matrix index
  int pad = 0;                         // the padding letter, d - 1
  const char* target[2] = {nullptr, nullptr};
  std::int32_t m[2] = {0, 0};
  std::uint32_t base = 0;                  // this thread's first chunk in the pass, in bytes
  std::uint32_t row_ahead[kScanAhead][2];  // per lane: the profile row offset (plus base) of a coming row

  // Row i (1-based) of lane k: where its letter's chunks start; padding outside 1..m.
  DPX_HD std::uint32_t row_offset(int k, std::int32_t i) const {
    const int x = i >= 1 && i <= m[k] ? code[static_cast<unsigned char>(target[k][i - 1])] : pad;
    return static_cast<std::uint32_t>(x * row_bytes) + base;
  }

  // Starts pass p (query columns p * G * R + t * R onwards) over the slot's two targets.
  DPX_HD void begin_pass(std::int32_t p, bool last, const GapCosts<L>& g) {
    base = static_cast<std::uint32_t>(profile_chunk(p, this->t, 0, G, R));
    this->start_pass(p, last, g);
DPX_UNROLL
    for (int k = 0; k < kScanAhead; ++k) {
      row_ahead[k][0] = row_offset(0, k - this->t + 1);
      row_ahead[k][1] = row_offset(1, k - this->t + 1);
    }
  }

  DPX_HD void step(std::int32_t s, int k, V h_in, V e_in, const GapCosts<L>& g) {
    ProfileChunk a[kChunks], b[kChunks];
DPX_UNROLL
    for (int j = 0; j < kChunks; ++j) {
      a[j] = *reinterpret_cast<const ProfileChunk*>(profile + row_ahead[k][0] + profile_chunk(0, 0, j, G, R));
      b[j] = *reinterpret_cast<const ProfileChunk*>(profile + row_ahead[k][1] + profile_chunk(0, 0, j, G, R));
    }
    row_ahead[k][0] = row_offset(0, s + kScanAhead - this->t + 1);
    row_ahead[k][1] = row_offset(1, s + kScanAhead - this->t + 1);
    this->cells(s, k, h_in, e_in, g, [&](int c) {
      const int j = c / kProfileChunk, w = c % kProfileChunk / 4;
      return pack_bytes(a[j].w[w], b[j].w[w], c % 4);
    });
  }
};

}  // namespace align
}  // namespace dpx
