// dpx-bench epilogue: requantise (int16, int8, per-channel), residual and three-input merge over
// 256 M elements on the GPU (DPX and plain ops policies, beside a device copy of the same bytes)
// and on the CPU (a smaller size, its time scaled). GB/s count bytes read plus bytes written.
#include "bench_epilogue.h"

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>

#include "dpx/device.h"
#include "worker_pool.h"

namespace dpx {
namespace bench {

std::size_t EpilogueCase::output_bytes() const {
  return kind == EpilogueKind::kRequantize && requant.output == QuantType::kInt8 ? 1 : 2;
}

std::size_t EpilogueCase::bytes_per_element() const {
  switch (kind) {
    case EpilogueKind::kRequantize: return sizeof(std::int32_t) + output_bytes();
    case EpilogueKind::kResidual: return sizeof(std::int32_t) + 2 * sizeof(std::int16_t);
    case EpilogueKind::kMerge3: return 4 * sizeof(std::int16_t);
  }
  return 0;
}

std::vector<EpilogueCase> epilogue_cases(const RequantChannels* channels) {
  std::vector<EpilogueCase> cases(6);
  cases[0].name = "requantize i32->i16 relu";
  cases[0].requant.shift = 8;
  cases[0].requant.activation = Activation::relu();
  cases[1].name = "requantize i32->i8 clamp";
  cases[1].requant.shift = 12;
  cases[1].requant.output = QuantType::kInt8;
  cases[1].requant.activation = Activation::clamp(0, 100);
  cases[2].name = "requantize i32->i16 per-channel relu";
  cases[2].requant = cases[0].requant;
  cases[2].requant.channels = channels;
  cases[3].name = "residual i32+i16->i16 relu";
  cases[3].kind = EpilogueKind::kResidual;
  cases[3].requant = cases[0].requant;
  cases[4].name = "max3 i16 relu";
  cases[4].kind = EpilogueKind::kMerge3;
  cases[4].merge.activation = Activation::relu();
  cases[5].name = "min3 i16 clamp";
  cases[5].kind = EpilogueKind::kMerge3;
  cases[5].merge.op = MergeOp::kMin;
  cases[5].merge.activation = Activation::clamp(-1000, 1000);
  return cases;
}

EpilogueInputs epilogue_inputs(std::size_t n) {
  std::mt19937_64 rng(20261129);
  EpilogueInputs in;
  in.acc.resize(n);
  in.a.resize(n);
  in.b.resize(n);
  in.c.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t r = rng();
    in.acc[i] = static_cast<std::int32_t>(r) >> 8;
    in.a[i] = static_cast<std::int16_t>(r >> 32);
    in.b[i] = static_cast<std::int16_t>(r >> 48);
    in.c[i] = static_cast<std::int16_t>((r >> 40) ^ r);
  }
  return in;
}

Status run_epilogue_cpu(const EpilogueCase& c, const EpilogueInputs& in, std::size_t offset, std::size_t n, void* out) {
  switch (c.kind) {
    case EpilogueKind::kRequantize:
      return requantize_cpu(in.acc.data() + offset, n, c.requant, out);
    case EpilogueKind::kResidual:
      return requantize_residual_cpu(in.acc.data() + offset, in.a.data() + offset, n, c.requant,
                                     static_cast<std::int16_t*>(out));
    case EpilogueKind::kMerge3:
      return merge3_cpu(in.a.data() + offset, in.b.data() + offset, in.c.data() + offset, n, c.merge,
                        static_cast<std::int16_t*>(out));
  }
  return invalid_argument("unknown epilogue case");
}

namespace {

std::size_t parse_elements(const Options& opts) {
  if (opts.elements) return *opts.elements;
  return opts.quick ? std::size_t{1} << 24 : std::size_t{1} << 28;
}

std::string count_label(std::size_t n) {
  return n % (std::size_t{1} << 20) == 0 ? std::to_string(n >> 20) + "M" : std::to_string(n);
}

// The CPU row: measured on n_cpu elements, its time scaled to n.
void add_cpu_row(const Options& opts, const EpilogueCase& c, const EpilogueInputs& in, std::size_t n,
                 const std::string& section, Report& report) {
  const std::size_t n_cpu = in.acc.size();
  std::vector<std::int16_t> out(n_cpu);
  Status status;
  Options cpu_opts = opts;
  cpu_opts.reps = std::min(opts.reps, 10);
  cpu_opts.warmup = 1;
  const double us = time_host_us(cpu_opts, [&](int) { status = run_epilogue_cpu(c, in, 0, n_cpu, out.data()); });
  if (!status.is_ok()) {
    std::fprintf(stderr, "epilogue: CPU %s failed: %s\n", c.name.c_str(), status.message().c_str());
    return;
  }
  const double scaled = us * static_cast<double>(n) / static_cast<double>(n_cpu);
  Row row;
  row.section = section;
  row.variant = "cpu";
  row.median_us = scaled;
  row.throughput = static_cast<double>(c.bytes_per_element() * n_cpu) / (us * 1e3);
  row.unit = "GB/s";
  row.note = "threads: all " + std::to_string(dpx::runtime::hardware_threads()) + ", " + count_label(n_cpu) +
             " elements, time x" + std::to_string(n / n_cpu);
  report.add(row);
}

int run_epilogue(const Options& opts, Report& report) {
  const std::size_t n = parse_elements(opts);
  if (n < 64) {
    std::fprintf(stderr, "epilogue: --elements must be at least 64\n");
    return 2;
  }
  // The host block: the CPU rows' inputs, tiled over the device buffers for the GPU rows.
  const EpilogueInputs block = epilogue_inputs(std::min<std::size_t>(n, opts.quick ? 1 << 21 : 1 << 24));
  std::vector<std::int32_t> bias(64), shifts(64);
  for (int ch = 0; ch < 64; ++ch) {
    bias[ch] = (ch - 32) * 1000;
    shifts[ch] = 6 + ch % 5;
  }
  RequantChannels channels;
  Status s = channels.set(64, bias.data(), shifts.data());
  if (!s.is_ok()) {
    std::fprintf(stderr, "epilogue: %s\n", s.message().c_str());
    return 1;
  }
  const std::vector<EpilogueCase> cases = epilogue_cases(&channels);
  int rc = 0;
#if DPX_HAVE_CUDA
  EpilogueGpuBench gpu;
  bool have_gpu = cuda_device_count() > 0;
  if (have_gpu) {
    s = gpu.setup(opts, n, block, channels);
    if (!s.is_ok()) {
      std::fprintf(stderr, "epilogue: GPU setup failed: %s\n", s.message().c_str());
      have_gpu = false;
      rc = 1;
    }
  }
#endif
  for (const EpilogueCase& c : cases) {
    const std::string section = c.name + " " + count_label(n);
#if DPX_HAVE_CUDA
    if (have_gpu && !gpu.add_rows(c, section, report)) rc = 1;
#endif
    add_cpu_row(opts, c, block, n, section, report);
  }
  return rc;
}

Registration reg("epilogue", "quantised epilogue: requantise / residual / max3, 256M elements, GB/s", run_epilogue);

}  // namespace
}  // namespace bench
}  // namespace dpx
