// What the harnesses share: the fuzzer's bytes as a file the readers open by path (one memory
// file per process, rewritten for each input), and a byte taken off the front to choose options.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace dpx {
namespace fuzz {

// "/proc/self/fd/N" of a memory file holding exactly `data`.
inline std::string as_file(const std::uint8_t* data, std::size_t size) {
  static const int fd = memfd_create("fuzz-input", 0);
  if (fd < 0 || ftruncate(fd, 0) != 0) std::abort();
  for (std::size_t at = 0; at < size;) {
    const ssize_t n = pwrite(fd, data + at, size - at, static_cast<off_t>(at));
    if (n <= 0) std::abort();
    at += static_cast<std::size_t>(n);
  }
  return "/proc/self/fd/" + std::to_string(fd);
}

// The first byte (0 when there is none), taken off the input.
inline std::uint8_t take_byte(const std::uint8_t** data, std::size_t* size) {
  if (*size == 0) return 0;
  --*size;
  return *(*data)++;
}

}  // namespace fuzz
}  // namespace dpx
