// dpx.motion_vectors: motion_estimate_cpu / motion_estimate_cuda into an int32 (rows, columns, 2)
// array holding the library's MotionVector records (int16 dx, int16 dy, uint32 SAD); the Python
// layer turns them into pixels and SADs on the array's own device.
#include <cstring>
#include <string>
#include <tuple>

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

void motion_vectors(py::handle prev_obj, py::handle cur_obj, py::handle out_obj, int block_size, int search_range,
                    const std::string& subpel, const std::string& search, int lambda, const std::string& backend,
                    std::uintptr_t stream) {
  const MotionRequest r = read_request(prev_obj, cur_obj, block_size, search_range, subpel, search, lambda);
  const ArrayView &prev = r.prev, &cur = r.cur;
  const MotionParams& p = r.params;
  const int rows = r.grid.rows, columns = r.grid.columns;
  const ArrayView out = view_array(out_obj, "out");
  require_dtype(out, {"int32"});
  require_contiguous(out);
  require_writable(out);
  if (out.shape != std::vector<std::int64_t>{rows, columns, 2})
    raise_value_error("out: expected shape (" + std::to_string(rows) + ", " + std::to_string(columns) + ", 2)");
  const Placement where = place({&prev, &cur, &out}, backend, stream);
  const std::size_t count = static_cast<std::size_t>(rows) * columns;
  py::gil_scoped_release unlocked;
  if (!where.cuda) {
    MotionField field;
    throw_if_error(motion_estimate_cpu(plane_of(cur, cur.data, cur.strides[0]), plane_of(prev, prev.data, prev.strides[0]),
                                       p, &field));
    std::memcpy(out.data, field.vectors.data(), count * sizeof(MotionVector));
    return;
  }
  CallScope scope(where);
  DeviceOperand d_prev, d_cur, d_out;
  throw_if_error(d_prev.input(prev, where.stream));
  throw_if_error(d_cur.input(cur, where.stream));
  throw_if_error(d_out.output(out, where.stream));
  const std::size_t row_bytes = static_cast<std::size_t>(cur.shape[1]) * cur.itemsize;
  throw_if_error(motion_estimate_cuda(plane_of(cur, d_cur.data(), where.host_arrays ? row_bytes : cur.strides[0]),
                                      plane_of(prev, d_prev.data(), where.host_arrays ? row_bytes : prev.strides[0]), p,
                                      static_cast<MotionVector*>(d_out.data()), count, where.stream));
  throw_if_error(d_out.finish(where.stream));
  if (where.waits) throw_if_error(synchronize(where.stream));
}

}  // namespace

void bind_motion(py::module_& m) {
  m.def("motion_grid", &motion_grid_of, py::arg("prev"), py::arg("cur"), py::arg("block_size"), py::arg("search_range"),
        py::arg("subpel"), py::arg("search"), py::arg("lambda_"));
  m.def("motion_vectors", &motion_vectors, py::arg("prev"), py::arg("cur"), py::arg("out"), py::arg("block_size"),
        py::arg("search_range"), py::arg("subpel"), py::arg("search"), py::arg("lambda_"), py::arg("backend"),
        py::arg("stream"));
}

}  // namespace py_bindings
}  // namespace dpx
