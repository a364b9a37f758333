#include "search_report.h"

namespace dpx {
namespace cli {
namespace {

// Pairs per alignment call: enough to fill a GPU, few enough to keep traceback memory small.
constexpr std::size_t kPairsPerCall = 4096;

}  // namespace

Status write_hits(const NamedSequences& queries, const NamedSequences& db, const std::vector<std::vector<Hit>>& best,
                  const PairAligner& align, HitWriter* out, const std::atomic<bool>* stop) {
  std::size_t first = 0;
  while (first < best.size()) {
    SequenceBatch q, t;
    std::size_t last = first;
    while (last < best.size() && (last == first || q.size() + best[last].size() <= kPairsPerCall)) {
      for (const Hit& h : best[last]) {
        q.add(queries.letters.view(last));
        t.add(db.letters.view(db.order.stored(h.target)));
      }
      ++last;
    }
    std::vector<AlignResult> aligned;
    if (!q.empty()) DPX_RETURN_IF_ERROR(align(q, t, &aligned));
    std::size_t k = 0;
    for (std::size_t i = first; i < last; ++i) {
      for (const Hit& h : best[i]) {
        if (stop != nullptr && stop->load()) return Status::ok();
        const AlignResult& a = aligned[k++];
        const std::string& name = db.names[db.order.stored(h.target)];
        if (a.score != h.score) {
          return Status(StatusCode::kInternal, "query '" + queries.names[i] + "' against '" + name +
                                                   "' scored " + std::to_string(h.score) + " but aligned with " +
                                                   std::to_string(a.score));
        }
        out->hit(queries.names[i], queries.letters.length(i), name, a);
      }
      if (!out->ok()) return Status(StatusCode::kInvalidArgument, "cannot write the output");
    }
    first = last;
  }
  return Status::ok();
}

}  // namespace cli
}  // namespace dpx
