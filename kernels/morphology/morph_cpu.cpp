// CPU morphology: row bands on the worker pool; per band, each source row is reduced horizontally
// once (the rows of every mask are centred runs of width 1 or size, see morph_geometry.h), then
// each output row is the vertical reduction of up to `size` such rows. Rectangles are thus
// separable (size + size operations per sample, not size * size). Every reduction is one pass
// of element-wise max/min over up to five contiguous inputs, which the compiler vectorises; the
// border rule only touches the first and last `r` pixels of a row, through a small padded
// segment. Channels are independent because a neighbour is always `channels` samples away.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include "dpx/morphology.h"
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
    for (int k = 1; k < N; ++k) v = Op::apply(v, p[k][i]);
    out[i] = v;
  }
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
  MorphShape shape;
  int size;
  BorderMode border;
};

// The work of one band of output rows, with its own row buffers (allocated on construction, in
// the calling thread, so an allocation failure never happens inside a worker).
template <typename T, typename Op>
class BandPass {
 public:
  BandPass(int width, int channels, int size)
      : r_(size / 2),
        n_(static_cast<std::size_t>(width) * channels),
        segment_(static_cast<std::size_t>(width + 2 * r_) * channels),
        ring_(static_cast<std::size_t>(2 * r_ + 1) * n_),
        ring_row_(2 * r_ + 1) {}

  void run(const PassArgs& a, int y0, int y1) {
    a_ = &a;
    std::fill(ring_row_.begin(), ring_row_.end(), -1);
    for (int y = y0; y < y1; ++y) {
      const T* in[5];
      int count = 0;
      for (int dy = -r_; dy <= r_; ++dy) {
        const int sy = source_row(y + dy);
        if (sy < 0) continue;  // neutral border: an outside row never wins
        in[count++] = morph::row_half_width(a.shape, a.size, dy) == 0 ? src_row(sy) : reduced_row(sy);
      }
      reduce<T, Op>(reinterpret_cast<T*>(a.dst + static_cast<std::size_t>(y) * a.dst_pitch), in, count, n_);
    }
  }

 private:
  // The source row a virtual row index reads, or -1 for an outside row under kNeutral.
  int source_row(int v) const {
    if (a_->border == BorderMode::kNeutral) return v >= 0 && v < a_->height ? v : -1;
    return morph::border_index(v, a_->height, a_->border);
  }

  const T* src_row(int sy) const {
    return reinterpret_cast<const T*>(a_->src + static_cast<std::size_t>(sy) * a_->src_pitch);
  }

  // Source row sy reduced horizontally over the full run (half-width r), cached in a ring of
  // 2r + 1 rows keyed by the row index: the rows one output row needs never share a slot, and
  // as the band walks down each row is reduced once.
  const T* reduced_row(int sy) {
    const int slot = sy % (2 * r_ + 1);
    T* out = ring_.data() + static_cast<std::size_t>(slot) * n_;
    if (ring_row_[slot] != sy) {
      reduce_row_horizontally(src_row(sy), out);
      ring_row_[slot] = sy;
    }
    return out;
  }

  // Interior pixels straight from the row; the r pixels at each end (or a whole row narrower
  // than the window) through a padded segment built with the border rule.
  void reduce_row_horizontally(const T* row, T* out) {
    const int c = a_->channels, w = a_->width;
    const std::size_t edge = static_cast<std::size_t>(r_) * c;
    if (w <= 2 * r_) {
      pad_segment(row, -r_, w + 2 * r_);
      window<T, Op>(out, segment_.data() + edge, r_, c, n_);
      return;
    }
    window<T, Op>(out + edge, row + edge, r_, c, n_ - 2 * edge);
    pad_segment(row, -r_, 3 * r_);
    window<T, Op>(out, segment_.data() + edge, r_, c, edge);
    pad_segment(row, w - 2 * r_, 3 * r_);
    window<T, Op>(out + n_ - edge, segment_.data() + edge, r_, c, edge);
  }

