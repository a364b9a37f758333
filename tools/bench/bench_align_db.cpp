// dpx-bench align, database rows: Smith-Waterman score only (BLOSUM62, 11/1) of every query of a
// FASTA file against a database, the shape of CUDASW++4.0's database search, beside CUDASW++4.0
// itself on the same files in the same run.
//   --sw-queries=PATH   the queries (CUDASW++4.0's allqueries.fasta); without it the rows are skipped
//   --sw-db=PATH        a database FASTA to add (e.g. scripts/make-protein-db.py's mixed lengths);
//                       repeatable as a comma-separated list
//   --sw-db-count=N     sequences of each generated database and peak shape (default 1,000,000;
//                       --quick 100,000)
// Generated databases: N random proteins of length 256 and of 1,024, written as FASTA so both tools
// read the same letters. Peak shapes: CUDASW++4.0's own peak benchmark (anchors/cudasw4/run.sh,
// `--pseudodb N L`), which scans N copies of one sequence of L letters (cudasw4_anchor.h); ours
// scans a FASTA of N copies of that same sequence.
// CUDASW++4.0: DPX_ANCHOR_CUDASW4 = the folder holding its `align` and `makedb` (anchors/cudasw4
// build.sh); its DPX-s16 kernels, --uploadFull; a FASTA database built by makedb (that time
// reported apart), the peak shapes from its built-in pseudo-database.
// Ours: the database uploaded once, one plan for it, set_query per query, scores downloaded per query
// (as a search needs them: each while the next query runs); the first query's scores are checked
// against the CPU on a sample. Rows: the library's scan (dpx), the same on plain max (plain), and
// the scan reading a query profile (scan-profile, variants::ProfileScan; queries whose profile does
// not fit shared memory run the library's scan there).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "bench.h"
#include "cudasw4_anchor.h"
#include "dpx/align.h"
#include "dpx/device.h"
#include "sequence_reader.h"

#if DPX_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "align/common/align_variants.h"
#endif

