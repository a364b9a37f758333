// Video stabilisation: the camera's motion from one frame to the next, the
// smoothed camera path and the warp that moves each frame onto it.
//
//   dpx::MotionAnalyser analyser;                 // per stream: the last
//   frame's small copy analyser.analyse_cpu(luma, &measured);        // or
//   analyse_cuda(device luma, stream, ...) path.push(measured.motion,
//   !measured.reliable); while (path.ready()) {
//     dpx::PathFrame f = path.pop();
//     dpx::WarpPlan plan = dpx::warp_plan(f.correction, zoom, luma_w, luma_h,
//     2, 2, ...); dpx::warp_plane_cpu(src_plane, dst_plane, plan);   // or
//     warp_plane_cuda(..., stream)
//   }
//
// Definitions:
//   * Coordinates are pixel indices of the luma plane, a pixel's centre at its
//   index; transforms
//     turn about the frame centre c = ((width - 1) / 2, (height - 1) / 2).
//   * A Similarity maps p to scale * R(angle) * (p - c) + c + (tx, ty), R
//   turning from +x to +y.
//   * The motion of frame i maps its coordinates to those of frame i - 1 (where
//   its content was).
//     The camera path C_i = C_(i-1) o M_i maps frame i to the first frame of
//     its segment; a scene cut starts a new segment. The smoothed path S_i is
//     the Gaussian average of the path's parameters (translation, angle, log
//     scale) over a window centred on i, narrowed equally on both sides where
//     the segment ends, so a steady pan or zoom passes unchanged.
//   * The correction W_i = C_i^-1 o S_i maps an output pixel to where it is
//   read in the input; its
//     angle and translation are limited to max_angle and max_shift.
//   * The warp reads every plane through one fixed-point affine map per plane,
//   computed once on
//     the host (warp_plan); the CPU and CUDA warps run the same per-pixel code
//     on it, so their outputs are bit-identical.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "dpx/device.h"
#include "dpx/motion.h"
#include "dpx/plane.h"
#include "dpx/status.h"

namespace dpx {

// ---------------------------------------------------------------------------------------------
// Transforms

struct Similarity {
  double tx = 0, ty = 0;  // pixels
  double angle = 0;       // radians
  double scale = 1;
};

// a o b: first b, then a (about the same centre).
Similarity compose(const Similarity& a, const Similarity& b);
Similarity inverse(const Similarity& a);

// ---------------------------------------------------------------------------------------------
// The robust fit

// A point (x, y) and where it maps to (u, v), in the same coordinates.
struct Correspondence {
  double x = 0, y = 0, u = 0, v = 0;
};

struct FitParams {
  double inlier_threshold = 1.0;  // pixels: a correspondence within it of the model is an inlier
  int iterations = 256;           // most RANSAC draws of two correspondences
  std::uint64_t seed = 0x5eed;    // the draws are a fixed function of it: results are reproducible
  int min_inliers = 8;            // fewer: the frame is not explained (a scene cut)
  double min_inlier_fraction = 0.25;
};

struct FitResult {
  Similarity motion;   // identity where not reliable
  int candidates = 0;  // correspondences offered
  int inliers = 0;
  double residual_rms = 0;  // over the inliers, pixels
  bool reliable = false;    // enough inliers explain the frame
};

// RANSAC over pairs of correspondences (the similarity through two points, scored on an evenly
// spaced sample of at most 256 of them, drawing until a better model is unlikely), then least
// squares on all the inliers of the best draw, repeated until they settle. `cx`, `cy`: the centre.
Status fit_similarity(const Correspondence* points, std::size_t count, double cx, double cy,
                      const FitParams& params, FitResult* result);

// ---------------------------------------------------------------------------------------------
// Motion of a frame against the previous one

// How the analyser measures: block matching on a copy of the luma plane
// downscaled by `downscale` (box average), blocks flatter than `min_texture`
// rejected, then the robust fit.
struct AnalyseParams {
  int downscale = 0;    // 1, 2 or 4; 0: chosen from the width (the copy 640 to
                        // 1279 pixels wide)
  int block_size = 16;  // on the copy
  int search_range = 32;
  MotionSubpel subpel = MotionSubpel::kQuarter;  // whole-pixel vectors bend turns and zooms
  // Mean absolute difference of horizontally and vertically adjacent pixels in
  // a block, in 8-bit steps, below which the block is flat (its vector means
  // nothing).
  double min_texture = 3.0;
  FitParams fit;
};

// The copy's downscale factor for a plane `width` pixels wide under `params`.
int analyse_downscale(int width, const AnalyseParams& params);

// The smallest luma plane the analyser measures (enough blocks for a fit).
constexpr int kStabiliseMinWidth = 64;
constexpr int kStabiliseMinHeight = 48;

struct FrameMotion {
  bool measured = false;  // false for the first frame of a chain (no previous frame)
  FitResult fit;          // in luma pixels; fit.motion maps this frame to the previous one
  Similarity motion() const { return fit.motion; }
};

// Keeps the last frame's downscaled copy. `luma`: one channel of an interleaved
// plane (`channel` of view.channels; e.g. green of RGBA), u8 or u16, at least
// kStabiliseMinWidth x kStabiliseMinHeight. The CPU and CUDA analysers give the
// same vectors and so the same fit.
class MotionAnalyser {
 public:
  MotionAnalyser();
  ~MotionAnalyser();
  MotionAnalyser(const MotionAnalyser&) = delete;
  MotionAnalyser& operator=(const MotionAnalyser&) = delete;

