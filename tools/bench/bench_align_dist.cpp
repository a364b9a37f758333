// dpx-bench align (edit distance and DTW): 10,000 pairs of length 1,000 each, in GCUPS (DP cells
// per second), the DPX kernels beside the same kernels with plain two-operand min and beside the
// CPU implementation (a subset of pairs, scaled). GPU results are checked against the CPU on a
// sample first; a mismatch fails the run before any figure is posted.
//
// Inputs: several copies of the batch with different contents, rotated between runs so the data
// read (> 60 MB together) does not sit in the 50 MB L2.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "bench.h"
#include "dpx/align_distance.h"
#include "dpx/device.h"

#if DPX_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "align/common/align_variants.h"
#endif

namespace dpx {
namespace bench {
namespace {

#if DPX_HAVE_CUDA
struct Shape {
  std::size_t pairs, length, cpu_pairs, sets;
};

Shape shape_for(const Options& opts) {
  return opts.quick ? Shape{1000, 1000, 20, 2} : Shape{10000, 1000, 200, 4};
}

double gcups(double cells, double us) { return us > 0 ? cells / (us * 1e3) : 0; }

// Related pairs: each target is its query with ~10% random edits, cut or padded to `length`.
SequenceBatch random_letters(std::mt19937_64& rng, std::size_t count, std::size_t length, SequenceBatch* targets) {
  static const char kAcgt[] = "ACGT";
  std::uniform_int_distribution<int> letter(0, 3), edit(0, 29);
  SequenceBatch queries;
  std::string q(length, 'A'), t;
  for (std::size_t p = 0; p < count; ++p) {
    for (auto& c : q) c = kAcgt[letter(rng)];
    t.clear();
    for (char c : q) {
      const int e = edit(rng);
      if (e == 0) continue;                               // deletion
      t += e == 1 ? kAcgt[letter(rng)] : c;               // substitution or copy
      if (e == 2) t += kAcgt[letter(rng)];                // insertion
    }
    t.resize(length, 'T');
    queries.add(q);
    targets->add(t);
  }
  return queries;
}

// Random walks with steps in [-8, 8]: realistic signals whose costs fit the 32-bit cells.
SeriesBatch random_walks(std::mt19937_64& rng, std::size_t count, std::size_t length) {
  std::uniform_int_distribution<int> step(-8, 8);
  SeriesBatch batch;
  std::vector<std::int32_t> s(length);
  for (std::size_t p = 0; p < count; ++p) {
    std::int32_t v = 0;
    for (auto& x : s) x = v += step(rng);
    batch.add(s.data(), s.size());
  }
  return batch;
}

template <class Batch>
Batch first_pairs(const Batch& b, std::size_t count) {
  Batch out;
  for (std::size_t i = 0; i < count && i < b.size(); ++i) out.add(b.item(i), b.length(i));
  return out;
}

void add_cpu_row(Report& report, const std::string& section, double cpu_us, const Shape& s, double gpu_us) {
  const double cells = static_cast<double>(s.cpu_pairs) * s.length * s.length;
  const double scaled = cpu_us * static_cast<double>(s.pairs) / s.cpu_pairs;
  report.add({section, "cpu", scaled, gcups(cells, cpu_us), "GCUPS",
              "scaled from " + std::to_string(s.cpu_pairs) + " pairs; dpx " + ratio(scaled, gpu_us) + " faster"});
}

// A kernel launch of one policy over input set `set` into `out`.
using PolicyLaunch = std::function<Status(OpsPolicy policy, std::size_t set)>;

// Checks both policies' results on set 0 against `expected` (the CPU's, a prefix of the pairs),
// then times both and adds the dpx and plain rows. Returns the dpx time, or -1 on any failure.
double check_and_time_policies(const Options& opts, Report& report, const std::string& section, const char* what,
                               const Shape& s, std::size_t sets, const std::vector<std::int64_t>& expected,
                               const DeviceBuffer& out, const PolicyLaunch& launch, const std::string& dpx_note,
                               cudaStream_t stream) {
  for (auto policy : {OpsPolicy::kDpx, OpsPolicy::kPlain}) {
    std::vector<std::int64_t> got(s.pairs);
    if (!launch(policy, 0).is_ok() ||
        cudaMemcpyAsync(got.data(), out.data(), got.size() * sizeof(std::int64_t), cudaMemcpyDeviceToHost, stream) != cudaSuccess ||
        cudaStreamSynchronize(stream) != cudaSuccess) {
      std::fprintf(stderr, "align: %s kernel failed\n", what);
      return -1;
    }
    for (std::size_t i = 0; i < expected.size(); ++i) {
      if (got[i] != expected[i]) {
        std::fprintf(stderr, "align: %s pair %zu: gpu %lld, cpu %lld\n", what, i, static_cast<long long>(got[i]),
                     static_cast<long long>(expected[i]));
        return -1;
      }
    }
  }
  const double cells = static_cast<double>(s.pairs) * s.length * s.length;
  double us[2] = {0, 0};
  bool launched = true;
  for (int k = 0; k < 2; ++k) {
    const auto policy = k == 0 ? OpsPolicy::kDpx : OpsPolicy::kPlain;
    us[k] = time_cuda_us(opts, stream, [&](int i) { launched = launched && launch(policy, i % sets).is_ok(); });
  }
  if (!launched || us[0] <= 0 || us[1] <= 0) {
    std::fprintf(stderr, "align: %s launch failed while timing\n", what);
    return -1;
  }
  report.add({section, "dpx", us[0], gcups(cells, us[0]), "GCUPS", dpx_note + "; " + ratio(us[1], us[0]) + " faster than plain"});
  report.add({section, "plain", us[1], gcups(cells, us[1]), "GCUPS", "same kernel, two-operand min"});
  return us[0];
}

int bench_edit(const Options& opts, Report& report, const Shape& s, std::mt19937_64& rng, cudaStream_t stream) {
  const std::string section = "edit distance " + std::to_string(s.pairs) + " x " + std::to_string(s.length) + "^2";
  std::vector<SequenceBatch> queries, targets(s.sets);
  std::vector<DeviceSequenceBatch> dq(s.sets), dt(s.sets);
  for (std::size_t k = 0; k < s.sets; ++k) {
    queries.push_back(random_letters(rng, s.pairs, s.length, &targets[k]));
    if (!dq[k].upload(queries[k], stream).is_ok() || !dt[k].upload(targets[k], stream).is_ok()) return 1;
  }
  DeviceBuffer out;
  if (!out.allocate(s.pairs * sizeof(std::int64_t)).is_ok()) return 1;

  // Check: the GPU's distances (both policies) equal the CPU's on the CPU subset.
  const SequenceBatch cq = first_pairs(queries[0], s.cpu_pairs), ct = first_pairs(targets[0], s.cpu_pairs);
  std::vector<EditResult> cpu;
  if (!edit_distance_cpu(cq, ct, Pairing::kPairwise, {}, &cpu).is_ok()) return 1;
  std::vector<std::int64_t> expected;
  for (const EditResult& r : cpu) expected.push_back(r.distance);
  const PolicyLaunch launch = [&](OpsPolicy policy, std::size_t set) {
    return variants::launch_edit_distance(policy, dq[set], dt[set], Pairing::kPairwise, s.length, out.as<std::int64_t>(),
                                          stream);
  };
  const double dpx_us = check_and_time_policies(opts, report, section, "edit distance", s, s.sets, expected, out, launch,
                                                "u16x2, 2 pairs per group", stream);
  if (dpx_us < 0) return 1;
  Options cpu_opts = opts;
  cpu_opts.reps = std::min(opts.reps, 5);
  cpu_opts.warmup = 1;
  const double cpu_us = time_host_us(cpu_opts, [&](int) { edit_distance_cpu(cq, ct, Pairing::kPairwise, {}, &cpu); });
  add_cpu_row(report, section, cpu_us, s, dpx_us);

  // With CIGARs: the synchronous call, upload and copies included, on a tenth of the batch.
  const std::size_t cigar_pairs = s.pairs / 10;
  const SequenceBatch gq = first_pairs(queries[1], cigar_pairs), gt = first_pairs(targets[1], cigar_pairs);
  EditOptions with_cigar;
  with_cigar.cigar = true;
  std::vector<EditResult> gpu_cigar, cpu_cigar;
  const SequenceBatch sq = first_pairs(gq, s.cpu_pairs / 4), st = first_pairs(gt, s.cpu_pairs / 4);
  if (!edit_distance_cuda(sq, st, Pairing::kPairwise, with_cigar, &gpu_cigar, stream).is_ok() ||
      !edit_distance_cpu(sq, st, Pairing::kPairwise, with_cigar, &cpu_cigar).is_ok()) return 1;
  for (std::size_t i = 0; i < cpu_cigar.size(); ++i) {
    if (gpu_cigar[i].cigar != cpu_cigar[i].cigar || gpu_cigar[i].distance != cpu_cigar[i].distance) {
      std::fprintf(stderr, "align: edit CIGAR pair %zu differs between GPU and CPU\n", i);
      return 1;
    }
  }
  Options host_opts = opts;
  host_opts.reps = std::min(opts.reps, 10);
  bool launched = true;
  const double cigar_us = time_host_us(host_opts, [&](int) {
    launched = launched && edit_distance_cuda(gq, gt, Pairing::kPairwise, with_cigar, &gpu_cigar, stream).is_ok();
  });
  // The same call on batches already on the device: what the upload costs.
  DeviceSequenceBatch rq, rt;
  launched = launched && rq.upload(gq, stream).is_ok() && rt.upload(gt, stream).is_ok();
  const double resident_us = time_host_us(host_opts, [&](int) {
    launched = launched && variants::edit_cigar_cuda(variants::CigarPath::kBitVector, gq, gt, Pairing::kPairwise, rq, rt,
                                                     &gpu_cigar, stream)
                               .is_ok();
  });
  // The same synchronous work (upload included) on the full-DP path, checked against the walk's.
  std::vector<EditResult> full_cigar(cigar_pairs);
  const auto run_full = [&] {
    DeviceSequenceBatch fq, ft;
    return fq.upload(gq, stream).is_ok() && ft.upload(gt, stream).is_ok() &&
           variants::edit_cigar_cuda(variants::CigarPath::kFullDp, gq, gt, Pairing::kPairwise, fq, ft, &full_cigar, stream)
               .is_ok();
  };
  launched = launched && run_full();
  for (std::size_t i = 0; launched && i < cigar_pairs; ++i) {
    if (full_cigar[i].cigar != gpu_cigar[i].cigar || full_cigar[i].distance != gpu_cigar[i].distance) {
      std::fprintf(stderr, "align: edit CIGAR pair %zu differs between the bit-vector walk and the full DP\n", i);
      return 1;
    }
  }
  const double full_us = time_host_us(host_opts, [&](int) { launched = launched && run_full(); });
  if (!launched) {
    std::fprintf(stderr, "align: edit distance with CIGARs failed while timing\n");
    return 1;
  }
  const double cigar_cells = static_cast<double>(cigar_pairs) * s.length * s.length;
  const std::string cigar_section = "edit + CIGAR " + std::to_string(cigar_pairs) + " x " + std::to_string(s.length) + "^2";
  report.add({cigar_section, "dpx bit-vector walk", cigar_us, gcups(cigar_cells, cigar_us), "GCUPS",
              "bit-parallel columns recorded, warp walk back, device CIGAR text, upload and copies; " +
                  ratio(full_us, cigar_us) + " faster than full DP"});
  report.add({cigar_section, "dpx bit-vector walk, inputs on the device", resident_us,
              gcups(cigar_cells, resident_us), "GCUPS", "the same call without the upload"});
  report.add({cigar_section, "dpx full DP", full_us, gcups(cigar_cells, full_us), "GCUPS",
              "32-bit + directions over every cell, traceback, copies"});
  return 0;
}

int bench_dtw(const Options& opts, Report& report, const Shape& s, std::mt19937_64& rng, cudaStream_t stream) {
  const std::string section = "DTW " + std::to_string(s.pairs) + " x " + std::to_string(s.length) + "^2";
  const std::size_t sets = std::max<std::size_t>(2, s.sets / 2);  // 80 MB per set
  std::vector<SeriesBatch> a, b;
  std::vector<DeviceSeriesBatch> da(sets), db(sets);
  for (std::size_t k = 0; k < sets; ++k) {
    a.push_back(random_walks(rng, s.pairs, s.length));
    b.push_back(random_walks(rng, s.pairs, s.length));
    if (!da[k].upload(a[k], stream).is_ok() || !db[k].upload(b[k], stream).is_ok()) return 1;
  }
  DeviceBuffer out;
  if (!out.allocate(s.pairs * sizeof(std::int64_t)).is_ok()) return 1;

  const SeriesBatch ca = first_pairs(a[0], s.cpu_pairs), cb = first_pairs(b[0], s.cpu_pairs);
  std::vector<DtwResult> cpu;
  if (!dtw_cpu(ca, cb, Pairing::kPairwise, {}, &cpu).is_ok()) return 1;
  std::vector<std::int64_t> expected;
  for (const DtwResult& r : cpu) expected.push_back(r.cost);
  const PolicyLaunch launch = [&](OpsPolicy policy, std::size_t set) {
    return variants::launch_dtw(policy, da[set], db[set], Pairing::kPairwise, {}, s.length, out.as<std::int64_t>(), stream);
  };
  const double dpx_us = check_and_time_policies(opts, report, section, "DTW", s, sets, expected, out, launch,
                                                "32-bit cells, min3", stream);
  if (dpx_us < 0) return 1;
  Options cpu_opts = opts;
  cpu_opts.reps = std::min(opts.reps, 5);
  cpu_opts.warmup = 1;
  const double cpu_us = time_host_us(cpu_opts, [&](int) { dtw_cpu(ca, cb, Pairing::kPairwise, {}, &cpu); });
  add_cpu_row(report, section, cpu_us, s, dpx_us);
  return 0;
}
#endif

int run_align_distance_bench(const Options& opts, Report& report) {
#if DPX_HAVE_CUDA
  if (cuda_device_count() == 0) {
    std::fprintf(stderr, "align: no CUDA device; edit distance and DTW benchmarks skipped\n");
    return 0;
  }
  Stream stream;
  if (!stream.create().is_ok()) return 1;
  std::mt19937_64 rng(20261129);
  const Shape s = shape_for(opts);
  const int rc = bench_edit(opts, report, s, rng, stream.get());
  return rc ? rc : bench_dtw(opts, report, s, rng, stream.get());
#else
  (void)opts;
  (void)report;
  std::fprintf(stderr, "align: built without CUDA; edit distance and DTW benchmarks skipped\n");
  return 0;
#endif
}

const Registration registration("align", "sequence DP: edit distance and DTW, 10,000 pairs of 1,000", run_align_distance_bench);

}  // namespace
}  // namespace bench
}  // namespace dpx
