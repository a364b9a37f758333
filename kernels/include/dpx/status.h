// dpx::Status — what every libdpx call returns. The library never exits, aborts or prints:
// a failure comes back as a code plus a message that says what was wrong and, for CUDA
// errors, where (file:line).
#pragma once

#include <string>
#include <utility>

namespace dpx {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,   // null pointer, bad size, pitch too small, out-of-range parameter
  kUnsupported,       // a valid request this build or backend does not implement
  kNotBuilt,          // CUDA requested but the library was built without CUDA
  kNoDevice,          // CUDA requested but no usable device
  kCudaError,         // a CUDA runtime call or kernel launch failed
  kOutOfMemory,       // host or device allocation failed
  kOverflow,          // a result does not fit the requested output
  kInternal,          // an unexpected failure inside the library (e.g. an exception in a CPU worker)
};

class Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status ok() { return Status(); }

  bool is_ok() const { return code_ == StatusCode::kOk; }
  explicit operator bool() const { return is_ok(); }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status invalid_argument(std::string message) {
  return Status(StatusCode::kInvalidArgument, std::move(message));
}

const char* status_code_name(StatusCode code);

}  // namespace dpx

// Returns early from the enclosing function when `expr` yields a failed Status.
#define DPX_RETURN_IF_ERROR(expr)            \
  do {                                       \
    ::dpx::Status dpx_status_tmp_ = (expr);  \
    if (!dpx_status_tmp_.is_ok()) return dpx_status_tmp_; \
  } while (0)
