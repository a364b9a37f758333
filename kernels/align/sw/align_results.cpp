#include "align_results.h"

#include "sw_cuda.h"
#include "align/common/cigar.h"
#include "cuda_backend.h"

namespace dpx {
namespace align {

namespace {
Status refused(std::size_t pair) {
  return invalid_argument("AlignPlan::run: pair " + std::to_string(pair) +
                          " in the device batches does not have the lengths the plan was made for");
}
}  // namespace

HostAlignResults host_results(std::size_t count, bool traceback, const std::vector<std::uint64_t>& op_offsets,
                              const std::vector<std::pair<std::int32_t, std::string>>& fixed_cigars) {
  HostAlignResults host;
  host.count = count;
  host.traceback = traceback;
  if (traceback && count > 0) host.op_offsets = op_offsets;
  host.fixed_cigars = fixed_cigars;
  return host;
}

Status assemble_scores(const HostAlignResults& in, std::vector<std::int32_t>* out) {
  std::vector<std::int32_t> scores(in.count);
  for (std::size_t k = 0; k < in.count; ++k) {
    scores[k] = in.fields[k * 5];
    if (scores[k] == kRefusedScore) return refused(k);
  }
  *out = std::move(scores);
  return Status::ok();
}

Status assemble_results(const HostAlignResults& in, std::vector<AlignResult>* out) {
  std::vector<AlignResult> results(in.count);  // the caller's vector changes only on success
  for (std::size_t k = 0; k < in.count; ++k) {
    AlignResult& r = results[k];
    const std::int32_t* f = &in.fields[k * 5];
    if (f[0] == kRefusedScore) return refused(k);
    r.score = f[0];
    r.query_begin = f[1];
    r.query_end = f[2];
    r.target_begin = f[3];
    r.target_end = f[4];
    if (!in.traceback) continue;
    const std::uint64_t end = in.op_offsets[k + 1];
    const std::uint64_t count = static_cast<std::uint64_t>(in.op_counts[k]);
    if (count > end - in.op_offsets[k]) return Status(StatusCode::kCudaError, "DeviceAlignResults::download: corrupt traceback count");
    r.cigar = cigar_from_ops(in.ops.data() + (end - count), count);
  }
  for (const auto& fixed : in.fixed_cigars) results[static_cast<std::size_t>(fixed.first)].cigar = fixed.second;
  *out = std::move(results);
  return Status::ok();
}

}  // namespace align

Status DeviceAlignResults::download(std::vector<AlignResult>* out, cudaStream_t stream) const {
  if (out == nullptr) return invalid_argument("DeviceAlignResults::download: out is null");
  const align::ResultArrays arrays{fields_.as<std::int32_t>(), ops_.as<char>(),
                                   op_counts_.as<std::int32_t>()};
  DPX_CUDA_BACKEND(
      "DeviceAlignResults::download",
      align::download_results(arrays, align::host_results(count_, traceback_, op_offsets_, fixed_cigars_),
                              out, stream));
}

Status DeviceAlignResults::download_scores(std::vector<std::int32_t>* scores, cudaStream_t stream) const {
  if (scores == nullptr) return invalid_argument("DeviceAlignResults::download_scores: scores is null");
  DPX_CUDA_BACKEND("DeviceAlignResults::download_scores",
                   align::download_scores(fields_.as<std::int32_t>(), count_, scores, stream));
}

}  // namespace dpx
