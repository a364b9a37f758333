// Edit distance with CIGAR of one pair on the CPU: every cell (the reference) or only the band
// around the known distance (edit_band.cuh says why both give the same CIGAR).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dpx {
namespace align {

struct CigarWorkspace {
  std::vector<std::uint32_t> prev, cur;
  std::vector<std::uint8_t> codes;  // 2 bits per cell
  std::vector<char> ops;
};

// Both return the distance and set *cigar.
std::int64_t edit_cigar_full(const char* q, std::int64_t n, const char* t, std::int64_t m, CigarWorkspace* w,
                             std::string* cigar);
// `distance`: the pair's edit distance (from the bit-parallel recurrence).
std::int64_t edit_cigar_banded(const char* q, std::int64_t n, const char* t, std::int64_t m, std::int64_t distance,
                               CigarWorkspace* w, std::string* cigar);

}  // namespace align
}  // namespace dpx
