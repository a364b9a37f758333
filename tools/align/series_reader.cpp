#include "series_reader.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "input_file.h"
#include "record_lengths.h"

namespace dpx {
namespace cli {
namespace {

enum class Shape { kWhole, kDecimal, kBad };

std::size_t skip_digits(std::string_view t, std::size_t i) {
  while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
  return i;
}

// [+-]digits is whole; [+-]digits[.digits][(e|E)[+-]digits], with a digit before or after the
// point, is decimal. Nothing else (no hexadecimal, nan or inf, which strtof would take).
Shape shape(std::string_view t) {
  std::size_t i = !t.empty() && (t[0] == '+' || t[0] == '-') ? 1 : 0;
  const std::size_t integer_end = skip_digits(t, i);
  std::size_t mantissa_digits = integer_end - i;
  bool decimal = false;
  i = integer_end;
  if (i < t.size() && t[i] == '.') {
    const std::size_t fraction_end = skip_digits(t, i + 1);
    mantissa_digits += fraction_end - i - 1;
    i = fraction_end;
    decimal = true;
  }
  if (mantissa_digits == 0) return Shape::kBad;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    std::size_t e = i + 1;
    if (e < t.size() && (t[e] == '+' || t[e] == '-')) ++e;
    i = skip_digits(t, e);
    if (i == e) return Shape::kBad;
    decimal = true;
  }
  if (i != t.size()) return Shape::kBad;
  return decimal ? Shape::kDecimal : Shape::kWhole;
}

// Float from here on. An int32 converts to the float nearest to it, as strtof reads its text.
void make_floating(NamedSeries* s) {
  if (s->floating) return;
  std::vector<float> v;
  for (std::size_t i = 0; i < s->values.size(); ++i) {
    v.assign(s->values.item(i), s->values.item(i) + s->values.length(i));
    s->floats.add(v.data(), v.size());
  }
  s->values.clear();
  s->floating = true;
}

class SeriesParser {
 public:
  SeriesParser(const std::string& path, bool as_float, NamedSeries* out) : path_(path), out_(out) {
    out_->floating = as_float;
  }

  bool line(std::string_view line, std::size_t k, std::string* error) {
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] == '#') return true;
    text_.assign(line);  // NUL-terminated for strtoll and strtof
    ints_.clear();
    floats_.clear();
    const char* p = text_.c_str();
    while (true) {
      while (*p == ' ' || *p == '\t' || *p == ',') ++p;
      if (*p == '\0') break;
      const std::size_t n = std::strcspn(p, " \t,");
      if (!value(std::string_view(p, n), k, error)) return false;
      p += n;
    }
    if (ints_.empty() && floats_.empty()) {
      *error = at(k) + "separators but no values (an empty series is not a line of commas)";
      return false;
    }
    out_->names.push_back(std::to_string(out_->names.size() + 1));
    out_->lines.push_back(k + 1);
    if (out_->floating) out_->floats.add(floats_.data(), floats_.size());
    else out_->values.add(ints_.data(), ints_.size());
    return true;
  }

 private:
  std::string at(std::size_t k) const { return path_ + ":" + std::to_string(k + 1) + ": "; }

  // `token` ends at a separator or the end of the text, where strtoll and strtof stop.
  bool value(std::string_view token, std::size_t k, std::string* error) {
    const Shape s = shape(token);
    if (s == Shape::kBad) {
      *error = at(k) + "'" + std::string(token.substr(0, 20)) + "' is not a whole or finite decimal number";
      return false;
    }
    if (s == Shape::kDecimal) {
      out_->fractional = true;
      go_floating();
    }
    if (!out_->floating) {
      const long long v = std::strtoll(token.data(), nullptr, 10);  // clamped on overflow
      if (v >= INT32_MIN && v <= INT32_MAX) {
        ints_.push_back(static_cast<std::int32_t>(v));
        return true;
      }
      out_->int_error = at(k) + std::string(token) + " is outside the int32 range";
      go_floating();
    }
    const float f = std::strtof(token.data(), nullptr);
    if (std::isinf(f)) {
      *error = at(k) + std::string(token) +
               (s == Shape::kWhole ? " is outside the int32 and float ranges" : " is outside the float range");
      return false;
    }
    floats_.push_back(f);
    return true;
  }

  void go_floating() {
    if (out_->floating) return;
    make_floating(out_);
    floats_.assign(ints_.begin(), ints_.end());
    ints_.clear();
  }

  const std::string& path_;
  NamedSeries* out_;
  std::string text_;
  std::vector<std::int32_t> ints_;  // the line's values, while int32
  std::vector<float> floats_;       // the line's values, once float
};

// Some series, or a message naming `source`.
bool any_series(const NamedSeries& out, const std::string& source, std::string* error) {
  if (out.names.empty()) *error = source + ": no series (empty input)";
  return !out.names.empty();
}

}  // namespace

bool read_series(const std::string& path, bool as_float, NamedSeries* out, std::string* error) {
  SeriesParser parser(path, as_float, out);
  return read_input_lines(path, [&](std::string_view l, std::size_t k) { return parser.line(l, k, error); }, error) &&
         any_series(*out, path, error);
}

bool parse_series(std::string_view text, std::size_t chunk, const std::string& source, bool as_float, NamedSeries* out,
                  std::string* error) {
  SeriesParser parser(source, as_float, out);
  return split_lines(text, chunk, [&](std::string_view l, std::size_t k) { return parser.line(l, k, error); }) &&
         any_series(*out, source, error);
}

bool settle_series_type(bool as_float, NamedSeries* a, NamedSeries* b, std::string* error) {
  if (as_float || a->fractional || b->fractional) {
    make_floating(a);
    make_floating(b);
    return true;
  }
  for (const NamedSeries* s : {a, b}) {
    if (!s->int_error.empty()) {
      *error = s->int_error;
      return false;
    }
  }
  return true;
}

bool check_lengths(const NamedSeries& in, const std::string& source, std::size_t limit, std::string* error) {
  return in.floating ? check_record_lengths(in.names, in.lines, in.floats, source, "series", "values", limit, error)
                     : check_record_lengths(in.names, in.lines, in.values, source, "series", "values", limit, error);
}

}  // namespace cli
}  // namespace dpx
