// Edit distance on CUDA against the CPU implementation, bit-exact: distances and CIGARs on random
// pairs of many lengths, one-to-many, the asynchronous form with poisoned outputs, bad input.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "distance_reference.h"
#include "dpx/align_distance.h"
#include "dpx/device.h"
#include "test_util.h"

#if DPX_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "align/common/align_variants.h"
#endif

namespace {

using dpx::EditOptions;
using dpx::EditResult;
using dpx::Pairing;
using dpx::SequenceBatch;

void expect_gpu_equals_cpu(const SequenceBatch& q, const SequenceBatch& t, Pairing pairing, bool cigar) {
  dpx::Stream stream;
  ASSERT_TRUE(stream.create().is_ok());
  EditOptions options;
  options.cigar = cigar;
  std::vector<EditResult> cpu, gpu(3);
  ASSERT_TRUE(dpx::edit_distance_cpu(q, t, pairing, options, &cpu).is_ok());
  const dpx::Status s = dpx::edit_distance_cuda(q, t, pairing, options, &gpu, stream.get());
  ASSERT_TRUE(s.is_ok()) << s.message();
  ASSERT_EQ(gpu.size(), cpu.size());
  int reported = 0;
  for (std::size_t i = 0; i < cpu.size() && reported < 10; ++i) {
    const std::size_t qi = pairing == Pairing::kOneToMany ? 0 : i;
    if (gpu[i].distance != cpu[i].distance || gpu[i].cigar != cpu[i].cigar) {
      ++reported;
      ADD_FAILURE() << "pair " << i << " (" << q.length(qi) << "x" << t.length(i) << "): gpu " << gpu[i].distance
                    << " " << gpu[i].cigar.substr(0, 80) << ", cpu " << cpu[i].distance << " "
                    << cpu[i].cigar.substr(0, 80);
    }
  }
}

TEST(EditCuda, DistancesEqualCpuOnManyLengths) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  for (int alphabet : {2, 4, 26}) {
    const auto p = dpx::test::random_sequence_pairs(rng, {0, 1, 2, 31, 32, 33, 255, 256, 257, 1000, 1500}, alphabet);
    expect_gpu_equals_cpu(p.queries, p.targets, Pairing::kPairwise, false);
  }
}

TEST(EditCuda, CigarsEqualCpuOnManyLengths) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  const auto p = dpx::test::random_sequence_pairs(rng, {0, 1, 2, 31, 32, 33, 511, 512, 513, 1000}, 4);
  expect_gpu_equals_cpu(p.queries, p.targets, Pairing::kPairwise, true);
}

TEST(EditCuda, LongPairsEqualCpu) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  SequenceBatch q, t;
  for (std::size_t n : {10000, 12345}) {
    const std::string a = dpx::test::random_letters(rng, n, 4);
    q.add(a);
    t.add(dpx::test::mutate(rng, a, 0.1, 4));
  }
  q.add(dpx::test::random_letters(rng, 10000, 4));
  t.add(dpx::test::random_letters(rng, 3000, 4));  // unequal
  expect_gpu_equals_cpu(q, t, Pairing::kPairwise, false);
  expect_gpu_equals_cpu(q, t, Pairing::kPairwise, true);
}

TEST(EditCuda, LongerThanPackedLanesUse32BitLanes) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  SequenceBatch q, t;
  const std::string a = dpx::test::random_letters(rng, dpx::kAlignDistanceMaxLength, 4);
  q.add(a);  // 65,536 letters: over the u16x2 lanes' limit, in the batch with short pairs
  t.add(dpx::test::mutate(rng, a.substr(0, 65000), 0.05, 4));
  q.add("ACGT");
  t.add("AGGT");
  q.add(std::string(70, 'A'));
  t.add("");
  expect_gpu_equals_cpu(q, t, Pairing::kPairwise, false);
}

// Enough pairs that the launch picks small groups (several per warp), each pair several strips.
TEST(EditCuda, LargeBatchOfMediumPairsEqualsCpu) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  SequenceBatch q, t;
  for (int k = 0; k < 6000; ++k) {
    const std::string a = dpx::test::random_letters(rng, 550 + static_cast<std::size_t>(k % 50), 4);
    q.add(a);
    t.add(dpx::test::mutate(rng, a, 0.1, 4));
  }
  expect_gpu_equals_cpu(q, t, Pairing::kPairwise, false);
}

