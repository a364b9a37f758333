// CPU alignment: a row sweep of the recurrence in sw_cell.h per pair, pairs spread over threads.
// The traceback keeps checkpoints (H and F of one row) every block of rows and recomputes one
// block's direction codes at a time, so its memory stays bounded for pairs of any length.
#include <algorithm>
#include <vector>

#include "sw_common.h"
#include "align/common/cigar.h"
#include "sw_cell.h"
#include "sw_walk.h"
#include "worker_pool.h"

namespace dpx {
namespace align {
namespace {

using L = Lanes32<ops::Plain>;

// Direction codes of at most this many cells are held at a time (one byte each).
constexpr std::size_t kBlockCells = std::size_t(32) << 20;

struct Problem {
  const std::uint8_t* q;  // encoded query, n letters
  const std::uint8_t* t;  // encoded target, m letters
  std::int32_t n, m;
  const std::int8_t* scores;
  int wildcard;
  AlignMode mode;
  std::int32_t open, extend;
  bool local() const { return mode == AlignMode::kLocal; }
  // The scores of query row i (1-based) against every letter.
  const std::int8_t* score_row(std::int32_t i) const { return scores + q[i - 1] * ScoreMatrix::kMaxLetters; }
};

struct Cell {
  std::int32_t score, i, j;
};

// Rows r0+1 .. r1 over columns 1 .. jmax. On entry h[0..jmax] = H[r0][*] and f[1..jmax] =
// F[r0+1][*]; on exit the same for r1. With kDirections the codes of row i go to
// codes[(i - r0 - 1) * jmax + j - 1]. Local: `best` follows the first maximal cell in row-major order.
template <bool kLocal, bool kDirections>
void sweep(const Problem& p, std::int32_t r0, std::int32_t r1, std::int32_t jmax, std::int32_t* h, std::int32_t* f,
           std::uint8_t* codes, Cell* best) {
  const GapCosts<L> g(p.open, p.extend);
  for (std::int32_t i = r0 + 1; i <= r1; ++i) {
    const std::int8_t* srow = p.score_row(i);
    std::int32_t diag = h[0];
    h[0] = left_boundary(kLocal, i, p.open, p.extend);
    std::int32_t e = L::addmax(g.neg_inf, g.neg_extend, L::addmax(h[0], g.neg_open, g.floor));
    std::uint8_t* crow = kDirections ? codes + static_cast<std::size_t>(i - r0 - 1) * jmax : nullptr;
    for (std::int32_t j = 1; j <= jmax; ++j) {
      const std::int32_t up = h[j], sub = srow[p.t[j - 1]];
      std::int32_t v;
      if (kDirections) {
        std::uint32_t code;
        v = cell_with_direction<ops::Plain, kLocal>(diag, sub, e, f[j], p.open, p.extend, &code);
        crow[j - 1] = static_cast<std::uint8_t>(code);
      } else {
        v = cell<L, kLocal>(diag, sub, e, f[j], g);
      }
      diag = up;
      h[j] = v;
      if (kLocal && v > best->score) *best = Cell{v, i, j};
    }
  }
}

template <bool kLocal>
void sweep_dispatch(bool directions, const Problem& p, std::int32_t r0, std::int32_t r1, std::int32_t jmax,
                    std::int32_t* h, std::int32_t* f, std::uint8_t* codes, Cell* best) {
  if (directions) sweep<kLocal, true>(p, r0, r1, jmax, h, f, codes, best);
  else sweep<kLocal, false>(p, r0, r1, jmax, h, f, codes, best);
}

// Per-thread memory, reused across pairs.
struct Scratch {
  std::vector<std::uint8_t> q, t, codes;
  std::vector<std::int32_t> h, f, checkpoints;
};

class PairAligner {
 public:
  PairAligner(const Problem& p, bool traceback, bool score_only, Scratch* s)
      : p_(p), traceback_(traceback), score_only_(score_only), s_(*s) {
    const std::size_t m = static_cast<std::size_t>(p.m);
    rows_per_block_ = static_cast<std::int32_t>(std::clamp<std::size_t>(kBlockCells / m, 1, static_cast<std::size_t>(p.n)));
    s_.h.resize(m + 1);
    s_.f.resize(m + 1);
  }

  AlignResult run() {
    const Cell end = forward();
    std::int32_t f[5];
    result_fields(p_.mode, score_only_, end.score, end.i, end.j, f);
    AlignResult r;
    r.score = f[0];
    r.query_begin = f[1];
    r.query_end = f[2];
    r.target_begin = f[3];
    r.target_end = f[4];
    if (traceback_ && !(p_.local() && end.score == 0)) {
      std::string ops;  // last to first
      Walk access{this, &ops};
      walk_back(p_.mode, p_.open, p_.extend, end.score, end.i, end.j, access, &r.query_begin, &r.target_begin);
      r.cigar = cigar_from_reversed_ops(ops.data(), ops.size());
    }
    return r;
  }

 private:
  void sweep_rows(std::int32_t r0, std::int32_t r1, std::int32_t jmax, bool directions, Cell* best) {
    if (p_.local()) sweep_dispatch<true>(directions, p_, r0, r1, jmax, s_.h.data(), s_.f.data(), s_.codes.data(), best);
    else sweep_dispatch<false>(directions, p_, r0, r1, jmax, s_.h.data(), s_.f.data(), s_.codes.data(), best);
  }

