// The database scan kernels (DPX policy) and the query-row array they read.
#define DPX_ALIGN_INSTANTIATING
#include "sw_instances.h"

namespace dpx {
namespace align {

namespace device {
__global__ void scan_query_rows_kernel(BatchView b, int d, std::uint32_t* rows, std::int32_t entries) {
  const std::int32_t x = static_cast<std::int32_t>(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= entries) return;
  const std::int64_t stored = static_cast<std::int64_t>(b.q_offsets[1] - b.q_offsets[0]);
  const std::int32_t n = stored < b.planned_query ? static_cast<std::int32_t>(stored) : b.planned_query;
  rows[x] = scan_query_row(x, n, d, [&](std::int32_t i) {
    return b.code[static_cast<unsigned char>(b.q_data[b.q_offsets[0] + i - 1])];
  });
}
}  // namespace device

Status launch_scan_query_rows(const BatchView& b, int d, std::uint32_t* rows, cudaStream_t stream) {
  const std::int32_t entries = scan_row_entries(b.planned_query);
  device::scan_query_rows_kernel<<<(entries + 255) / 256, 256, 0, stream>>>(b, d, rows, entries);
  DPX_CUDA_CHECK_LAUNCH("scan_query_rows_kernel");
  return Status::ok();
}

DPX_ALIGN_SCAN()
}  // namespace align
}  // namespace dpx
