// The camera path and its smoothing: a Gaussian over the path's parameters in a
// window centred on each frame, narrowed equally on both sides at the ends of a
// segment so that a steady pan or zoom (a linear path) is its own average.
#include <algorithm>
#include <cmath>

#include "dpx/stabilise.h"

namespace dpx {

namespace {

// The window's Gaussian: sigma is half the half width, so the window spans two
// sigmas each side.
double gaussian_weight(int k, int smoothing) {
  const double sigma = std::max(0.5, smoothing / 2.0);
  return std::exp(-0.5 * (k * k) / (sigma * sigma));
}

double clamp_abs(double v, double limit) {
  return std::max(-limit, std::min(limit, v));
}

}  // namespace

void CameraPath::set_params(const PathParams& params) {
  params_ = params;
  params_.smoothing = std::max(0, params_.smoothing);
}

void CameraPath::reset() {
  frames_.clear();
  next_ = 0;
  segment_ = 0;
  finished_ = false;
}

void CameraPath::push(const Similarity& motion, bool cut) {
  Entry e{};
  const bool starts = cut || frames_.empty() || finished_;
  finished_ = false;
  if (starts) {
    ++segment_;
    e.frame.cut = true;
  } else {
    e.frame.motion = motion;
    e.frame.path = compose(frames_.back().frame.path, motion);
  }
  e.segment = segment_;
  const Similarity& c = e.frame.path;
  e.param[0] = c.tx;
  e.param[1] = c.ty;
  e.param[2] = c.angle;
  e.param[3] = std::log(c.scale);
  frames_.push_back(e);
}

void CameraPath::finish() {
  finished_ = true;
}

// Frame i's window is known once `smoothing` frames follow it, its segment has
// ended or the stream has.
bool CameraPath::window_known(std::size_t i) const {
  if (finished_) return true;
  const std::size_t after = frames_.size() - 1 - i;
  return after >= static_cast<std::size_t>(params_.smoothing) || frames_.back().segment != frames_[i].segment;
}

int CameraPath::half_width(std::size_t i) const {
  const long segment = frames_[i].segment;
  int before = 0, after = 0;
  while (before < params_.smoothing && i > static_cast<std::size_t>(before) &&
         frames_[i - before - 1].segment == segment)
    ++before;
  while (after < params_.smoothing && i + after + 1 < frames_.size() &&
         frames_[i + after + 1].segment == segment)
    ++after;
  return std::min(before, after);
}

bool CameraPath::ready() const {
  return next_ < frames_.size() && window_known(next_);
}

PathFrame CameraPath::pop() {
  const std::size_t i = next_;
  const int h = half_width(i);
  double sum[4] = {0, 0, 0, 0}, total = 0;
  for (int k = -h; k <= h; ++k) {
    const double w = gaussian_weight(k, params_.smoothing);
    for (int j = 0; j < 4; ++j) sum[j] += w * frames_[i + k].param[j];
    total += w;
  }
  PathFrame f = frames_[i].frame;
  f.smoothed.tx = sum[0] / total;
  f.smoothed.ty = sum[1] / total;
  f.smoothed.angle = sum[2] / total;
  f.smoothed.scale = std::exp(sum[3] / total);
  Similarity w = compose(inverse(f.path), f.smoothed);
  w.tx = clamp_abs(w.tx, params_.max_shift);
  w.ty = clamp_abs(w.ty, params_.max_shift);
  w.angle = clamp_abs(w.angle, params_.max_angle);
  f.correction = w;
  frames_[i].frame = f;
  ++next_;
  while (next_ > static_cast<std::size_t>(params_.smoothing)) {
    frames_.pop_front();
    --next_;
  }
  return f;
}

double required_zoom(const Similarity& correction, int width, int height) {
  const double hw = (width - 1) / 2.0, hh = (height - 1) / 2.0;
  const double c = std::cos(correction.angle) * correction.scale,
               s = std::sin(correction.angle) * correction.scale;
  double zoom = 1.0;
  // A corner d (about the centre) is read at R d / zoom + t, which must stay
  // within +-(hw, hh).
  auto need = [&](double a, double t, double half) {
    const double room = a > 0 ? half - t : half + t;
    if (room <= 0) return kMaxZoom;
    return std::abs(a) / room;
  };
  for (int sx = -1; sx <= 1; sx += 2)
    for (int sy = -1; sy <= 1; sy += 2) {
      const double dx = sx * hw, dy = sy * hh;
      zoom = std::max(zoom, need(c * dx - s * dy, correction.tx, hw));
      zoom = std::max(zoom, need(s * dx + c * dy, correction.ty, hh));
    }
  return std::min(zoom, kMaxZoom);
}

double BorderZoom::next(const Similarity& correction, int width, int height, double decay) {
  zoom_ = std::max(required_zoom(correction, width, height), std::max(1.0, zoom_ - decay));
  return zoom_;
}

}  // namespace dpx
