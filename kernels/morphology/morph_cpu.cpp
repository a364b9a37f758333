// CPU morphology: row bands on the worker pool. The element is a union of centred rectangles
// (morph_bars.h); per rectangle and band, each input row is reduced horizontally once, then each
// output row is the vertical reduction of those rows and merged into dst. Small windows (up to 5)
// reduce their inputs directly, in passes of element-wise max/min over contiguous rows that the
// compiler vectorises, with the border rule touching only the first and last `r` pixels of a row
// through a small padded segment; wider windows run along a row by doubling (log2 of the size in
// vector passes) and down the rows by van Herk/Gil-Werman (three row passes whatever the size).
// Channels are independent because a neighbour is always `channels` samples away. Compound operations are
// sequences of these passes (morph_compound.h).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include "dpx/morphology.h"
#include "morph_bars.h"
#include "morph_compound.h"
#include "morph_geometry.h"
#include "worker_pool.h"

namespace dpx {
namespace {

template <typename T>
struct MaxOp {
  static constexpr T kNeutral = 0;  // never wins a maximum
  static T apply(T a, T b) { return a > b ? a : b; }
};

template <typename T>
struct MinOp {
  static constexpr T kNeutral = std::numeric_limits<T>::max();  // never wins a minimum
  static T apply(T a, T b) { return a < b ? a : b; }
};

// out[i] = op(in[0][i], ..., in[N-1][i]) for n samples: the one loop everything reduces to.
template <typename T, typename Op, int N>
void reduce_fixed(T* __restrict out, const T* const* in, std::size_t n) {
  const T* p[N];
  for (int k = 0; k < N; ++k) p[k] = in[k];
  for (std::size_t i = 0; i < n; ++i) {
    T v = p[0][i];
    // unrolled at any optimisation level: a loop left inside keeps the outer one from vectorising
#pragma GCC unroll 8
    for (int k = 1; k < N; ++k) v = Op::apply(v, p[k][i]);
    out[i] = v;
  }
}

// dst[i] = op(dst[i], src[i]). Its own function so that n and the pointers are values: a loop
// storing bytes through a member's pointer must reload the members (a byte store may alias them)
// and does not vectorise.
template <typename T, typename Op>
void merge_into(T* __restrict dst, const T* __restrict src, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) dst[i] = Op::apply(dst[i], src[i]);
}

// The same for 1 to 5 inputs (a 5x5 window at most).
template <typename T, typename Op>
void reduce(T* out, const T* const* in, int count, std::size_t n) {
  switch (count) {
    case 1: std::memcpy(out, in[0], n * sizeof(T)); break;
    case 2: reduce_fixed<T, Op, 2>(out, in, n); break;
    case 3: reduce_fixed<T, Op, 3>(out, in, n); break;
    case 4: reduce_fixed<T, Op, 4>(out, in, n); break;
    default: reduce_fixed<T, Op, 5>(out, in, n); break;
  }
}

// out[i] = op over the 2r + 1 samples row[i - r*c], row[i - (r-1)*c], ..., row[i + r*c].
template <typename T, typename Op>
void window(T* out, const T* row, int r, int c, std::size_t n) {
  const T* in[5];
  for (int k = 0; k <= 2 * r; ++k) in[k] = row + static_cast<std::ptrdiff_t>(k - r) * c;
  reduce<T, Op>(out, in, 2 * r + 1, n);
}

// One pass (one iteration) over the whole plane.
struct PassArgs {
  const std::uint8_t* src;
  std::size_t src_pitch;
  std::uint8_t* dst;
  std::size_t dst_pitch;
  int width, height, channels;
  const std::vector<morph::Bar>* bars;
  BorderMode border;
};

// The work of one band of output rows, with its own row buffers. Per bar of the element: the
// band's input rows (and the bar's halo rows) reduced horizontally, then each output row reduced
// vertically from them and merged into dst. A bar one row high goes straight from its input row
// to dst, and one a pixel wide with a short column reads the source rows themselves.
template <typename T, typename Op>
class BandPass {
 public:
  // Sizes the row buffers for a plane; they only grow, so a thread's pass reused for the next
  // frame allocates (and zeroes, and faults in) nothing.
  void prepare(int width, int channels, int max_rows, const std::vector<morph::Bar>& bars) {
    n_ = static_cast<std::size_t>(width) * channels;
    int hw = 0, hh = 0;
    for (const morph::Bar& b : bars) {
      hw = std::max(hw, b.half_width);
      hh = std::max(hh, b.half_height);
    }
    const std::size_t padded = static_cast<std::size_t>(width + 2 * hw) * channels;
    grow(&segment_, padded);
    if (hw > kDirectRadius) {
      grow(&doubled_[0], padded);
      grow(&doubled_[1], padded);
    }
    const std::size_t rows = static_cast<std::size_t>(max_rows) + 2 * hh;
    grow(&hrows_, rows * n_);
    grow(&inputs_, rows);
    neutral_.assign(n_, Op::kNeutral);
    if (hh > kDirectRadius) grow(&vprefix_, rows * n_);
    if (bars.size() > 1) grow(&acc_, n_);
  }

