// The table's destination: standard output, or a temporary file beside --output that replaces it
// only when everything was written, so a failed run leaves the old file as it was.
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

  // "-" = standard output. False with `error` set when the temporary file cannot be made.
  bool open(const std::string& path, std::string* error);
  std::FILE* get() const { return file_; }
  // Flushes and closes, then renames the temporary file over `path`.
  bool commit(std::string* error);

 private:
  std::string path_, temp_;
  std::FILE* file_ = nullptr;
};

}  // namespace cli
}  // namespace dpx
