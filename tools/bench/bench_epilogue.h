// dpx-bench epilogue: what its host part (bench_epilogue.cpp: cases, inputs, CPU rows) and its GPU
// part (bench_epilogue_cuda.cpp, CUDA builds only) share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench.h"
#include "dpx/epilogue.h"

namespace dpx {
namespace bench {

enum class EpilogueKind { kRequantize, kResidual, kMerge3 };

struct EpilogueCase {
  std::string name;
  EpilogueKind kind = EpilogueKind::kRequantize;
  RequantParams requant;  // kRequantize, kResidual
  Merge3Params merge;     // kMerge3

  // Bytes read and written per element (the per-channel table, a few hundred bytes, aside).
  std::size_t bytes_per_element() const;
  std::size_t output_bytes() const;  // per element
};

// The cases of the benchmark; the per-channel one reads `channels`.
std::vector<EpilogueCase> epilogue_cases(const RequantChannels* channels);

// Host inputs: accumulators of up to +-2^23 (a shift of 8 brings them around the int16 range,
// some saturating) and three int16 tensors (the first doubles as the residual).
struct EpilogueInputs {
  std::vector<std::int32_t> acc;
  std::vector<std::int16_t> a, b, c;
};
EpilogueInputs epilogue_inputs(std::size_t n);

// One case on the CPU backend over elements [offset, offset + n) of `in`; `out` holds n outputs.
Status run_epilogue_cpu(const EpilogueCase& c, const EpilogueInputs& in, std::size_t offset, std::size_t n, void* out);

// The GPU rows: inputs tiled from a host block over n elements on the device, each case checked
// against the CPU on a window, then timed with both ops policies beside a device copy of the same
// number of bytes.
class EpilogueGpuBench {
 public:
  EpilogueGpuBench();
  ~EpilogueGpuBench();
  Status setup(const Options& opts, std::size_t n, const EpilogueInputs& block, RequantChannels& channels);
  // Adds the case's rows under `section`; returns false (and adds no times) when the GPU
  // disagreed with the CPU or a call failed.
  bool add_rows(const EpilogueCase& c, const std::string& section, Report& report);

  struct State;  // buffers, stream, sizes (bench_epilogue_cuda.cpp)

 private:
  std::unique_ptr<State> s_;
};

}  // namespace bench
}  // namespace dpx
