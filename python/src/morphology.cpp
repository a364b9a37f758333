// dpx.morphology: a 2-D plane or a channels-last 3-D image through morph_cpu / morph_cuda. One, two
// or four channels go to the library interleaved; any other count one channel at a time.
#include <cstring>
#include <string>
#include <vector>

#include "arrays.h"
#include "bindings.h"
#include "dpx/morphology.h"
#include "placement.h"

namespace dpx {
namespace py_bindings {
namespace {

MorphOp parse_op(const std::string& s) {
  if (s == "dilate") return MorphOp::kDilate;
  if (s == "erode") return MorphOp::kErode;
  if (s == "open") return MorphOp::kOpen;
  if (s == "close") return MorphOp::kClose;
  if (s == "gradient") return MorphOp::kGradient;
  if (s == "tophat") return MorphOp::kTopHat;
  if (s == "blackhat") return MorphOp::kBlackHat;
  raise_value_error("op must be one of dilate, erode, open, close, gradient, tophat, blackhat; got '" + s + "'");
}

MorphShape parse_shape(const std::string& s) {
  if (s == "rect") return MorphShape::kRect;
  if (s == "cross") return MorphShape::kCross;
  if (s == "ellipse") return MorphShape::kEllipse;
  raise_value_error("shape must be 'rect', 'cross' or 'ellipse', got '" + s + "'");
}

BorderMode parse_border(const std::string& s) {
  if (s == "replicate") return BorderMode::kReplicate;
  if (s == "reflect101") return BorderMode::kReflect101;
  if (s == "neutral") return BorderMode::kNeutral;
  raise_value_error("border must be 'replicate', 'reflect101' or 'neutral', got '" + s + "'");
}

// The image's geometry: rows `pitch` bytes apart, pixels and their channels packed within a row.
struct Geometry {
  int width = 0, height = 0, channels = 1;
  std::size_t pitch = 0;
  SampleType type = SampleType::kU8;
  std::size_t sample = 1;
  std::size_t row_bytes() const { return static_cast<std::size_t>(width) * channels * sample; }
};

Geometry geometry_of(const ArrayView& a) {
  Geometry g;
  g.height = static_cast<int>(a.shape[0]);
  g.width = static_cast<int>(a.shape[1]);
  g.channels = a.shape.size() == 3 ? static_cast<int>(a.shape[2]) : 1;
  g.type = a.itemsize == 1 ? SampleType::kU8 : SampleType::kU16;
  g.sample = static_cast<std::size_t>(a.itemsize);
  const bool packed = a.strides[1] == static_cast<std::int64_t>(g.channels * g.sample) &&
                      (a.shape.size() == 2 || a.strides[2] == a.itemsize);
  if (!packed || a.strides[0] < static_cast<std::int64_t>(g.row_bytes()))
    raise_value_error(a.name + ": rows may be padded, but the pixels of a row and their channels must be packed "
                               "(C order within a row); pass a contiguous copy");
  g.pitch = static_cast<std::size_t>(a.strides[0]);
  return g;
}

PlaneView plane(const void* data, const Geometry& g, int channels, std::size_t pitch) {
  return PlaneView{data, g.width, g.height, pitch, channels, g.type};
}
MutablePlaneView mutable_plane(void* data, const Geometry& g, int channels, std::size_t pitch) {
  return MutablePlaneView{data, g.width, g.height, pitch, channels, g.type};
}

bool library_channels(int channels) { return channels == 1 || channels == 2 || channels == 4; }

// One channel of an image with `g.channels` packed ones, to or from a dense one-channel plane.
void gather_host(const std::uint8_t* image, const Geometry& g, int c, std::uint8_t* out) {
  for (int y = 0; y < g.height; ++y) {
    const std::uint8_t* row = image + y * g.pitch + c * g.sample;
    for (int x = 0; x < g.width; ++x) std::memcpy(out + (std::size_t(y) * g.width + x) * g.sample, row + x * g.channels * g.sample, g.sample);
  }
}
void scatter_host(const std::uint8_t* plane, const Geometry& g, int c, std::uint8_t* image) {
  for (int y = 0; y < g.height; ++y) {
    std::uint8_t* row = image + y * g.pitch + c * g.sample;
    for (int x = 0; x < g.width; ++x) std::memcpy(row + x * g.channels * g.sample, plane + (std::size_t(y) * g.width + x) * g.sample, g.sample);
  }
}

Status run_cpu(const ArrayView& src, const ArrayView& dst, const Geometry& g, const Geometry& d, const MorphParams& p) {
  if (library_channels(g.channels))
    return morph_cpu(plane(src.data, g, g.channels, g.pitch), mutable_plane(dst.data, d, d.channels, d.pitch), p);
  const std::size_t plane_bytes = std::size_t(g.width) * g.height * g.sample;
  std::vector<std::uint8_t> in(plane_bytes), out(plane_bytes);
  const std::size_t pitch = std::size_t(g.width) * g.sample;
  for (int c = 0; c < g.channels; ++c) {
    gather_host(static_cast<const std::uint8_t*>(src.data), g, c, in.data());
    DPX_RETURN_IF_ERROR(morph_cpu(plane(in.data(), g, 1, pitch), mutable_plane(out.data(), g, 1, pitch), p));
    scatter_host(out.data(), d, c, static_cast<std::uint8_t*>(dst.data));
  }
  return Status::ok();
}

// Device memory: `src` / `dst` are the device pointers of the two images, rows `src_pitch` /
// `dst_pitch` bytes apart.
Status run_cuda(const void* src, std::size_t src_pitch, void* dst, std::size_t dst_pitch, const Geometry& g,
                const MorphParams& p, cudaStream_t stream) {
  if (library_channels(g.channels))
    return morph_cuda(plane(src, g, g.channels, src_pitch), mutable_plane(dst, g, g.channels, dst_pitch), p, stream);
  if (src_pitch != g.row_bytes() || dst_pitch != g.row_bytes())
    return invalid_argument("img: a CUDA image of " + std::to_string(g.channels) +
                            " channels must be contiguous (1, 2 or 4 channels may have padded rows)");
  // one channel at a time: a strided copy out, the call, a strided copy back
  const std::size_t plane_pitch = std::size_t(g.width) * g.sample, pixels = std::size_t(g.width) * g.height;
  const std::size_t pixel_bytes = g.channels * g.sample;
  StreamBuffer in, out;
  DPX_RETURN_IF_ERROR(in.allocate(pixels * g.sample, stream));
  DPX_RETURN_IF_ERROR(out.allocate(pixels * g.sample, stream));
  for (int c = 0; c < g.channels; ++c) {
    DPX_RETURN_IF_ERROR(copy_2d_async(in.data(), g.sample, static_cast<const std::uint8_t*>(src) + c * g.sample,
                                      pixel_bytes, g.sample, pixels, stream));
    DPX_RETURN_IF_ERROR(morph_cuda(plane(in.data(), g, 1, plane_pitch), mutable_plane(out.data(), g, 1, plane_pitch), p, stream));
    DPX_RETURN_IF_ERROR(copy_2d_async(static_cast<std::uint8_t*>(dst) + c * g.sample, pixel_bytes, out.data(), g.sample,
                                      g.sample, pixels, stream));
  }
  return Status::ok();
}

void morphology(py::handle src_obj, py::handle dst_obj, const std::string& op, int width, int height,
                const std::string& shape, int iterations, const std::string& border, const std::string& backend,
                std::uintptr_t stream) {
  MorphParams p;
  p.op = parse_op(op);
  p.shape = parse_shape(shape);
  p.width = width;
  p.height = height;
  p.iterations = iterations;
  p.border = parse_border(border);
  const ArrayView src = view_array(src_obj, "img");
  const ArrayView dst = view_array(dst_obj, "out");
  require_ndim(src, {2, 3});
  require_dtype(src, {"uint8", "uint16"});
  require_not_empty(src);
  require_same_shape(src, dst);
  require_dtype(dst, {src.dtype.c_str()});
  require_writable(dst);
  const Geometry g = geometry_of(src), d = geometry_of(dst);
  const Placement where = place({&src, &dst}, backend, stream);
  py::gil_scoped_release unlocked;
  if (!where.cuda) {
    throw_if_error(run_cpu(src, dst, g, d, p));
    return;
  }
  CallScope scope(where);
  DeviceOperand in, out;
  throw_if_error(in.input(src, where.stream));
  throw_if_error(out.output(dst, where.stream));
  // numpy arrays go through dense device copies
  throw_if_error(run_cuda(in.data(), where.host_arrays ? g.row_bytes() : g.pitch, out.data(),
                          where.host_arrays ? d.row_bytes() : d.pitch, g, p, where.stream));
  throw_if_error(out.finish(where.stream));
  if (where.waits) throw_if_error(synchronize(where.stream));
}

}  // namespace

void bind_morphology(py::module_& m) {
  m.def("morphology", &morphology, py::arg("img"), py::arg("out"), py::arg("op"), py::arg("width"),
        py::arg("height"), py::arg("shape"), py::arg("iterations"), py::arg("border"), py::arg("backend"),
        py::arg("stream"));
}

}  // namespace py_bindings
}  // namespace dpx
