// dpx-align's runner with a recording stand-in for the GPU: one target set for every query (or
// pairwise chunks when the targets are few), and the same table as the CPU backend.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>

#include "align_device.h"
#include "runner.h"
#include "test_util.h"

namespace dpx {
namespace cli {
namespace {

// Computes on the CPU and records what the runner asked for.
class RecordingDevice : public AlignDevice {
 public:
  RecordingDevice(const ScoreMatrix& matrix, const AlignOptions& options) : matrix_(matrix), options_(options) {}

  Status run_one_to_many(const SequenceBatch& query, const SequenceBatch& targets,
                         std::vector<AlignResult>* out) override {
    ++runs;
    if (query.size() != 1) return invalid_argument("not a batch of one");
    if (&targets != last_targets_) ++target_sets;
    last_targets_ = &targets;
    return align_cpu(query, targets, Pairing::kOneToMany, matrix_, options_, out, 1);
  }
  Status run_pairwise(const SequenceBatch& q, const SequenceBatch& t, std::vector<AlignResult>* out) override {
    ++pairwise_runs;
    return align_cpu(q, t, Pairing::kPairwise, matrix_, options_, out, 1);
  }

  int target_sets = 0, runs = 0, pairwise_runs = 0;

 private:
  const ScoreMatrix& matrix_;
  AlignOptions options_;
  const SequenceBatch* last_targets_ = nullptr;
};

NamedSequences random_sequences(std::mt19937_64& rng, std::size_t count, std::size_t min_len, std::size_t max_len,
                                const char* prefix) {
  static const char kLetters[] = "ARNDCQEGHILKMFPSTWYV";
  NamedSequences s;
  for (std::size_t k = 0; k < count; ++k) {
    std::string letters(min_len + rng() % (max_len - min_len + 1), 'A');
    for (char& c : letters) c = kLetters[rng() % 20];
    s.names.push_back(prefix + std::to_string(k));
    s.letters.add(letters);
  }
  return s;
}

// The table run_sequences writes, with `device` (nullptr: the CPU backend).
std::string table(const CliOptions& o, const ScoreMatrix& m, const NamedSequences& q, const NamedSequences& t,
                  AlignDevice* device) {
  std::FILE* f = std::tmpfile();
  EXPECT_NE(f, nullptr);
  if (f == nullptr) return "";
  {
    TsvWriter writer(f, "score");
    Progress progress(0, false);
    const Status s = run_sequences(o, m, q, t, &writer, &progress, device);
    EXPECT_TRUE(s.is_ok()) << s.message();
  }
  return test::rewound_text(f);
}

struct RunnerSetup {
  CliOptions options;
  ScoreMatrix matrix;
  AlignOptions align;
  RunnerSetup() {
    options.backend = Backend::kCpu;
    options.threads = 1;
    options.quiet = true;
    ScoreMatrix::builtin("blosum62", &matrix);
  }
};

// Many targets: one query at a time against them, the same target set each time (the device
// plans it once).
TEST(AlignRunner, OneTargetSetForEveryQuery) {
  std::mt19937_64 rng = test::seeded_rng();
  RunnerSetup r;
  const NamedSequences queries = random_sequences(rng, 4, 5, 40, "q");
  const NamedSequences targets = random_sequences(rng, 2100, 0, 24, "t");
  RecordingDevice device(r.matrix, r.align);
  const std::string gpu = table(r.options, r.matrix, queries, targets, &device);
  EXPECT_EQ(device.target_sets, 1);
  EXPECT_EQ(device.runs, 4);
  EXPECT_EQ(device.pairwise_runs, 0);
  EXPECT_EQ(gpu, table(r.options, r.matrix, queries, targets, nullptr));
}

// Few targets: queries go side by side in pairwise chunks, no plan for one query.
TEST(AlignRunner, FewTargetsRunPairwiseChunks) {
  std::mt19937_64 rng = test::seeded_rng();
  RunnerSetup r;
  const NamedSequences queries = random_sequences(rng, 6, 1, 30, "q");
  const NamedSequences targets = random_sequences(rng, 5, 1, 30, "t");
  RecordingDevice device(r.matrix, r.align);
  const std::string gpu = table(r.options, r.matrix, queries, targets, &device);
  EXPECT_EQ(device.runs, 0);
  EXPECT_EQ(device.pairwise_runs, 1);
  EXPECT_EQ(gpu, table(r.options, r.matrix, queries, targets, nullptr));
}

}  // namespace
}  // namespace cli
}  // namespace dpx