  void run(const PassArgs& a, int y0, int y1) {
    a_ = &a;
    for (std::size_t i = 0; i < a.bars->size(); ++i) {
      const morph::Bar& bar = (*a.bars)[i];
      const int d = bar.half_height, r = bar.half_width;
      const bool merge = i > 0;
      if (d == 0) {
        for (int y = y0; y < y1; ++y) {
          reduce_row_horizontally(y, r, merge ? acc_.data() : dst_row(y));
          if (merge) merge_into<T, Op>(dst_row(y), acc_.data(), n_);
        }
        continue;
      }
      // van Herk's columns rewrite their rows, so only direct windows may read the source's
      const bool source_rows = r == 0 && d <= kDirectRadius;
      for (int v = y0 - d; v < y1 + d; ++v) {
        const int j = v - (y0 - d);
        if (source_rows) {
          const int sy = source_row(v);
          inputs_[j] = sy < 0 ? neutral_.data() : src_row(sy);
        } else {
          reduce_row_horizontally(v, r, hrow(j));
          inputs_[j] = hrow(j);
        }
      }
      reduce_vertically(y0, y1, d, merge);
    }
  }

 private:
  // Windows up to this radius reduce their inputs directly (at most 5 per sample); wider ones
  // run by doubling along a row (running_window) and van Herk/Gil-Werman down the rows
  // (reduce_vertically).
  static constexpr int kDirectRadius = 2;

  template <class V>
  static void grow(std::vector<V>* v, std::size_t n) {
    if (v->size() < n) v->resize(n);
  }

  T* hrow(int j) { return hrows_.data() + static_cast<std::size_t>(j) * n_; }
  T* dst_row(int y) const { return reinterpret_cast<T*>(a_->dst + static_cast<std::size_t>(y) * a_->dst_pitch); }

  // The source row a virtual row index reads, or -1 for an outside row under kNeutral.
  int source_row(int v) const {
    if (a_->border == BorderMode::kNeutral) return v >= 0 && v < a_->height ? v : -1;
    return morph::border_index(v, a_->height, a_->border);
  }

  const T* src_row(int sy) const {
    return reinterpret_cast<const T*>(a_->src + static_cast<std::size_t>(sy) * a_->src_pitch);
  }

  // Virtual row v reduced over the run of half-width r. Interior pixels of narrow runs straight
  // from the row, the r pixels at each end (or a whole row narrower than the window) through a
  // padded segment built with the border rule; wide runs through the padded row.
  void reduce_row_horizontally(int v, int r, T* out) {
    const int sy = source_row(v);
    if (sy < 0) {
      std::fill(out, out + n_, Op::kNeutral);  // an outside row never wins
      return;
    }
    const T* row = src_row(sy);
    const int c = a_->channels, w = a_->width;
    const std::size_t edge = static_cast<std::size_t>(r) * c;
    if (r == 0) {
      std::memcpy(out, row, n_ * sizeof(T));
    } else if (r > kDirectRadius) {
      pad_segment(row, -r, w + 2 * r);
      running_window(segment_.data(), out, r, c, w);
    } else if (w <= 2 * r) {
      pad_segment(row, -r, w + 2 * r);
      window<T, Op>(out, segment_.data() + edge, r, c, n_);
    } else {
      window<T, Op>(out + edge, row + edge, r, c, n_ - 2 * edge);
      pad_segment(row, -r, 3 * r);
      window<T, Op>(out, segment_.data() + edge, r, c, edge);
      pad_segment(row, w - 2 * r, 3 * r);
      window<T, Op>(out + n_ - edge, segment_.data() + edge, r, c, edge);
    }
  }

  // segment_ = pixels first .. first + count - 1 of the row, outside ones by the border rule:
  // those inside in one copy, the border rule only for the (at most 2r) outside.
  void pad_segment(const T* row, int first, int count) {
    const int c = a_->channels, w = a_->width, end = first + count;
    const int inside_begin = std::max(first, 0), inside_end = std::min(end, w);
    if (inside_end > inside_begin)
      std::memcpy(&segment_[static_cast<std::size_t>(inside_begin - first) * c],
                  row + static_cast<std::size_t>(inside_begin) * c,
                  static_cast<std::size_t>(inside_end - inside_begin) * c * sizeof(T));
    const auto outside = [&](int from_px, int to_px) {
      for (int px = from_px; px < to_px; ++px) {
        T* out = &segment_[static_cast<std::size_t>(px - first) * c];
        if (a_->border == BorderMode::kNeutral) {
          std::fill(out, out + c, Op::kNeutral);
        } else {
          const T* in = row + static_cast<std::size_t>(morph::border_index(px, w, a_->border)) * c;
          std::copy(in, in + c, out);
        }
      }
    };
    outside(first, std::min(end, 0));  // left of the row
    outside(std::max(first, w), end);  // right of it
  }

