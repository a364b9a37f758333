// Python lists of sequences (str or bytes) and of series (1-D numpy arrays) as the library's
// batches, and the scoring matrix a call names.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "dpx/align.h"

namespace dpx {
namespace py_bindings {

namespace py = pybind11;

// A list or tuple of str (UTF-8 bytes) or bytes-like items; TypeError for anything else (a lone
// str included), ValueError for an empty list.
SequenceBatch sequence_batch(py::handle list, const char* name);

// Raises ValueError unless the two lists pair up (the same length).
void require_pairs(std::size_t a, std::size_t b, const char* a_name, const char* b_name);

// "blosum45", "blosum50", "blosum62", "blosum80", "pam250" (any case), or "dna" with `match` and
// `mismatch`: dpx-align's --matrix, --match and --mismatch.
ScoreMatrix score_matrix(const std::string& name, int match, int mismatch);

// AlignOptions from the call's gap costs (the library checks their range when it runs).
AlignOptions align_options(AlignMode mode, int gap_open, int gap_extend);

}  // namespace py_bindings
}  // namespace dpx
