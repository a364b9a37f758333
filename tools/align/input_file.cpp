#include "input_file.h"

#include <sys/stat.h>
#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace dpx {
namespace cli {

bool read_input_lines(const std::string& path, const LineFn& line, std::string* error, std::size_t* size) {
  errno = 0;
  gzFile f = path == "-" ? gzdopen(fileno(stdin), "rb") : gzopen(path.c_str(), "rb");
  if (f == nullptr) {
    *error = "cannot open " + path + ": " + (errno ? std::strerror(errno) : "out of memory");
    return false;
  }
  std::vector<char> buf(1 << 16);
  std::string partial;  // a line split across reads
  std::size_t index = 0;
  bool ok = true, first = true;
  bool after_cr = false;  // the last line ended at a '\r': a '\n' next is part of its end
  auto emit = [&](const char* b, const char* e) {
    return line(std::string_view(b, static_cast<std::size_t>(e - b)), index++);
  };
  while (ok) {
    const int got = gzread(f, buf.data(), static_cast<unsigned>(buf.size()));
    if (got < 0) {
      int code = 0;
      const char* msg = gzerror(f, &code);
      *error = "cannot read " + path + ": " + (code == Z_ERRNO ? std::strerror(errno) : msg);
      gzclose(f);
      return false;
    }
    if (first && size != nullptr) {  // gzdirect is known once something was read
      struct stat st {};
      *size = path != "-" && gzdirect(f) && stat(path.c_str(), &st) == 0 ? static_cast<std::size_t>(st.st_size) : 0;
    }
    first = false;
    if (got == 0) break;
    const char* p = buf.data();
    const char* end = p + got;
    const char* nl = p;  // the next '\n' at or after p, or end; found again once p passed it
    while (ok && p < end) {
      if (after_cr) {
        after_cr = false;
        if (*p == '\n') {
          ++p;
          continue;
        }
      }
      if (nl < p || (nl == p && *p != '\n')) {
        nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
        if (nl == nullptr) nl = end;
      }
      const char* cr = static_cast<const char*>(std::memchr(p, '\r', static_cast<std::size_t>(nl - p)));
      const char* stop = cr != nullptr ? cr : nl;
      if (stop == end) {
        partial.append(p, end);
        break;
      }
      if (partial.empty()) {
        ok = emit(p, stop);
      } else {
        partial.append(p, stop);
        ok = emit(partial.data(), partial.data() + partial.size());
        partial.clear();
      }
      after_cr = *stop == '\r';
      p = stop + 1;
    }
  }
  if (ok && !partial.empty()) ok = emit(partial.data(), partial.data() + partial.size());
  // a truncated gzip stream reads as a short file; gzclose reports it
  if (gzclose(f) != Z_OK && ok) {
    *error = "cannot read " + path + ": the gzip stream is truncated or corrupt";
    return false;
  }
  return ok;
}

bool read_input_file(const std::string& path, std::string* text, std::string* error) {
  text->clear();
  return read_input_lines(path, [&](std::string_view l, std::size_t) {
    text->append(l).push_back('\n');
    return true;
  }, error);
}

}  // namespace cli
}  // namespace dpx