namespace dpx {
namespace bench {
namespace {

#if DPX_HAVE_CUDA
constexpr std::size_t kChecked = 200;  // targets of the first query checked against the CPU

struct Database {
  std::string label, path;
  cli::NamedSequences seqs;
  Cudasw4Database anchor;  // what CUDASW++4.0 scans beside it (its pseudo-database for the peak shapes)
};

ScoreMatrix blosum62() {
  ScoreMatrix m;
  ScoreMatrix::builtin("blosum62", &m);
  return m;
}

// FASTA at `path`: `count` records, record k's letters from next(k).
template <class Next>
bool write_db(const std::string& path, std::size_t count, const Next& next) {
  std::ofstream out(path, std::ios::binary);
  for (std::size_t k = 0; k < count && out; ++k) out << '>' << 's' << k << '\n' << next(k) << '\n';
  return static_cast<bool>(out.flush());
}

// N random proteins of `length` (background frequencies of the 20 amino acids), as FASTA at `path`.
bool write_random_db(const std::string& path, std::size_t count, std::size_t length, std::uint64_t seed) {
  static const char kLetters[] = "ARNDCQEGHILKMFPSTWYV";
  static const double kFreq[] = {8.25, 5.53, 4.06, 5.46, 1.38, 3.93, 6.72, 7.07, 2.27, 5.91,
                                 9.64, 5.80, 2.41, 3.86, 4.74, 6.65, 5.36, 1.10, 2.92, 6.86};
  std::discrete_distribution<int> letter(std::begin(kFreq), std::end(kFreq));
  std::mt19937_64 rng(seed);
  std::string s(length, 'A');
  return write_db(path, count, [&](std::size_t) -> const std::string& {
    for (char& c : s) c = kLetters[letter(rng)];
    return s;
  });
}

bool load(const std::string& path, const ScoreMatrix& m, cli::NamedSequences* out) {
  std::string error;
  if (cli::read_sequences(path, cli::Alphabet::of_matrix(m, 'X', false, true), out, &error)) return true;
  std::fprintf(stderr, "align db: %s\n", error.c_str());
  return false;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// CUDASW++4.0 on (queries, db): makedb for a FASTA database, then align; adds its row.
void add_cudasw_row(Report& report, const std::string& section, const std::string& queries, const Database& db,
                    double ours_s) {
  const bool peak = db.anchor.pseudo_count > 0;
  const std::string name = peak ? "cudasw4-dpx-peak" : "cudasw4-dpx";
  const char* dir = std::getenv("DPX_ANCHOR_CUDASW4");
  if (dir == nullptr || *dir == '\0') {
    report.add({section, name, 0, 0, "GCUPS", "not built (set DPX_ANCHOR_CUDASW4)"});
    return;
  }
  const std::string bin(dir);
  const auto t0 = std::chrono::steady_clock::now();
  const bool built =
      peak || !command_output("'" + bin + "/makedb' '" + db.path + "' '" + db.anchor.db + "' 2>&1").empty();
  const double makedb_s = seconds_since(t0);
  const std::string out = built ? command_output(cudasw4_align_command(bin, queries, db.anchor)) : std::string();
  double s = 0;
  const double g = out.empty() ? 0 : cudasw4_gcups(out, &s);
  if (g <= 0) {
    report.add({section, name, 0, 0, "GCUPS", built ? "align printed no figure" : "makedb failed"});
    return;
  }
  char note[160];
  if (peak) {
    std::snprintf(note, sizeof note, "its scan of --pseudodb %zu %d; dpx %s its speed", db.anchor.pseudo_count,
                  static_cast<int>(db.anchor.pseudo_length), ratio(s, ours_s).c_str());
  } else {
    std::snprintf(note, sizeof note, "its scan; makedb %.1f s apart; dpx %s its speed", makedb_s,
                  ratio(s, ours_s).c_str());
  }
  report.add({section, name, s * 1e6, g, "GCUPS", note});
}

// Ours: every query against the resident database, as `dpx-align search` runs it: query k + 1's
// plan, upload and kernels are queued before query k's scores come back on a second stream, so the
// download and the host's work overlap the next scan. Seconds for all queries (plan, upload of the
// query, kernels, scores back), or 0 on a failure.
enum class Kernel { kDpx, kPlain, kProfile };  // the library's scan, its plain-op build, the query profile's

double run_ours(const cli::NamedSequences& q, const Database& db, const ScoreMatrix& m, Kernel kernel, bool check,
                cudaStream_t stream) {
  AlignOptions o;  // local, 11 / 1
  o.score_only = true;
  SequenceBatch first;
  first.add(q.letters.view(0));
  AlignPlan plan;
  DeviceSequenceBatch dt, dq[2];
  DeviceAlignResults results[2];
  Stream copies;
  variants::ProfileScan profile;
  std::vector<std::int32_t> scores;
  if (!copies.create().is_ok() || !dt.upload(db.seqs.letters, stream).is_ok() ||
      !plan.create(first, db.seqs.letters, Pairing::kOneToMany, m, o, stream).is_ok())
    return 0;
  if (cudaStreamSynchronize(stream) != cudaSuccess) return 0;
  // Query k's scores, on `copies` (which waited for its run); the first query's checked on a sample.
  auto collect = [&](std::size_t k) -> Status {
    DPX_RETURN_IF_ERROR(results[k % 2].download_scores(&scores, copies.get()));
    if (!check || k != 0) return Status::ok();
    SequenceBatch one, sample;
    one.add(q.letters.view(k));
    for (std::size_t t = 0; t < kChecked && t < db.seqs.letters.size(); ++t) sample.add(db.seqs.letters.view(t));
    std::vector<AlignResult> cpu;
    DPX_RETURN_IF_ERROR(align_cpu(one, sample, Pairing::kOneToMany, m, o, &cpu));
    for (std::size_t t = 0; t < cpu.size(); ++t)
      if (cpu[t].score != scores[t])
        return Status(StatusCode::kInternal, "target " + std::to_string(t) + ": gpu " + std::to_string(scores[t]) +
                                                 ", cpu " + std::to_string(cpu[t].score));
    return Status::ok();
  };
  const auto t0 = std::chrono::steady_clock::now();
  const Status s = [&]() -> Status {
    for (std::size_t k = 0; k < q.letters.size(); ++k) {
      SequenceBatch one;
      one.add(q.letters.view(k));
      DPX_RETURN_IF_ERROR(plan.set_query(one, stream));
      DPX_RETURN_IF_ERROR(dq[k % 2].upload(one, stream));
      DPX_RETURN_IF_ERROR(kernel == Kernel::kProfile
                              ? profile.run(plan, dq[k % 2], dt, &results[k % 2], stream)
                              : variants::run_align_plan(kernel == Kernel::kPlain ? OpsPolicy::kPlain : OpsPolicy::kDpx,
                                                         plan, dq[k % 2], dt, &results[k % 2], stream));
      if (k > 0) DPX_RETURN_IF_ERROR(collect(k - 1));
      DPX_RETURN_IF_ERROR(stream_wait(copies.get(), stream));
    }
    DPX_RETURN_IF_ERROR(collect(q.letters.size() - 1));
    return copies.synchronize();
  }();
  if (!s.is_ok()) {
    std::fprintf(stderr, "align db: %s: %s\n", db.label.c_str(), s.message().c_str());
    return 0;
  }
  return seconds_since(t0);
}

int run_db_cases(const Options& opts, Report& report) {
  if (opts.sw_queries.empty()) {
    std::fprintf(stderr, "align db: no --sw-queries=FASTA; database rows skipped\n");
    return 0;
  }
  const ScoreMatrix m = blosum62();
  cli::NamedSequences q;
  if (!load(opts.sw_queries, m, &q)) return 1;
  std::uint64_t query_letters = 0;
  for (std::size_t k = 0; k < q.letters.size(); ++k) query_letters += q.letters.length(k);

  std::vector<Database> dbs;
  const std::size_t count = opts.sw_db_count.value_or(opts.quick ? 100000 : 1000000);
  const char* tmp = std::getenv("TMPDIR");
  const std::string prefix = std::string(tmp != nullptr ? tmp : "/tmp") + "/dpx-bench-db-";
  for (std::size_t length : {256, 1024}) {
    if (count == 0) break;  // --sw-db-count=0: only the given databases
    Database d;
    d.label = std::to_string(count) + " x " + std::to_string(length);
    d.path = prefix + std::to_string(count) + "x" + std::to_string(length) + ".fasta";
    d.anchor.db = d.path + ".cudasw4db";
    if (!write_random_db(d.path, count, length, 20261130 + length)) {
      std::fprintf(stderr, "align db: cannot write %s\n", d.path.c_str());
      return 1;
    }
    dbs.push_back(std::move(d));
  }
  for (std::int32_t length : {256, 1024}) {
    if (count == 0) break;
    Database d;
    d.label = std::to_string(count) + " x " + std::to_string(length) + " peak";
    d.path = prefix + "peak-" + std::to_string(count) + "x" + std::to_string(length) + ".fasta";
    d.anchor.pseudo_count = count;
    d.anchor.pseudo_length = length;
    const std::string seq = cudasw4_pseudo_sequence(length);
    if (!write_db(d.path, count, [&](std::size_t) -> const std::string& { return seq; })) {
      std::fprintf(stderr, "align db: cannot write %s\n", d.path.c_str());
      return 1;
    }
    dbs.push_back(std::move(d));
  }
  for (const std::string& path : opts.sw_db) {
    Database d;
    d.label = path.substr(path.find_last_of('/') + 1);
    d.path = path;
    d.anchor.db = path + ".cudasw4db";
    dbs.push_back(std::move(d));
  }

  Stream stream;
  if (!stream.create().is_ok()) return 1;
  for (Database& d : dbs) {
    if (!load(d.path, m, &d.seqs) || d.seqs.letters.size() == 0) return 1;
    std::uint64_t residues = 0;
    for (std::size_t k = 0; k < d.seqs.letters.size(); ++k) residues += d.seqs.letters.length(k);
    const double cells = double(query_letters) * double(residues);
    const std::string section = "SW db " + std::to_string(q.letters.size()) + " queries vs " + d.label;
    const double dpx_s = run_ours(q, d, m, Kernel::kDpx, true, stream.get());
    if (dpx_s <= 0) return 1;
    const double plain_s = run_ours(q, d, m, Kernel::kPlain, false, stream.get());
    const double profile_s = run_ours(q, d, m, Kernel::kProfile, true, stream.get());
    if (profile_s <= 0) return 1;
    report.add({section, "dpx", dpx_s * 1e6, cells / dpx_s * 1e-9, "GCUPS",
                "all queries, scores back; " + ratio(plain_s, dpx_s) + " plain"});
    report.add({section, "plain", plain_s * 1e6, plain_s > 0 ? cells / plain_s * 1e-9 : 0, "GCUPS",
                "same kernels, two-operand max"});
    report.add({section, "scan-profile", profile_s * 1e6, cells / profile_s * 1e-9, "GCUPS",
                "query profile in place of the paired table; " + ratio(dpx_s, profile_s) + " dpx's speed"});
    add_cudasw_row(report, section, opts.sw_queries, d, dpx_s);
    d.seqs = cli::NamedSequences{};  // free the host copy before the next database
  }
  return 0;
}
#endif

int run_db_bench(const Options& opts, Report& report) {
#if DPX_HAVE_CUDA
  if (cuda_device_count() > 0) return run_db_cases(opts, report);
#endif
  (void)opts;
  (void)report;
  std::fprintf(stderr, "align: no CUDA device here; database search rows skipped\n");
  return 0;
}

const Registration registration("align", "Smith-Waterman database search beside CUDASW++4.0 (--sw-queries, --sw-db)",
                                run_db_bench);

}  // namespace
}  // namespace bench
}  // namespace dpx
