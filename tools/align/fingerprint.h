// A 64-bit fingerprint of bytes, to tell whether two runs saw the same inputs and whether a file
// is still the one a run wrote. Not cryptographic: it guards against mistakes, not against tampering.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace dpx {
namespace cli {

class Fingerprint {
 public:
  // Eight bytes at a time; the same bytes in the same calls give the same value on every
  // little-endian machine.
  void add(std::string_view bytes);
  void add(std::uint64_t value);
  std::uint64_t value() const;

 private:
  void mix(std::uint64_t word);

  std::uint64_t state_ = 0x243f6a8885a308d3ull;
};

// 16 lower-case hex digits.
std::string hex(std::uint64_t value);

// The size and fingerprint of the file at `path`, read in fixed-size pieces; false with `error`
// naming the file when it cannot be read.
bool file_fingerprint(const std::string& path, std::uint64_t* bytes, std::uint64_t* fingerprint, std::string* error);

}  // namespace cli
}  // namespace dpx
