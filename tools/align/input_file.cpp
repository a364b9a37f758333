#include "input_file.h"

#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace dpx {
namespace cli {

namespace {

// Cuts bytes that come in pieces into lines: "\n", "\r\n" and a lone "\r" end one, wherever the
// pieces are cut.
class LineSplitter {
 public:
  explicit LineSplitter(const LineFn& line) : line_(line) {}

  bool feed(const char* p, const char* end) {
    const char* nl = p;  // the next '\n' at or after p, or end; found again once p passed it
    while (p < end) {
      if (after_cr_) {
        after_cr_ = false;
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
        partial_.append(p, end);
        return true;
      }
      bool ok;
      if (partial_.empty()) {
        ok = emit(p, stop);
      } else {
        partial_.append(p, stop);
        ok = emit(partial_.data(), partial_.data() + partial_.size());
        partial_.clear();
      }
      if (!ok) return false;
      after_cr_ = *stop == '\r';
      p = stop + 1;
    }
    return true;
  }

  // The last line, when the input does not end with a line end.
  bool finish() { return partial_.empty() || emit(partial_.data(), partial_.data() + partial_.size()); }

 private:
  bool emit(const char* b, const char* e) { return line_(std::string_view(b, static_cast<std::size_t>(e - b)), index_++); }

  const LineFn& line_;
  std::string partial_;  // a line split across pieces
  std::size_t index_ = 0;
  bool after_cr_ = false;  // the last line ended at a '\r': a '\n' next is part of its end
};

}  // namespace

bool read_input_lines(const std::string& path, const LineFn& line, std::string* error, std::size_t* size) {
  errno = 0;
  gzFile f = path == "-" ? gzdopen(fileno(stdin), "rb") : gzopen(path.c_str(), "rb");
  if (f == nullptr) {
    *error = "cannot open " + path + ": " + (errno ? std::strerror(errno) : "out of memory");
    return false;
  }
  std::vector<char> buf(1 << 16);
  LineSplitter lines(line);
  bool ok = true, first = true;
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
    ok = lines.feed(buf.data(), buf.data() + got);
  }
  ok = ok && lines.finish();
  // a truncated gzip stream reads as a short file; gzclose reports it
  if (gzclose(f) != Z_OK && ok) {
    *error = "cannot read " + path + ": the gzip stream is truncated or corrupt";
    return false;
  }
  return ok;
}

bool split_lines(std::string_view text, std::size_t chunk, const LineFn& line) {
  LineSplitter lines(line);
  chunk = std::max<std::size_t>(chunk, 1);
  for (std::size_t at = 0; at < text.size(); at += chunk) {
    if (!lines.feed(text.data() + at, text.data() + std::min(text.size(), at + chunk))) return false;
  }
  return lines.finish();
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
