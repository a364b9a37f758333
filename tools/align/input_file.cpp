#include "input_file.h"

#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace dpx {
namespace cli {

bool read_input_file(const std::string& path, std::string* text, std::string* error) {
  errno = 0;
  gzFile f = path == "-" ? gzdopen(fileno(stdin), "rb") : gzopen(path.c_str(), "rb");
  if (f == nullptr) {
    *error = "cannot open " + path + ": " + (errno ? std::strerror(errno) : "out of memory");
    return false;
  }
  text->clear();
  char buf[1 << 16];
  while (true) {
    const int got = gzread(f, buf, sizeof buf);
    if (got < 0) {
      int code = 0;
      const char* msg = gzerror(f, &code);
      *error = "cannot read " + path + ": " + (code == Z_ERRNO ? std::strerror(errno) : msg);
      gzclose(f);
      return false;
    }
    if (got == 0) break;
    text->append(buf, static_cast<std::size_t>(got));
  }
  // a truncated gzip stream reads as a short file; gzclose reports it
  if (gzclose(f) != Z_OK) {
    *error = "cannot read " + path + ": the gzip stream is truncated or corrupt";
    return false;
  }
  return true;
}

}  // namespace cli
}  // namespace dpx
