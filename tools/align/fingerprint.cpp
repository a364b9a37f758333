#include "fingerprint.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace dpx {
namespace cli {

void Fingerprint::mix(std::uint64_t word) {
  state_ ^= word * 0xff51afd7ed558ccdull;
  state_ = ((state_ << 27) | (state_ >> 37)) * 0x9e3779b97f4a7c15ull + 0x52dce729ull;
}

void Fingerprint::add(std::string_view bytes) {
  mix(bytes.size());  // so that "ab" + "c" differs from "a" + "bc"
  std::size_t at = 0;
  for (; at + 8 <= bytes.size(); at += 8) {
    std::uint64_t word;
    std::memcpy(&word, bytes.data() + at, 8);
    mix(word);
  }
  if (at < bytes.size()) {
    std::uint64_t word = 0;
    std::memcpy(&word, bytes.data() + at, bytes.size() - at);
    mix(word);
  }
}

void Fingerprint::add(std::uint64_t value) { mix(value); }

std::uint64_t Fingerprint::value() const {
  std::uint64_t h = state_;  // the final avalanche of MurmurHash3
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 33);
}

std::string hex(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

bool file_fingerprint(const std::string& path, std::uint64_t* bytes, std::uint64_t* fingerprint, std::string* error) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), std::fclose);
  if (file == nullptr) {
    *error = path + ": " + std::strerror(errno);
    return false;
  }
  std::vector<char> piece(std::size_t(1) << 20);
  Fingerprint f;
  *bytes = 0;
  std::size_t got;
  while ((got = std::fread(piece.data(), 1, piece.size(), file.get())) > 0) {
    f.add(std::string_view(piece.data(), got));
    *bytes += got;
  }
  if (std::ferror(file.get())) {
    *error = path + ": cannot read it";
    return false;
  }
  *fingerprint = f.value();
  return true;
}

}  // namespace cli
}  // namespace dpx
