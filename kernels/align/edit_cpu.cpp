// Edit distance on the CPU: pairs spread over threads; per pair a row-by-row DP. The distance-only
// path splits each row into a vectorisable pass (diagonal and up) and a short serial pass (left);
// the CIGAR path computes every cell with the same step function as the CUDA kernel, so the
// recorded directions, hence the CIGARs, are identical.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "cigar.h"
#include "worker_pool.h"
#include "distance_checks.h"
#include "dpx/align_distance.h"
#include "edit_cells.cuh"

namespace dpx {
namespace {

using align::letter;

struct RowBuffers {
  std::vector<std::uint32_t> prev, cur, best;
  std::vector<std::uint8_t> dirs;  // 2 bits per cell, row-major (CIGAR path)
  std::vector<char> ops;
};

std::int64_t distance_only(const char* q, std::int64_t n, const char* t, std::int64_t m, RowBuffers* b) {
  if (n == 0 || m == 0) return std::max(n, m);
  b->prev.resize(m + 1);
  b->cur.resize(m + 1);
  b->best.resize(m + 1);
  std::uint32_t* prev = b->prev.data();
  std::uint32_t* cur = b->cur.data();
  std::uint32_t* best = b->best.data();
  const auto* tu = reinterpret_cast<const unsigned char*>(t);
  for (std::int64_t j = 0; j <= m; ++j) prev[j] = static_cast<std::uint32_t>(j);
  for (std::int64_t i = 1; i <= n; ++i) {
    const unsigned char qi = static_cast<unsigned char>(q[i - 1]);
    for (std::int64_t j = 1; j <= m; ++j) {  // diagonal and up: independent across j
      const std::uint32_t sub = prev[j - 1] + (qi != tu[j - 1] ? 1u : 0u);
      best[j] = std::min(sub, prev[j] + 1u);
    }
    cur[0] = static_cast<std::uint32_t>(i);
    for (std::int64_t j = 1; j <= m; ++j) cur[j] = std::min(best[j], cur[j - 1] + 1u);
    std::swap(prev, cur);
  }
  return prev[m];
}

// Codes in row-major order, 4 per byte.
struct RowMajorDirs {
  const std::uint8_t* codes;
  std::int64_t m;
  unsigned operator()(std::int64_t i, std::int64_t j) const {
    const std::uint64_t k = static_cast<std::uint64_t>(i - 1) * m + (j - 1);
    return (codes[k >> 2] >> (2 * (k & 3))) & 3u;
  }
};

std::int64_t distance_and_cigar(const char* q, std::int64_t n, const char* t, std::int64_t m, RowBuffers* b,
                                std::string* cigar) {
  std::int64_t distance = std::max(n, m);
  b->dirs.clear();
  if (n > 0 && m > 0) {
    b->prev.resize(m + 1);
    b->cur.resize(m + 1);
    b->dirs.assign((static_cast<std::uint64_t>(n) * m + 3) / 4, 0);
    std::uint32_t* prev = b->prev.data();
    std::uint32_t* cur = b->cur.data();
    for (std::int64_t j = 0; j <= m; ++j) prev[j] = static_cast<std::uint32_t>(j);
    std::uint64_t k = 0;
    for (std::int64_t i = 1; i <= n; ++i) {
      cur[0] = static_cast<std::uint32_t>(i);
      for (std::int64_t j = 1; j <= m; ++j, ++k) {
        unsigned code = 0;
        cur[j] = align::edit_trace_step<ops::Dpx>(prev[j - 1], prev[j], cur[j - 1],
                                                  letter(q, i - 1) ^ letter(t, j - 1), &code);
        b->dirs[k >> 2] |= static_cast<std::uint8_t>(code << (2 * (k & 3)));
      }
      std::swap(prev, cur);
    }
    distance = prev[m];
  }
  b->ops.resize(n + m);
  const std::int64_t count = align::edit_traceback(q, n, t, m, RowMajorDirs{b->dirs.data(), m}, b->ops.data());
  *cigar = align::cigar_from_reversed_ops(b->ops.data(), count);
  return distance;
}

// Workers for the CIGAR path: each holds n*m/4 bytes of codes, so the count is capped to keep the
// total near 2 GiB.
int cigar_workers(int workers, std::size_t longest_query, std::size_t longest_target) {
  const std::uint64_t per_worker = static_cast<std::uint64_t>(longest_query) * longest_target / 4 + 1;
  const std::uint64_t budget = std::uint64_t{2} << 30;
  return static_cast<int>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(workers, budget / per_worker)));
}

}  // namespace

Status edit_distance_cpu(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                         const EditOptions& options, std::vector<EditResult>* out, int threads) {
  DPX_RETURN_IF_ERROR(align::check_edit_inputs(queries, targets, pairing, out, "edit_distance_cpu"));
  const std::size_t pairs = pair_count(queries.size(), targets.size(), pairing);
  std::vector<EditResult> results(pairs);
  int workers = runtime::worker_count(threads, pairs);
  if (options.cigar) workers = cigar_workers(workers, queries.max_length(), targets.max_length());
  DPX_RETURN_IF_ERROR(runtime::for_each_item<RowBuffers>(pairs, workers, [&](RowBuffers& b, std::size_t p) {
    const std::string_view q = queries.view(pairing == Pairing::kOneToMany ? 0 : p);
    const std::string_view t = targets.view(p);
    const auto n = static_cast<std::int64_t>(q.size()), m = static_cast<std::int64_t>(t.size());
    EditResult& r = results[p];
    r.distance = options.cigar ? distance_and_cigar(q.data(), n, t.data(), m, &b, &r.cigar)
                               : distance_only(q.data(), n, t.data(), m, &b);
    return Status::ok();
  }));
  *out = std::move(results);
  return Status::ok();
}

}  // namespace dpx
