// dpx-bench motion, device side: frames uploaded once (pitched, rotated per rep), the kernel timed
// with CUDA events for both op policies after a bit-exact check against the CPU (and, on the sharp
// filters' sub-pel rows, the default's phase-plane builder alone), and a device copy of one frame
// as the memory anchor.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "bench_motion.h"
#include "dpx/device.h"
#include "motion_variants.h"
#include "refine_frame_planes.h"

namespace dpx {
namespace bench {

namespace {

// Frames in device memory, rows padded to 256 bytes as video allocators do.
struct DeviceFrames {
  DeviceBuffer buffer;
  int width = 0, height = 0, count = 0;
  std::size_t pitch = 0;

  Status upload(const MotionFrames& host) {
    width = host.width;
    height = host.height;
    count = host.count();
    pitch = (static_cast<std::size_t>(width) + 255) / 256 * 256;
    DPX_RETURN_IF_ERROR(buffer.allocate(pitch * height * count));
    for (int i = 0; i < count; ++i) {
      if (cudaMemcpy2D(frame_data(i), pitch, host.frame(i).data, host.frame(i).pitch, width, height,
                       cudaMemcpyHostToDevice) != cudaSuccess)
        return Status(StatusCode::kCudaError, "motion bench: frame upload failed");
    }
    // The legacy-stream copies above are not ordered with the benchmark's non-blocking stream.
    if (cudaDeviceSynchronize() != cudaSuccess) return Status(StatusCode::kCudaError, "motion bench: frame upload failed");
    return Status::ok();
  }
  unsigned char* frame_data(int i) const { return buffer.as<unsigned char>() + pitch * height * (i % count); }
  PlaneView frame(int i) const { return PlaneView{frame_data(i), width, height, pitch, 1, SampleType::kU8}; }
};

// A CUDA search of `cur` against `ref` into `out`: a policy of the library's kernels.
using Matcher = std::function<Status(const PlaneView& cur, const PlaneView& ref, const MotionParams& params,
                                     MotionVector* out, std::size_t count, cudaStream_t stream)>;

Matcher policy_matcher(OpsPolicy policy) {
  return [policy](const PlaneView& cur, const PlaneView& ref, const MotionParams& params, MotionVector* out,
                  std::size_t count, cudaStream_t stream) {
    return variants::motion_estimate_cuda(policy, cur, ref, params, out, count, stream);
  };
}

// A matcher on check frames 0 -> 1 against the CPU field; a description of the first
// difference, or "" when every vector and SAD agrees.
std::string check_matcher(const std::string& name, const Matcher& run, const MotionCase& c, const DeviceFrames& d,
                          const MotionField& want, cudaStream_t stream) {
  DeviceBuffer out;
  const std::size_t count = want.vectors.size();
  // Poisoned on the matcher's stream (the legacy stream's cudaMemset could land after its kernels).
  if (!out.allocate(count * sizeof(MotionVector)).is_ok() ||
      cudaMemsetAsync(out.data(), 0xA5, out.size(), stream) != cudaSuccess)
    return "cannot allocate the check output";
  const Status s = run(d.frame(1), d.frame(0), c.params(), out.as<MotionVector>(), count, stream);
  if (!s.is_ok()) return s.message();
  std::vector<MotionVector> got(count);
  if (cudaStreamSynchronize(stream) != cudaSuccess ||
      cudaMemcpy(got.data(), out.data(), out.size(), cudaMemcpyDeviceToHost) != cudaSuccess)
    return "CUDA error after the check launch";
  for (std::size_t i = 0; i < count; ++i) {
    const MotionVector &a = got[i], &b = want.vectors[i];
    if (a.dx != b.dx || a.dy != b.dy || a.sad != b.sad)
      return name + " block " + std::to_string(i) + ": gpu (" + std::to_string(a.dx) +
             "," + std::to_string(a.dy) + ") sad " + std::to_string(a.sad) + ", cpu (" + std::to_string(b.dx) + "," +
             std::to_string(b.dy) + ") sad " + std::to_string(b.sad);
  }
  return "";
}

double time_matcher(const Matcher& run, const Options& opts, const MotionCase& c, const DeviceFrames& d,
                    MotionVector* out, std::size_t count, cudaStream_t stream, Status* status) {
  return time_cuda_us(opts, stream, [&](int i) {
    const Status s = run(d.frame(i + 1), d.frame(i), c.params(), out, count, stream);
    if (!s.is_ok()) *status = s;
  });
}

}  // namespace

int run_motion_gpu(const Options& opts, const MotionCase& c, const MotionFrames& frames,
                   const MotionFrames& check_frames, const MotionField& check_field, Report& report) {
  Stream stream;
  DeviceFrames check, d;
  Status s = stream.create();
  if (s.is_ok()) s = check.upload(check_frames);
  if (s.is_ok()) s = d.upload(frames);
  if (!s.is_ok()) {
    std::fprintf(stderr, "motion: %s\n", s.message().c_str());
    return 1;
  }
  MotionCase cc = c;
  cc.width = check_frames.width;
  cc.height = check_frames.height;
  // The sharp filters' sub-pel search reads the reference's phase planes, built first each frame.
  const bool frame_planes = c.subpel != MotionSubpel::kNone && c.interpolation != MotionInterpolation::kBilinear;
  const std::vector<std::string> diffs = {
      check_matcher(ops_policy_name(OpsPolicy::kDpx), policy_matcher(OpsPolicy::kDpx), cc, check, check_field,
                    stream.get()),
      check_matcher(ops_policy_name(OpsPolicy::kPlain), policy_matcher(OpsPolicy::kPlain), cc, check, check_field,
                    stream.get())};
  for (const std::string& diff : diffs) {
    if (!diff.empty()) {
      std::fprintf(stderr, "motion: GPU differs from CPU on %s: %s\n", cc.section().c_str(), diff.c_str());
      return 1;
    }
  }

  const std::size_t count = motion_grid(c.width, c.height, c.block).count();
  DeviceBuffer out, copy;
  if (!out.allocate(count * sizeof(MotionVector)).is_ok() || !copy.allocate(d.pitch * d.height).is_ok()) return 1;
  Status run_status;
  const double dpx_us = time_matcher(policy_matcher(OpsPolicy::kDpx), opts, c, d, out.as<MotionVector>(), count,
                                     stream.get(), &run_status);
  const double plain_us = time_matcher(policy_matcher(OpsPolicy::kPlain), opts, c, d, out.as<MotionVector>(), count,
                                       stream.get(), &run_status);
  // The default's plane builder alone, into one buffer of planes.
  const motion_detail::FramePlanesLayout layout = motion_detail::frame_planes_layout(d.width, d.height, 1);
  DeviceBuffer planes;
  double build_us = 0;
  if (frame_planes) {
    if (!planes.allocate(layout.total_bytes()).is_ok()) return 1;
    const motion_detail::PhasePlanes target{planes.as<unsigned char>(), layout};
    build_us = time_cuda_us(opts, stream.get(), [&](int i) {
      const Status s = motion_detail::build_frame_planes_cuda(d.frame(i), c.interpolation, target, stream.get());
      if (!s.is_ok()) run_status = s;
    });
  }
  const double copy_us = time_cuda_us(opts, stream.get(), [&](int i) {
    cudaMemcpyAsync(copy.data(), d.frame_data(i), d.pitch * d.height, cudaMemcpyDeviceToDevice, stream.get());
  });
  if (!run_status.is_ok() || dpx_us < 0 || plain_us < 0 || build_us < 0 || copy_us < 0) {
    std::fprintf(stderr, "motion: timed run failed on %s: %s\n", c.section().c_str(),
                 run_status.is_ok() ? "CUDA error" : run_status.message().c_str());
    return 1;
  }
  const double work = c.sad_pixels();
  char note[160];
  std::snprintf(note, sizeof note, "%.3f ms/frame, %zu frames rotated (%.0f MB), checked = cpu", dpx_us / 1e3,
                static_cast<std::size_t>(d.count), d.pitch * d.height * d.count / 1e6);
  // Beyond the default search, the anchor is the full search of the same size (range up to 64).
  std::string anchor;
  if (c.params().search != MotionSearch::kFull || c.subpel != MotionSubpel::kNone || c.lambda > 0) {
    const MotionCase full{c.width, c.height, c.block, std::min(c.range, kMotionMaxRange)};
    const double full_us = report.median_of(full.section(), "dpx");
    anchor = "; " + (full_us > 0 ? ratio(dpx_us, full_us) + " the time of " + full.section() : "no full-search row") +
             "; throughput counts the full search's work";
  }
  report.add(Row{c.section(), "dpx", dpx_us, work / (dpx_us * 1e3), "G SAD px/s", note + anchor});
  report.add(Row{c.section(), "plain", plain_us, work / (plain_us * 1e3), "G SAD px/s",
                 "dpx is " + ratio(plain_us, dpx_us) + " faster"});
  if (frame_planes)
    report.add(Row{c.section(), "dpx plane build", build_us, layout.total_bytes() / (build_us * 1e3), "GB/s",
                   "the default's phase-plane builder alone (part of dpx): 16 planes of " +
                       std::to_string(layout.total_bytes() >> 20) + " MB written; " + ratio(build_us, dpx_us) +
                       " of dpx"});
  report.add(Row{c.section(), "copy", copy_us, 2.0 * d.pitch * d.height / (copy_us * 1e3), "GB/s",
                 "anchor: D2D copy of one frame; dpx = " + ratio(dpx_us, copy_us) + " of it"});
  return 0;
}

}  // namespace bench
}  // namespace dpx
