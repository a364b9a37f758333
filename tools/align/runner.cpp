#include "runner.h"

#include <algorithm>
#include <functional>
#include <memory>

#include "dpx/align_distance.h"

namespace dpx {
namespace cli {
namespace {

// With this many targets one query at a time fills the GPU (one query against many targets);
// with fewer, several queries go together as pairwise pairs.
constexpr std::size_t kManyTargets = 2048;
constexpr std::size_t kChunkPairs = 65536;
constexpr std::size_t kChunkElements = std::size_t(64) << 20;

template <class Batch>
using ChunkFn = std::function<Status(const Batch& queries, const Batch& targets, Pairing pairing, std::size_t first_query)>;

// Calls fn for consecutive runs of queries; the pairs of a chunk are query-major.
template <class Batch>
Status for_each_chunk(const Batch& queries, const Batch& targets, const ChunkFn<Batch>& fn) {
  const std::size_t nq = queries.size(), nt = targets.size();
  std::size_t first = 0;
  while (first < nq) {
    Batch q, t;
    if (nt >= kManyTargets || nq == 1) {
      q.add(queries.item(first), queries.length(first));
      DPX_RETURN_IF_ERROR(fn(q, targets, Pairing::kOneToMany, first));
      ++first;
      continue;
    }
    std::size_t last = first, elements = 0;
    while (last < nq && (last == first || ((last - first + 1) * nt <= kChunkPairs &&
                                           elements + nt * queries.length(last) + targets.total_length() <= kChunkElements))) {
      elements += nt * queries.length(last) + targets.total_length();
      for (std::size_t j = 0; j < nt; ++j) {
        q.add(queries.item(last), queries.length(last));
        t.add(targets.item(j), targets.length(j));
      }
      ++last;
    }
    DPX_RETURN_IF_ERROR(fn(q, t, Pairing::kPairwise, first));
    first = last;
  }
  return Status::ok();
}

AlignMode mode_of(Command c) {
  return c == Command::kNw ? AlignMode::kGlobal : c == Command::kSg ? AlignMode::kSemiGlobal : AlignMode::kLocal;
}

std::uint64_t chunk_cells(const PackedBatch<char>& q, const PackedBatch<char>& t, Pairing pairing) {
  std::uint64_t cells = 0;
  for (std::size_t k = 0; k < t.size(); ++k) cells += std::uint64_t(q.length(pairing == Pairing::kOneToMany ? 0 : k)) * t.length(k);
  return cells;
}

// Every series of a against every one of b: `dtw` computes a chunk's costs, `write` writes a row.
template <class Batch, class Cost>
Status warp_all(const NamedSeries& a, const NamedSeries& b, const Batch& av, const Batch& bv,
                const std::function<Status(const Batch&, const Batch&, Pairing, std::vector<Cost>*)>& dtw,
                const std::function<void(const std::string&, const std::string&, const Cost&, std::int64_t, std::int64_t)>& write,
                TsvWriter* out, Progress* progress) {
  const std::size_t nb = b.names.size();
  std::uint64_t pairs = 0, cells = 0;
  const ChunkFn<Batch> fn = [&](const Batch& x, const Batch& y, Pairing pairing, std::size_t first) {
    std::vector<Cost> res;
    DPX_RETURN_IF_ERROR(dtw(x, y, pairing, &res));
    for (std::size_t k = 0; k < res.size(); ++k) {
      const std::size_t xi = pairing == Pairing::kOneToMany ? 0 : k;
      const std::size_t ai = first + (pairing == Pairing::kOneToMany ? 0 : k / nb);
      write(a.names[ai], b.names[k % nb], res[k], static_cast<std::int64_t>(x.length(xi)),
            static_cast<std::int64_t>(y.length(k)));
      cells += std::uint64_t(x.length(xi)) * y.length(k);
    }
    pairs += res.size();
    progress->update(pairs, cells);
    return out->ok() ? Status::ok() : Status(StatusCode::kInvalidArgument, "cannot write the output");
  };
  return for_each_chunk(av, bv, fn);
}

}  // namespace

Status run_sequences(const CliOptions& o, const ScoreMatrix& matrix, const NamedSequences& queries,
                     const NamedSequences& targets, TsvWriter* out, Progress* progress, AlignDevice* device) {
  Backend backend = Backend::kCuda;
  if (device == nullptr) DPX_RETURN_IF_ERROR(resolve_backend(o.backend, &backend));
  const std::size_t nt = targets.letters.size();
  AlignOptions align;
  align.mode = mode_of(o.command);
  align.gap_open = o.gap_open;
  align.gap_extend = o.gap_extend;
  align.traceback = o.cigar;
  EditOptions edit;
  edit.cigar = o.cigar;
  std::unique_ptr<AlignDevice> cuda;
  if (device == nullptr && backend == Backend::kCuda) device = (cuda = make_cuda_align_device(matrix, align)).get();
  std::uint64_t pairs = 0, cells = 0;
  const ChunkFn<SequenceBatch> fn = [&](const SequenceBatch& q, const SequenceBatch& t, Pairing pairing, std::size_t first) {
    const std::size_t count = pair_count(q.size(), t.size(), pairing);
    auto row = [&](std::size_t k, std::int64_t value, std::int64_t qb, std::int64_t qe, std::int64_t tb, std::int64_t te,
                   const std::string& cigar) {
      const std::size_t qi = first + (pairing == Pairing::kOneToMany ? 0 : k / nt);
      out->row(queries.names[qi], targets.names[k % nt], value, false, qb, qe, tb, te, cigar);
    };
    if (o.command == Command::kEdit) {
      std::vector<EditResult> res;
      DPX_RETURN_IF_ERROR(backend == Backend::kCuda ? edit_distance_cuda(q, t, pairing, edit, &res, nullptr)
                                                    : edit_distance_cpu(q, t, pairing, edit, &res, o.threads));
      for (std::size_t k = 0; k < count; ++k) {
        const std::size_t qi = pairing == Pairing::kOneToMany ? 0 : k;
        row(k, res[k].distance, 0, static_cast<std::int64_t>(q.length(qi)), 0, static_cast<std::int64_t>(t.length(k)), res[k].cigar);
      }
    } else {
      std::vector<AlignResult> res;
      if (backend != Backend::kCuda)
        DPX_RETURN_IF_ERROR(align_cpu(q, t, pairing, matrix, align, &res, o.threads));
      else if (pairing == Pairing::kPairwise)
        DPX_RETURN_IF_ERROR(device->run_pairwise(q, t, &res));
      else
        DPX_RETURN_IF_ERROR(device->run_one_to_many(q, t, &res));
      for (std::size_t k = 0; k < count; ++k)
        row(k, res[k].score, res[k].query_begin, res[k].query_end, res[k].target_begin, res[k].target_end, res[k].cigar);
    }
    pairs += count;
    cells += chunk_cells(q, t, pairing);
    progress->update(pairs, cells);
    return out->ok() ? Status::ok() : Status(StatusCode::kInvalidArgument, "cannot write the output");
  };
  return for_each_chunk(queries.letters, targets.letters, fn);
}

Status check_series_options(const CliOptions& o, const NamedSeries& a) {
  if (a.floating || o.cost == DtwCost::kAbsolute) return Status::ok();
  return Status(StatusCode::kInvalidArgument,
                "--cost sq needs float series: give --float (or values with a fraction or exponent, such as 1.5)");
}

Status run_series(const CliOptions& o, const NamedSeries& a, const NamedSeries& b, TsvWriter* out, Progress* progress) {
  DPX_RETURN_IF_ERROR(check_series_options(o, a));
  Backend backend = Backend::kCpu;
  DPX_RETURN_IF_ERROR(resolve_backend(o.backend, &backend));
  const bool cuda = backend == Backend::kCuda;
  if (a.floating) {
    DtwFloatOptions dtw;
    dtw.band = o.band;
    dtw.cost = o.cost;
    return warp_all<FloatSeriesBatch, float>(
        a, b, a.floats, b.floats,
        [&](const FloatSeriesBatch& x, const FloatSeriesBatch& y, Pairing pairing, std::vector<float>* res) {
          return cuda ? dtw_float_cuda(x, y, pairing, dtw, res, nullptr) : dtw_float_cpu(x, y, pairing, dtw, res, o.threads);
        },
        [&](const std::string& an, const std::string& bn, float cost, std::int64_t alen, std::int64_t blen) {
          out->float_row(an, bn, cost, 0, alen, 0, blen, "");
        },
        out, progress);
  }
  DtwOptions dtw;
  dtw.band = o.band;
  return warp_all<SeriesBatch, DtwResult>(
      a, b, a.values, b.values,
      [&](const SeriesBatch& x, const SeriesBatch& y, Pairing pairing, std::vector<DtwResult>* res) {
        return cuda ? dtw_cuda(x, y, pairing, dtw, res, nullptr) : dtw_cpu(x, y, pairing, dtw, res, o.threads);
      },
      [&](const std::string& an, const std::string& bn, const DtwResult& r, std::int64_t alen, std::int64_t blen) {
        out->row(an, bn, r.cost, r.cost == kDtwNoPath, 0, alen, 0, blen, "");
      },
      out, progress);
}

}  // namespace cli
}  // namespace dpx
