#include "gstdpxmotionfile.h"

#include <fcntl.h>
#include <unistd.h>

namespace gstdpx {

bool MotionFile::start(const std::string& path) {
  close();
  written_.clear();
  start_path_ = path;
  if (path.empty()) return true;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0666);  // no O_TRUNC: see the header
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

MotionFile::Written MotionFile::write(const std::string& path, const std::function<std::string()>& format) {
  if (path.empty()) return Written::kOk;
  if (path != open_path_) {
    close();
    const bool again = written_.count(path) != 0;
    file_ = std::fopen(path.c_str(), again ? "a" : "w");
    if (file_ == nullptr) return Written::kCannotOpen;
    open_path_ = path;
    written_.insert(path);
  }
  const std::string line = format();
  const bool ok = std::fwrite(line.data(), 1, line.size(), file_) == line.size() && std::fflush(file_) == 0;
  return ok ? Written::kOk : Written::kCannotWrite;
}

void MotionFile::stop(bool streamed) {
  close();
  if (streamed && !start_path_.empty() && written_.count(start_path_) == 0) {
    if (std::FILE* f = std::fopen(start_path_.c_str(), "w")) std::fclose(f);
  }
  written_.clear();
  start_path_.clear();
}

void MotionFile::close() {
  if (file_ != nullptr) std::fclose(file_);
  file_ = nullptr;
  open_path_.clear();
}

bool write_line_or_post_error(GstElement* element, MotionFile& file, const std::string& path,
                              const std::function<std::string()>& format) {
  using Written = MotionFile::Written;
  const Written w = file.write(path, format);
  if (w == Written::kCannotOpen)
    GST_ELEMENT_ERROR(element, RESOURCE, OPEN_WRITE,
                      ("Could not open file \"%s\" for writing.", path.c_str()), GST_ERROR_SYSTEM);
  else if (w == Written::kCannotWrite)
    GST_ELEMENT_ERROR(element, RESOURCE, WRITE, ("Could not write to file \"%s\".", path.c_str()),
                      GST_ERROR_SYSTEM);
  return w == Written::kOk;
}

}  // namespace gstdpx