TEST(EditCuda, OneToManyEqualsCpu) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  SequenceBatch one, targets;
  const std::string query = dpx::test::random_letters(rng, 700, 4);
  one.add(query);
  for (int k = 0; k < 301; ++k) {  // odd count: the last packed group has one lane
    const std::size_t len = static_cast<std::size_t>(k * 7) % 1400;
    targets.add(dpx::test::mutate(rng, query.substr(0, std::min(len, query.size())), 0.1, 4) +
                dpx::test::random_letters(rng, len > 700 ? len - 700 : 0, 4));
  }
  expect_gpu_equals_cpu(one, targets, Pairing::kOneToMany, false);
  expect_gpu_equals_cpu(one, targets, Pairing::kOneToMany, true);
}

// Pairs whose recorded columns outgrow one chunk (several launches reusing the same scratch),
// patterns of 313 words (lanes of 16 words): a pair records 313 x (~20,000 + 31) entries of 20
// bytes, ~125 MB, so the six take two chunks of at most 512 MiB.
TEST(EditCuda, CigarsOverSeveralChunksEqualCpu) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  SequenceBatch q, t;
  for (int k = 0; k < 6; ++k) {
    const std::string a = dpx::test::random_letters(rng, 20000, 4);
    q.add(a);
    t.add(dpx::test::mutate(rng, a, 0.02, 4));
  }
  q.add("GATTACA");
  t.add("GCATGCT");
  expect_gpu_equals_cpu(q, t, Pairing::kPairwise, true);
}

#if DPX_HAVE_CUDA
// The bit-vector CIGAR walk against the full-DP path on the device, byte for byte, results
// poisoned first: related and unrelated pairs around the 64-row words, identical strings (d = 0),
// disjoint alphabets (d = max), queries longer than targets (the query stays the pattern), every
// byte value as a letter (the patterns outgrow the compact match table) and patterns of 33 and
// more words (lanes of 2 words).
TEST(EditCuda, BitVectorCigarsEqualFullDp) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  const std::vector<std::size_t> lengths = {0, 1, 31, 32, 33, 63, 64, 65, 1000};
  auto p = dpx::test::random_sequence_pairs(rng, lengths, 4);
  for (std::size_t n : lengths) {
    const std::string s = dpx::test::random_letters(rng, n, 26);
    p.queries.add(s);
    p.targets.add(s);
    std::string other(n + 7, 'Z');
    for (auto& c : other) c = static_cast<char>('0' + rng() % 10);
    p.queries.add(s);
    p.targets.add(other);
    p.queries.add(other);  // longer query than target
    p.targets.add(dpx::test::mutate(rng, s, 0.2, 26));
  }
  for (std::size_t n : {200, 2049, 3000}) {
    const std::string bytes = dpx::test::random_byte_letters(rng, n, 256);
    p.queries.add(bytes);
    p.targets.add(dpx::test::mutate(rng, bytes, 0.1, 4));
    const std::string dna = dpx::test::random_letters(rng, n, 4);
    p.queries.add(dna);
    p.targets.add(dpx::test::mutate(rng, dna, 0.15, 4));
  }
  dpx::Stream stream;
  ASSERT_TRUE(stream.create().is_ok());
  dpx::DeviceSequenceBatch dq, dt;
  ASSERT_TRUE(dq.upload(p.queries, stream.get()).is_ok());
  ASSERT_TRUE(dt.upload(p.targets, stream.get()).is_ok());
  const std::size_t pairs = p.queries.size();
  std::vector<EditResult> walked(pairs, EditResult{-7, "poison"}), full(pairs, EditResult{-9, "poison"});
  using dpx::variants::CigarPath;
  ASSERT_TRUE(dpx::variants::edit_cigar_cuda(CigarPath::kBitVector, p.queries, p.targets, Pairing::kPairwise, dq, dt,
                                             &walked, stream.get()).is_ok());
  ASSERT_TRUE(dpx::variants::edit_cigar_cuda(CigarPath::kFullDp, p.queries, p.targets, Pairing::kPairwise, dq, dt, &full,
                                             stream.get()).is_ok());
  for (std::size_t i = 0; i < pairs; ++i) {
    EXPECT_EQ(walked[i].distance, full[i].distance) << "pair " << i;
    EXPECT_EQ(walked[i].cigar, full[i].cigar) << "pair " << i << " (" << p.queries.length(i) << "x"
                                              << p.targets.length(i) << ")";
  }
  expect_gpu_equals_cpu(p.queries, p.targets, Pairing::kPairwise, true);
}

