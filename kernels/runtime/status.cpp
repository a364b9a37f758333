#include "dpx/status.h"

namespace dpx {

const char* status_code_name(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "ok";
    case StatusCode::kInvalidArgument: return "invalid argument";
    case StatusCode::kUnsupported: return "unsupported";
    case StatusCode::kNotBuilt: return "not built";
    case StatusCode::kNoDevice: return "no CUDA device";
    case StatusCode::kCudaError: return "CUDA error";
    case StatusCode::kOutOfMemory: return "out of memory";
    case StatusCode::kOverflow: return "overflow";
    case StatusCode::kInternal: return "internal error";
  }
  return "unknown";
}

}  // namespace dpx
