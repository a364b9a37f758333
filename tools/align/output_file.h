// The destination of a table or database file: --output PATH, or standard output ("-").
// - A regular file, or one that does not exist yet: written to a temporary file beside it, which
//   is flushed to disk and renamed over PATH only when everything was written, with the old
//   file's mode (and owner, where allowed). A failed or stopped run leaves the old file as it was.
// - A symbolic link: the same for the file it points to; the link stays a link.
// - A character device, FIFO or socket (/dev/null, /dev/stdout, a named pipe): written directly.
// - A writable file in a folder where no temporary file can be made: the output is kept in an
//   unnamed temporary file (in $TMPDIR, else /tmp) and copied into PATH once the run succeeded.
// While a temporary file beside PATH exists, a signal that ends the program (SIGINT, SIGTERM,
// SIGHUP, SIGQUIT) removes it and says so on standard error before the program ends (one such
// file at a time: a program replaces its outputs one after the other).
#pragma once

#include <cstdio>
#include <string>

namespace dpx {
namespace cli {

class OutputFile {
 public:
  OutputFile() = default;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();  // removes the temporary file unless commit() succeeded

  // False with `error` set when PATH cannot be written (a folder, no permission).
  bool open(const std::string& path, std::string* error);
  std::FILE* get() const { return file_; }
  // "cannot write PATH: reason" once a write failed (a full disk, a closed pipe), else empty.
  std::string write_error() const;
  // Flushes everything, then puts it in place (rename, or copy into PATH).
  bool commit(std::string* error);

 private:
  enum class Mode { kDirect, kReplace, kCopyIn };
  static ssize_t write_cookie(void* self, const char* data, std::size_t size);
  bool attach(int fd, bool owned, std::string* error);
  bool copy_in(std::string* error);
  void release();

  Mode mode_ = Mode::kDirect;
  std::string path_;    // as given, for messages
  std::string target_;  // the file replaced: PATH with its symbolic links followed
  std::string temp_;    // the temporary file beside target_ (kReplace) until commit()
  std::FILE* file_ = nullptr;
  int fd_ = -1;
  bool owned_ = false;  // fd_ is closed with file_
  int errno_ = 0;       // of the first failed write
};

}  // namespace cli
}  // namespace dpx
