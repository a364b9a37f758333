// The CPU epilogue against a scalar definition written out here independently (floor division on
// wide integers, no shifts, no packing), on hand-worked cases, the edges of every range and random
// data; then every bad argument.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "dpx/epilogue.h"
#include "epilogue_args.h"
#include "epilogue_functor.cuh"
#include "epilogue_test_data.h"
#include "test_util.h"

namespace {

using dpx::Activation;
using dpx::ActivationKind;
using dpx::Merge3Params;
using dpx::MergeOp;
using dpx::QuantType;
using dpx::RequantChannels;
using dpx::RequantParams;

constexpr std::int32_t kI32Min = std::numeric_limits<std::int32_t>::min();
constexpr std::int32_t kI32Max = std::numeric_limits<std::int32_t>::max();

// ---- the definition ----------------------------------------------------------------------------
namespace ref {

std::int64_t floor_div(std::int64_t num, std::int64_t den) {
  std::int64_t q = num / den;
  if (num % den != 0 && num < 0) --q;
  return q;
}
std::int64_t clamp(std::int64_t v, std::int64_t lo, std::int64_t hi) { return std::min(std::max(v, lo), hi); }

// round(v / 2^s), halves towards +infinity; s = 0 is v.
std::int64_t round_shift(std::int64_t v, int s) {
  if (s == 0) return v;
  const std::int64_t unit = std::int64_t{1} << s;
  return floor_div(v + unit / 2, unit);
}

std::int64_t type_min(QuantType t) { return t == QuantType::kInt8 ? -128 : -32768; }
std::int64_t type_max(QuantType t) { return t == QuantType::kInt8 ? 127 : 32767; }

std::int64_t activate(std::int64_t q, const Activation& a) {
  switch (a.kind) {
    case ActivationKind::kRelu: return std::max<std::int64_t>(q, 0);
    case ActivationKind::kClamp: return clamp(q, a.lo, a.hi);
    case ActivationKind::kNone: break;
  }
  return q;
}

std::int64_t requantized(std::int32_t acc, std::int32_t bias, int s, QuantType t) {
  return clamp(round_shift(std::int64_t{acc} + bias, s), type_min(t), type_max(t));
}

std::int64_t requantize(std::int32_t acc, std::int32_t bias, int s, QuantType t, const Activation& a) {
  return activate(requantized(acc, bias, s, t), a);
}

std::int64_t requantize_residual(std::int32_t acc, std::int32_t bias, int s, std::int16_t res, const Activation& a) {
  return activate(clamp(requantized(acc, bias, s, QuantType::kInt16) + res, -32768, 32767), a);
}

std::int64_t merge3(std::int16_t a, std::int16_t b, std::int16_t c, MergeOp op, const Activation& act) {
  const std::int64_t m = op == MergeOp::kMax ? std::max({a, b, c}) : std::min({a, b, c});
  return activate(m, act);
}

}  // namespace ref

// ---- helpers ------------------------------------------------------------------------------------

std::vector<Activation> activations_for(QuantType t) {
  return t == QuantType::kInt8
             ? std::vector<Activation>{Activation::none(), Activation::relu(), Activation::clamp(-100, 90),
                                       Activation::clamp(0, 6), Activation::clamp(-128, 127), Activation::clamp(5, 5)}
             : std::vector<Activation>{Activation::none(), Activation::relu(), Activation::clamp(-1000, 30000),
                                       Activation::clamp(0, 6 << 8), Activation::clamp(-32768, 32767),
                                       Activation::clamp(-7, -7)};
}

std::string describe(const RequantParams& p) {
  return "shift " + std::to_string(p.shift) + (p.output == QuantType::kInt8 ? " int8" : " int16") + " activation " +
         std::to_string(static_cast<int>(p.activation.kind)) + " [" + std::to_string(p.activation.lo) + ", " +
         std::to_string(p.activation.hi) + "]" + (p.channels ? " per-channel" : "");
}

// Runs requantize_cpu into a poisoned output of the requested type, returns the values widened.
std::vector<std::int64_t> run_requantize(const std::vector<std::int32_t>& acc, const RequantParams& p, int threads = 0) {
  const std::size_t n = acc.size();
  std::vector<std::int64_t> got(n);
  if (p.output == QuantType::kInt8) {
    std::vector<std::int8_t> out(n, static_cast<std::int8_t>(dpx::test::kPoisonByte));
    const dpx::Status s = dpx::requantize_cpu(acc.data(), n, p, out.data(), threads);
    EXPECT_TRUE(s.is_ok()) << s.message();
    std::copy(out.begin(), out.end(), got.begin());
  } else {
    std::vector<std::int16_t> out(n, static_cast<std::int16_t>(0xA5A5));
    const dpx::Status s = dpx::requantize_cpu(acc.data(), n, p, out.data(), threads);
    EXPECT_TRUE(s.is_ok()) << s.message();
    std::copy(out.begin(), out.end(), got.begin());
  }
  return got;
}

// Bias and shift of element i under p, as the header defines them.
std::int32_t bias_of(const RequantParams& p, std::size_t i) {
  return p.channels ? p.channels->host_channels()[i % p.channels->channels()].bias : 0;
}
int shift_of(const RequantParams& p, std::size_t i) {
  return p.channels && p.channels->has_shifts() ? p.channels->host_channels()[i % p.channels->channels()].shift : p.shift;
}

void expect_requantize_matches_definition(const std::vector<std::int32_t>& acc, const RequantParams& p, int threads = 0) {
  const std::vector<std::int64_t> got = run_requantize(acc, p, threads);
  int bad = 0;
  for (std::size_t i = 0; i < acc.size() && bad < 5; ++i) {
    const std::int64_t want = ref::requantize(acc[i], bias_of(p, i), shift_of(p, i), p.output, p.activation);
    if (got[i] != want) {
      ++bad;
      ADD_FAILURE() << describe(p) << " i=" << i << " acc=" << acc[i] << " bias=" << bias_of(p, i)
                    << " shift=" << shift_of(p, i) << ": got " << got[i] << ", definition " << want;
    }
  }
}

// ---- hand-worked cases --------------------------------------------------------------------------

TEST(EpilogueCpu, RoundingShiftRoundsHalvesUpAndSaturates) {
  RequantParams p;
  p.shift = 1;
  EXPECT_EQ(run_requantize({5, -5, 3, -3, 4, -4, 1, -1}, p),
            (std::vector<std::int64_t>{3, -2, 2, -1, 2, -2, 1, 0}));
  p.shift = 0;  // no shift: saturation only
  EXPECT_EQ(run_requantize({40000, -40000, 32767, -32768, 7, kI32Max, kI32Min}, p),
            (std::vector<std::int64_t>{32767, -32768, 32767, -32768, 7, 32767, -32768}));
  p.shift = 31;
  EXPECT_EQ(run_requantize({kI32Max, kI32Min, 1 << 30, (1 << 30) - 1, -(1 << 30), -(1 << 30) - 1}, p),
            (std::vector<std::int64_t>{1, -1, 1, 0, 0, -1}));
  p.output = QuantType::kInt8;
  p.shift = 4;  // 2047 / 16 = 127.9 -> 128 -> 127; -2056 / 16 = -128.5 -> -128
  EXPECT_EQ(run_requantize({2047, -2056, -2057, 24, -24, 0}, p),
            (std::vector<std::int64_t>{127, -128, -128, 2, -1, 0}));
}

TEST(EpilogueCpu, BiasIsAddedBeforeTheShiftInSixtyFourBits) {
  const std::int32_t bias[] = {kI32Max, kI32Min, -8};
  RequantChannels ch;
  ASSERT_TRUE(ch.set(3, bias, nullptr).is_ok());
  RequantParams p;
  p.channels = &ch;
  p.shift = 31;
  // (2^31 - 1) * 2 + 2^30 >> 31 = 2 (1 if the sum had saturated, negative had it wrapped);
  // -2^32 + 2^30 >> 31 = -2; (5 - 8 + 2^30) >> 31 = 0
  EXPECT_EQ(run_requantize({kI32Max, kI32Min, 5}, p), (std::vector<std::int64_t>{2, -2, 0}));
  p.shift = 3;  // (12 - 8 + 4) >> 3 = 1: the bias counts in the rounding
  EXPECT_EQ(run_requantize({0, 0, 12}, p)[2], 1);
}

TEST(EpilogueCpu, ActivationsApplyAfterSaturation) {
  RequantParams p;
  p.shift = 2;
  const std::vector<std::int32_t> acc = {-400000, -9, 9, 400000, 26};
  p.activation = Activation::relu();
  EXPECT_EQ(run_requantize(acc, p), (std::vector<std::int64_t>{0, 0, 2, 32767, 7}));
  p.activation = Activation::clamp(-1, 6);
  EXPECT_EQ(run_requantize(acc, p), (std::vector<std::int64_t>{-1, -1, 2, 6, 6}));
  p.output = QuantType::kInt8;
  p.activation = Activation::clamp(-128, 100);
  EXPECT_EQ(run_requantize(acc, p), (std::vector<std::int64_t>{-128, -2, 2, 100, 7}));
}

TEST(EpilogueCpu, ResidualAddSaturatesThenActivates) {
  const std::vector<std::int32_t> acc = {32767 << 1, -65536, 100, 100, -6};
  const std::vector<std::int16_t> res = {100, -1, -32768, 32767, 1};
  RequantParams p;
  p.shift = 1;
  std::vector<std::int16_t> out(acc.size());
  ASSERT_TRUE(dpx::requantize_residual_cpu(acc.data(), res.data(), acc.size(), p, out.data()).is_ok());
  EXPECT_EQ(out, (std::vector<std::int16_t>{32767, -32768, -32718, 32767, -2}));
  p.activation = Activation::relu();
  ASSERT_TRUE(dpx::requantize_residual_cpu(acc.data(), res.data(), acc.size(), p, out.data()).is_ok());
  EXPECT_EQ(out, (std::vector<std::int16_t>{32767, 0, 0, 32767, 0}));
}

TEST(EpilogueCpu, Merge3TakesThePerElementMaxOrMin) {
  const std::vector<std::int16_t> a = {-5, 100, -32768, 7}, b = {-7, -3, -32768, 7}, c = {-1, 20, 32767, -9};
  std::vector<std::int16_t> out(a.size());
  Merge3Params m;
  ASSERT_TRUE(dpx::merge3_cpu(a.data(), b.data(), c.data(), a.size(), m, out.data()).is_ok());
  EXPECT_EQ(out, (std::vector<std::int16_t>{-1, 100, 32767, 7}));
  m.activation = Activation::relu();
  m.op = MergeOp::kMin;
  ASSERT_TRUE(dpx::merge3_cpu(a.data(), b.data(), c.data(), a.size(), m, out.data()).is_ok());
  EXPECT_EQ(out, (std::vector<std::int16_t>{0, 0, 0, 0}));
  m.activation = Activation::clamp(-8, 5);
  ASSERT_TRUE(dpx::merge3_cpu(a.data(), b.data(), c.data(), a.size(), m, out.data()).is_ok());
  EXPECT_EQ(out, (std::vector<std::int16_t>{-7, -3, -8, -8}));
}

// The int32 extremes and every power of two with its neighbours, both signs.
std::vector<std::int32_t> int32_edges() {
  std::vector<std::int32_t> v = {kI32Min, kI32Min + 1, kI32Max, kI32Max - 1, 0, 1, -1};
  for (int k = 0; k < 31; ++k) {
    for (std::int64_t d : {-1, 0, 1}) {
      v.push_back(static_cast<std::int32_t>((std::int64_t{1} << k) + d));
      v.push_back(static_cast<std::int32_t>(-(std::int64_t{1} << k) + d));
    }
  }
  return v;
}

// Without a bias the functors round in 32 bits; that must equal the 64-bit definition everywhere.
TEST(EpilogueCpu, ThirtyTwoBitRoundingShiftEqualsSixtyFourBitOne) {
  std::vector<std::int32_t> v = int32_edges();
  auto rng = dpx::test::seeded_rng();
  for (int i = 0; i < 100000; ++i) v.push_back(static_cast<std::int32_t>(rng()));
  for (int s = 0; s <= 31; ++s) {
    for (std::int32_t x : v) {
      ASSERT_EQ(dpx::epilogue::rounding_shift32(x, s), dpx::epilogue::rounding_shift(x, s)) << "x=" << x << " s=" << s;
      ASSERT_EQ(dpx::epilogue::rounding_shift(x, s), ref::round_shift(x, s)) << "x=" << x << " s=" << s;
    }
  }
}

// The resident-channel kernel's 32-bit form of a channel against the 64-bit definition, wherever
// the channel is admitted to it (a shift, or no bias).
TEST(EpilogueCpu, PreparedChannelRoundsLikeTheDefinition) {
  using dpx::epilogue::fits_32_bits;
  using dpx::epilogue::prepare_channel;
  using dpx::epilogue::rounding_shift_prepared;
  const std::vector<std::int32_t> edges = int32_edges();
  auto rng = dpx::test::seeded_rng();
  std::vector<std::int32_t> acc = edges;
  for (int i = 0; i < 3000; ++i) acc.push_back(static_cast<std::int32_t>(rng()));
  std::vector<std::int32_t> bias = edges;
  for (int i = 0; i < 200; ++i) bias.push_back(static_cast<std::int32_t>(rng()));
  long long checked = 0;
  for (int s = 0; s <= 31; ++s) {
    for (std::int32_t b : bias) {
      if (!fits_32_bits(b, s)) continue;
      const dpx::epilogue::PreparedChannel c = prepare_channel(b, s);
      for (std::int32_t a : acc) {
        ASSERT_EQ(rounding_shift_prepared(a, c), ref::round_shift(std::int64_t{a} + b, s))
            << "acc=" << a << " bias=" << b << " s=" << s;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 1000000);
  EXPECT_FALSE(fits_32_bits(1, 0));
  EXPECT_TRUE(fits_32_bits(0, 0));
  EXPECT_TRUE(fits_32_bits(kI32Min, 1));
}

// A vector through PreparedRequantizer (saturation and activation folded into one clamp) equals the
// walked Requantizer the CPU runs, with and without a residual, for every activation.
TEST(EpilogueCpu, PreparedRequantizerEqualsTheWalkedOne) {
  using dpx::epilogue::ChannelConstants;
  using dpx::epilogue::ChannelTable;
  using dpx::epilogue::PreparedChannel;
  constexpr int kN = 8;
  auto rng = dpx::test::seeded_rng();
  for (std::size_t c : {1u, 3u, 8u, 37u, 64u}) {
    auto bias = dpx::test::epilogue_bias(rng, c);
    auto shifts = dpx::test::epilogue_shifts(rng, c);
    for (std::size_t i = 0; i < c; ++i) {
      if (shifts[i] == 0 && i % 2 == 0) bias[i] = 0;  // unshifted channels: admitted only without a bias
      if (shifts[i] == 0 && i % 2 == 1) shifts[i] = 1;
    }
    RequantChannels ch;
    ASSERT_TRUE(ch.set(c, bias.data(), shifts.data()).is_ok());
    ASSERT_FALSE(ch.has_unshifted_bias());
    for (const Activation& act : activations_for(QuantType::kInt16)) {
      RequantParams p;
      p.channels = &ch;
      p.activation = act;
      for (bool residual : {false, true}) {
        dpx::epilogue::RequantArgs args;
        const std::int32_t acc_array[1] = {0};
        const std::int16_t residual_array[1] = {0};
        ASSERT_TRUE(dpx::epilogue::resolve_requantize("test", acc_array, residual ? residual_array : nullptr,
                                                      residual, 0, p, nullptr, dpx::epilogue::Memory::kHost,
                                                      &args)
                        .is_ok());
        ASSERT_FALSE(args.channels.wide_sums);
        const dpx::epilogue::Requantizer<dpx::ops::Dpx> walked{args};
        const auto prepared = dpx::epilogue::PreparedRequantizer<dpx::ops::Dpx>::make(args, residual);
        for (std::uint64_t first = 0; first < 3 * c + 9; first += 1 + first / 4) {
          const auto acc8 = dpx::test::epilogue_accumulators(
              rng, kN, [&](std::size_t j) { return shifts[(first + j) % c]; });
          const auto res16 = dpx::test::epilogue_int16(rng, kN);
          std::int32_t acc[kN];
          std::uint32_t res[kN / 2];
          PreparedChannel pc[kN];
          for (int j = 0; j < kN; ++j) {
            acc[j] = acc8[j];
            const dpx::RequantChannel e = ch.host_channels()[(first + j) % c];
            pc[j] = dpx::epilogue::prepare_channel(e.bias, e.shift);
          }
          for (int j = 0; j < kN / 2; ++j) res[j] = dpx::ops::lanes::pack(res16[2 * j], res16[2 * j + 1]);
          std::uint32_t want[kN / 2], got[kN / 2];
          ChannelConstants k(args.channels, first);
          if (residual) {
            walked.pairs_plus(acc, res, k, want);
            prepared.pairs_plus(acc, res, pc, got);
          } else {
            walked.pairs(acc, k, want);
            prepared.pairs(acc, pc, got);
          }
          for (int j = 0; j < kN / 2; ++j) {
            ASSERT_EQ(got[j], want[j]) << "C=" << c << " first=" << first << " word " << j << " residual "
                                       << residual << " activation " << static_cast<int>(act.kind);
          }
        }
      }
    }
  }
}

// The resident-channel grid: a thread's stride (blocks x 256 threads x 8 elements) must be a whole
// number of channel periods, near the blocks asked for; tables whose period exceeds the limit get 0.
TEST(EpilogueCpu, ResidentGridIsAWholeNumberOfChannelPeriods) {
  for (std::uint32_t c = 1; c <= 5000; ++c) {
    for (int want : {1, 7, 132, 1056}) {
      const int blocks = dpx::epilogue::resident_channel_blocks(c, 2048, want, 2000);
      if (blocks == 0) {
        ASSERT_GT(c / std::gcd<std::uint64_t>(c, 2048), 2000u) << "C=" << c;
        continue;
      }
      ASSERT_EQ(std::uint64_t(blocks) * 2048 % c, 0u) << "C=" << c << " blocks " << blocks;
      ASSERT_LE(blocks, std::max<std::uint64_t>(want, c / std::gcd<std::uint64_t>(c, 2048))) << "C=" << c;
      ASSERT_GE(std::uint64_t(blocks) * 2,
                std::min<std::uint64_t>(want, c / std::gcd<std::uint64_t>(c, 2048)));
    }
  }
  EXPECT_EQ(dpx::epilogue::resident_channel_blocks(64, 2048, 1056, 2000), 1056);
  EXPECT_EQ(dpx::epilogue::resident_channel_blocks(4099, 2048, 1056, 2000), 0);
}

TEST(EpilogueCpu, UnshiftedBiasIsFlagged) {
  const std::int32_t shifts[] = {1, 0, 2};
  const std::int32_t bias_on_shifted[] = {5, 0, -3}, bias_on_unshifted[] = {0, 7, 0};
  RequantChannels ch;
  ASSERT_TRUE(ch.set(3, bias_on_shifted, shifts).is_ok());
  EXPECT_FALSE(ch.has_unshifted_bias());
  ASSERT_TRUE(ch.set(3, bias_on_unshifted, shifts).is_ok());
  EXPECT_TRUE(ch.has_unshifted_bias());
  ASSERT_TRUE(ch.set(3, nullptr, shifts).is_ok());
  EXPECT_FALSE(ch.has_unshifted_bias());
}

// How the CUDA kernels store int8: the low bytes of the lanes of two words, in element order.
TEST(EpilogueCpu, PackBytesKeepsElementOrder) {
  using dpx::ops::lanes::pack;
  EXPECT_EQ(dpx::epilogue::pack_bytes(pack(1, -2), pack(127, -128)), 0x807FFE01u);
  EXPECT_EQ(dpx::epilogue::pack_bytes(pack(-1, 0), pack(0, -1)), 0xFF0000FFu);
}

// ---- random data against the definition ---------------------------------------------------------

TEST(EpilogueCpu, PerTensorMatchesDefinitionForEveryShiftTypeAndActivation) {
  auto rng = dpx::test::seeded_rng();
  for (QuantType t : {QuantType::kInt16, QuantType::kInt8}) {
    for (const Activation& a : activations_for(t)) {
      for (int s : {0, 1, 2, 7, 8, 15, 16, 17, 24, 30, 31}) {
        RequantParams p;
        p.shift = s;
        p.output = t;
        p.activation = a;
        const auto acc = dpx::test::epilogue_accumulators(rng, 1001, [s](std::size_t) { return s; });
        expect_requantize_matches_definition(acc, p);
      }
    }
  }
}

TEST(EpilogueCpu, PerChannelBiasAndShiftsMatchDefinition) {
  auto rng = dpx::test::seeded_rng();
  for (std::size_t c : {1u, 2u, 3u, 64u, 1000u}) {
    const auto bias = dpx::test::epilogue_bias(rng, c);
    const auto shifts = dpx::test::epilogue_shifts(rng, c);
    for (int which = 0; which < 3; ++which) {  // bias only, shifts only, both
      RequantChannels ch;
      ASSERT_TRUE(ch.set(c, which != 1 ? bias.data() : nullptr, which != 0 ? shifts.data() : nullptr).is_ok());
      for (QuantType t : {QuantType::kInt16, QuantType::kInt8}) {
        RequantParams p;
        p.channels = &ch;
        p.shift = 9;
        p.output = t;
        p.activation = activations_for(t)[static_cast<std::size_t>(which) + 1];
        const auto acc = dpx::test::epilogue_accumulators(rng, 4099, [&](std::size_t i) { return shift_of(p, i); });
        expect_requantize_matches_definition(acc, p);
      }
    }
  }
}

TEST(EpilogueCpu, ThreadSplitsKeepChannelsInStep) {
  auto rng = dpx::test::seeded_rng();
  const std::size_t n = (std::size_t{1} << 20) + 3, c = 37;
  const auto bias = dpx::test::epilogue_bias(rng, c);
  const auto shifts = dpx::test::epilogue_shifts(rng, c);
  RequantChannels ch;
  ASSERT_TRUE(ch.set(c, bias.data(), shifts.data()).is_ok());
  RequantParams p;
  p.channels = &ch;
  p.activation = Activation::relu();
  const auto acc = dpx::test::epilogue_accumulators(rng, n, [&](std::size_t i) { return shift_of(p, i); });
  for (int threads : {1, 3, 4}) expect_requantize_matches_definition(acc, p, threads);
}

TEST(EpilogueCpu, ResidualMatchesDefinitionAlsoInPlace) {
  auto rng = dpx::test::seeded_rng();
  const std::size_t n = 3001;
  const auto bias = dpx::test::epilogue_bias(rng, 5);
  RequantChannels ch;
  ASSERT_TRUE(ch.set(5, bias.data(), nullptr).is_ok());
  for (const Activation& a : activations_for(QuantType::kInt16)) {
    for (bool per_channel : {false, true}) {
      RequantParams p;
      p.shift = 13;
      p.activation = a;
      p.channels = per_channel ? &ch : nullptr;
      const auto acc = dpx::test::epilogue_accumulators(rng, n, [](std::size_t) { return 13; });
      const auto res = dpx::test::epilogue_int16(rng, n);
      std::vector<std::int16_t> out(n, static_cast<std::int16_t>(0xA5A5)), in_place = res;
      ASSERT_TRUE(dpx::requantize_residual_cpu(acc.data(), res.data(), n, p, out.data()).is_ok());
      ASSERT_TRUE(dpx::requantize_residual_cpu(acc.data(), in_place.data(), n, p, in_place.data()).is_ok());
      for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t want = ref::requantize_residual(acc[i], bias_of(p, i), 13, res[i], a);
        ASSERT_EQ(out[i], want) << describe(p) << " i=" << i << " acc=" << acc[i] << " res=" << res[i];
        ASSERT_EQ(in_place[i], want) << "in place, " << describe(p) << " i=" << i;
      }
    }
  }
}

TEST(EpilogueCpu, Merge3MatchesDefinitionAlsoInPlace) {
  auto rng = dpx::test::seeded_rng();
  const std::size_t n = 2049;
  for (MergeOp op : {MergeOp::kMax, MergeOp::kMin}) {
    for (const Activation& act : activations_for(QuantType::kInt16)) {
      const auto a = dpx::test::epilogue_int16(rng, n), b = dpx::test::epilogue_int16(rng, n),
                 c = dpx::test::epilogue_int16(rng, n);
      Merge3Params m;
      m.op = op;
      m.activation = act;
      std::vector<std::int16_t> out(n, static_cast<std::int16_t>(0xA5A5)), in_place = b;
      ASSERT_TRUE(dpx::merge3_cpu(a.data(), b.data(), c.data(), n, m, out.data()).is_ok());
      ASSERT_TRUE(dpx::merge3_cpu(a.data(), in_place.data(), c.data(), n, m, in_place.data()).is_ok());
      for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t want = ref::merge3(a[i], b[i], c[i], op, act);
        ASSERT_EQ(out[i], want) << "op " << static_cast<int>(op) << " i=" << i;
        ASSERT_EQ(in_place[i], want) << "in place, op " << static_cast<int>(op) << " i=" << i;
      }
    }
  }
}

TEST(EpilogueCpu, EmptyAndOddSizesAndUnalignedElements) {
  RequantParams p;
  p.shift = 3;
  EXPECT_TRUE(dpx::requantize_cpu(nullptr, 0, p, nullptr).is_ok());
  EXPECT_TRUE(dpx::requantize_residual_cpu(nullptr, nullptr, 0, p, nullptr).is_ok());
  EXPECT_TRUE(dpx::merge3_cpu(nullptr, nullptr, nullptr, 0, Merge3Params{}, nullptr).is_ok());
  // int16 output at an odd element offset (2-byte, not 4-byte aligned) and odd n.
  auto rng = dpx::test::seeded_rng();
  for (std::size_t n : {1u, 2u, 3u, 63u, 64u, 65u, 129u}) {
    const auto acc = dpx::test::epilogue_accumulators(rng, n + 1, [](std::size_t) { return 3; });
    std::vector<std::int16_t> out(n + 2, 0x5A5A);
    ASSERT_TRUE(dpx::requantize_cpu(acc.data() + 1, n, p, out.data() + 1).is_ok());
    EXPECT_EQ(out[0], 0x5A5A);
    EXPECT_EQ(out[n + 1], 0x5A5A) << "wrote past the end, n=" << n;
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(out[i + 1], ref::requantize(acc[i + 1], 0, 3, QuantType::kInt16, p.activation));
  }
}

// ---- bad arguments ------------------------------------------------------------------------------

void expect_invalid(const dpx::Status& s, const std::string& fragment) {
  EXPECT_EQ(s.code(), dpx::StatusCode::kInvalidArgument) << s.message();
  EXPECT_NE(s.message().find(fragment), std::string::npos) << "message '" << s.message() << "' lacks '" << fragment << "'";
}

TEST(EpilogueCpu, BadArgumentsGetAStatusWithAMessage) {
  std::vector<std::int32_t> acc(16, 1);
  std::vector<std::int16_t> out(16), res(16);
  RequantParams p;
  expect_invalid(dpx::requantize_cpu(nullptr, 4, p, out.data()), "acc is null");
  expect_invalid(dpx::requantize_cpu(acc.data(), 4, p, nullptr), "out is null");
  expect_invalid(dpx::requantize_residual_cpu(acc.data(), nullptr, 4, p, out.data()), "residual is null");
  p.shift = 32;
  expect_invalid(dpx::requantize_cpu(acc.data(), 4, p, out.data()), "shift 32");
  p.shift = -1;
  expect_invalid(dpx::requantize_cpu(acc.data(), 4, p, out.data()), "shift -1");
  p.shift = 0;
  p.activation = Activation::clamp(5, 4);
  expect_invalid(dpx::requantize_cpu(acc.data(), 4, p, out.data()), "lo 5 > hi 4");
  p.activation = Activation::clamp(-200, 4);
  p.output = QuantType::kInt8;
  expect_invalid(dpx::requantize_cpu(acc.data(), 4, p, out.data()), "outside the output range");
  p.activation = Activation::none();
  p.output = static_cast<QuantType>(7);
  expect_invalid(dpx::requantize_cpu(acc.data(), 4, p, out.data()), "unknown output type");
  p.output = QuantType::kInt16;
  p.activation.kind = static_cast<ActivationKind>(9);
  expect_invalid(dpx::requantize_cpu(acc.data(), 4, p, out.data()), "unknown activation");
  p.activation = Activation::none();
  p.output = QuantType::kInt8;
  expect_invalid(dpx::requantize_residual_cpu(acc.data(), res.data(), 4, p, out.data()), "needs int16 output");
  p.output = QuantType::kInt16;
  // misaligned elements and overlaps
  auto* bytes = reinterpret_cast<unsigned char*>(acc.data());
  expect_invalid(dpx::requantize_cpu(reinterpret_cast<const std::int32_t*>(bytes + 2), 4, p, out.data()),
                 "acc is not aligned");
  expect_invalid(dpx::requantize_cpu(acc.data(), 4, p, bytes + 1), "out is not aligned");
  expect_invalid(dpx::requantize_cpu(acc.data(), 4, p, acc.data() + 1), "out overlaps acc");
  expect_invalid(dpx::requantize_residual_cpu(acc.data(), res.data(), 4, p, res.data() + 1), "partly overlaps residual");
  expect_invalid(dpx::merge3_cpu(res.data(), out.data(), res.data(), 4, Merge3Params{}, res.data() + 2),
                 "partly overlaps a");
  Merge3Params m;
  m.op = static_cast<MergeOp>(5);
  expect_invalid(dpx::merge3_cpu(res.data(), res.data(), res.data(), 4, m, out.data()), "unknown operation");
  m.op = MergeOp::kMin;
  m.activation = Activation::clamp(0, 40000);
  expect_invalid(dpx::merge3_cpu(res.data(), res.data(), res.data(), 4, m, out.data()), "outside the output range");
  expect_invalid(dpx::requantize_cpu(acc.data(), 4, RequantParams{}, out.data(), -2), "threads -2");
}

TEST(EpilogueCpu, BadChannelTablesAreRefused) {
  const std::int32_t bias[] = {1, 2, 3}, shifts[] = {0, 32, 1}, negative[] = {-1};
  RequantChannels ch;
  expect_invalid(ch.set(0, bias, nullptr), "C = 0");
  expect_invalid(ch.set(3, nullptr, nullptr), "neither");
  expect_invalid(ch.set(3, bias, shifts), "shift 32 of channel 1");
  expect_invalid(ch.set(1, nullptr, negative), "shift -1 of channel 0");
  EXPECT_EQ(ch.channels(), 0u);  // a failed set() leaves no table behind
  std::vector<std::int32_t> acc(4, 1);
  std::vector<std::int16_t> out(4);
  RequantParams p;
  p.channels = &ch;
  expect_invalid(dpx::requantize_cpu(acc.data(), 4, p, out.data()), "table is empty");
}

#if !DPX_HAVE_CUDA
TEST(EpilogueCpu, CudaEntryPointsReportNotBuiltWithoutCuda) {
  std::vector<std::int32_t> acc(4, 1);
  std::vector<std::int16_t> out(4);
  EXPECT_EQ(dpx::requantize_cuda(acc.data(), 4, RequantParams{}, out.data(), nullptr).code(), dpx::StatusCode::kNotBuilt);
  EXPECT_EQ(dpx::merge3_cuda(out.data(), out.data(), out.data(), 4, Merge3Params{}, out.data(), nullptr).code(),
            dpx::StatusCode::kNotBuilt);
  const std::int32_t bias[] = {1};
  RequantChannels ch;
  ASSERT_TRUE(ch.set(1, bias, nullptr).is_ok());
  EXPECT_EQ(ch.upload(nullptr).code(), dpx::StatusCode::kNotBuilt);
}
#endif

}  // namespace
