// dpx.sw_scores, dpx.align, dpx.edit_distance and dpx.dtw: lists of sequences or series through the
// library's batch calls, on the CPU or (copied there and back) on CUDA.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "arrays.h"
#include "bindings.h"
#include "placement.h"
#include "sequences.h"

namespace dpx {
namespace py_bindings {
namespace {

AlignMode parse_mode(const std::string& s) {
  if (s == "sw") return AlignMode::kLocal;
  if (s == "nw") return AlignMode::kGlobal;
  if (s == "semiglobal") return AlignMode::kSemiGlobal;
  raise_value_error("mode must be 'sw', 'nw' or 'semiglobal', got '" + s + "'");
}

Backend backend_of(const Placement& p) { return p.cuda ? Backend::kCuda : Backend::kCpu; }

// Every query against every target, local scores only.
py::array_t<std::int32_t> sw_scores(py::handle queries_obj, py::handle targets_obj, const std::string& matrix_name,
                                    int gap_open, int gap_extend, const std::string& backend, int match, int mismatch) {
  const SequenceBatch queries = sequence_batch(queries_obj, "queries");
  const SequenceBatch targets = sequence_batch(targets_obj, "targets");
  const ScoreMatrix matrix = score_matrix(matrix_name, match, mismatch);
  AlignOptions options = align_options(AlignMode::kLocal, gap_open, gap_extend);
  options.score_only = true;
  const Placement where = place_host(backend);
  py::array_t<std::int32_t> scores({queries.size(), targets.size()});
  std::int32_t* out = scores.mutable_data();
  if (queries.size() == 0 || targets.size() == 0) return scores;
  {
    py::gil_scoped_release unlocked;
    // On CUDA the targets go up and are planned once; each query then takes the plan.
    std::unique_ptr<OneToManyAligner> aligner;
    if (where.cuda) aligner = std::make_unique<OneToManyAligner>(targets, matrix, options);
    std::vector<AlignResult> row;
    std::vector<std::int32_t> row_scores;
    for (std::size_t q = 0; q < queries.size(); ++q) {
      SequenceBatch one;
      one.add(queries.view(q));
      std::int32_t* out_row = out + q * targets.size();
      if (aligner != nullptr) {
        throw_if_error(aligner->scores(one, &row_scores));
        std::memcpy(out_row, row_scores.data(), targets.size() * sizeof(std::int32_t));
      } else {
        throw_if_error(align_cpu(one, targets, Pairing::kOneToMany, matrix, options, &row));
        for (std::size_t t = 0; t < targets.size(); ++t) out_row[t] = row[t].score;
      }
    }
  }
  return scores;
}

using AlignmentRecord = std::tuple<std::int32_t, std::int32_t, std::int32_t, std::int32_t, std::int32_t, std::string>;

std::vector<AlignmentRecord> align(py::handle queries_obj, py::handle targets_obj, const std::string& mode,
                                   const std::string& matrix_name, int gap_open, int gap_extend, bool traceback,
                                   const std::string& backend, int match, int mismatch) {
  const SequenceBatch queries = sequence_batch(queries_obj, "queries");
  const SequenceBatch targets = sequence_batch(targets_obj, "targets");
  require_pairs(queries.size(), targets.size(), "queries", "targets");
  const ScoreMatrix matrix = score_matrix(matrix_name, match, mismatch);
  AlignOptions options = align_options(parse_mode(mode), gap_open, gap_extend);
  options.traceback = traceback;
  const Placement where = place_host(backend);
  std::vector<AlignResult> results;
  {
    py::gil_scoped_release unlocked;
    throw_if_error(align_batch(backend_of(where), queries, targets, Pairing::kPairwise, matrix, options, &results));
  }
  std::vector<AlignmentRecord> records;
  records.reserve(results.size());
  for (AlignResult& r : results)
    records.emplace_back(r.score, r.query_begin, r.query_end, r.target_begin, r.target_end, std::move(r.cigar));
  return records;
}

// Distances (int32: they are at most 65,536) and, with `cigar`, the CIGARs.
py::tuple edit_distance(py::handle a_obj, py::handle b_obj, bool cigar, const std::string& backend) {
  const SequenceBatch a = sequence_batch(a_obj, "a");
  const SequenceBatch b = sequence_batch(b_obj, "b");
  require_pairs(a.size(), b.size(), "a", "b");
  const Placement where = place_host(backend);
  std::vector<EditResult> results;
  {
    py::gil_scoped_release unlocked;
    const EditOptions options{cigar};
    throw_if_error(where.cuda ? edit_distance_cuda(a, b, Pairing::kPairwise, options, &results, nullptr)
                              : edit_distance_cpu(a, b, Pairing::kPairwise, options, &results));
  }
  py::array_t<std::int32_t> distances(static_cast<py::ssize_t>(results.size()));
  py::list cigars;
  for (std::size_t i = 0; i < results.size(); ++i) {
    distances.mutable_data()[i] = static_cast<std::int32_t>(results[i].distance);
    if (cigar) cigars.append(results[i].cigar);
  }
  return py::make_tuple(distances, cigars);
}

// The series of a list: 1-D host arrays, all int32 or all float32 (`dtype` gets which).
template <typename T>
PackedBatch<T> series_batch(const py::sequence& items, const char* name) {
  PackedBatch<T> batch;
  std::size_t i = 0;
  for (py::handle item : items) {
    const std::string item_name = std::string(name) + "[" + std::to_string(i++) + "]";
    const ArrayView v = view_array(item, item_name.c_str());
    require_ndim(v, {1});
    if (v.on_device()) raise_value_error(item_name + ": DTW takes host (numpy) series");
    require_contiguous(v);
    batch.add(static_cast<const T*>(v.data), v.size());
  }
  return batch;
}

std::string series_dtype(const py::sequence& items, const char* name) {
  const ArrayView first = view_array(items[0], (std::string(name) + "[0]").c_str());
  require_dtype(first, {"int32", "float32"});
  std::size_t i = 0;
  for (py::handle item : items) {
    const std::string item_name = std::string(name) + "[" + std::to_string(i++) + "]";
    const ArrayView v = view_array(item, item_name.c_str());
    if (v.dtype != first.dtype)
      raise_value_error(item_name + ": dtype " + v.dtype + ", but " + name + "[0] is " + first.dtype +
                        " (all series of a call are int32 or all float32)");
  }
  return first.dtype;
}

py::sequence series_list(py::handle obj, const char* name) {
  if (!py::isinstance<py::list>(obj) && !py::isinstance<py::tuple>(obj))
    throw py::type_error(std::string(name) + ": expected a list of 1-D arrays, got " +
                         std::string(py::str(obj.get_type().attr("__name__"))));
  const py::sequence items = py::reinterpret_borrow<py::sequence>(obj);
  if (items.size() == 0) raise_value_error(std::string(name) + ": the list is empty");
  return items;
}

// int32 series: float64 costs (exact: they stay below 2^50), inf where no warping path exists;
// float32 series: float32 costs.
py::array dtw(py::handle x_obj, py::handle y_obj, const std::string& cost, int band, const std::string& backend) {
  const py::sequence xs = series_list(x_obj, "x"), ys = series_list(y_obj, "y");
  require_pairs(xs.size(), ys.size(), "x", "y");
  const std::string dtype = series_dtype(xs, "x");
  if (series_dtype(ys, "y") != dtype) raise_value_error("x holds " + dtype + " series and y the other type");
  if (cost != "abs" && cost != "squared") raise_value_error("cost must be 'abs' or 'squared', got '" + cost + "'");
  const Placement where = place_host(backend);
  if (dtype == "float32") {
    const FloatSeriesBatch a = series_batch<float>(xs, "x"), b = series_batch<float>(ys, "y");
    DtwFloatOptions options;
    options.band = band;
    options.cost = cost == "abs" ? DtwCost::kAbsolute : DtwCost::kSquared;
    std::vector<float> costs;
    {
      py::gil_scoped_release unlocked;
      throw_if_error(where.cuda ? dtw_float_cuda(a, b, Pairing::kPairwise, options, &costs, nullptr)
                                : dtw_float_cpu(a, b, Pairing::kPairwise, options, &costs));
    }
    py::array_t<float> out(static_cast<py::ssize_t>(costs.size()));
    std::memcpy(out.mutable_data(), costs.data(), costs.size() * sizeof(float));
    return out;
  }
  if (cost != "abs") raise_value_error("cost='squared' needs float32 series (int32 series cost |a - b|)");
  const SeriesBatch a = series_batch<std::int32_t>(xs, "x"), b = series_batch<std::int32_t>(ys, "y");
  DtwOptions options;
  options.band = band;
  std::vector<DtwResult> results;
  {
    py::gil_scoped_release unlocked;
    throw_if_error(where.cuda ? dtw_cuda(a, b, Pairing::kPairwise, options, &results, nullptr)
                              : dtw_cpu(a, b, Pairing::kPairwise, options, &results));
  }
  py::array_t<double> out(static_cast<py::ssize_t>(results.size()));
  for (std::size_t i = 0; i < results.size(); ++i)
    out.mutable_data()[i] = results[i].cost == kDtwNoPath ? std::numeric_limits<double>::infinity()
                                                          : static_cast<double>(results[i].cost);
  return out;
}

}  // namespace

void bind_alignment(py::module_& m) {
  m.def("sw_scores", &sw_scores, py::arg("queries"), py::arg("targets"), py::arg("matrix"), py::arg("gap_open"),
        py::arg("gap_extend"), py::arg("backend"), py::arg("match"), py::arg("mismatch"));
  m.def("align", &align, py::arg("queries"), py::arg("targets"), py::arg("mode"), py::arg("matrix"),
        py::arg("gap_open"), py::arg("gap_extend"), py::arg("traceback"), py::arg("backend"), py::arg("match"),
        py::arg("mismatch"));
  m.def("edit_distance", &edit_distance, py::arg("a"), py::arg("b"), py::arg("cigar"), py::arg("backend"));
  m.def("dtw", &dtw, py::arg("x"), py::arg("y"), py::arg("cost"), py::arg("band"), py::arg("backend"));
}

}  // namespace py_bindings
}  // namespace dpx
