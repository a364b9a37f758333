#include "launch_sizing.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>

#include "cuda_check.h"

namespace dpx {
namespace runtime {
namespace {

using OccupancyKey = std::tuple<int, const void*, int, std::size_t>;  // device, kernel, threads, smem

struct Cache {
  std::mutex mutex;
  std::map<int, int> sms;
  std::map<OccupancyKey, int> per_sm;
};

Cache& cache() {
  static Cache c;
  return c;
}

Status sm_count_of(int device, int* sms) {
  Cache& c = cache();
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    const auto it = c.sms.find(device);
    if (it != c.sms.end()) {
      *sms = it->second;
      return Status::ok();
    }
  }
  DPX_CUDA_TRY(cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, device));
  std::lock_guard<std::mutex> lock(c.mutex);
  c.sms[device] = *sms;
  return Status::ok();
}

}  // namespace

Status sm_count(int* sms) {
  int device = 0;
  DPX_CUDA_TRY(cudaGetDevice(&device));
  return sm_count_of(device, sms);
}

Status resident_blocks(const void* kernel, int threads, std::size_t smem, std::int64_t* blocks) {
  int device = 0, sms = 0, per_sm = 0;
  DPX_CUDA_TRY(cudaGetDevice(&device));
  DPX_RETURN_IF_ERROR(sm_count_of(device, &sms));
  const OccupancyKey key{device, kernel, threads, smem};
  Cache& c = cache();
  bool known = false;
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    const auto it = c.per_sm.find(key);
    if (it != c.per_sm.end()) {
      per_sm = it->second;
      known = true;
    }
  }
  if (!known) {
    DPX_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
    std::lock_guard<std::mutex> lock(c.mutex);
    c.per_sm[key] = per_sm;
  }
  *blocks = static_cast<std::int64_t>(std::max(sms, 1)) * std::max(per_sm, 1);
  return Status::ok();
}

}  // namespace runtime
}  // namespace dpx
