#include "align_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <limits>

namespace dpx {
namespace test {
namespace {

std::int64_t gap(std::int64_t len, const AlignOptions& o) { return len == 0 ? 0 : o.gap_open + (len - 1) * o.gap_extend; }

// Best global score of q against t over every operation string, scoring maximal gap runs.
// `last` is the previous operation ('M', 'I', 'D' or 0), `run` the length of the current gap run.
std::int64_t enumerate(const std::string& q, std::size_t i, const std::string& t, std::size_t j, char last,
                       const ScoreMatrix& m, const AlignOptions& o) {
  if (i == q.size() && j == t.size()) return 0;
  std::int64_t best = std::numeric_limits<std::int64_t>::min() / 4;
  if (i < q.size() && j < t.size()) best = std::max(best, m.score(q[i], t[j]) + enumerate(q, i + 1, t, j + 1, 'M', m, o));
  if (i < q.size()) best = std::max(best, -(last == 'I' ? o.gap_extend : o.gap_open) + enumerate(q, i + 1, t, j, 'I', m, o));
  if (j < t.size()) best = std::max(best, -(last == 'D' ? o.gap_extend : o.gap_open) + enumerate(q, i, t, j + 1, 'D', m, o));
  return best;
}

}  // namespace

std::int64_t brute_force_score(const std::string& q, const std::string& t, const ScoreMatrix& m, const AlignOptions& o) {
  if (o.mode == AlignMode::kGlobal) return enumerate(q, 0, t, 0, 0, m, o);
  std::int64_t best = std::numeric_limits<std::int64_t>::min();
  for (std::size_t tb = 0; tb <= t.size(); ++tb)
    for (std::size_t te = tb; te <= t.size(); ++te) {
      const std::string ts = t.substr(tb, te - tb);
      if (o.mode == AlignMode::kSemiGlobal) {
        best = std::max(best, enumerate(q, 0, ts, 0, 0, m, o));
        continue;
      }
      for (std::size_t qb = 0; qb <= q.size(); ++qb)
        for (std::size_t qe = qb; qe <= q.size(); ++qe) best = std::max(best, enumerate(q.substr(qb, qe - qb), 0, ts, 0, 0, m, o));
    }
  return best;
}

ReferenceEnds reference_score(const std::string& q, const std::string& t, const ScoreMatrix& m, const AlignOptions& o) {
  const std::size_t n = q.size(), w = t.size();
  const std::int64_t kNeg = std::numeric_limits<std::int64_t>::min() / 4;
  std::vector<std::vector<std::int64_t>> H(n + 1, std::vector<std::int64_t>(w + 1)), E = H, F = H;
  const bool local = o.mode == AlignMode::kLocal;
  for (std::size_t i = 0; i <= n; ++i)
    for (std::size_t j = 0; j <= w; ++j) {
      E[i][j] = F[i][j] = kNeg;
      if (i == 0 && j == 0) H[i][j] = 0;
      else if (i == 0) H[i][j] = o.mode == AlignMode::kGlobal ? -gap(j, o) : 0;
      else if (j == 0) H[i][j] = local ? 0 : -gap(i, o);
      else {
        E[i][j] = std::max(E[i][j - 1] - o.gap_extend, H[i][j - 1] - o.gap_open);
        F[i][j] = std::max(F[i - 1][j] - o.gap_extend, H[i - 1][j] - o.gap_open);
        H[i][j] = std::max({H[i - 1][j - 1] + m.score(q[i - 1], t[j - 1]), E[i][j], F[i][j]});
        if (local) H[i][j] = std::max<std::int64_t>(H[i][j], 0);
      }
    }
  ReferenceEnds r{0, 0, 0};
  if (o.mode == AlignMode::kGlobal) return ReferenceEnds{H[n][w], static_cast<std::int32_t>(n), static_cast<std::int32_t>(w)};
  if (o.mode == AlignMode::kSemiGlobal) {
    r = ReferenceEnds{H[n][0], static_cast<std::int32_t>(n), 0};
    for (std::size_t j = 1; j <= w; ++j)
      if (H[n][j] > r.score) r = ReferenceEnds{H[n][j], static_cast<std::int32_t>(n), static_cast<std::int32_t>(j)};
    return r;
  }
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= w; ++j)
      if (H[i][j] > r.score) r = ReferenceEnds{H[i][j], static_cast<std::int32_t>(i), static_cast<std::int32_t>(j)};
  return r;
}

std::string random_sequence(std::mt19937_64& rng, std::size_t length, const std::string& letters) {
  std::uniform_int_distribution<std::size_t> pick(0, letters.size() - 1);
  std::uniform_int_distribution<int> odd(0, 99);
  std::string s(length, 'A');
  for (char& c : s) {
    c = letters[pick(rng)];
    const int r = odd(rng);
    if (r < 5) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (r == 5) c = "JOU#?1"[pick(rng) % 6];  // outside the alphabets: the wildcard
  }
  return s;
}

ScoreMatrix random_matrix(std::mt19937_64& rng, const std::string& letters, int lo, int hi) {
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int> s(letters.size() * letters.size());
  for (int& v : s) v = d(rng);
  ScoreMatrix m;
  const Status st = ScoreMatrix::from_scores(letters, s, letters.back(), "random", &m);
  if (!st.is_ok()) ADD_FAILURE() << st.message();
  return m;
}

ScoreMatrix builtin_matrix(const char* name) {
  ScoreMatrix m;
  const Status s = ScoreMatrix::builtin(name, &m);
  if (!s.is_ok()) ADD_FAILURE() << s.message();
  return m;
}

AlignOptions align_options(AlignMode mode, int open, int extend, bool traceback) {
  AlignOptions o;
  o.mode = mode;
  o.gap_open = open;
  o.gap_extend = extend;
  o.traceback = traceback;
  return o;
}

QueryTarget equal_best_scores_across_passes() {
  QueryTarget p{std::string(600, 'G'), std::string(1100, 'P')};
  p.query.replace(97, 3, "CCA");
  p.query.replace(498, 2, "WW");
  p.target.replace(0, 2, "WW");
  p.target.replace(1024, 3, "CCA");
  return p;
}

std::string describe(const AlignResult& r) {
  return "score=" + std::to_string(r.score) + " q=[" + std::to_string(r.query_begin) + "," + std::to_string(r.query_end) +
         ") t=[" + std::to_string(r.target_begin) + "," + std::to_string(r.target_end) + ") cigar=" + r.cigar;
}

std::string check_against_reference(const AlignResult& r, const std::string& q, const std::string& t,
                                    const ScoreMatrix& m, const AlignOptions& o) {
  const ReferenceEnds ref = reference_score(q, t, m, o);
  const std::string got = describe(r);
  if (r.score != ref.score) return "score: got " + got + ", reference " + std::to_string(ref.score);
  const bool empty_local = o.mode == AlignMode::kLocal && ref.score == 0;
  const std::int32_t want_qe = empty_local ? 0 : ref.query_end, want_te = empty_local ? 0 : ref.target_end;
  if (r.query_end != want_qe || r.target_end != want_te) {
    return "ends: got " + got + ", reference q_end " + std::to_string(want_qe) + " t_end " + std::to_string(want_te);
  }
  if (!o.traceback) return "";
  if (r.query_begin < 0 || r.target_begin < 0 || r.query_begin > r.query_end || r.target_begin > r.target_end) {
    return "begins: " + got;
  }
  if (o.mode != AlignMode::kLocal && r.query_begin != 0) return "query begin of a global/semi-global alignment: " + got;
  if (o.mode == AlignMode::kGlobal && r.target_begin != 0) return "target begin of a global alignment: " + got;
  std::int64_t rescored = 0;
  const Status st = rescore_cigar(r.cigar, q, t, r.query_begin, r.target_begin, m, o, &rescored);
  if (!st.is_ok()) return "CIGAR: " + st.message() + " (" + got + ")";
  if (rescored != r.score) return "CIGAR re-scores to " + std::to_string(rescored) + ": " + got;
  // The CIGAR must consume exactly the reported spans.
  std::int64_t qlen = 0, tlen = 0, num = 0;
  for (char c : r.cigar) {
    if (c >= '0' && c <= '9') { num = num * 10 + (c - '0'); continue; }
    if (c != 'D') qlen += num;
    if (c != 'I') tlen += num;
    num = 0;
  }
  if (qlen != r.query_end - r.query_begin || tlen != r.target_end - r.target_begin) return "CIGAR span differs from the positions: " + got;
  return "";
}

}  // namespace test
}  // namespace dpx
