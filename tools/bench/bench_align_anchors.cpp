// dpx-bench align, the shapes of the other GPU edit-distance and DTW libraries, each beside that
// library when its binary is given (absent: the row says "not built"):
//   DPX_ANCHOR_STRINGZILLAS = path of StringZillas' sz_levenshtein_bench
//   DPX_ANCHOR_CUDTW        = path of cuDTW++'s benchmark binary
// Edit distance (bit-parallel, unit costs), random ACGT strings of 1,000: Q x C all-against-all
// (100 x 100, 1 x 10,000, 300 x 300) and 10,000 related pairs. DTW, series of 1,023: one query
// against 10,000 and 1,000,000 series (float32 |a-b| and (a-b)^2, int32 |a-b|, DPX and plain min)
// and 10,000 pairs. GPU results are checked against the CPU on a sample before any figure.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "bench.h"
#include "dpx/align_distance.h"
#include "dpx/device.h"

#if DPX_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "align/common/align_variants.h"
#endif

namespace dpx {
namespace bench {
namespace {

#if DPX_HAVE_CUDA
constexpr std::size_t kEditLength = 1000;
constexpr std::size_t kSeriesLength = 1023;
constexpr std::size_t kChecked = 24;  // pairs checked against the CPU per case

double gcups(double cells, double us) { return us > 0 ? cells / (us * 1e3) : 0; }

// The number printed just before `unit` in the first line containing `key`, or 0.
double number_before(const std::string& text, const std::string& key, const std::string& unit) {
  const std::size_t line = text.find(key);
  if (line == std::string::npos) return 0;
  const std::size_t at = text.find(unit, line);
  if (at == std::string::npos) return 0;
  std::size_t start = at;
  while (start > 0 && (text[start - 1] == ' ')) --start;
  std::size_t end = start;
  while (start > 0 && (std::isdigit(static_cast<unsigned char>(text[start - 1])) || text[start - 1] == '.')) --start;
  return std::atof(text.substr(start, end - start).c_str());
}

void add_anchor_row(Report& report, const std::string& section, const char* variant, const char* env, double cells,
                    const std::string& args, const std::string& env_prefix, double ours_us,
                    double (*parse)(const std::string&, double cells, std::string* note)) {
  const char* bin = std::getenv(env);
  if (bin == nullptr || *bin == '\0') {
    report.add({section, variant, 0, 0, "GCUPS", std::string("not built (set ") + env + ")"});
    return;
  }
  const std::string out = command_output(env_prefix + " '" + bin + "' " + args + " 2>&1");
  std::string note;
  const double g = out.empty() ? 0 : parse(out, cells, &note);
  if (g <= 0) {
    report.add({section, variant, 0, 0, "GCUPS", "anchor failed or printed no figure"});
    return;
  }
  const double us = cells / (g * 1e3);
  report.add({section, variant, us, g, "GCUPS", note + "; dpx " + ratio(us, ours_us) + " its speed"});
}

// sz_levenshtein_bench: "... X GCUPS wall (... ms), Y GCUPS device (... ms) ...; check a/b ok".
double parse_stringzillas(const std::string& out, double, std::string* note) {
  if (out.find("ok") == std::string::npos) return 0;
  const double device = number_before(out, "levenshtein_hopper", "GCUPS device");
  *note = "wall clock; " + std::to_string(static_cast<int>(device)) + " GCUPS device";
  return number_before(out, "levenshtein_hopper", "GCUPS wall");
}

// cuDTW++: "TIMING: <ms> ms ... (streamed_computation)"; GCUPS = N * L * L / time.
double parse_cudtw(const std::string& out, double cells, std::string* note) {
  const std::size_t at = out.find("TIMING:");
  const std::size_t line = out.find("streamed_computation", at == std::string::npos ? 0 : at);
  if (at == std::string::npos || line == std::string::npos) return 0;
  const std::size_t row = out.rfind("TIMING:", line);
  const double ms = std::atof(out.c_str() + row + 7);
  *note = "float32 (a-b)^2, its own data";
  return ms > 0 ? cells / (ms * 1e6) : 0;
}

SequenceBatch random_acgt(std::mt19937_64& rng, std::size_t count, std::size_t length) {
  static const char kAcgt[] = "ACGT";
  std::uniform_int_distribution<int> letter(0, 3);
  SequenceBatch b;
  std::string s(length, 'A');
  for (std::size_t i = 0; i < count; ++i) {
    for (auto& c : s) c = kAcgt[letter(rng)];
    b.add(s);
  }
  return b;
}

// Pairwise batches of the Q x C cross product (query i with candidate j at pair i * C + j).
void cross_product(const SequenceBatch& q, const SequenceBatch& c, SequenceBatch* pq, SequenceBatch* pc) {
  for (std::size_t i = 0; i < q.size(); ++i)
    for (std::size_t j = 0; j < c.size(); ++j) {
      pq->add(q.view(i));
      pc->add(c.view(j));
    }
}

bool same_as_cpu_edit(const SequenceBatch& q, const SequenceBatch& t, Pairing pairing, const DeviceBuffer& out,
                      cudaStream_t stream) {
  SequenceBatch sq, st;
  for (std::size_t i = 0; i < kChecked && i < t.size(); ++i) {
    sq.add(q.view(pairing == Pairing::kOneToMany ? 0 : i));
    st.add(t.view(i));
  }
  std::vector<EditResult> cpu;
  std::vector<std::int64_t> gpu(st.size());
  if (!edit_distance_cpu(sq, st, Pairing::kPairwise, {}, &cpu).is_ok() ||
      cudaMemcpyAsync(gpu.data(), out.data(), gpu.size() * sizeof(std::int64_t), cudaMemcpyDeviceToHost, stream) != cudaSuccess ||
      cudaStreamSynchronize(stream) != cudaSuccess) return false;
  for (std::size_t i = 0; i < gpu.size(); ++i) {
    if (gpu[i] != cpu[i].distance) {
      std::fprintf(stderr, "align: bit-parallel pair %zu: gpu %lld, cpu %lld\n", i, static_cast<long long>(gpu[i]),
                   static_cast<long long>(cpu[i].distance));
      return false;
    }
  }
  return true;
}

// One edit-distance case: checks, times, adds the dpx row and the StringZillas row for Q x C.
int edit_case(const Options& opts, Report& report, const SequenceBatch& q, const SequenceBatch& t, Pairing pairing,
              const std::string& section, const std::string& anchor_args, cudaStream_t stream) {
  DeviceSequenceBatch dq, dt;
  DeviceBuffer out;
  if (!dq.upload(q, stream).is_ok() || !dt.upload(t, stream).is_ok() ||
      !out.allocate(t.size() * sizeof(std::int64_t)).is_ok()) return 1;
  auto launch = [&] { return edit_distance_cuda_async(dq, dt, pairing, kEditLength, out.as<std::int64_t>(), stream); };
  if (!launch().is_ok() || !same_as_cpu_edit(q, t, pairing, out, stream)) return 1;
  bool ok = true;
  const double us = time_cuda_us(opts, stream, [&](int) { ok = ok && launch().is_ok(); });
  if (!ok || us <= 0) return 1;
  const double cells = static_cast<double>(t.size()) * kEditLength * kEditLength;
  report.add({section, "dpx bits", us, gcups(cells, us), "GCUPS", "bit-parallel, kernel only"});
  if (!anchor_args.empty()) {
    add_anchor_row(report, section, "stringzillas", "DPX_ANCHOR_STRINGZILLAS", cells, anchor_args, "", us,
                   parse_stringzillas);
  }
  return 0;
}

int bench_edit_shapes(const Options& opts, Report& report, std::mt19937_64& rng, cudaStream_t stream) {
  struct Cross {
    std::size_t q, c;
  };
  for (const Cross x : {Cross{100, 100}, Cross{1, 10000}, Cross{300, 300}}) {
    if (opts.quick && x.q == 300) continue;
    const SequenceBatch q = random_acgt(rng, x.q, kEditLength), c = random_acgt(rng, x.c, kEditLength);
    const std::string section = "edit " + std::to_string(x.q) + "x" + std::to_string(x.c) + " all-vs-all x 1000^2";
    const std::string args = std::to_string(x.q) + " " + std::to_string(x.c) + " 1000 unit 5 4 8";
    int rc = 0;
    if (x.q == 1) {
      rc = edit_case(opts, report, q, c, Pairing::kOneToMany, section, args, stream);
    } else {
      SequenceBatch pq, pc;
      cross_product(q, c, &pq, &pc);
      rc = edit_case(opts, report, pq, pc, Pairing::kPairwise, section, args, stream);
    }
    if (rc) return rc;
  }
  const SequenceBatch q = random_acgt(rng, 10000, kEditLength), t = random_acgt(rng, 10000, kEditLength);
  return edit_case(opts, report, q, t, Pairing::kPairwise, "edit bits 10000 pairs x 1000^2", "", stream);
}

// --- DTW -------------------------------------------------------------------------------------------

// Random walks, steps uniform in [-1, 1] (float) or [-8, 8] (int32).
template <typename T>
PackedBatch<T> random_walks(std::mt19937_64& rng, std::size_t count, std::size_t length) {
  PackedBatch<T> b;
  std::vector<T> s(length);
  std::uniform_real_distribution<float> step(-1.0f, 1.0f);
  std::uniform_int_distribution<int> istep(-8, 8);
  for (std::size_t i = 0; i < count; ++i) {
    T v = 0;
    for (auto& x : s) x = v += std::is_same<T, float>::value ? static_cast<T>(step(rng)) : static_cast<T>(istep(rng));
    b.add(s.data(), s.size());
  }
  return b;
}

// `copies` times the batch end to end (the 1,000,000-series case without generating 4 GB).
template <typename T>
PackedBatch<T> repeated(const PackedBatch<T>& b, std::size_t copies) {
  PackedBatch<T> out;
  for (std::size_t k = 0; k < copies; ++k)
    for (std::size_t i = 0; i < b.size(); ++i) out.add(b.item(i), b.length(i));
  return out;
}

template <typename T>
PackedBatch<T> first_items(const PackedBatch<T>& b, std::size_t count) {
  PackedBatch<T> out;
  for (std::size_t i = 0; i < count && i < b.size(); ++i) out.add(b.item(i), b.length(i));
  return out;
}

struct DtwCase {
  std::string section, variant, note;
  bool squared = false, as_int = false;
  OpsPolicy policy = OpsPolicy::kDpx;
};

// Float: DtwFloatOptions through dtw_float_cuda_async; int32: launch_dtw with the case's policy.
template <typename T>
int dtw_case(const Options& opts, Report& report, const DtwCase& k, const PackedBatch<T>& a, const PackedBatch<T>& b,
             Pairing pairing, cudaStream_t stream, double* us_out) {
  DevicePackedBatch<T> da, db;
  DeviceBuffer out;
  const std::size_t pairs = b.size();
  if (!da.upload(a, stream).is_ok() || !db.upload(b, stream).is_ok() || !out.allocate(pairs * 8).is_ok()) return 1;
  DtwFloatOptions fo;
  fo.cost = k.squared ? DtwCost::kSquared : DtwCost::kAbsolute;
  auto launch = [&]() -> Status {
    if constexpr (std::is_same<T, float>::value) {
      return dtw_float_cuda_async(da, db, pairing, fo, kSeriesLength, out.as<float>(), stream);
    } else {
      return variants::launch_dtw(k.policy, da, db, pairing, {}, kSeriesLength, out.as<std::int64_t>(), stream);
    }
  };
  if (!launch().is_ok()) return 1;
  // Check a sample against the CPU.
  const PackedBatch<T> sa = pairing == Pairing::kOneToMany ? a : first_items(a, kChecked), sb = first_items(b, kChecked);
  bool same = true;
  if constexpr (std::is_same<T, float>::value) {
    std::vector<float> cpu, gpu(sb.size());
    same = dtw_float_cpu(sa, sb, pairing, fo, &cpu).is_ok() &&
           cudaMemcpy(gpu.data(), out.data(), gpu.size() * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess &&
           gpu == cpu;
  } else {
    std::vector<DtwResult> cpu;
    std::vector<std::int64_t> gpu(sb.size());
    same = dtw_cpu(sa, sb, pairing, {}, &cpu).is_ok() &&
           cudaMemcpy(gpu.data(), out.data(), gpu.size() * 8, cudaMemcpyDeviceToHost) == cudaSuccess;
    for (std::size_t i = 0; same && i < gpu.size(); ++i) same = gpu[i] == cpu[i].cost;
  }
  if (!same) {
    std::fprintf(stderr, "align: %s %s differs from the CPU\n", k.section.c_str(), k.variant.c_str());
    return 1;
  }
  bool ok = true;
  const double us = time_cuda_us(opts, stream, [&](int) { ok = ok && launch().is_ok(); });
  if (!ok || us <= 0) return 1;
  const double cells = static_cast<double>(pairs) * kSeriesLength * kSeriesLength;
  report.add({k.section, k.variant, us, gcups(cells, us), "GCUPS", k.note});
  if (us_out != nullptr) *us_out = us;
  return 0;
}

int bench_dtw_shapes(const Options& opts, Report& report, std::mt19937_64& rng, cudaStream_t stream) {
  const std::size_t n = 10000;
  const FloatSeriesBatch fq = random_walks<float>(rng, 1, kSeriesLength), fs = random_walks<float>(rng, n, kSeriesLength);
  const SeriesBatch iq = random_walks<std::int32_t>(rng, 1, kSeriesLength), is = random_walks<std::int32_t>(rng, n, kSeriesLength);
  for (std::size_t copies : {std::size_t{1}, std::size_t{100}}) {
    if (opts.quick && copies > 1) continue;
    const std::size_t series = n * copies;
    const std::string section = "DTW 1 vs " + std::to_string(series) + " x 1023^2";
    const FloatSeriesBatch fb = copies > 1 ? repeated(fs, copies) : fs;
    const SeriesBatch ib = copies > 1 ? repeated(is, copies) : is;
    double squared_us = 0;
    DtwCase k;
    k.section = section;
    k.variant = "dpx f32 sq";
    k.squared = true;
    k.note = "float32 (a-b)^2, warp per series";
    if (dtw_case(opts, report, k, fq, fb, Pairing::kOneToMany, stream, &squared_us)) return 1;
    k.variant = "dpx f32 abs";
    k.squared = false;
    k.note = "float32 |a-b|";
    if (dtw_case(opts, report, k, fq, fb, Pairing::kOneToMany, stream, nullptr)) return 1;
    k.variant = "dpx i32 abs";
    k.note = "int32 |a-b|, DPX min3";
    if (dtw_case(opts, report, k, iq, ib, Pairing::kOneToMany, stream, nullptr)) return 1;
    k.variant = "plain i32 abs";
    k.policy = OpsPolicy::kPlain;
    k.note = "same kernel, two-operand min";
    if (dtw_case(opts, report, k, iq, ib, Pairing::kOneToMany, stream, nullptr)) return 1;
    const double cells = static_cast<double>(series) * kSeriesLength * kSeriesLength;
    // cuDTW++: data uploaded before its timer for 10,000; its own streamed pipeline for 1,000,000.
    const std::string env = "CUDTW_N=" + std::to_string(series) + " CUDTW_L=1023 CUDTW_GPUS=1 CUDTW_MEMCPY=" +
                            (copies > 1 ? "1" : "0") + " CUDA_MODULE_LOADING=EAGER";
    add_anchor_row(report, section, "cudtw++", "DPX_ANCHOR_CUDTW", cells, "", env, squared_us, parse_cudtw);
  }
  DtwCase k;
  k.section = "DTW 10000 pairs x 1023^2";
  k.variant = "dpx f32 sq";
  k.squared = true;
  k.note = "float32 (a-b)^2, pairwise";
  const FloatSeriesBatch fa = random_walks<float>(rng, n, kSeriesLength);
  if (dtw_case(opts, report, k, fa, fs, Pairing::kPairwise, stream, nullptr)) return 1;
  k.variant = "dpx i32 abs";
  k.squared = false;
  k.note = "int32 |a-b|, pairwise";
  const SeriesBatch ia = random_walks<std::int32_t>(rng, n, kSeriesLength);
  return dtw_case(opts, report, k, ia, is, Pairing::kPairwise, stream, nullptr);
}
#endif

int run_align_anchor_shapes(const Options& opts, Report& report) {
#if DPX_HAVE_CUDA
  if (cuda_device_count() == 0) return 0;  // the other align file says so
  Stream stream;
  if (!stream.create().is_ok()) return 1;
  std::mt19937_64 rng(20261130);
  const int rc = bench_edit_shapes(opts, report, rng, stream.get());
  return rc ? rc : bench_dtw_shapes(opts, report, rng, stream.get());
#else
  (void)opts;
  (void)report;
  return 0;
#endif
}

const Registration registration("align", "edit distance and DTW in the shapes of StringZillas and cuDTW++",
                                run_align_anchor_shapes);

}  // namespace
}  // namespace bench
}  // namespace dpx