  // out[x] = op over padded pixels x .. x + 2r for the w pixels of a row (c channels): windows of
  // 2, 4, 8, ... pixels by doubling, each step one op over the row that the compiler vectorises,
  // then the window of k = 2r + 1 as two overlapping ones of the largest power of two <= k.
  // log2(k) + 1 vector passes beat van Herk's two scalar recurrences along the row.
  void running_window(const T* pad, T* out, int r, int c, int w) {
    const std::size_t step = static_cast<std::size_t>(c), k = static_cast<std::size_t>(2 * r + 1);
    const std::size_t len = static_cast<std::size_t>(w + 2 * r) * step;
    T* buffers[2] = {doubled_[0].data(), doubled_[1].data()};
    const T* m = pad;  // m[i]: op over `p` pixels from sample i
    std::size_t p = 1;
    for (int b = 0; 2 * p <= k; b ^= 1, p *= 2) {
      const T* in[2] = {m, m + p * step};
      reduce<T, Op>(buffers[b], in, 2, len - (2 * p - 1) * step);
      m = buffers[b];
    }
    const T* in[2] = {m, m + (k - p) * step};
    reduce<T, Op>(out, in, 2, static_cast<std::size_t>(w) * step);
  }

  // Output rows y0 .. y1 - 1 from inputs_[0 ..] (hrow(0 ..) for van Herk's columns): row y takes
  // rows y - y0 .. y - y0 + 2d; merged into dst (op with what an earlier bar left there) when
  // `merge`.
  void reduce_vertically(int y0, int y1, int d, bool merge) {
    const int k = 2 * d + 1;
    if (d > kDirectRadius) {
      // Prefix maxima in blocks of k rows into vprefix_, suffix maxima in place in hrows_.
      const int m = y1 - y0 + 2 * d;
      for (int j = 0; j < m; ++j) {
        T* g = vprefix_.data() + static_cast<std::size_t>(j) * n_;
        if (j % k == 0) {
          std::memcpy(g, hrow(j), n_ * sizeof(T));
        } else {
          const T* in[2] = {g - n_, hrow(j)};
          reduce<T, Op>(g, in, 2, n_);
        }
      }
      for (int j = m - 2; j >= 0; --j) {
        if (j % k == k - 1) continue;
        merge_into<T, Op>(hrow(j), hrow(j + 1), n_);
      }
    }
    for (int y = y0; y < y1; ++y) {
      const int j = y - y0;
      const T* in[5];
      int count = 0;
      if (d > kDirectRadius) {
        in[count++] = hrow(j);
        in[count++] = vprefix_.data() + static_cast<std::size_t>(j + k - 1) * n_;
      } else {
        for (int t = 0; t < k; ++t) in[count++] = inputs_[j + t];
      }
      if (!merge) {
        reduce<T, Op>(dst_row(y), in, count, n_);
        continue;
      }
      reduce<T, Op>(acc_.data(), in, count, n_);
      merge_into<T, Op>(dst_row(y), acc_.data(), n_);
    }
  }

