// The bit-parallel CUDA distances against the CPU: word boundaries, every length class in one
// batch, alphabets that fit the compact shared table and ones that overflow it (the global-table
// launch), one-to-many.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "distance_reference.h"
#include "dpx/align_distance.h"
#include "dpx/device.h"
#include "test_util.h"

namespace {

using dpx::EditResult;
using dpx::Pairing;
using dpx::SequenceBatch;

void expect_distances_equal_cpu(const SequenceBatch& q, const SequenceBatch& t, Pairing pairing, const char* what) {
  dpx::Stream stream;
  ASSERT_TRUE(stream.create().is_ok());
  std::vector<EditResult> cpu, gpu;
  ASSERT_TRUE(dpx::edit_distance_cpu(q, t, pairing, {}, &cpu).is_ok());
  const dpx::Status s = dpx::edit_distance_cuda(q, t, pairing, {}, &gpu, stream.get());
  ASSERT_TRUE(s.is_ok()) << s.message();
  ASSERT_EQ(gpu.size(), cpu.size());
  int reported = 0;
  for (std::size_t i = 0; i < cpu.size() && reported < 10; ++i) {
    if (gpu[i].distance != cpu[i].distance) {
      ++reported;
      ADD_FAILURE() << what << " pair " << i << " (" << q.length(pairing == Pairing::kOneToMany ? 0 : i) << "x"
                    << t.length(i) << "): gpu " << gpu[i].distance << ", cpu " << cpu[i].distance;
    }
  }
}

TEST(EditBitParallelCuda, WordBoundariesOverManyAlphabets) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  for (int alphabet : {1, 2, 4, 20, 31, 32, 64, 256}) {
    SequenceBatch q, t;
    for (std::size_t n : dpx::test::kWordBoundaryLengths) {
      for (std::size_t m : dpx::test::kWordBoundaryLengths) {
        q.add(dpx::test::random_byte_letters(rng, n, alphabet));
        t.add(dpx::test::random_byte_letters(rng, m, alphabet));
      }
    }
    expect_distances_equal_cpu(q, t, Pairing::kPairwise, ("alphabet " + std::to_string(alphabet)).c_str());
  }
}

// Patterns of every class (4 .. 1,024 words) mixed in one batch, related and unrelated pairs; the
// long ones with 20 letters overflow the compact table of the widest classes.
TEST(EditBitParallelCuda, EveryLengthClassInOneBatch) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  SequenceBatch q, t;
  for (std::size_t n : {200, 500, 1000, 2000, 4000, 8000, 16000, 30000, 65536}) {
    for (int alphabet : {4, 20}) {
      const std::string a = dpx::test::random_letters(rng, n, alphabet);
      q.add(a);
      t.add(dpx::test::mutate(rng, a, 0.1, alphabet).substr(0, dpx::kAlignDistanceMaxLength));
      q.add(dpx::test::random_letters(rng, n / 3, alphabet));
      t.add(a);
    }
  }
  expect_distances_equal_cpu(q, t, Pairing::kPairwise, "classes");
}

TEST(EditBitParallelCuda, OneToManyWithSmallAndFullByteAlphabets) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  for (int alphabet : {4, 256}) {
    SequenceBatch one, targets;
    const std::string query = dpx::test::random_byte_letters(rng, 900, alphabet);
    one.add(query);
    for (int k = 0; k < 500; ++k) {
      targets.add(k % 2 ? dpx::test::random_byte_letters(rng, static_cast<std::size_t>(k) * 3, alphabet)
                        : query.substr(static_cast<std::size_t>(k)));
    }
    expect_distances_equal_cpu(one, targets, Pairing::kOneToMany, alphabet == 4 ? "one-to-many 4" : "one-to-many 256");
  }
}

}  // namespace
