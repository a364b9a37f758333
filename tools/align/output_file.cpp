#include "output_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace dpx {
namespace cli {
namespace {

// What the signal handler needs, set up before it can run: it may only use async-signal-safe calls.
char g_temp[PATH_MAX + 16];  // the temporary file to remove, empty when none
char g_note[2 * PATH_MAX + 128];
std::size_t g_note_bytes = 0;
const int kEndingSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
struct sigaction g_before[sizeof kEndingSignals / sizeof kEndingSignals[0]];

void say(const char* text) { (void)!write(STDERR_FILENO, text, std::strlen(text)); }

extern "C" void remove_temp_and_end(int sig) {
  if (g_temp[0] != '\0') unlink(g_temp);
  say("dpx-align: stopped by ");
  say(sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "SIGQUIT");
  (void)!write(STDERR_FILENO, g_note, g_note_bytes);
  raise(sig);  // SA_RESETHAND made the action the default one: the program ends as the signal asks
}

// Holds back the ending signals while in scope, so none comes between making the temporary file
// and arming its removal, or between the rename and disarming.
class SignalsHeld {
 public:
  SignalsHeld() {
    sigset_t held;
    sigemptyset(&held);
    for (int s : kEndingSignals) sigaddset(&held, s);
    sigprocmask(SIG_BLOCK, &held, &before_);
  }
  ~SignalsHeld() { sigprocmask(SIG_SETMASK, &before_, nullptr); }

 private:
  sigset_t before_;
};

void arm(const std::string& temp, const std::string& path) {
  const std::string note = "; removed the unfinished " + temp + ", " + path + " is as it was\n";
  if (temp.size() >= sizeof g_temp || note.size() > sizeof g_note) return;  // nothing PATH_MAX allows
  std::memcpy(g_note, note.data(), note.size());
  g_note_bytes = note.size();
  std::memcpy(g_temp, temp.c_str(), temp.size() + 1);
  struct sigaction sa {};
  sa.sa_handler = remove_temp_and_end;
  sa.sa_flags = SA_RESETHAND;
  sigfillset(&sa.sa_mask);
  for (std::size_t i = 0; i < sizeof kEndingSignals / sizeof kEndingSignals[0]; ++i) {
    sigaction(kEndingSignals[i], &sa, &g_before[i]);
  }
}

void disarm() {
  if (g_temp[0] == '\0') return;
  for (std::size_t i = 0; i < sizeof kEndingSignals / sizeof kEndingSignals[0]; ++i) {
    sigaction(kEndingSignals[i], &g_before[i], nullptr);
  }
  g_temp[0] = '\0';
}

bool starts_with(const std::string& s, const char* prefix) { return s.compare(0, std::strlen(prefix), prefix) == 0; }

std::string folder_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

// `path` with its symbolic links followed to the file they name, which need not exist. Empty when
// a link leads into /proc (/dev/stdout, /dev/fd/N): those name an open file, written directly.
bool follow_links(const std::string& path, std::string* target, std::string* error) {
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {
    if (starts_with(p, "/proc/") || starts_with(p, "/dev/fd/")) {
      target->clear();
      return true;
    }
    struct stat st {};
    if (lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) {
      *target = p;
      return true;
    }
    std::vector<char> link(PATH_MAX + 1);
    const ssize_t n = readlink(p.c_str(), link.data(), link.size() - 1);
    if (n < 0) break;
    const std::string to(link.data(), static_cast<std::size_t>(n));
    p = to[0] == '/' ? to : folder_of(p) + "/" + to;
  }
  *error = "cannot write " + path + ": " + std::strerror(errno ? errno : ELOOP);
  return false;
}

// An unnamed file for output kept until the run succeeded.
int unnamed_temp() {
  const char* dir = std::getenv("TMPDIR");
  std::string name = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/dpx-align.XXXXXX";
  const int fd = mkstemp(&name[0]);
  if (fd >= 0) unlink(name.c_str());
  return fd;
}

bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

std::string cannot_write(const std::string& path, int err) {
  return "cannot write " + (path == "-" ? std::string("standard output") : path) + ": " + std::strerror(err);
}

}  // namespace

OutputFile::~OutputFile() {
  release();
  if (!temp_.empty()) unlink(temp_.c_str());
  disarm();
}

void OutputFile::release() {
  if (file_ != nullptr) std::fclose(file_);  // closes fd_ when owned
  else if (owned_ && fd_ >= 0) close(fd_);
  file_ = nullptr;
  fd_ = -1;
}

ssize_t OutputFile::write_cookie(void* self, const char* data, std::size_t size) {
  auto* out = static_cast<OutputFile*>(self);
  if (write_all(out->fd_, data, size)) return static_cast<ssize_t>(size);
  if (out->errno_ == 0) out->errno_ = errno;
  return 0;
}

// Every write goes through write_cookie, which keeps the reason of the first failure.
bool OutputFile::attach(int fd, bool owned, std::string* error) {
  fd_ = fd;
  owned_ = owned;
  cookie_io_functions_t io{};
  io.write = &OutputFile::write_cookie;
  io.close = [](void* self) {
    auto* out = static_cast<OutputFile*>(self);
    return out->owned_ ? close(out->fd_) : 0;
  };
  file_ = fopencookie(this, "w", io);
  if (file_ != nullptr) return true;
  *error = cannot_write(path_, errno);
  return false;
}

bool OutputFile::open(const std::string& path, std::string* error) {
  path_ = path;
  if (path == "-") return attach(STDOUT_FILENO, false, error);
  if (!follow_links(path, &target_, error)) return false;
  struct stat st {};
  const bool exists = !target_.empty() && stat(target_.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) {
    *error = cannot_write(path, EISDIR);
    return false;
  }
  if (target_.empty() || (exists && !S_ISREG(st.st_mode))) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
      *error = cannot_write(path, errno);
      return false;
    }
    mode_ = Mode::kDirect;
    return attach(fd, true, error);
  }
  std::string name = target_ + ".tmp.XXXXXX";
  SignalsHeld held;
  const int fd = mkstemp(&name[0]);
  if (fd < 0) {
    const int err = errno;
    if (!exists || access(target_.c_str(), W_OK) != 0 || (err != EACCES && err != EPERM && err != EROFS)) {
      *error = cannot_write(path, err);
      return false;
    }
    const int kept = unnamed_temp();
    if (kept < 0) {
      *error = cannot_write(path, err) + " (and no temporary file could be made to write it in place: " +
               std::strerror(errno) + ")";
      return false;
    }
    mode_ = Mode::kCopyIn;
    return attach(kept, true, error);
  }
  temp_ = name;
  mode_ = Mode::kReplace;
  arm(temp_, path);
  if (exists) {
    fchmod(fd, st.st_mode & 07777);
    (void)!fchown(fd, st.st_uid, st.st_gid);  // only root may give a file away; the mode still holds
  } else {
    const mode_t mask = umask(0);  // mkstemp makes 0600; a new file gets the usual permissions
    umask(mask);
    fchmod(fd, 0666 & ~mask);
  }
  return attach(fd, true, error);
}

