#include "sequences.h"

#include "arrays.h"

namespace dpx {
namespace py_bindings {

SequenceBatch sequence_batch(py::handle list, const char* name) {
  if (!py::isinstance<py::list>(list) && !py::isinstance<py::tuple>(list))
    throw py::type_error(std::string(name) + ": expected a list of sequences (str or bytes), got " +
                         std::string(py::str(list.get_type().attr("__name__"))));
  const py::sequence items = py::reinterpret_borrow<py::sequence>(list);
  if (items.size() == 0) raise_value_error(std::string(name) + ": the list is empty");
  SequenceBatch batch;
  std::size_t i = 0;
  for (py::handle item : items) {
    if (py::isinstance<py::str>(item)) {
      batch.add(item.cast<std::string>());
    } else if (py::isinstance<py::bytes>(item) || py::isinstance<py::bytearray>(item) ||
               py::isinstance<py::memoryview>(item)) {
      const py::bytes bytes = py::reinterpret_steal<py::bytes>(PyBytes_FromObject(item.ptr()));
      if (!bytes) throw py::error_already_set();
      batch.add(std::string(bytes));
    } else {
      throw py::type_error(std::string(name) + "[" + std::to_string(i) + "]: expected str or bytes, got " +
                           std::string(py::str(item.get_type().attr("__name__"))));
    }
    ++i;
  }
  return batch;
}

void require_pairs(std::size_t a, std::size_t b, const char* a_name, const char* b_name) {
  if (a != b)
    raise_value_error(std::string(a_name) + " and " + b_name + " pair up one to one, but hold " + std::to_string(a) +
                      " and " + std::to_string(b) + " items");
}

ScoreMatrix score_matrix(const std::string& name, int match, int mismatch) {
  ScoreMatrix m;
  if (name == "dna") {
    throw_if_error(ScoreMatrix::dna(match, mismatch, &m));
  } else if (!ScoreMatrix::builtin(name, &m).is_ok()) {
    raise_value_error("matrix '" + name + "' is not one of blosum45, blosum50, blosum62, blosum80, pam250, dna");
  }
  return m;
}

AlignOptions align_options(AlignMode mode, int gap_open, int gap_extend) {
  AlignOptions o;
  o.mode = mode;
  o.gap_open = gap_open;
  o.gap_extend = gap_extend;
  return o;
}

}  // namespace py_bindings
}  // namespace dpx
