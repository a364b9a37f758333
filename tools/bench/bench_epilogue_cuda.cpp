// dpx-bench epilogue, GPU rows: each case over n elements with the DPX and the plain ops policy,
// beside cudaMemcpyAsync (device to device) of half the case's bytes, so that the copy reads and
// writes as many bytes as the case. Buffers rotate over sets when one set is smaller than twice
// the 60 MB L2. Each timed sample is a batch of kBatch launches back to back, so the API's host-side
// work overlaps the previous launch instead of showing as idle GPU time; rows give one launch.
// Before timing, each case runs on a window at an odd element offset and is compared with the CPU.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_epilogue.h"
#include "cuda_check.h"
#include "dpx/device.h"
#include "epilogue_variants.h"

namespace dpx {
namespace bench {


struct EpilogueGpuBench::State {
  Options opts;
  std::size_t n = 0, sets = 1, window = 0;
  const EpilogueInputs* block = nullptr;
  Stream stream;
  DeviceBuffer acc, a, b, c, out, copy_src, copy_dst, window_out;

  template <typename T>
  T* at(const DeviceBuffer& buf, std::size_t set) const { return buf.as<T>() + set * n; }
  void* out_at(std::size_t set, std::size_t element_bytes) const {
    return out.as<unsigned char>() + set * n * element_bytes;
  }
};

EpilogueGpuBench::EpilogueGpuBench() = default;
EpilogueGpuBench::~EpilogueGpuBench() = default;

namespace {

constexpr std::size_t kL2Bytes = 60u << 20;
constexpr std::size_t kMaxWindow = (std::size_t{1} << 20) + 7;  // the checked window (odd length)...
constexpr std::size_t kWindowOffset = 3;                        // ...at an odd element offset
constexpr int kBatch = 8;

// Fills n elements (times `sets`) of device memory by repeating the host block.
template <typename T>
Status tile(DeviceBuffer* buf, const std::vector<T>& host, std::size_t n, std::size_t sets) {
  DPX_RETURN_IF_ERROR(buf->allocate(n * sets * sizeof(T)));
  for (std::size_t done = 0; done < n * sets;) {
    const std::size_t count = std::min(host.size(), n * sets - done);
    DPX_CUDA_TRY(cudaMemcpy(buf->as<T>() + done, host.data(), count * sizeof(T), cudaMemcpyHostToDevice));
    done += count;
  }
  // cudaMemcpy/cudaMemset run on the legacy stream, which the non-blocking streams the kernels
  // use do not wait for (a pageable upload can return before its DMA ends): finish them here.
  DPX_CUDA_TRY(cudaDeviceSynchronize());
  return Status::ok();
}

// What runs a case: the public call (DPX ops), the same kernels on plain ops (per-channel tables on
// the walked kernel, which alone has an ops policy), or the public call with the walked channel
// table (per-channel int16 requantisation only).
enum class Runner { kDpx, kPlain, kWalked };

const char* runner_name(Runner r) {
  return r == Runner::kWalked ? "walked-channels"
                              : ops_policy_name(r == Runner::kDpx ? OpsPolicy::kDpx : OpsPolicy::kPlain);
}

std::vector<Runner> runners_for(const EpilogueCase& c) {
  std::vector<Runner> runners = {Runner::kDpx, Runner::kPlain};
  const bool per_channel_int16 =
      c.kind != EpilogueKind::kMerge3 && c.requant.channels != nullptr && c.output_bytes() == 2;
  if (per_channel_int16) runners.push_back(Runner::kWalked);
  return runners;
}

// One case on the device over [offset, offset + count) of set `set`, written to out.
Status enqueue(Runner runner, const EpilogueCase& c, const EpilogueGpuBench::State& s, std::size_t set,
               std::size_t offset, std::size_t count, void* out) {
  const std::int32_t* acc = s.at<std::int32_t>(s.acc, set) + offset;
  const std::int16_t* a = s.at<std::int16_t>(s.a, set) + offset;
  const OpsPolicy policy = runner == Runner::kPlain ? OpsPolicy::kPlain : OpsPolicy::kDpx;
  const bool walked = runner == Runner::kWalked;
  switch (c.kind) {
    case EpilogueKind::kRequantize:
      if (walked)
        return variants::requantize_walked_cuda(acc, nullptr, count, c.requant, out, s.stream.get());
      return variants::requantize_cuda(policy, acc, count, c.requant, out, s.stream.get());
    case EpilogueKind::kResidual:
      if (walked) return variants::requantize_walked_cuda(acc, a, count, c.requant, out, s.stream.get());
      return variants::requantize_residual_cuda(policy, acc, a, count, c.requant, static_cast<std::int16_t*>(out),
                                                s.stream.get());
    case EpilogueKind::kMerge3:
      return variants::merge3_cuda(policy, a, s.at<std::int16_t>(s.b, set) + offset,
                                   s.at<std::int16_t>(s.c, set) + offset, count, c.merge,
                                   static_cast<std::int16_t*>(out), s.stream.get());
  }
  return invalid_argument("unknown epilogue case");
}

// The window [kWindowOffset, + s.window) through the GPU (into a poisoned buffer) and the CPU.
Status check_window(Runner runner, const EpilogueCase& c, EpilogueGpuBench::State& s, bool* same) {
  const std::size_t bytes = s.window * c.output_bytes();
  std::vector<unsigned char> gpu(bytes), cpu(bytes);
  DPX_CUDA_TRY(cudaMemsetAsync(s.window_out.data(), 0xA5, s.window_out.size(), s.stream.get()));
  // One element into the buffer, so the output is 2-byte but not 4-byte aligned.
  unsigned char* out = s.window_out.as<unsigned char>() + c.output_bytes();
  DPX_RETURN_IF_ERROR(enqueue(runner, c, s, 0, kWindowOffset, s.window, out));
  DPX_CUDA_TRY(cudaMemcpyAsync(gpu.data(), out, bytes, cudaMemcpyDeviceToHost, s.stream.get()));
  DPX_RETURN_IF_ERROR(s.stream.synchronize());
  DPX_RETURN_IF_ERROR(run_epilogue_cpu(c, *s.block, kWindowOffset, s.window, cpu.data()));
  *same = gpu == cpu;
  return Status::ok();
}

Row gb_row(const std::string& section, const char* variant, double us, std::size_t bytes, std::string note) {
  Row row;
  row.section = section;
  row.variant = variant;
  row.median_us = us;
  row.throughput = us > 0 ? static_cast<double>(bytes) / (us * 1e3) : 0;
  row.unit = "GB/s";
  row.note = std::move(note);
  return row;
}

std::string percent_of(double us, double anchor_us) {
  if (us <= 0 || anchor_us <= 0) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", 100.0 * anchor_us / us);
  return buf;
}

}  // namespace

Status EpilogueGpuBench::setup(const Options& opts, std::size_t n, const EpilogueInputs& block,
                               RequantChannels& channels) {
  s_ = std::make_unique<State>();
  State& s = *s_;
  s.opts = opts;
  s.n = n;
  s.block = &block;
  // The smallest case moves 5 bytes an element; rotate until the sets together pass twice the L2.
  s.sets = std::max<std::size_t>(1, (2 * kL2Bytes + 5 * n - 1) / (5 * n));
  if (block.acc.size() <= kWindowOffset) return invalid_argument("epilogue bench: host block too small");
  s.window = std::min(kMaxWindow, block.acc.size() - kWindowOffset);
  DPX_RETURN_IF_ERROR(s.stream.create());
  DPX_RETURN_IF_ERROR(channels.upload(s.stream.get()));
  DPX_RETURN_IF_ERROR(tile(&s.acc, block.acc, n, s.sets));
  DPX_RETURN_IF_ERROR(tile(&s.a, block.a, n, s.sets));
  DPX_RETURN_IF_ERROR(tile(&s.b, block.b, n, s.sets));
  DPX_RETURN_IF_ERROR(tile(&s.c, block.c, n, s.sets));
  DPX_RETURN_IF_ERROR(s.out.allocate(n * s.sets * sizeof(std::int16_t)));
  DPX_RETURN_IF_ERROR(s.copy_src.allocate(n * s.sets * 4));  // half of the largest case (8 bytes an element)
  DPX_RETURN_IF_ERROR(s.copy_dst.allocate(n * s.sets * 4));
  DPX_CUDA_TRY(cudaMemset(s.copy_src.data(), 0x5A, s.copy_src.size()));
  DPX_RETURN_IF_ERROR(s.window_out.allocate((s.window + 1) * sizeof(std::int16_t)));
  std::printf("epilogue: %zu elements, %zu buffer set(s), checked window of %zu at offset %zu\n", n, s.sets, s.window,
              kWindowOffset);
  return s.stream.synchronize();
}

bool EpilogueGpuBench::add_rows(const EpilogueCase& c, const std::string& section, Report& report) {
  State& s = *s_;
  const std::size_t bytes = c.bytes_per_element() * s.n;
  const std::vector<Runner> runners = runners_for(c);
  for (Runner runner : runners) {
    bool same = false;
    const Status st = check_window(runner, c, s, &same);
    if (!st.is_ok() || !same) {
      std::fprintf(stderr, "epilogue: %s (%s): %s\n", section.c_str(), runner_name(runner),
                   st.is_ok() ? "GPU and CPU DISAGREE; not timed" : st.message().c_str());
      report.add(gb_row(section, runner_name(runner), 0, 0, "FAILED the GPU == CPU check"));
      return false;
    }
  }
  // The anchor: a device copy that reads bytes / 2 and writes bytes / 2.
  const std::size_t half = bytes / 2;
  cudaError_t copy_error = cudaSuccess;
  const double copy_us = time_cuda_us(s.opts, s.stream.get(), [&](int i) {
    for (int j = 0; j < kBatch; ++j) {
      const std::size_t set = static_cast<std::size_t>(i * kBatch + j) % s.sets;
      const cudaError_t e = cudaMemcpyAsync(s.copy_dst.as<unsigned char>() + set * half,
                                            s.copy_src.as<unsigned char>() + set * half, half,
                                            cudaMemcpyDeviceToDevice, s.stream.get());
      if (copy_error == cudaSuccess) copy_error = e;
    }
  }) / kBatch;
  if (copy_error != cudaSuccess || copy_us < 0) {
    std::fprintf(stderr, "epilogue: %s: device copy failed: %s\n", section.c_str(), cudaGetErrorString(copy_error));
    return false;
  }
  report.add(gb_row(section, "copy", copy_us, bytes,
                    "memcpy D2D of " + std::to_string(half >> 20) + " MiB (read+write " +
                        std::to_string(bytes >> 20) + " MiB)"));
  std::vector<double> us(runners.size(), 0);
  for (std::size_t r = 0; r < runners.size(); ++r) {
    Status st;
    us[r] = time_cuda_us(s.opts, s.stream.get(),
                         [&](int i) {
                           for (int j = 0; j < kBatch; ++j) {
                             const std::size_t set = static_cast<std::size_t>(i * kBatch + j) % s.sets;
                             const Status e =
                                 enqueue(runners[r], c, s, set, 0, s.n, s.out_at(set, c.output_bytes()));
                             if (!e.is_ok() && st.is_ok()) st = e;
                           }
                         }) /
            kBatch;
    if (!st.is_ok() || us[r] < 0) {
      std::fprintf(stderr, "epilogue: %s (%s) failed: %s\n", section.c_str(), runner_name(runners[r]),
                   st.is_ok() ? "timing failed" : st.message().c_str());
      return false;
    }
  }
  report.add(gb_row(section, "dpx", us[0], bytes,
                    percent_of(us[0], copy_us) + " of copy, speed-up over plain " + ratio(us[1], us[0])));
  report.add(gb_row(section, "plain", us[1], bytes, percent_of(us[1], copy_us) + " of copy"));
  if (runners.size() > 2) {
    report.add(gb_row(section, runner_name(runners[2]), us[2], bytes,
                      percent_of(us[2], copy_us) + " of copy; dpx is " + ratio(us[2], us[0]) + " faster"));
  }
  return true;
}

}  // namespace bench
}  // namespace dpx
