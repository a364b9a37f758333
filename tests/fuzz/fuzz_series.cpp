// The DTW series files of dpx-align (handed to the reader in pieces of a size the input chooses):
// any bytes give series or a message naming the line; float series hold no NaN or infinity.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_input.h"
#include "series_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::uint8_t options = dpx::fuzz::take_byte(&data, &size);
  const std::size_t chunk = 1 + dpx::fuzz::take_byte(&data, &size);
  dpx::cli::NamedSeries a, b;
  std::string error;
  if (!dpx::cli::parse_series(std::string_view(reinterpret_cast<const char*>(data), size), chunk, "fuzz.txt", options & 1, &a, &error)) {
    if (error.empty()) std::abort();
    return 0;
  }
  b = a;
  if (!dpx::cli::settle_series_type(options & 1, &a, &b, &error)) {
    if (error.empty()) std::abort();
    return 0;
  }
  if (a.names.size() != a.lines.size()) std::abort();
  if (a.floating) {
    if (a.floats.size() != a.names.size()) std::abort();
    for (std::size_t i = 0; i < a.floats.size(); ++i)
      for (std::size_t k = 0; k < a.floats.length(i); ++k)
        if (!std::isfinite(a.floats.item(i)[k])) std::abort();
  } else if (a.values.size() != a.names.size()) {
    std::abort();
  }
  return 0;
}
