#include "search_command.h"

#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>

#include "blast_tabular.h"
#include "database_shard.h"
#include "output_file.h"
#include "progress.h"
#include "search_engine.h"
#include "search_report.h"
#include "shard_record.h"

namespace dpx {
namespace cli {
namespace {

std::atomic<bool> g_stop{false};
struct sigaction g_before_interrupt {};

// The first Ctrl-C asks the search to stop; the action before it (the output file's cleanup, or
// the default) takes the next one.
extern "C" void on_interrupt(int) {
  g_stop.store(true);
  sigaction(SIGINT, &g_before_interrupt, nullptr);
}

// Ctrl-C sets g_stop while it is in scope.
class InterruptGuard {
 public:
  InterruptGuard() {
    g_stop.store(false);
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &g_before_interrupt);
  }
  ~InterruptGuard() { sigaction(SIGINT, &g_before_interrupt, nullptr); }
};

Status check_request(const CliOptions& o, const NamedSequences& db) {
  if (o.search.top > db.names.size()) {
    return invalid_argument("--top " + std::to_string(o.search.top) + " asks for more hits than " + o.target_path +
                            " holds (" + std::to_string(db.names.size()) + " sequences); give --top " +
                            std::to_string(db.names.size()) + " or --top 0 (all)");
  }
  return Status::ok();
}

// The devices to spread the database over: --devices, or every visible one.
Status choose_devices(const SearchOptions& s, std::vector<int>* devices) {
  const int count = cuda_device_count();
  *devices = s.devices;
  if (devices->empty())
    for (int d = 0; d < count; ++d) devices->push_back(d);
  for (int d : *devices) {
    if (d >= count)
      return invalid_argument("--devices: there is no device " + std::to_string(d) + " (" + std::to_string(count) + " visible)");
  }
  return Status::ok();
}

}  // namespace

Status run_search(const CliOptions& o, const ScoreMatrix& matrix, const NamedSequences& queries,
                  const NamedSequences& db, bool* interrupted) {
  *interrupted = false;
  DPX_RETURN_IF_ERROR(check_request(o, db));
  KarlinAltschul stats;
  if (o.search.format == OutputFormat::kBlast6 && !find_karlin_altschul(matrix.name(), o.gap_open, o.gap_extend, &stats)) {
    return invalid_argument("--outfmt blast6: no published Karlin-Altschul parameters for " + matrix.name() + " with gap costs " +
                            std::to_string(o.gap_open) + "/" + std::to_string(o.gap_extend) +
                            " (--gap-open/--gap-extend; BLAST's -gapopen is --gap-open minus --gap-extend); the supported pairs are\n" + karlin_altschul_pairs());
  }
  Backend backend = Backend::kCpu;
  DPX_RETURN_IF_ERROR(resolve_backend(o.backend, &backend));
  std::vector<int> devices;
  if (backend == Backend::kCuda) DPX_RETURN_IF_ERROR(choose_devices(o.search, &devices));

  AlignOptions scoring;  // local; the scan ranks by score alone, the reported hits are aligned again
  scoring.score_only = true;
  scoring.gap_open = o.gap_open;
  scoring.gap_extend = o.gap_extend;
  std::vector<std::unique_ptr<ShardScorer>> owned;
  if (backend == Backend::kCuda) {
    for (int d : devices) owned.push_back(make_cuda_scorer(matrix, scoring, d));
  } else {
    owned.push_back(make_cpu_scorer(matrix, scoring, o.threads));
  }
  std::vector<ShardScorer*> scorers;
  for (auto& s : owned) scorers.push_back(s.get());

  std::string error;
  OutputFile output;
  if (!output.open(o.output, &error)) return invalid_argument(error);
  // --shard of a database stored sorted: its part of the original order, on its own
  const bool reordered = !db.order.identity() && o.search.shards > 1;
  const NamedSequences part = reordered ? shard_of(db, o.search.shard, o.search.shards) : NamedSequences();
  const NamedSequences& searched = reordered ? part : db;
  const SequenceBatch& letters = searched.letters;
  const TargetRange shard = reordered ? TargetRange{0, letters.size()}
                                      : split_evenly(letters, {0, letters.size()}, o.search.shards)[o.search.shard];
  Progress progress(std::uint64_t(queries.names.size()) * shard.size(), !o.quiet);
  SearchControl control;
  control.stop = &g_stop;
  InterruptGuard guard;
  std::vector<std::vector<Hit>> best;
  const auto scan_start = std::chrono::steady_clock::now();
  const Status scored = search_best_hits(queries.letters, letters, searched.order, shard, {o.search.top, o.search.min_score},
                                         scorers, &control, [&] { progress.update(control.pairs, control.cells); }, &best);
  progress.finish();
  DPX_RETURN_IF_ERROR(scored);
  const double scan_s = seconds_since(scan_start), setup_s = control.setup_us.load() * 1e-6;

  AlignOptions traceback = scoring;
  traceback.score_only = false;
  traceback.traceback = true;
  Stream stream;
  const PairAligner align = [&](const SequenceBatch& q, const SequenceBatch& t, std::vector<AlignResult>* out) {
    if (backend == Backend::kCpu) return align_cpu(q, t, Pairing::kPairwise, matrix, traceback, out, o.threads);
    DPX_RETURN_IF_ERROR(set_cuda_device(devices[0]));
    if (stream.get() == nullptr) DPX_RETURN_IF_ERROR(stream.create());
    return align_cuda(q, t, Pairing::kPairwise, matrix, traceback, out, stream.get());
  };
  std::unique_ptr<HitWriter> writer;
  if (o.search.format == OutputFormat::kBlast6) {
    writer = std::make_unique<BlastTabularWriter>(output.get(), stats, db.letters.total_length());
  } else {
    writer = std::make_unique<TsvHitWriter>(output.get());
  }
  const auto write_start = std::chrono::steady_clock::now();
  const Status written = control.stopped() ? Status::ok() : write_hits(queries, searched, best, align, writer.get(), &g_stop);
  if (!output.write_error().empty()) return invalid_argument(output.write_error());
  DPX_RETURN_IF_ERROR(written);
  if (o.search.timings) {
    std::fprintf(stderr, "dpx-align: timings: scoring %.2f s (setup %.2f s, then %.1f GCUPS), aligning and writing the hits %.2f s\n",
                 scan_s, setup_s, scan_s > setup_s ? control.cells.load() / (scan_s - setup_s) * 1e-9 : 0.0,
                 seconds_since(write_start));
  }
  if (control.stopped()) {
    *interrupted = true;
    std::fflush(output.get());  // whole rows only: nothing is written after the one in progress
    return Status::ok();
  }
  if (!output.commit(&error)) return invalid_argument(error);
  if (o.search.sharded && o.output != "-" &&
      !write_shard_record(o.output, describe_shard(o, matrix, queries, db), best, &error))
    return invalid_argument(error);
  return Status::ok();
}

}  // namespace cli
}  // namespace dpx
