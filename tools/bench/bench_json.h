// dpx-bench's reports as JSON, through json-glib (every string escaped as JSON requires, control
// characters included):
//   {"benchmarks": [{"benchmark": NAME, "rows": [{"case", "variant", "median_us", "throughput",
//                                                "unit", "note"}, ...]}, ...]}
// A figure that is not finite is written as null.
#pragma once

#include <string>
#include <vector>

#include "bench.h"

namespace dpx {
namespace bench {

// Why `path` cannot take the JSON file (its folder is missing or not writable, or it is a
// folder), or "" when it can. Checked before any benchmark runs.
std::string json_path_problem(const std::string& path);

// The document above, as text.
std::string reports_json(const std::vector<Report>& reports);

// Writes reports_json(reports) to `path`; false with `error` set when it could not.
bool write_reports_json(const std::vector<Report>& reports, const std::string& path, std::string* error);

}  // namespace bench
}  // namespace dpx
