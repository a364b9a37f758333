// Series files for DTW: one series per line, read as int32 or as float.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "dpx/sequences.h"

namespace dpx {
namespace cli {

// Series are named by their 1-based position in the file. Exactly one of `values` and `floats`
// holds them, as `floating` says.
struct NamedSeries {
  std::vector<std::string> names;
  std::vector<std::size_t> lines;  // 1-based line of each series
  SeriesBatch values;              // int32, unless floating
  FloatSeriesBatch floats;         // when floating
  bool floating = false;
  bool fractional = false;  // some value has a fraction or an exponent
  std::string int_error;    // why the values cannot be int32 (a whole number outside the range), or empty
};

// One series per line of values separated by whitespace or commas, read a line at a time; blank
// lines and lines starting with '#' are skipped. A value is a whole number ([+-]digits) or a
// decimal one ([+-]digits[.digits][e[+-]digits], e.g. 1.5, -.25, 2e3); anything else, and a value
// no float can hold, is an error naming the file, line and value. `as_float` reads every value as
// float; otherwise the file is int32 until a value with a fraction or exponent (or a whole number
// outside int32) comes, and float from then on.
bool read_series(const std::string& path, bool as_float, NamedSeries* out, std::string* error);

// The same for text in memory named `source`, split as split_lines splits it (tests, fuzzers).
bool parse_series(std::string_view text, std::size_t chunk, const std::string& source, bool as_float, NamedSeries* out,
                  std::string* error);

// Gives a and b one type: float when `as_float` or either file has a fraction or exponent, int32
// otherwise (an error, then, for a whole number outside int32).
bool settle_series_type(bool as_float, NamedSeries* a, NamedSeries* b, std::string* error);

// Fails, naming the first series longer than `limit` by its name and line, before any work.
bool check_lengths(const NamedSeries& in, const std::string& source, std::size_t limit, std::string* error);

}  // namespace cli
}  // namespace dpx