  // segment_ = pixels first .. first + count - 1 of the row, outside ones by the border rule.
  void pad_segment(const T* row, int first, int count) {
    const int c = a_->channels, w = a_->width;
    const BorderMode border = a_->border;
    for (int k = 0; k < count; ++k) {
      const int px = first + k;
      const bool inside = px >= 0 && px < w;
      const int from = inside || border == BorderMode::kNeutral ? px : morph::border_index(px, w, border);
      for (int ch = 0; ch < c; ++ch) {
        segment_[static_cast<std::size_t>(k) * c + ch] =
            inside || border != BorderMode::kNeutral ? row[static_cast<std::size_t>(from) * c + ch] : Op::kNeutral;
      }
    }
  }

  const PassArgs* a_ = nullptr;
  const int r_;
  const std::size_t n_;  // samples per row
  std::vector<T> segment_;
  std::vector<T> ring_;
  std::vector<int> ring_row_;  // which source row each ring slot holds, -1 for none
};

int band_count(const PlaneView& src, int threads) {
  // Below ~64K samples per band, starting a thread costs more than it saves.
  constexpr std::size_t kMinSamplesPerBand = 1 << 16;
  const std::size_t samples = static_cast<std::size_t>(src.width) * src.channels * src.height;
  const std::size_t most = std::max<std::size_t>(1, samples / kMinSamplesPerBand);
  return runtime::worker_count(threads, std::min(most, static_cast<std::size_t>(src.height)));
}

// All iterations of one operation. Rows are split into bands, one per worker. Iterations
// ping-pong between dst and one temporary plane, ordered so that the last one lands in dst.
template <typename T, typename Op>
Status run_morph(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params, int threads) {
  const int bands = band_count(src, threads);
  std::vector<BandPass<T, Op>> passes;
  passes.reserve(bands);
  for (int b = 0; b < bands; ++b) passes.emplace_back(src.width, src.channels, params.size);
  const std::size_t tmp_pitch = src.row_bytes();
  std::vector<std::uint8_t> tmp(params.iterations > 1 ? tmp_pitch * src.height : 0);

  const std::uint8_t* in = static_cast<const std::uint8_t*>(src.data);
  std::size_t in_pitch = src.pitch;
  for (int it = 1; it <= params.iterations; ++it) {
    const bool to_dst = (params.iterations - it) % 2 == 0;
    std::uint8_t* out = to_dst ? static_cast<std::uint8_t*>(dst.data) : tmp.data();
    const std::size_t out_pitch = to_dst ? dst.pitch : tmp_pitch;
    const PassArgs args{in,         in_pitch,     out,          out_pitch,   src.width,
                        src.height, src.channels, params.shape, params.size, params.border};
    DPX_RETURN_IF_ERROR(runtime::run_workers(bands, [&](const runtime::Worker& w) {
      const auto row = [&](int b) { return static_cast<int>(static_cast<long long>(src.height) * b / bands); };
      passes[w.index].run(args, row(w.index), row(w.index + 1));
      return Status::ok();
    }));
    in = out;
    in_pitch = out_pitch;
  }
  return Status::ok();
}

}  // namespace

Status morph_cpu(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params,
                 int threads) {
  DPX_RETURN_IF_ERROR(morph_validate(src, dst, params));
  if (threads < 0) {
    return invalid_argument("morphology: threads " + std::to_string(threads) + " (0 = all, or >= 1)");
  }
  try {
    const bool dilate = params.op == MorphOp::kDilate;
    if (src.type == SampleType::kU8) {
      return dilate ? run_morph<std::uint8_t, MaxOp<std::uint8_t>>(src, dst, params, threads)
                    : run_morph<std::uint8_t, MinOp<std::uint8_t>>(src, dst, params, threads);
    }
    return dilate ? run_morph<std::uint16_t, MaxOp<std::uint16_t>>(src, dst, params, threads)
                  : run_morph<std::uint16_t, MinOp<std::uint16_t>>(src, dst, params, threads);
  } catch (const std::bad_alloc&) {
    return Status(StatusCode::kOutOfMemory, "morphology: host allocation failed (row buffers)");
  }
}

}  // namespace dpx
