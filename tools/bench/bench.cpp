#include "bench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#if DPX_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace dpx {
namespace bench {

std::vector<Entry>& registry() {
  static std::vector<Entry> entries;
  return entries;
}

Registration::Registration(const char* name, const char* help, BenchFn fn) {
  registry().push_back(Entry{name, help, fn});
}

double Report::median_of(const std::string& section, const std::string& variant) const {
  for (const Row& r : rows_)
    if (r.section == section && r.variant == variant) return r.median_us;
  return 0;
}

void Report::print_table() const {
  std::printf("\n| %-40s | %-16s | %12s | %16s | %-36s |\n", "case", "variant", "us (median)",
              "throughput", "against anchors");
  std::printf("|%s|%s|%s|%s|%s|\n", std::string(42, '-').c_str(), std::string(18, '-').c_str(),
              std::string(14, '-').c_str(), std::string(18, '-').c_str(), std::string(38, '-').c_str());
  for (const Row& r : rows_) {
    char tp[64] = "";
    if (r.throughput > 0) std::snprintf(tp, sizeof tp, "%.1f %s", r.throughput, r.unit.c_str());
    std::printf("| %-40s | %-16s | %12.2f | %16s | %-36s |\n", r.section.c_str(), r.variant.c_str(),
                r.median_us, tp, r.note.c_str());
  }
}

namespace {
double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
}  // namespace

double time_host_us(const Options& opts, const std::function<void(int)>& body) {
  for (int i = 0; i < opts.warmup; ++i) body(i);
  std::vector<double> t;
  for (int i = 0; i < opts.reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    body(i);
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  return median(t);
}

double time_cuda_us(const Options& opts, cudaStream_t stream, const std::function<void(int)>& body) {
#if DPX_HAVE_CUDA
  cudaEvent_t start, stop;
  if (cudaEventCreate(&start) != cudaSuccess || cudaEventCreate(&stop) != cudaSuccess) return -1;
  for (int i = 0; i < opts.warmup; ++i) body(i);
  std::vector<double> t;
  bool ok = cudaStreamSynchronize(stream) == cudaSuccess;
  for (int i = 0; ok && i < opts.reps; ++i) {
    cudaEventRecord(start, stream);
    body(i);
    cudaEventRecord(stop, stream);
    ok = cudaEventSynchronize(stop) == cudaSuccess;
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    t.push_back(1000.0 * ms);
  }
  ok = ok && cudaGetLastError() == cudaSuccess;
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ok ? median(t) : -1;
#else
  (void)opts;
  (void)stream;
  (void)body;
  return -1;
#endif
}

std::string ratio(double a, double b) {
  if (a <= 0 || b <= 0) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2fx", a / b);
  return buf;
}

std::string command_output(const std::string& command) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) return out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p) != nullptr) out += buf;
  return pclose(p) == 0 ? out : std::string();
}

}  // namespace bench
}  // namespace dpx
