// The separable passes on block maxima (morph_rect.cuh) run on the host: a block at a time, each
// phase by every thread before the next, its shared memory starting stale, with the grid and
// arguments the launchers use (rect_row_args, rect_column_args). The row pass of a w-wide bar must
// equal morph_cpu's w x 1 result byte for byte. A w x h rectangle is separable, so the column pass
// over morph_cpu's w x 1 result (the row pass's plane, as the library lays it out) must equal
// morph_cpu's w x h result; a pass that merges must equal the max / min of that and what the output
// held.
#include "morph_emulation.h"  // first: the CUDA stand-ins the device headers expect

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "../../../kernels/morphology/morph_rect.cuh"
#include "morph_test_util.h"
#include "test_util.h"

namespace dpx {
namespace test {
namespace {

constexpr std::uint32_t kStaleShared = 0x5A5A5A5Au;

// Each block of the grid `s` in turn, its shared memory stale, then each of its phases (the
// kernel's barriers lie between them) run by every thread of the block in turn on this host
// thread: phase(run, shared) with the run length as a std::integral_constant (with_window_run).
template <class... Phases>
void run_blocks(const morph::PassShape& s, int run, const Phases&... phases) {
  std::vector<uint4> shared(s.shared_bytes / sizeof(uint4) + 1);
  const auto each_thread = [&](int bx, int by, const auto& phase) {
    for (int t = 0; t < s.threads_x * s.threads_y; ++t) {
      threadIdx.x = static_cast<unsigned>(t % s.threads_x);
      threadIdx.y = static_cast<unsigned>(t / s.threads_x);
      blockIdx.x = static_cast<unsigned>(bx);
      blockIdx.y = static_cast<unsigned>(by);
      blockDim.x = static_cast<unsigned>(s.threads_x);
      blockDim.y = static_cast<unsigned>(s.threads_y);
      morph::with_window_run(run, [&](auto r) { phase(r, shared.data()); });
    }
  };
  for (int by = 0; by < s.blocks_y; ++by) {
    for (int bx = 0; bx < s.blocks_x; ++bx) {
      std::fill(shared.begin(), shared.end(), uint4{kStaleShared, kStaleShared, kStaleShared, kStaleShared});
      (each_thread(bx, by, phases), ...);
    }
  }
}

template <typename T, bool kMax>
void run_column_pass(const PlaneView& in, const MutablePlaneView& out, int radius, BorderMode border,
                     bool merge, int sms) {
  morph::PassShape s;
  const morph::RectColumnArgs a = morph::rect_column_args<T>(in, out, radius, border, merge, sms, &s);
  ASSERT_EQ(s.threads_x, morph::kColumnWarpChunks);
  run_blocks(
      s, a.column.run_rows,
      [&](auto run, uint4* shared) {
        morph::store_column_block_maxima<T, kMax, decltype(run)::value>(a, reinterpret_cast<uint2*>(shared));
      },
      [&](auto run, uint4* shared) {
        morph::block_maxima_column_runs<T, kMax, decltype(run)::value>(a, reinterpret_cast<uint2*>(shared));
      });
}

template <typename T, bool kMax>
void run_row_pass(const PlaneView& in, const MutablePlaneView& out, int radius, BorderMode border) {
  morph::PassShape s;
  const morph::RectRowArgs a = morph::rect_row_args<T>(in, out, radius, border, &s);
  const auto block = [&](uint4* shared) {
    return morph::RowBlock<T>(a.row, reinterpret_cast<std::uint32_t*>(shared));
  };
  run_blocks(
      s, a.row.run, [&](auto, uint4* shared) { morph::load_row_lines<T, kMax>(a.row, block(shared)); },
      [&](auto run, uint4* shared) {
        morph::store_row_block_maxima<T, kMax, decltype(run)::value>(a, block(shared));
      },
      [&](auto run, uint4* shared) {
        morph::block_maxima_row_runs<T, kMax, decltype(run)::value>(a, block(shared));
      },
      [&](auto, uint4* shared) { morph::store_row_results<T>(a.row, block(shared)); });
}

// The row pass's plane: 4-byte aligned pitch (one that is not a multiple of 8 where `words_only`:
// the pass then loads word by word), rows readable to the next word.
HostPlane rows_plane(const HostPlane& src, bool words_only) {
  const int sample = sample_bytes(src.type);
  const std::size_t words = (src.row_bytes() + 3) / 4 * 4;
  std::size_t pitch = words % 8 == 0 ? words : words + 4;
  if (words_only && pitch % 8 == 0) pitch += 4;
  HostPlane p = make_plane(src.width, src.height, src.channels, src.type, (pitch - src.row_bytes()) / sample);
  return p;
}

HostPlane cpu(const HostPlane& src, MorphParams p, int width, int height) {
  p.width = width;
  p.height = height;
  HostPlane out = make_plane(src.width, src.height, src.channels, src.type);
  const Status s = morph_cpu(src.view(), out.mutable_view(), p);
  EXPECT_TRUE(s.is_ok()) << s.message();
  return out;
}

// Frames: one pixel; shorter than every tall bar; odd widths, padded and misaligned pitches;
// several chunk columns (a partial one at the row's end); taller than a strip of the column pass
// (64 or 128 rows on u8, 128 on u16: several block rows, the last partial) with rows in the plane between
// the borders.
const std::vector<Geometry>& rect_geometries() {
  static const std::vector<Geometry> g = {
      {1, 1, 0, 0, false},    {3, 7, 1, 1, false},  {37, 19, 0, 0, true}, {261, 13, 3, 1, false},
      {29, 300, 2, 0, false}, {60, 9, 0, 0, false}, {9, 530, 0, 0, true}};
  return g;
}

struct RectCase {
  int width, height;
};

class MorphRectEmulated : public ::testing::TestWithParam<RectCase> {};

// u8 and u16 on every frame; the border rule, dilate / erode, the channels, merging and the row
// plane's pitch turn from run to run.
TEST_P(MorphRectEmulated, ColumnPassMatchesCpu) {
  std::mt19937_64 rng = seeded_rng();
  const RectCase r = GetParam();
  int turn = r.width + r.height;
  for (const Geometry& g : rect_geometries()) {
    for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
      MorphCase c;
      c.params.border = static_cast<BorderMode>(turn % 3);
      c.params.op = turn % 2 == 0 ? MorphOp::kDilate : MorphOp::kErode;
      c.params.width = r.width;
      c.params.height = r.height;
      c.channels = turn % 5 == 0 ? 4 : turn % 5 == 1 ? 2 : 1;
      c.type = type;
      const bool merge = turn % 4 == 1, words_only = turn / 3 % 2 == 1;
      // A device of one SM takes u8's wide strips on any frame, one of a million never.
      const int sms = turn / 2 % 2 == 0 ? 1 : 1 << 20;
      ++turn;
      HostPlane src = make_plane(g, c.channels, type);
      fill_random(src, rng);
      const HostPlane row_result = cpu(src, c.params, r.width, 1);
      HostPlane rows = rows_plane(src, words_only);
      for (int y = 0; y < src.height; ++y) {
        std::copy_n(row_result.view().row(y), src.row_bytes(), rows.mutable_view().row(y));
      }
      HostPlane want = cpu(src, c.params, r.width, r.height);
      HostPlane got = make_plane(g, c.channels, type);
      if (merge) {  // what an earlier bar left: the result is the max / min of the two
        HostPlane earlier = make_plane(g, c.channels, type);
        fill_random(earlier, rng);
        got = earlier;
        for (int y = 0; y < g.height; ++y) {
          for (int x = 0; x < g.width; ++x) {
            for (int ch = 0; ch < c.channels; ++ch) {
              const int a = want.get(x, y, ch), b = earlier.get(x, y, ch);
              want.set(x, y, ch, c.params.op == MorphOp::kDilate ? std::max(a, b) : std::min(a, b));
            }
          }
        }
      }
      const int radius = r.height / 2;
      const bool dilate = c.params.op == MorphOp::kDilate;
      if (type == SampleType::kU8) {
        dilate ? run_column_pass<std::uint8_t, true>(rows.view(), got.mutable_view(), radius, c.params.border,
                                                     merge, sms)
               : run_column_pass<std::uint8_t, false>(rows.view(), got.mutable_view(), radius,
                                                      c.params.border, merge, sms);
      } else {
        dilate ? run_column_pass<std::uint16_t, true>(rows.view(), got.mutable_view(), radius,
                                                      c.params.border, merge, sms)
               : run_column_pass<std::uint16_t, false>(rows.view(), got.mutable_view(), radius,
                                                       c.params.border, merge, sms);
      }
      const std::string what = describe(c) + (merge ? " merged " : " ") + std::to_string(g.width) + "x" +
                               std::to_string(g.height) + " pitch " + std::to_string(got.pitch) + " offset " +
                               std::to_string(got.offset) + " rows pitch " + std::to_string(rows.pitch) +
                               " SMs " + std::to_string(sms);
      EXPECT_EQ(first_difference(want, got), "") << what;
      EXPECT_TRUE(padding_untouched(got)) << what << ": wrote outside its rows";
    }
  }
}

// The row pass straight from the source (any alignment: unaligned words go sample by sample) into
// a frame of the source's layout; every channel count, u8 and u16, each border, dilate and erode.
TEST_P(MorphRectEmulated, RowPassMatchesCpu) {
  std::mt19937_64 rng = seeded_rng();
  const RectCase r = GetParam();
  int turn = r.width + r.height;
  for (const Geometry& g : rect_geometries()) {
    for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
      for (int channels : {1, 2, 4}) {
        MorphCase c;
        c.params.border = static_cast<BorderMode>(turn % 3);
        c.params.op = turn % 2 == 0 ? MorphOp::kDilate : MorphOp::kErode;
        c.params.width = r.width;
        c.params.height = 1;
        c.channels = channels;
        c.type = type;
        ++turn;
        HostPlane src = make_plane(g, channels, type);
        fill_random(src, rng);
        const HostPlane want = cpu(src, c.params, r.width, 1);
        HostPlane got = make_plane(g, channels, type);
        const int radius = r.width / 2;
        const bool dilate = c.params.op == MorphOp::kDilate;
        if (type == SampleType::kU8) {
          dilate ? run_row_pass<std::uint8_t, true>(src.view(), got.mutable_view(), radius, c.params.border)
                 : run_row_pass<std::uint8_t, false>(src.view(), got.mutable_view(), radius, c.params.border);
        } else {
          dilate
              ? run_row_pass<std::uint16_t, true>(src.view(), got.mutable_view(), radius, c.params.border)
              : run_row_pass<std::uint16_t, false>(src.view(), got.mutable_view(), radius, c.params.border);
        }
        const std::string what = describe(c) + " " + std::to_string(g.width) + "x" +
                                 std::to_string(g.height) + " pitch " + std::to_string(got.pitch) +
                                 " offset " + std::to_string(got.offset);
        EXPECT_EQ(first_difference(want, got), "") << what;
        EXPECT_TRUE(padding_untouched(got)) << what << ": wrote outside its rows";
      }
    }
  }
}

// line_walk against border_index coordinate by coordinate: every walk it gives reads what the
// border rule reads, and a span on one side of an edge of a line it folds at most once is a walk
// (the loads the column pass batches), whichever the rule.
TEST(MorphLineWalk, WalksReadWhatTheBorderRuleReads) {
  int walks = 0, mixed = 0;
  for (BorderMode border : {BorderMode::kReplicate, BorderMode::kReflect101, BorderMode::kNeutral}) {
    for (int n = 1; n <= 40; ++n) {
      for (int count : {1, 2, 3, 8, 16}) {
        for (int first = -90; first <= 90; ++first) {
          const morph::LineWalk w = morph::line_walk(first, count, n, border);
          const int last = first + count - 1;
          const std::string what = "n " + std::to_string(n) + " first " + std::to_string(first) + " count " +
                                   std::to_string(count) + " border " +
                                   std::to_string(static_cast<int>(border));
          const bool one_side = last < 0 || first >= n || (first >= 0 && last < n);
          const bool folded_once = first > -n && last < 2 * n - 1 && n >= 2;
          if (w.step == 2) {
            ++mixed;
            EXPECT_FALSE(one_side && (border != BorderMode::kReflect101 || folded_once)) << what;
            continue;
          }
          ++walks;
          for (int j = 0; j < count; ++j) {
            const int v = first + j;
            const bool inside = v >= 0 && v < n;
            if (w.start < 0) {
              EXPECT_EQ(border, BorderMode::kNeutral) << what;
              EXPECT_FALSE(inside) << what;
            } else {
              const int want = inside ? v : morph::border_index(v, n, border);
              ASSERT_TRUE(inside || border != BorderMode::kNeutral) << what;
              ASSERT_EQ(w.start + j * w.step, want) << what << " j " << j;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(walks, 0);
  EXPECT_GT(mixed, 0);
}

std::string rect_name(const ::testing::TestParamInfo<RectCase>& i) {
  return "rect" + std::to_string(i.param.width) + "x" + std::to_string(i.param.height);
}

// Each pass sees windows of one (a merged cross bar's column window), of runs shorter than 16 (3,
// 5, 7), a middle without whole blocks (31), with one (33), two (63: a pair), an odd count and a
// short tail (47, 127) and the largest (255: fourteen blocks and a tail of 15).
static_assert(morph::window_run_length(33) == 16 && (33 - 1) / 16 - 1 == 1 && (255 - 1) / 16 - 1 == 14,
              "the bars below take middles of each kind");
INSTANTIATE_TEST_SUITE_P(Bars, MorphRectEmulated,
                         ::testing::Values(RectCase{3, 1}, RectCase{255, 1}, RectCase{1, 3}, RectCase{5, 7},
                                           RectCase{1, 5}, RectCase{31, 31}, RectCase{33, 33},
                                           RectCase{63, 63}, RectCase{47, 47}, RectCase{127, 127},
                                           RectCase{1, 255}, RectCase{255, 255}),
                         rect_name);

}  // namespace
}  // namespace test
}  // namespace dpx
