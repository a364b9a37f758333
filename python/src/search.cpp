// dpx.search: dpx-align search on lists — every query scored against every database sequence by
// the search engine's scorers (each CUDA device, or the CPU), each query's best hits kept, then only
// those aligned (starts, ends, CIGAR).
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "arrays.h"
#include "bindings.h"
#include "placement.h"
#include "search_engine.h"
#include "sequences.h"

namespace dpx {
namespace py_bindings {
namespace {

// target, score, query_begin, query_end, target_begin, target_end, cigar
using HitRecord = std::tuple<std::uint32_t, std::int32_t, std::int32_t, std::int32_t, std::int32_t, std::int32_t,
                             std::string>;

void check_no_empty(const SequenceBatch& batch, const char* name) {
  for (std::size_t i = 0; i < batch.size(); ++i)
    if (batch.length(i) == 0) raise_value_error(std::string(name) + "[" + std::to_string(i) + "] has no letters");
}

std::vector<std::vector<HitRecord>> search(py::handle queries_obj, py::handle database_obj, std::size_t top,
                                           int min_score, const std::string& matrix_name, int gap_open,
                                           int gap_extend, const std::string& backend, int match, int mismatch) {
  const SequenceBatch queries = sequence_batch(queries_obj, "queries");
  const SequenceBatch db = sequence_batch(database_obj, "database");
  check_no_empty(queries, "queries");
  check_no_empty(db, "database");
  if (top > db.size())
    raise_value_error("top=" + std::to_string(top) + " asks for more hits than the database holds (" +
                      std::to_string(db.size()) + " sequences); give top=" + std::to_string(db.size()) +
                      " or top=0 (all)");
  const ScoreMatrix matrix = score_matrix(matrix_name, match, mismatch);
  AlignOptions scoring = align_options(AlignMode::kLocal, gap_open, gap_extend);
  scoring.score_only = true;
  throw_if_error(validate_align_options(scoring, "search"));
  const Placement where = place_host(backend);

  std::vector<std::vector<cli::Hit>> best;
  std::vector<AlignResult> alignments;
  {
    py::gil_scoped_release unlocked;
    std::vector<std::unique_ptr<cli::ShardScorer>> owned;
    if (where.cuda) {
      for (int d = 0; d < cuda_device_count(); ++d) owned.push_back(cli::make_cuda_scorer(matrix, scoring, d));
    } else {
      owned.push_back(cli::make_cpu_scorer(matrix, scoring, 0));
    }
    std::vector<cli::ShardScorer*> scorers;
    for (auto& s : owned) scorers.push_back(s.get());
    cli::SearchControl control;
    throw_if_error(cli::search_best_hits(queries, db, cli::DatabaseOrder(), {0, db.size()},
                                         {top, static_cast<std::int32_t>(min_score)}, scorers, &control, [] {}, &best));
    // the reported hits aligned again, with traceback, in one pairwise batch
    SequenceBatch hit_queries, hit_targets;
    for (std::size_t q = 0; q < best.size(); ++q) {
      for (const cli::Hit& h : best[q]) {
        hit_queries.add(queries.view(q));
        hit_targets.add(db.view(h.target));
      }
    }
    AlignOptions traceback = scoring;
    traceback.score_only = false;
    traceback.traceback = true;
    if (!hit_queries.empty()) {
      if (where.cuda) throw_if_error(set_cuda_device(0));
      throw_if_error(align_batch(where.cuda ? Backend::kCuda : Backend::kCpu, hit_queries, hit_targets,
                                 Pairing::kPairwise, matrix, traceback, &alignments));
    }
  }
  std::vector<std::vector<HitRecord>> hits(best.size());
  std::size_t next = 0;
  for (std::size_t q = 0; q < best.size(); ++q) {
    for (const cli::Hit& h : best[q]) {
      const AlignResult& a = alignments[next++];
      if (a.score != h.score)
        throw std::runtime_error("search: query " + std::to_string(q) + " against database[" + std::to_string(h.target) +
                                 "] scored " + std::to_string(h.score) + " but aligned at " + std::to_string(a.score));
      hits[q].emplace_back(h.target, a.score, a.query_begin, a.query_end, a.target_begin, a.target_end, a.cigar);
    }
  }
  return hits;
}

}  // namespace

void bind_search(py::module_& m) {
  m.def("search", &search, py::arg("queries"), py::arg("database"), py::arg("top"), py::arg("min_score"),
        py::arg("matrix"), py::arg("gap_open"), py::arg("gap_extend"), py::arg("backend"), py::arg("match"),
        py::arg("mismatch"));
}

}  // namespace py_bindings
}  // namespace dpx
