// The robust similarity fit: RANSAC over pairs, then least squares on the
// inliers until they settle. Points are taken relative to the centre and
// written as complex numbers, so a similarity is q = z p + t (z = scale * e^(i
// angle)) and both fits have closed forms.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "dpx/stabilise.h"

namespace dpx {

namespace {

using Complex = std::complex<double>;

constexpr std::size_t kScoredPoints = 256;  // RANSAC scores its draws on this many points at most
constexpr int kMinDraws = 32;

struct Model {
  Complex z{1, 0}, t{0, 0};
  Complex apply(Complex p) const { return z * p + t; }
};

// A small, fully specified generator (splitmix64): the draws are the same on
// every platform.
struct Draws {
  std::uint64_t state;
  std::size_t below(std::size_t n) {
    std::uint64_t x = (state += 0x9E3779B97F4A7C15ull);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    return static_cast<std::size_t>(x % n);
  }
};

// Least squares over the marked points: z from the centred sums, t from the
// means.
bool least_squares(const std::vector<Complex>& p, const std::vector<Complex>& q, const std::vector<char>& use,
                   Model* m) {
  Complex mp{0, 0}, mq{0, 0};
  double n = 0;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (use[i]) {
      mp += p[i];
      mq += q[i];
      n += 1;
    }
  if (n < 2) return false;
  mp /= n;
  mq /= n;
  Complex num{0, 0};
  double den = 0;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (use[i]) {
      const Complex dp = p[i] - mp;
      num += (q[i] - mq) * std::conj(dp);
      den += std::norm(dp);
    }
  if (den <= 1e-9) return false;  // every point in one place: no rotation or scale to see
  m->z = num / den;
  m->t = mq - m->z * mp;
  return true;
}

// Marks the inliers of `m`; returns their count and the sum of their squared
// residuals.
int mark_inliers(const Model& m, const std::vector<Complex>& p, const std::vector<Complex>& q,
                 double threshold, std::vector<char>* use, double* sum_sq) {
  int count = 0;
  double s = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double r = std::norm(m.apply(p[i]) - q[i]);
    (*use)[i] = r <= threshold * threshold;
    if ((*use)[i]) {
      ++count;
      s += r;
    }
  }
  *sum_sq = s;
  return count;
}

}  // namespace

Status fit_similarity(const Correspondence* points, std::size_t count, double cx, double cy,
                      const FitParams& params, FitResult* result) {
  if (result == nullptr || (points == nullptr && count > 0))
    return invalid_argument("fit_similarity: null points or result");
  if (!(params.inlier_threshold > 0) || params.iterations < 1 || params.min_inliers < 2 ||
      !(params.min_inlier_fraction >= 0 && params.min_inlier_fraction <= 1))
    return invalid_argument(
        "fit_similarity: threshold > 0, iterations >= 1, "
        "min_inliers >= 2, fraction in [0, 1]");
  *result = FitResult();
  result->candidates = static_cast<int>(count);
  std::vector<Complex> p(count), q(count);
  for (std::size_t i = 0; i < count; ++i) {
    p[i] = Complex(points[i].x - cx, points[i].y - cy);
    q[i] = Complex(points[i].u - cx, points[i].v - cy);
  }
  if (count < 2) return Status::ok();

  // RANSAC: the model through two points that explains the most of a fixed sample of the points
  // (then the smallest error); the draws stop once another one would find a better model only
  // with probability below 1/1000, or at params.iterations.
  Draws draws{params.seed};
  const double threshold = params.inlier_threshold;
  const std::size_t stride = (count + kScoredPoints - 1) / kScoredPoints;
  std::vector<Complex> sp, sq_points;
  for (std::size_t i = 0; i < count; i += stride) {
    sp.push_back(p[i]);
    sq_points.push_back(q[i]);
  }
  std::vector<char> use(count, 0), sample_use(sp.size(), 0);
  Model best;
  int best_count = -1;
  double best_sq = 0;
  int needed = params.iterations;
  for (int it = 0; it < std::min(params.iterations, needed); ++it) {
    const std::size_t a = draws.below(count), b = draws.below(count);
    const Complex dp = p[a] - p[b];
    if (std::norm(dp) < 4 * threshold * threshold) continue;  // too close to tell a turn
    Model m;
    m.z = (q[a] - q[b]) / dp;
    m.t = q[a] - m.z * p[a];
    double sq = 0;
    const int n = mark_inliers(m, sp, sq_points, threshold, &sample_use, &sq);
    if (n > best_count || (n == best_count && sq < best_sq)) {
      best = m;
      best_count = n;
      best_sq = sq;
      const double w = static_cast<double>(n) / sp.size();
      const double miss = 1 - w * w;
      needed = miss <= 0 ? kMinDraws
                         : std::max(kMinDraws, static_cast<int>(std::ceil(std::log(1e-3) / std::log(miss))));
    }
  }
  if (best_count < 2) return Status::ok();

  // Least squares on the inliers, until the set stops changing.
  double sq = 0;
  int inliers = mark_inliers(best, p, q, threshold, &use, &sq);
  for (int round = 0; round < 8; ++round) {
    Model refined;
    if (!least_squares(p, q, use, &refined)) break;
    std::vector<char> next(count, 0);
    double next_sq = 0;
    const int n = mark_inliers(refined, p, q, threshold, &next, &next_sq);
    if (n < inliers) break;  // the refit lost points: keep the last set
    const bool settled = next == use;
    best = refined;
    use.swap(next);
    inliers = n;
    sq = next_sq;
    if (settled) break;
  }
  result->inliers = inliers;
  result->residual_rms = inliers > 0 ? std::sqrt(sq / inliers) : 0;
  result->reliable =
      inliers >= params.min_inliers && inliers >= params.min_inlier_fraction * static_cast<double>(count);
  if (result->reliable) {
    result->motion.scale = std::abs(best.z);
    result->motion.angle = std::arg(best.z);
    result->motion.tx = best.t.real();
    result->motion.ty = best.t.imag();
  }
  return Status::ok();
}

}  // namespace dpx
