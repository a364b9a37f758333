// dpx-bench align (Smith-Waterman rows): protein, BLOSUM62, gap open 11 / extend 1, in GCUPS
// (DP cells per second). Score only: 100,000 pairs of lengths 128-1,024 (pairwise) and one
// 4,096-residue query against the 100,000 targets; with traceback: 10,000 pairs, and the 4,096
// query against 1,000 targets. Each beside the same kernels on plain two-operand ops and beside the
// CPU implementation (a subset of the pairs, scaled by cells). Before any timing the GPU results
// of both variants are checked against the CPU on that subset; a difference fails the run.
//
// Inputs: two copies of each batch with different letters, rotated between runs (together well
// over the 60 MB L2), though the kernels read only n + m letters per n * m cells.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "bench.h"
#include "dpx/align.h"
#include "dpx/device.h"

#if DPX_HAVE_CUDA
#include "align/common/align_variants.h"
#endif

namespace dpx {
namespace bench {
namespace {

#if DPX_HAVE_CUDA
constexpr char kAminoAcids[] = "ACDEFGHIKLMNPQRSTVWY";

std::string random_protein(std::mt19937_64& rng, std::size_t length) {
  std::uniform_int_distribution<int> letter(0, 19);
  std::string s(length, 'A');
  for (char& c : s) c = kAminoAcids[letter(rng)];
  return s;
}

SequenceBatch random_batch(std::mt19937_64& rng, std::size_t count, std::size_t lo, std::size_t hi) {
  std::uniform_int_distribution<std::size_t> len(lo, hi);
  SequenceBatch b;
  for (std::size_t k = 0; k < count; ++k) b.add(random_protein(rng, len(rng)));
  return b;
}

SequenceBatch first(const SequenceBatch& b, std::size_t count) {
  SequenceBatch out;
  for (std::size_t k = 0; k < count && k < b.size(); ++k) out.add(b.item(k), b.length(k));
  return out;
}

std::uint64_t cells_of(const SequenceBatch& q, const SequenceBatch& t, Pairing pairing) {
  std::uint64_t c = 0;
  for (std::size_t k = 0; k < t.size(); ++k) c += std::uint64_t(q.length(pairing == Pairing::kOneToMany ? 0 : k)) * t.length(k);
  return c;
}

double gcups(double cells, double us) { return us > 0 ? cells / (us * 1e3) : 0; }

bool same(const AlignResult& a, const AlignResult& b) {
  return a.score == b.score && a.query_begin == b.query_begin && a.query_end == b.query_end &&
         a.target_begin == b.target_begin && a.target_end == b.target_end && a.cigar == b.cigar;
}

// One benchmark case: `sets` copies of (queries, targets) with the same lengths.
struct Case {
  std::string section;
  Pairing pairing;
  bool traceback;
  std::vector<SequenceBatch> queries, targets;
  std::size_t cpu_pairs;  // the CPU runs (and the check covers) the first cpu_pairs pairs
};

int run_case(const Options& opts, Report& report, const Case& c, cudaStream_t stream) {
  const ScoreMatrix matrix = [] {
    ScoreMatrix m;
    ScoreMatrix::builtin("blosum62", &m);
    return m;
  }();
  AlignOptions o;  // local, 11 / 1
  o.traceback = c.traceback;
  const std::size_t sets = c.queries.size();
  AlignPlan plan;
  std::vector<DeviceSequenceBatch> dq(sets), dt(sets);
  if (!plan.create(c.queries[0], c.targets[0], c.pairing, matrix, o, stream).is_ok()) return 1;
  for (std::size_t k = 0; k < sets; ++k)
    if (!dq[k].upload(c.queries[k], stream).is_ok() || !dt[k].upload(c.targets[k], stream).is_ok()) return 1;

  // check both variants against the CPU on the subset
  const SequenceBatch cq = c.pairing == Pairing::kOneToMany ? c.queries[0] : first(c.queries[0], c.cpu_pairs);
  const SequenceBatch ct = first(c.targets[0], c.cpu_pairs);
  std::vector<AlignResult> cpu, gpu;
  if (!align_cpu(cq, ct, c.pairing, matrix, o, &cpu).is_ok()) return 1;
  DeviceAlignResults results;
  for (OpsPolicy policy : {OpsPolicy::kDpx, OpsPolicy::kPlain}) {
    const char* name = ops_policy_name(policy);
    const Status s = variants::run_align_plan(policy, plan, dq[0], dt[0], &results, stream);
    const Status d = s.is_ok() ? results.download(&gpu, stream) : s;
    if (!d.is_ok()) {
      std::fprintf(stderr, "align: %s (%s): %s\n", c.section.c_str(), name, d.message().c_str());
      return 1;
    }
    for (std::size_t k = 0; k < cpu.size(); ++k) {
      if (!same(gpu[k], cpu[k])) {
        std::fprintf(stderr, "align: %s (%s) pair %zu: gpu score %d cigar %s, cpu score %d cigar %s\n", c.section.c_str(),
                     name, k, gpu[k].score, gpu[k].cigar.c_str(), cpu[k].score, cpu[k].cigar.c_str());
        return 1;
      }
    }
  }

  const double cells = static_cast<double>(plan.cells());
  double us[2] = {0, 0};
  bool ok = true;
  for (int v = 0; v < 2; ++v) {
    us[v] = time_cuda_us(opts, stream, [&](int i) {
      const OpsPolicy policy = v == 0 ? OpsPolicy::kDpx : OpsPolicy::kPlain;
      ok = ok && variants::run_align_plan(policy, plan, dq[i % sets], dt[i % sets], &results, stream).is_ok();
    });
  }
  if (!ok || us[0] <= 0 || us[1] <= 0) {
    std::fprintf(stderr, "align: %s: a launch failed while timing\n", c.section.c_str());
    return 1;
  }
  const char* how = c.traceback ? "s16x2, 2 pairs/group, 4 direction bit planes, walk on the GPU"
                                : c.pairing == Pairing::kOneToMany ? "s16x2, 2 targets/group, paired table"
                                                                   : "s16x2, 2 pairs/group, two lookups";
  report.add({c.section, "dpx", us[0], gcups(cells, us[0]), "GCUPS", std::string(how) + "; " + ratio(us[1], us[0]) + " plain"});
  report.add({c.section, "plain", us[1], gcups(cells, us[1]), "GCUPS", "same kernels, two-operand max"});

  Options cpu_opts = opts;
  cpu_opts.reps = std::min(opts.reps, 3);
  cpu_opts.warmup = 1;
  const double cpu_us = time_host_us(cpu_opts, [&](int) { align_cpu(cq, ct, c.pairing, matrix, o, &cpu); });
  const double cpu_cells = static_cast<double>(cells_of(cq, ct, c.pairing));
  const double scaled = cpu_us * cells / cpu_cells;
  report.add({c.section, "cpu", scaled, gcups(cpu_cells, cpu_us), "GCUPS",
              "scaled from " + std::to_string(ct.size()) + " pairs; dpx " + ratio(scaled, us[0]) + " faster"});
  return 0;
}

// The four cases: pairwise and one-to-many, score only and with traceback.
int run_sw_cases(const Options& opts, Report& report) {
  Stream stream;
  if (!stream.create().is_ok()) return 1;
  std::mt19937_64 rng(20261130);
  const std::size_t pairs = opts.quick ? 10000 : 100000, query = opts.quick ? 1024 : 4096;
  const std::size_t tb_pairs = pairs / 10, tb_targets = pairs / 100;
  const std::string range = " of 128-1024";
  Case pairwise{"SW " + std::to_string(pairs) + " pairs" + range, Pairing::kPairwise, false, {}, {}, 300};
  Case one{"SW " + std::to_string(query) + " vs " + std::to_string(pairs) + range, Pairing::kOneToMany, false, {}, {}, 40};
  for (int k = 0; k < 2; ++k) {
    pairwise.queries.push_back(random_batch(rng, pairs, 128, 1024));
    pairwise.targets.push_back(random_batch(rng, pairs, 128, 1024));
    one.queries.push_back(random_batch(rng, 1, query, query));
    one.targets.push_back(pairwise.targets[k]);
  }
  Case tb_pairwise{"SW+traceback " + std::to_string(tb_pairs) + " pairs" + range, Pairing::kPairwise, true,
                   {first(pairwise.queries[0], tb_pairs), first(pairwise.queries[1], tb_pairs)},
                   {first(pairwise.targets[0], tb_pairs), first(pairwise.targets[1], tb_pairs)}, 100};
  Case tb_one{"SW+traceback " + std::to_string(query) + " vs " + std::to_string(tb_targets) + range, Pairing::kOneToMany,
              true, one.queries, {first(one.targets[0], tb_targets), first(one.targets[1], tb_targets)}, 10};
  for (const Case* c : {&pairwise, &one, &tb_pairwise, &tb_one}) {
    const int rc = run_case(opts, report, *c, stream.get());
    if (rc != 0) return rc;
  }
  return 0;
}
#endif

int run_sw_bench(const Options& opts, Report& report) {
#if DPX_HAVE_CUDA
  if (cuda_device_count() > 0) return run_sw_cases(opts, report);
#endif
  (void)opts;
  (void)report;
  std::fprintf(stderr, "align: no CUDA device here; Smith-Waterman benchmarks skipped\n");
  return 0;
}

const Registration registration("align", "sequence DP: Smith-Waterman protein (BLOSUM62, 11/1), score and traceback",
                                run_sw_bench);

}  // namespace
}  // namespace bench
}  // namespace dpx