  // Scores the whole matrix; with a traceback also saves a checkpoint before each block and leaves
  // the last block's codes in s_.codes.
  Cell forward() {
    const std::int32_t m = p_.m, n = p_.n;
    const GapCosts<L> g(p_.open, p_.extend);
    const bool global = p_.mode == AlignMode::kGlobal;
    for (std::int32_t j = 0; j <= m; ++j) {
      s_.h[j] = top_boundary(global, j, p_.open, p_.extend);
      s_.f[j] = L::addmax(g.neg_inf, g.neg_extend, L::addmax(s_.h[j], g.neg_open, g.floor));
    }
    Cell best{0, 0, 0};
    const std::size_t row_words = static_cast<std::size_t>(m) + 1;
    if (traceback_) {
      const std::size_t blocks = static_cast<std::size_t>((n + rows_per_block_ - 1) / rows_per_block_);
      s_.checkpoints.resize(blocks * 2 * row_words);
      s_.codes.resize(static_cast<std::size_t>(rows_per_block_) * m);
    }
    for (std::int32_t r0 = 0; r0 < n; r0 += rows_per_block_) {
      const std::int32_t r1 = std::min(n, r0 + rows_per_block_);
      if (traceback_) {
        std::int32_t* cp = s_.checkpoints.data() + static_cast<std::size_t>(r0 / rows_per_block_) * 2 * row_words;
        std::copy(s_.h.begin(), s_.h.end(), cp);
        std::copy(s_.f.begin(), s_.f.end(), cp + row_words);
      }
      sweep_rows(r0, r1, m, traceback_, &best);
    }
    loaded_block_ = traceback_ ? (n - 1) / rows_per_block_ : -1;
    loaded_stride_ = m;
    if (p_.mode == AlignMode::kGlobal) return Cell{s_.h[m], n, m};
    if (p_.mode == AlignMode::kSemiGlobal) {
      Cell c{s_.h[0], n, 0};
      for (std::int32_t j = 1; j <= m; ++j)
        if (s_.h[j] > c.score) c = Cell{s_.h[j], n, j};
      return c;
    }
    return best;
  }

  // Direction code of cell (i, j), 1 <= i <= n, 1 <= j <= the column the walk has reached.
  std::uint32_t code(std::int32_t i, std::int32_t j) {
    const std::int32_t block = (i - 1) / rows_per_block_;
    if (block != loaded_block_) {  // the walk only moves up: recompute that block from its checkpoint
      const std::size_t row_words = static_cast<std::size_t>(p_.m) + 1;
      const std::int32_t* cp = s_.checkpoints.data() + static_cast<std::size_t>(block) * 2 * row_words;
      std::copy(cp, cp + j + 1, s_.h.begin());
      std::copy(cp + row_words, cp + row_words + j + 1, s_.f.begin());
      Cell unused{0, 0, 0};
      const std::int32_t r0 = block * rows_per_block_;
      sweep_rows(r0, std::min(p_.n, r0 + rows_per_block_), j, true, &unused);
      loaded_block_ = block;
      loaded_stride_ = j;
    }
    const std::size_t row = static_cast<std::size_t>(i - 1 - loaded_block_ * rows_per_block_);
    return s_.codes[row * loaded_stride_ + (j - 1)];
  }

  // What walk_back reads and writes.
  struct Walk {
    PairAligner* self;
    std::string* ops;
    std::uint32_t code(std::int32_t i, std::int32_t j) { return self->code(i, j); }
    bool same(std::int32_t i, std::int32_t j) const {
      return letters_match(self->p_.q[i - 1], self->p_.t[j - 1], self->p_.wildcard);
    }
    std::int32_t score(std::int32_t i, std::int32_t j) const {
      return self->p_.score_row(i)[self->p_.t[j - 1]];
    }
    void emit(char op, std::int32_t count) { ops->append(static_cast<std::size_t>(count), op); }
  };

  const Problem& p_;
  bool traceback_, score_only_;
  Scratch& s_;
  std::int32_t rows_per_block_ = 1;
  std::int32_t loaded_block_ = -1;
  std::int32_t loaded_stride_ = 0;
};

}  // namespace
}  // namespace align

Status align_cpu(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                 const ScoreMatrix& matrix, const AlignOptions& options, std::vector<AlignResult>* out,
                 int threads) {
  DPX_RETURN_IF_ERROR(align::validate_align_call(queries, targets, pairing, matrix, options, "align_cpu"));
  if (out == nullptr) return invalid_argument("align_cpu: out is null");
  const std::size_t pairs = pair_count(queries.size(), targets.size(), pairing);
  out->assign(pairs, AlignResult{});
  return runtime::for_each_item<align::Scratch>(pairs, threads, [&](align::Scratch& scratch, std::size_t k) {
    const std::size_t qi = pairing == Pairing::kOneToMany ? 0 : k;
    const std::string_view q = queries.view(qi), t = targets.view(k);
    if (q.empty() || t.empty()) {
      (*out)[k] = align::empty_side_result(static_cast<std::int32_t>(q.size()), static_cast<std::int32_t>(t.size()), options);
      return Status::ok();
    }
    scratch.q.resize(q.size());
    scratch.t.resize(t.size());
    for (std::size_t x = 0; x < q.size(); ++x) scratch.q[x] = matrix.encode(q[x]);
    for (std::size_t x = 0; x < t.size(); ++x) scratch.t[x] = matrix.encode(t[x]);
    const align::Problem p{scratch.q.data(), scratch.t.data(), static_cast<std::int32_t>(q.size()),
                           static_cast<std::int32_t>(t.size()), matrix.score_table(), matrix.wildcard(), options.mode,
                           options.gap_open, options.gap_extend};
    (*out)[k] = align::PairAligner(p, options.traceback, options.score_only, &scratch).run();
    return Status::ok();
  });
}

}  // namespace dpx