TEST(EditCuda, AsyncFormWritesEveryPairAndMarksOverDeclaredLengths) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  const auto p = dpx::test::random_sequence_pairs(rng, {0, 3, 64, 200, 300}, 4);
  dpx::Stream stream;
  ASSERT_TRUE(stream.create().is_ok());
  dpx::DeviceSequenceBatch dq, dt;
  ASSERT_TRUE(dq.upload(p.queries, stream.get()).is_ok());
  ASSERT_TRUE(dt.upload(p.targets, stream.get()).is_ok());
  const std::size_t pairs = p.queries.size();
  dpx::DeviceBuffer out;
  ASSERT_TRUE(out.allocate(pairs * sizeof(std::int64_t)).is_ok());
  ASSERT_EQ(cudaMemsetAsync(out.data(), dpx::test::kPoisonByte, pairs * sizeof(std::int64_t), stream.get()), cudaSuccess);
  const std::size_t declared = 250;  // the 300-long sequences exceed it
  const dpx::Status s = dpx::edit_distance_cuda_async(dq, dt, Pairing::kPairwise, declared, out.as<std::int64_t>(),
                                                      stream.get());
  ASSERT_TRUE(s.is_ok()) << s.message();
  std::vector<std::int64_t> got(pairs);
  ASSERT_EQ(cudaMemcpyAsync(got.data(), out.data(), pairs * sizeof(std::int64_t), cudaMemcpyDeviceToHost, stream.get()),
            cudaSuccess);
  ASSERT_TRUE(stream.synchronize().is_ok());
  for (std::size_t i = 0; i < pairs; ++i) {
    const bool over = std::max(p.queries.length(i), p.targets.length(i)) > declared;
    const std::int64_t want = over ? dpx::kDistanceInvalid : dpx::test::brute_edit_distance(p.queries.view(i), p.targets.view(i));
    EXPECT_EQ(got[i], want) << "pair " << i;
  }
}
#endif

TEST(EditCuda, BadInputIsRefusedBeforeAnyWork) {
  DPX_REQUIRE_GPU();
  dpx::Stream stream;
  ASSERT_TRUE(stream.create().is_ok());
  SequenceBatch two, three, too_long;
  two.add("ab");
  two.add("cd");
  three.add("a");
  three.add("b");
  three.add("c");
  too_long.add(std::string(dpx::kAlignDistanceMaxLength + 1, 'C'));
  std::vector<EditResult> out(4);
  EXPECT_EQ(dpx::edit_distance_cuda(two, three, Pairing::kPairwise, {}, &out, stream.get()).code(),
            dpx::StatusCode::kInvalidArgument);
  EXPECT_EQ(out.size(), 4u);
  EXPECT_EQ(dpx::edit_distance_cuda(too_long, too_long, Pairing::kPairwise, {}, &out, stream.get()).code(),
            dpx::StatusCode::kInvalidArgument);
  EXPECT_EQ(dpx::edit_distance_cuda(two, two, Pairing::kPairwise, {}, nullptr, stream.get()).code(),
            dpx::StatusCode::kInvalidArgument);
  dpx::DeviceSequenceBatch d2, d3;
  ASSERT_TRUE(d2.upload(two, stream.get()).is_ok());
  ASSERT_TRUE(d3.upload(three, stream.get()).is_ok());
  dpx::DeviceBuffer buf;
  ASSERT_TRUE(buf.allocate(8 * sizeof(std::int64_t)).is_ok());
  EXPECT_EQ(dpx::edit_distance_cuda_async(d2, d3, Pairing::kPairwise, 10, buf.as<std::int64_t>(), stream.get()).code(),
            dpx::StatusCode::kInvalidArgument);
  EXPECT_EQ(dpx::edit_distance_cuda_async(d2, d2, Pairing::kPairwise, dpx::kAlignDistanceMaxLength + 1,
                                          buf.as<std::int64_t>(), stream.get()).code(),
            dpx::StatusCode::kInvalidArgument);
  EXPECT_TRUE(stream.synchronize().is_ok());
}

}  // namespace