std::string OutputFile::write_error() const {
  if (errno_ != 0) return cannot_write(path_, errno_);
  if (file_ != nullptr && std::ferror(file_)) return cannot_write(path_, EIO);
  return "";
}

bool OutputFile::copy_in(std::string* error) {
  const int to = ::open(target_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  bool ok = to >= 0;
  std::vector<char> buf(1 << 20);
  for (off_t at = 0; ok;) {
    const ssize_t n = pread(fd_, buf.data(), buf.size(), at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ok = n == 0;
      break;
    }
    ok = write_all(to, buf.data(), static_cast<std::size_t>(n));
    at += n;
  }
  ok = ok && fsync(to) == 0;
  const int err = errno;
  if (to >= 0) ok = close(to) == 0 && ok;
  if (!ok) *error = cannot_write(path_, err);
  return ok;
}

bool OutputFile::commit(std::string* error) {
  const bool flushed = std::fflush(file_) == 0;
  *error = write_error();
  if (!flushed && error->empty()) *error = cannot_write(path_, errno);
  if (!error->empty()) return false;
  // a device or pipe cannot be synced; a regular file must be on disk before it replaces the old one
  if (mode_ != Mode::kDirect && fsync(fd_) != 0) {
    *error = cannot_write(path_, errno);
    return false;
  }
  if (mode_ == Mode::kCopyIn && !copy_in(error)) return false;
  std::FILE* f = file_;
  file_ = nullptr;
  const bool closed = std::fclose(f) == 0;  // closes fd_ through the cookie, failed or not
  fd_ = -1;
  if (!closed) {
    *error = cannot_write(path_, errno);
    return false;
  }
  if (mode_ != Mode::kReplace) return true;
  {
    SignalsHeld held;
    if (std::rename(temp_.c_str(), target_.c_str()) != 0) {
      *error = cannot_write(path_, errno);
      return false;
    }
    temp_.clear();
    disarm();
  }
  const int dir = ::open(folder_of(target_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {  // the rename itself on disk too; a folder that cannot be synced is no error
    fsync(dir);
    close(dir);
  }
  return true;
}

}  // namespace cli
}  // namespace dpx
