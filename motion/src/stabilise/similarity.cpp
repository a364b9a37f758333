// Composing and inverting similarities about the frame centre.
#include <cmath>

#include "dpx/stabilise.h"

namespace dpx {

Similarity compose(const Similarity& a, const Similarity& b) {
  // a(b(p)) = sa Ra (sb Rb (p - c) + tb) + c + ta
  Similarity r;
  r.scale = a.scale * b.scale;
  r.angle = a.angle + b.angle;
  const double c = std::cos(a.angle) * a.scale, s = std::sin(a.angle) * a.scale;
  r.tx = c * b.tx - s * b.ty + a.tx;
  r.ty = s * b.tx + c * b.ty + a.ty;
  return r;
}

Similarity inverse(const Similarity& a) {
  Similarity r;
  r.scale = 1.0 / a.scale;
  r.angle = -a.angle;
  const double c = std::cos(r.angle) * r.scale, s = std::sin(r.angle) * r.scale;
  r.tx = -(c * a.tx - s * a.ty);
  r.ty = -(s * a.tx + c * a.ty);
  return r;
}

}  // namespace dpx