  void set_params(const AnalyseParams& params) { params_ = params; }
  const AnalyseParams& params() const { return params_; }

  // The next frame has no previous one (a new chain).
  void restart() { have_previous_ = false; }
  // Frees the device memory (call with the CUDA context it was allocated in current); restarts.
  void release();

  // Host plane; `threads` as motion_estimate_cpu.
  Status analyse_cpu(const PlaneView& luma, int channel, FrameMotion* out, int threads = 0);
  // Device plane; enqueues on `stream` and waits for it (the fit runs on the
  // host).
  Status analyse_cuda(const PlaneView& luma, int channel, cudaStream_t stream, FrameMotion* out);

  // The last field (on the copy), for callers that report it.
  const MotionField& field() const { return field_; }

 private:
  struct Device;
  Status analyse_device(const PlaneView& luma, int channel, cudaStream_t stream, FrameMotion* out);
  Status finish(const PlaneView& luma, FrameMotion* out);

  AnalyseParams params_;
  bool have_previous_ = false;
  int prev_width_ = 0, prev_height_ = 0, prev_factor_ = 0;
  bool prev_on_device_ = false;  // where the last copy is kept
  SampleType prev_type_ = SampleType::kU8;
  std::vector<std::uint8_t> host_[2];  // the copies (current, previous), swapped each frame
  std::vector<std::uint32_t> texture_;
  MotionField field_;
  Device* device_ = nullptr;
  int current_ = 0;
};

// ---------------------------------------------------------------------------------------------
// The smoothed path

struct PathParams {
  int smoothing = 15;       // the window's half width in frames: the lookahead, and
                            // frames of delay
  double max_shift = 64;    // pixels, each axis of the correction's translation
  double max_angle = 0.05;  // radians, the correction's angle
};

struct PathFrame {
  Similarity motion;      // measured against the previous frame (identity on a cut)
  Similarity path;        // C_i
  Similarity smoothed;    // S_i
  Similarity correction;  // W_i, limited
  bool cut = false;       // the frame starts a segment
};

// Frames go in with their motion and come out, in order, once their window is
// known: `smoothing` frames later, at a cut, or at finish().
class CameraPath {
 public:
  void set_params(const PathParams& params);
  const PathParams& params() const { return params_; }

  // The next frame's motion; `cut`: the motion is unknown and the frame starts
  // a new segment.
  void push(const Similarity& motion, bool cut);
  // Every frame pushed so far becomes ready (end of stream).
  void finish();
  bool ready() const;
  PathFrame pop();
  std::size_t pending() const { return frames_.size() - next_; }
  void reset();

 private:
  struct Entry {
    PathFrame frame;
    double param[4];  // tx, ty, angle, log scale of the path
    long segment;
  };
  bool window_known(std::size_t i) const;
  int half_width(std::size_t i) const;

  PathParams params_;
  std::deque<Entry> frames_;  // up to `smoothing` popped frames, then the pending ones
  std::size_t next_ = 0;      // index in frames_ of the next frame to pop
  long segment_ = 0;
  bool finished_ = false;
};

// The smallest zoom (>= 1, about the centre, at most kMaxZoom) at which
// `correction` reads every output pixel of a width x height frame from inside
// the input.
constexpr double kMaxZoom = 4.0;
double required_zoom(const Similarity& correction, int width, int height);

// The zoom of border=zoom, adaptive: each frame's zoom is the larger of what
// its correction requires and the last frame's zoom less `decay`, so it rises
// at once when a border would show and relaxes slowly.
class BorderZoom {
 public:
  void reset() { zoom_ = 1.0; }
  double next(const Similarity& correction, int width, int height, double decay = 0.002);

 private:
  double zoom_ = 1.0;
};

// ---------------------------------------------------------------------------------------------
// The warp

enum class WarpInterpolation { kBilinear, kBicubic };
enum class WarpBorder {
  kBlack,      // outside the input: the plane's fill values
  kReplicate,  // outside the input: the nearest edge pixel
};

constexpr int kWarpFracBits = 16;  // the fixed-point map's fraction bits

// One plane's source position for output pixel (x, y): (m00 x + m01 y + b0, m10
// x + m11 y + b1) in units of 2^-kWarpFracBits pixel.
struct WarpPlan {
  std::int64_t m00 = 0, m01 = 0, m10 = 0, m11 = 0, b0 = 0, b1 = 0;
  WarpInterpolation interpolation = WarpInterpolation::kBilinear;
  WarpBorder border = WarpBorder::kBlack;
  std::uint16_t fill[4] = {0, 0, 0, 0};  // per channel, for kBlack
};

// The plan for a plane subsampled by (sub_x, sub_y) of a luma_width x
// luma_height frame: `correction` (with `zoom` about the centre applied after
// it) in the plane's coordinates, a subsampled pixel's centre at the centre of
// the luma pixels it covers.
WarpPlan warp_plan(const Similarity& correction, double zoom, int luma_width, int luma_height, int sub_x,
                   int sub_y, WarpInterpolation interpolation, WarpBorder border);

// dst(x, y) = src read at the plan's position; src and dst have the same shape
// (any pitches).
Status warp_plane_cpu(const PlaneView& src, const MutablePlaneView& dst, const WarpPlan& plan,
                      int threads = 0);
Status warp_plane_cuda(const PlaneView& src, const MutablePlaneView& dst, const WarpPlan& plan,
                       cudaStream_t stream);

}  // namespace dpx