  const PassArgs* a_ = nullptr;
  std::size_t n_ = 0;                         // samples per row
  std::vector<T> segment_, doubled_[2];       // one padded row; its windows of 2^j pixels
  std::vector<T> hrows_, vprefix_;            // the band's rows and halo
  std::vector<const T*> inputs_;              // the vertical windows' rows: hrows_' or the source's
  std::vector<T> neutral_;                    // a row outside the plane under kNeutral
  std::vector<T> acc_;                        // one bar's output row before the merge
};

int band_count(const PlaneView& src, int threads) {
  // Below ~64K samples per band, waking another thread for it costs more than it saves.
  constexpr std::size_t kMinSamplesPerBand = 1 << 16;
  const std::size_t samples = static_cast<std::size_t>(src.width) * src.channels * src.height;
  const std::size_t most = std::max<std::size_t>(1, samples / kMinSamplesPerBand);
  return runtime::worker_count(threads, std::min(most, static_cast<std::size_t>(src.height)));
}

// The calling thread's pass, kept for its next call (a band's rows: a frame's worth over all
// threads); a thread runs one band at a time. Not inlined, so the thread-local address is looked
// up once a band, not at every use inside the pass's loops.
template <typename T, typename Op>
__attribute__((noinline)) BandPass<T, Op>& thread_band_pass() {
  thread_local BandPass<T, Op> pass;
  return pass;
}

// All iterations of one operation. Rows are split into bands, one per worker. Iterations
// ping-pong between dst and one temporary plane, ordered so that the last one lands in dst.
template <typename T, typename Op>
Status run_morph(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params, int threads) {
  const int bands = band_count(src, threads);
  const std::vector<morph::Bar> bars = morph::mask_bars(params.shape, morph_width(params), morph_height(params));
  const int max_rows = (src.height + bands - 1) / bands;
  const std::size_t tmp_pitch = src.row_bytes();
  std::vector<std::uint8_t> tmp(params.iterations > 1 ? tmp_pitch * src.height : 0);

  const std::uint8_t* in = static_cast<const std::uint8_t*>(src.data);
  std::size_t in_pitch = src.pitch;
  for (int it = 1; it <= params.iterations; ++it) {
    const bool to_dst = (params.iterations - it) % 2 == 0;
    std::uint8_t* out = to_dst ? static_cast<std::uint8_t*>(dst.data) : tmp.data();
    const std::size_t out_pitch = to_dst ? dst.pitch : tmp_pitch;
    const PassArgs args{in, in_pitch, out, out_pitch, src.width, src.height, src.channels, &bars, params.border};
    DPX_RETURN_IF_ERROR(runtime::run_workers(bands, [&](const runtime::Worker& w) {
      const auto row = [&](int b) { return static_cast<int>(static_cast<long long>(src.height) * b / bands); };
      BandPass<T, Op>& pass = thread_band_pass<T, Op>();
      pass.prepare(src.width, src.channels, max_rows, bars);
      pass.run(args, row(w.index), row(w.index + 1));
      return Status::ok();
    }));
    in = out;
    in_pitch = out_pitch;
  }
  return Status::ok();
}

// max(a - b, 0) sample by sample; `out` may be `a` or `b`.
template <typename T>
void subtract_rows(const PlaneView& a, const PlaneView& b, const MutablePlaneView& out) {
  const std::size_t n = static_cast<std::size_t>(a.width) * a.channels;
  for (int y = 0; y < a.height; ++y) {
    const T* pa = reinterpret_cast<const T*>(a.row(y));
    const T* pb = reinterpret_cast<const T*>(b.row(y));
    T* po = reinterpret_cast<T*>(out.row(y));
    for (std::size_t i = 0; i < n; ++i) po[i] = static_cast<T>(pa[i] > pb[i] ? pa[i] - pb[i] : 0);
  }
}

// The host side of run_operation() (morph_compound.h).
class CpuEngine {
 public:
  CpuEngine(const PlaneView& frame, const MorphParams& params, int threads)
      : frame_(frame), params_(params), threads_(threads) {}

  Status run(const PlaneView& in, const MutablePlaneView& out, bool dilate) {
    if (in.type == SampleType::kU8) {
      return dilate ? run_morph<std::uint8_t, MaxOp<std::uint8_t>>(in, out, params_, threads_)
                    : run_morph<std::uint8_t, MinOp<std::uint8_t>>(in, out, params_, threads_);
    }
    return dilate ? run_morph<std::uint16_t, MaxOp<std::uint16_t>>(in, out, params_, threads_)
                  : run_morph<std::uint16_t, MinOp<std::uint16_t>>(in, out, params_, threads_);
  }

  Status subtract(const PlaneView& a, const PlaneView& b, const MutablePlaneView& out) {
    a.type == SampleType::kU8 ? subtract_rows<std::uint8_t>(a, b, out) : subtract_rows<std::uint16_t>(a, b, out);
    return Status::ok();
  }

  MutablePlaneView stage() {
    stage_.resize(frame_.row_bytes() * frame_.height);
    return MutablePlaneView{stage_.data(), frame_.width, frame_.height, frame_.row_bytes(), frame_.channels,
                            frame_.type};
  }

 private:
  const PlaneView frame_;
  const MorphParams& params_;
  const int threads_;
  std::vector<std::uint8_t> stage_;
};

}  // namespace

Status morph_cpu(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params,
                 int threads) {
  DPX_RETURN_IF_ERROR(morph_validate(src, dst, params));
  if (threads < 0) {
    return invalid_argument("morphology: threads " + std::to_string(threads) + " (0 = all, or >= 1)");
  }
  try {
    CpuEngine engine(src, params, threads);
    return morph::run_operation(engine, src, dst, params.op);
  } catch (const std::bad_alloc&) {
    return Status(StatusCode::kOutOfMemory, "morphology: host allocation failed (row buffers)");
  }
}

}  // namespace dpx
