// dpx.motion_vectors: motion_estimate_cpu / motion_estimate_cuda into an int32 (rows, columns, 2)
// array holding the library's MotionVector records (int16 dx, int16 dy, uint32 SAD); the Python
// layer turns them into pixels and SADs with the frames' own array framework. Frames no framework
// holds (dpx.DeviceArray) get their pixels and SADs here, in motion_vectors_in_pixels.
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "arrays.h"
#include "bindings.h"
#include "dpx/motion.h"
#include "placement.h"

namespace dpx {
namespace py_bindings {
namespace {

MotionSubpel parse_subpel(const std::string& s) {
  if (s == "none") return MotionSubpel::kNone;
  if (s == "half") return MotionSubpel::kHalf;
  if (s == "quarter") return MotionSubpel::kQuarter;
  raise_value_error("subpel must be 'none', 'half' or 'quarter', got '" + s + "'");
}

MotionSearch parse_search(const std::string& s) {
  if (s == "full") return MotionSearch::kFull;
  if (s == "predictive") return MotionSearch::kPredictive;
  raise_value_error("search must be 'full' or 'predictive', got '" + s + "'");
}

MotionParams parse_params(int block_size, int search_range, const std::string& subpel, const std::string& search,
                          int lambda) {
  MotionParams p;
  p.block_size = block_size;
  p.search_range = search_range;
  p.subpel = parse_subpel(subpel);
  p.search = parse_search(search);
  p.lambda = lambda;
  return p;
}

PlaneView plane_of(const ArrayView& a, const void* data, std::size_t pitch) {
  return PlaneView{data, static_cast<int>(a.shape[1]), static_cast<int>(a.shape[0]), pitch, 1,
                   a.itemsize == 1 ? SampleType::kU8 : SampleType::kU16};
}

void check_frame(const ArrayView& a) {
  require_ndim(a, {2});
  require_dtype(a, {"uint8", "uint16"});
  require_not_empty(a);
  if (a.strides[1] != a.itemsize || a.strides[0] < a.shape[1] * a.itemsize)
    raise_value_error(a.name + ": rows may be padded, but the pixels of a row must be packed; pass a contiguous copy");
}

// The frames and parameters of a call, checked, and the grid of blocks.
struct MotionRequest {
  ArrayView prev, cur;
  MotionParams params;
  MotionGrid grid;
};

MotionRequest read_request(py::handle prev_obj, py::handle cur_obj, int block_size, int search_range,
                           const std::string& subpel, const std::string& search, int lambda) {
  MotionRequest r{view_array(prev_obj, "prev"), view_array(cur_obj, "cur"),
                  parse_params(block_size, search_range, subpel, search, lambda), {}};
  check_frame(r.prev);
  check_frame(r.cur);
  require_same_shape(r.cur, r.prev);
  require_dtype(r.prev, {r.cur.dtype.c_str()});
  // the library's checks on geometry and parameters alone (no memory is read)
  throw_if_error(motion_validate(plane_of(r.cur, r.cur.data, r.cur.strides[0]),
                                 plane_of(r.prev, r.prev.data, r.prev.strides[0]), r.params));
  r.grid = motion_grid(static_cast<int>(r.cur.shape[1]), static_cast<int>(r.cur.shape[0]), block_size);
  return r;
}

// The grid's rows and columns, and the scale of the vectors (1, 2 or 4 units a pixel).
std::tuple<int, int, int> motion_grid_of(py::handle prev, py::handle cur, int block_size, int search_range,
                                         const std::string& subpel, const std::string& search, int lambda) {
  const MotionRequest r = read_request(prev, cur, block_size, search_range, subpel, search, lambda);
  return {r.grid.rows, r.grid.columns, motion_scale(r.params)};
}

// Raise ValueError unless `a` can take a result of `dtype` and `shape` (C order).
void check_output(const ArrayView& a, const char* dtype, const std::vector<std::int64_t>& shape) {
  require_dtype(a, {dtype});
  require_contiguous(a);
  require_writable(a);
  if (a.shape != shape) {
    std::string text;
    for (std::int64_t d : shape) text += (text.empty() ? "" : ", ") + std::to_string(d);
    raise_value_error(a.name + ": expected shape (" + text + ")");
  }
}

// The search on CUDA (the call's device entered), its records into device memory `out` on
// where.stream; numpy frames go through dense device copies.
Status search_cuda(const MotionRequest& r, const Placement& where, MotionVector* out) {
  DeviceOperand d_prev, d_cur;
  DPX_RETURN_IF_ERROR(d_prev.input(r.prev, where.stream));
  DPX_RETURN_IF_ERROR(d_cur.input(r.cur, where.stream));
  const std::size_t row_bytes = static_cast<std::size_t>(r.cur.shape[1]) * r.cur.itemsize;
  return motion_estimate_cuda(plane_of(r.cur, d_cur.data(), where.host_arrays ? row_bytes : r.cur.strides[0]),
                              plane_of(r.prev, d_prev.data(), where.host_arrays ? row_bytes : r.prev.strides[0]),
                              r.params, out, r.grid.count(), where.stream);
}

void motion_vectors(py::handle prev_obj, py::handle cur_obj, py::handle out_obj, int block_size, int search_range,
                    const std::string& subpel, const std::string& search, int lambda, const std::string& backend,
                    std::uintptr_t stream) {
  const MotionRequest r = read_request(prev_obj, cur_obj, block_size, search_range, subpel, search, lambda);
  const ArrayView out = view_array(out_obj, "out");
  check_output(out, "int32", {r.grid.rows, r.grid.columns, 2});
  const Placement where = place({&r.prev, &r.cur, &out}, backend, stream);
  py::gil_scoped_release unlocked;
  if (!where.cuda) {
    MotionField field;
    throw_if_error(motion_estimate_cpu(plane_of(r.cur, r.cur.data, r.cur.strides[0]),
                                       plane_of(r.prev, r.prev.data, r.prev.strides[0]), r.params, &field));
    std::memcpy(out.data, field.vectors.data(), r.grid.count() * sizeof(MotionVector));
    return;
  }
  CallScope scope(where);
  DeviceOperand d_out;
  throw_if_error(d_out.output(out, where.stream));
  throw_if_error(search_cuda(r, where, static_cast<MotionVector*>(d_out.data())));
  throw_if_error(d_out.finish(where.stream));
  if (where.waits) throw_if_error(synchronize(where.stream));
}

// CUDA frames whose results no array framework holds: float32 (rows, columns, 2) vectors in pixels
// into `vectors_obj` and, unless None, int32 (rows, columns) SADs into `sads_obj`, both device
// memory. The field is small (8,160 blocks at 1080p 16x16) and the package builds no CUDA sources
// of its own, so it is converted on the host between one download and one upload a result; the
// call waits for that copy, as every call writing a DeviceArray waits for its work.
void motion_vectors_in_pixels(py::handle prev_obj, py::handle cur_obj, py::handle vectors_obj, py::handle sads_obj,
                              int block_size, int search_range, const std::string& subpel, const std::string& search,
                              int lambda, const std::string& backend, std::uintptr_t stream) {
  const MotionRequest r = read_request(prev_obj, cur_obj, block_size, search_range, subpel, search, lambda);
  const ArrayView vectors = view_array(vectors_obj, "vectors");
  check_output(vectors, "float32", {r.grid.rows, r.grid.columns, 2});
  const bool with_sads = !sads_obj.is_none();
  const ArrayView sads = with_sads ? view_array(sads_obj, "sads") : ArrayView{};
  if (with_sads) check_output(sads, "int32", {r.grid.rows, r.grid.columns});
  const Placement where = with_sads ? place({&r.prev, &r.cur, &vectors, &sads}, backend, stream)
                                    : place({&r.prev, &r.cur, &vectors}, backend, stream);
  if (where.host_arrays) raise_value_error("motion_vectors_in_pixels takes CUDA frames and results");
  const std::size_t count = r.grid.count();
  const float scale = static_cast<float>(motion_scale(r.params));
  py::gil_scoped_release unlocked;
  CallScope scope(where);
  StreamBuffer records;
  throw_if_error(records.allocate(count * sizeof(MotionVector), where.stream));
  throw_if_error(search_cuda(r, where, static_cast<MotionVector*>(records.data())));
  std::vector<MotionVector> field(count);
  throw_if_error(copy_async(field.data(), records.data(), count * sizeof(MotionVector), where.stream));
  throw_if_error(synchronize(where.stream));
  std::vector<float> pixels(2 * count);
  std::vector<std::int32_t> costs(with_sads ? count : 0);
  for (std::size_t i = 0; i < count; ++i) {
    pixels[2 * i] = field[i].dx / scale;  // exact: int16 over 1, 2 or 4
    pixels[2 * i + 1] = field[i].dy / scale;
    if (with_sads) costs[i] = static_cast<std::int32_t>(field[i].sad);  // the bits numpy's int32 view reads
  }
  throw_if_error(copy_async(vectors.data, pixels.data(), pixels.size() * sizeof(float), where.stream));
  if (with_sads) throw_if_error(copy_async(sads.data, costs.data(), costs.size() * sizeof(std::int32_t), where.stream));
  throw_if_error(synchronize(where.stream));  // before the host copies go
}

}  // namespace

void bind_motion(py::module_& m) {
  m.def("motion_grid", &motion_grid_of, py::arg("prev"), py::arg("cur"), py::arg("block_size"), py::arg("search_range"),
        py::arg("subpel"), py::arg("search"), py::arg("lambda_"));
  m.def("motion_vectors", &motion_vectors, py::arg("prev"), py::arg("cur"), py::arg("out"), py::arg("block_size"),
        py::arg("search_range"), py::arg("subpel"), py::arg("search"), py::arg("lambda_"), py::arg("backend"),
        py::arg("stream"));
  m.def("motion_vectors_in_pixels", &motion_vectors_in_pixels, py::arg("prev"), py::arg("cur"), py::arg("vectors"),
        py::arg("sads"), py::arg("block_size"), py::arg("search_range"), py::arg("subpel"), py::arg("search"),
        py::arg("lambda_"), py::arg("backend"), py::arg("stream"));
}

}  // namespace py_bindings
}  // namespace dpx
