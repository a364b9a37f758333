// Bit-parallel edit distance of one pair on the CPU (edit_bitparallel.cuh's recurrence), the
// distance-only path of edit_distance_cpu.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace dpx {
namespace align {

// Per-thread buffers, reused across pairs: the match table stays all zeros between calls.
struct BitParallelWorkspace {
  std::vector<std::uint64_t> peq;  // [letter][word]
  std::vector<std::uint64_t> pv, mv;
};

std::int64_t edit_distance_bitparallel(std::string_view q, std::string_view t, BitParallelWorkspace* ws);

}  // namespace align
}  // namespace dpx
