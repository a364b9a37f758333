#include "dpx/plane.h"

#include <string>

namespace dpx {

Status validate_plane(const PlaneView& plane, const char* what) {
  const std::string name(what);
  if (plane.data == nullptr) return invalid_argument(name + ": null data pointer");
  if (plane.width < 1 || plane.height < 1) {
    return invalid_argument(name + ": size " + std::to_string(plane.width) + "x" +
                            std::to_string(plane.height) + " (width and height must be >= 1)");
  }
  if (plane.channels != 1 && plane.channels != 2 && plane.channels != 4) {
    return invalid_argument(name + ": " + std::to_string(plane.channels) +
                            " channels (1, 2 or 4 interleaved are supported)");
  }
  if (plane.type != SampleType::kU8 && plane.type != SampleType::kU16) {
    return invalid_argument(name + ": unknown sample type");
  }
  if (plane.pitch < plane.row_bytes()) {
    return invalid_argument(name + ": pitch " + std::to_string(plane.pitch) +
                            " bytes is smaller than a row (" + std::to_string(plane.row_bytes()) +
                            " bytes)");
  }
  return Status::ok();
}

Status validate_same_shape(const PlaneView& a, const PlaneView& b) {
  if (a.width != b.width || a.height != b.height || a.channels != b.channels || a.type != b.type) {
    return invalid_argument("src and dst differ in size, channels or sample type");
  }
  return Status::ok();
}

}  // namespace dpx
