// dpx-bench deshake, device side: frames uploaded once (pitched, rotated per rep), a bit-exact
// check against the CPU, then the element's work per frame (host clock: it waits for the stream,
// as the element does before a frame leaves) beside its parts and a device copy of the frame.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench_deshake.h"
#include "dpx/device.h"

namespace dpx {
namespace bench {

namespace {

// Frames in device memory, rows padded to 256 bytes as video allocators do.
struct DeviceFrames {
  DeviceBuffer buffer;
  int width = 0, height = 0, count = 0;
  std::size_t pitch = 0;

  Status upload(const ShakyFrames& host) {
    width = host.width;
    height = host.height;
    count = host.count();
    pitch = (static_cast<std::size_t>(width) + 255) / 256 * 256;
    DPX_RETURN_IF_ERROR(buffer.allocate(frame_bytes() * count));
    for (int i = 0; i < count; ++i) {
      if (cudaMemcpy2D(base(i), pitch, host.luma(i).data, host.luma(i).pitch, width, height,
                       cudaMemcpyHostToDevice) != cudaSuccess ||
          cudaMemcpy2D(base(i) + pitch * height, pitch, host.chroma(i).data, host.chroma(i).pitch, width,
                       height / 2, cudaMemcpyHostToDevice) != cudaSuccess)
        return Status(StatusCode::kCudaError, "deshake bench: frame upload failed");
    }
    if (cudaDeviceSynchronize() != cudaSuccess)
      return Status(StatusCode::kCudaError, "deshake bench: upload failed");
    return Status::ok();
  }
  std::size_t frame_bytes() const { return pitch * height * 3 / 2; }
  unsigned char* base(int i) const { return buffer.as<unsigned char>() + frame_bytes() * (i % count); }
  PlaneView luma(int i) const { return PlaneView{base(i), width, height, pitch, 1, SampleType::kU8}; }
  PlaneView chroma(int i) const {
    return PlaneView{base(i) + pitch * height, width / 2, height / 2, pitch, 2, SampleType::kU8};
  }
};

struct Output {
  DeviceBuffer buffer;
  MutablePlaneView luma, chroma;
  Status allocate(const DeviceFrames& d) {
    DPX_RETURN_IF_ERROR(buffer.allocate(d.frame_bytes()));
    luma = MutablePlaneView{buffer.data(), d.width, d.height, d.pitch, 1, SampleType::kU8};
    chroma = MutablePlaneView{buffer.as<unsigned char>() + d.pitch * d.height,
                              d.width / 2,
                              d.height / 2,
                              d.pitch,
                              2,
                              SampleType::kU8};
    return Status::ok();
  }
};

Status warp_frame(const DeshakeStep& step, const DeviceFrames& d, int i, const Output& out,
                  cudaStream_t stream) {
  DPX_RETURN_IF_ERROR(warp_plane_cuda(d.luma(i), out.luma, step.plan(d.width, d.height, 1), stream));
  return warp_plane_cuda(d.chroma(i), out.chroma, step.plan(d.width, d.height, 2), stream);
}

// The CPU and GPU steps over the first frames: the same corrections, the same output bytes.
std::string check(const ShakyFrames& host, const DeviceFrames& d, const Output& out, cudaStream_t stream) {
  DeshakeStep cpu, gpu;
  std::vector<std::uint8_t> want(host.frame_bytes()), got(d.frame_bytes());
  const int w = host.width, h = host.height;
  const MutablePlaneView luma{want.data(), w, h, static_cast<std::size_t>(w), 1, SampleType::kU8};
  const MutablePlaneView chroma{want.data() + host.luma_bytes(), w / 2, h / 2,
                                static_cast<std::size_t>(w),     2,     SampleType::kU8};
  for (int i = 0; i < 4; ++i) {
    Status s = cpu.measure(host.luma(i), false, nullptr);
    if (s.is_ok()) s = gpu.measure(d.luma(i), true, stream);
    if (s.is_ok()) s = warp_plane_cpu(host.luma(i), luma, cpu.plan(w, h, 1));
    if (s.is_ok()) s = warp_plane_cpu(host.chroma(i), chroma, cpu.plan(w, h, 2));
    if (s.is_ok()) s = warp_frame(gpu, d, i, out, stream);
    if (!s.is_ok()) return s.message();
    if (std::memcmp(&cpu.correction, &gpu.correction, sizeof(Similarity)) != 0)
      return "frame " + std::to_string(i) + ": the corrections differ";
    if (cudaStreamSynchronize(stream) != cudaSuccess ||
        cudaMemcpy(got.data(), out.buffer.data(), got.size(), cudaMemcpyDeviceToHost) != cudaSuccess)
      return "CUDA error after the check";
    for (int y = 0; y < h + h / 2; ++y)
      if (std::memcmp(got.data() + y * d.pitch, want.data() + static_cast<std::size_t>(y) * w, w) != 0)
        return "frame " + std::to_string(i) + ": output row " + std::to_string(y) + " differs";
  }
  return "";
}

// The analyser's search alone, on device copies downscaled as it does (box average).
double time_search(const Options& opts, const ShakyFrames& host, cudaStream_t stream, Status* status) {
  const AnalyseParams p;
  const int f = analyse_downscale(host.width, p), w = host.width / f, h = host.height / f;
  std::vector<std::uint8_t> small(static_cast<std::size_t>(w) * h * 2);
  for (int k = 0; k < 2; ++k)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        unsigned total = 0;
        for (int j = 0; j < f; ++j)
          for (int i = 0; i < f; ++i)
            total +=
                static_cast<const std::uint8_t*>(host.luma(k).data)[(f * y + j) * host.width + f * x + i];
        small[static_cast<std::size_t>(k) * w * h + static_cast<std::size_t>(y) * w + x] =
            static_cast<std::uint8_t>((total + f * f / 2) / (f * f));
      }
  DeviceBuffer planes, vectors;
  const MotionGrid grid = motion_grid(w, h, p.block_size);
  if (!planes.allocate(small.size()).is_ok() ||
      !vectors.allocate(grid.count() * sizeof(MotionVector)).is_ok() ||
      cudaMemcpy(planes.data(), small.data(), small.size(), cudaMemcpyHostToDevice) != cudaSuccess) {
    *status = Status(StatusCode::kCudaError, "search planes");
    return -1;
  }
  MotionParams m;
  m.block_size = p.block_size;
  m.search_range = p.search_range;
  m.subpel = p.subpel;
  m.search = MotionSearch::kPredictive;
  const PlaneView a{planes.data(), w, h, static_cast<std::size_t>(w), 1, SampleType::kU8};
  const PlaneView b{planes.as<unsigned char>() + static_cast<std::size_t>(w) * h,
                    w,
                    h,
                    static_cast<std::size_t>(w),
                    1,
                    SampleType::kU8};
  return time_cuda_us(opts, stream, [&](int) {
    const Status s = motion_estimate_cuda(b, a, m, vectors.as<MotionVector>(), grid.count(), stream);
    if (!s.is_ok()) *status = s;
  });
}

void add(Report& report, const ShakyFrames& frames, const char* variant, double us, const std::string& note) {
  Row row;
  row.section = "deshake NV12 " + std::to_string(frames.width) + "x" + std::to_string(frames.height);
  row.variant = variant;
  row.median_us = us;
  row.throughput = us > 0 ? 1e6 / us : 0;
  row.unit = "frames/s";
  row.note = note;
  report.add(row);
}

}  // namespace

int run_deshake_gpu(const Options& opts, const ShakyFrames& frames, Report& report) {
  Stream stream;
  DeviceFrames d;
  Output out;
  Status status = stream.create();
  if (status.is_ok()) status = d.upload(frames);
  if (status.is_ok()) status = out.allocate(d);
  if (!status.is_ok()) {
    std::fprintf(stderr, "deshake gpu: %s\n", status.message().c_str());
    return 1;
  }
  const std::string mismatch = check(frames, d, out, stream.get());
  if (!mismatch.empty()) {
    std::fprintf(stderr, "deshake gpu: CPU and CUDA differ: %s\n", mismatch.c_str());
    return 1;
  }
  DeshakeStep step;
  const double total = time_host_us(opts, [&](int i) {
    Status s = step.measure(d.luma(i), true, stream.get());
    if (s.is_ok()) s = warp_frame(step, d, i, out, stream.get());
    if (s.is_ok() && cudaStreamSynchronize(stream.get()) != cudaSuccess)
      s = Status(StatusCode::kCudaError, "sync");
    if (!s.is_ok()) status = s;
  });
  DeshakeStep measure_only;
  const double measure = time_host_us(opts, [&](int i) {
    const Status s = measure_only.measure(d.luma(i), true, stream.get());
    if (!s.is_ok()) status = s;
  });
  const double warp = time_cuda_us(opts, stream.get(), [&](int i) {
    const Status s = warp_frame(step, d, i, out, stream.get());
    if (!s.is_ok()) status = s;
  });
  const double copy = time_cuda_us(opts, stream.get(), [&](int i) {
    if (cudaMemcpyAsync(out.buffer.data(), d.base(i), d.frame_bytes(), cudaMemcpyDeviceToDevice,
                        stream.get()) != cudaSuccess)
      status = Status(StatusCode::kCudaError, "copy");
  });
  const double search = time_search(opts, frames, stream.get(), &status);
  if (!status.is_ok()) {
    std::fprintf(stderr, "deshake gpu: %s\n", status.message().c_str());
    return 1;
  }
  add(report, frames, "dpx", total,
      "measure + warp, host clock to the stream's end; " + ratio(total, copy) + " copy");
  add(report, frames, "measure", measure, "downscale, texture, search, download, fit");
  add(report, frames, "search", search, "the motion search alone (predictive, quarter-pel)");
  add(report, frames, "warp", warp, "bilinear, both planes");
  add(report, frames, "copy", copy, "device copy of the frame");
  return 0;
}

}  // namespace bench
}  // namespace dpx
