#include "output_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace dpx {
namespace cli {

OutputFile::~OutputFile() {
  if (temp_.empty()) return;
  if (file_ != nullptr) std::fclose(file_);
  unlink(temp_.c_str());
}

bool OutputFile::open(const std::string& path, std::string* error) {
  path_ = path;
  if (path == "-") {
    file_ = stdout;
    return true;
  }
  std::vector<char> name(path.begin(), path.end());
  const std::string suffix = ".tmp.XXXXXX";
  name.insert(name.end(), suffix.begin(), suffix.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0) {
    *error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  temp_ = name.data();
  const mode_t mask = umask(0);  // mkstemp makes 0600; the table gets the usual permissions
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  file_ = fdopen(fd, "w");
  if (file_ == nullptr) {
    close(fd);
    *error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

bool OutputFile::commit(std::string* error) {
  if (temp_.empty()) {
    if (std::fflush(stdout) == 0) return true;
    *error = "cannot write standard output";
    return false;
  }
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!closed || std::rename(temp_.c_str(), path_.c_str()) != 0) {
    *error = "cannot write " + path_ + ": " + std::strerror(errno);
    return false;
  }
  temp_.clear();
  return true;
}

}  // namespace cli
}  // namespace dpx
