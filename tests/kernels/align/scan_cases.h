// The database scan's test cases with the query profile, shared by the host simulation and the
// device test: one query each (every profile shape, in one pass and in several) against targets
// from empty up past the widest query, every letter of the alphabet and unknown ones in both, the
// query planted across its pass boundaries; then random (asymmetric) matrices up to int8's ends;
// last, a case past the 16-bit limit.
#pragma once

#include <random>
#include <vector>

#include "dpx/align.h"

namespace dpx {
namespace test {

struct ScanCase {
  SequenceBatch query, targets;
  ScoreMatrix matrix;
  AlignOptions options;  // local, score only
};

std::vector<ScanCase> profile_scan_cases(std::mt19937_64& rng);

}  // namespace test
}  // namespace dpx
