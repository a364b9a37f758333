#include "sequence_reader.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace dpx {
namespace cli {
namespace {

// Splits text into lines (without '\n' or a trailing '\r'); the last line may lack a newline.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::size_t stop = end;
    if (stop > start && text[stop - 1] == '\r') --stop;
    lines.emplace_back(text, start, stop - start);
    start = end + 1;
  }
  return lines;
}

bool blank(const std::string& s) {
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) return false;
  return true;
}

std::string name_of(const std::string& header, std::size_t index) {
  std::size_t end = 0;
  while (end < header.size() && !std::isspace(static_cast<unsigned char>(header[end]))) ++end;
  return end > 0 ? header.substr(0, end) : "seq" + std::to_string(index + 1);
}

std::string at(const std::string& source, std::size_t line) { return source + ":" + std::to_string(line + 1) + ": "; }

// The reason a line that should hold letters or a header cannot, or nullptr.
const char* misplaced(const std::string& l) {
  if (l.compare(0, 3, "\xEF\xBB\xBF") == 0) return "the file starts with a UTF-8 byte-order mark; save it without one";
  if (!l.empty() && l[0] == ';') return "';' comment lines are not supported; remove them";
  const std::size_t first = l.find_first_not_of(" \t");
  if (first != std::string::npos && first > 0 && (l[first] == '>' || l[first] == '@')) {
    return "a header must start at the beginning of its line, not after whitespace";
  }
  return nullptr;
}

struct LetterReader {
  const std::string& source;
  const Alphabet& alphabet;
  NamedSequences* out;

  bool append(const std::string& line, std::size_t k, std::string* seq, std::string* error) {
    if (const char* why = misplaced(line)) {
      *error = at(source, k) + why;
      return false;
    }
    for (std::size_t col = 0; col < line.size(); ++col) {
      const char c = line[col];
      if (std::isspace(static_cast<unsigned char>(c))) continue;
      const char to = alphabet.map(c);
      if (to == 0) {
        const std::string shown = std::isprint(static_cast<unsigned char>(c)) ? std::string(1, c) : "\\x" + hex(c);
        *error = source + ":" + std::to_string(k + 1) + ":" + std::to_string(col + 1) + ": letter '" + shown +
                 "' is not in the alphabet (--unknown-as-wildcard reads such letters as the matrix's wildcard)";
        return false;
      }
      out->stand_ins += alphabet.stands_in(c);
      *seq += to;
    }
    return true;
  }

  static std::string hex(char c) {
    const char* digits = "0123456789abcdef";
    const unsigned char u = static_cast<unsigned char>(c);
    return {digits[u >> 4], digits[u & 15]};
  }
};

bool parse_fasta(const std::vector<std::string>& lines, LetterReader& reader, std::string* error) {
  const std::string& source = reader.source;
  NamedSequences* out = reader.out;
  std::string seq;
  bool open = false;
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const std::string& l = lines[k];
    if (!l.empty() && l[0] == '>') {
      if (open) out->letters.add(seq);
      out->names.push_back(name_of(l.substr(1), out->names.size()));
      out->lines.push_back(k + 1);
      seq.clear();
      open = true;
    } else if (!blank(l)) {
      if (!open) {
        *error = at(source, k) + "sequence letters before the first '>' header";
        return false;
      }
      if (!reader.append(l, k, &seq, error)) return false;
    }
  }
  if (open) out->letters.add(seq);
  return true;
}

bool parse_fastq(const std::vector<std::string>& lines, LetterReader& reader, std::string* error) {
  const std::string& source = reader.source;
  NamedSequences* out = reader.out;
  std::size_t k = 0;
  while (k < lines.size()) {
    if (blank(lines[k])) {
      ++k;
      continue;
    }
    if (lines[k][0] != '@') {
      *error = at(source, k) + "expected a FASTQ record starting with '@'";
      return false;
    }
    if (k + 3 >= lines.size()) {
      *error = at(source, k) + "incomplete FASTQ record (needs 4 lines)";
      return false;
    }
    if (lines[k + 2].empty() || lines[k + 2][0] != '+') {
      *error = at(source, k + 2) + "expected the '+' line of a FASTQ record";
      return false;
    }
    std::string seq;
    if (!reader.append(lines[k + 1], k + 1, &seq, error)) return false;
    std::size_t qual = 0;
    for (char c : lines[k + 3]) qual += !std::isspace(static_cast<unsigned char>(c));
    if (qual != seq.size()) {
      *error = at(source, k + 3) + std::to_string(qual) + " quality values for " + std::to_string(seq.size()) + " letters";
      return false;
    }
    out->names.push_back(name_of(lines[k].substr(1), out->names.size()));
    out->lines.push_back(k + 1);
    out->letters.add(seq);
    k += 4;
  }
  return true;
}

template <class Batch>
bool check_batch(const std::vector<std::string>& names, const std::vector<std::size_t>& lines, const Batch& batch,
                 const std::string& source, const char* what, const char* unit, std::size_t limit, std::string* error) {
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (batch.length(i) > limit) {
      *error = source + ":" + std::to_string(lines[i]) + ": " + what + " '" + names[i] + "' has " +
               std::to_string(batch.length(i)) + " " + unit +
               "; the limit is " + std::to_string(limit);
      return false;
    }
  }
  return true;
}

}  // namespace

bool check_lengths(const NamedSequences& in, const std::string& source, std::size_t limit, std::string* error) {
  return check_batch(in.names, in.lines, in.letters, source, "sequence", "letters", limit, error);
}

bool check_lengths(const NamedSeries& in, const std::string& source, std::size_t limit, std::string* error) {
  return check_batch(in.names, in.lines, in.values, source, "series", "values", limit, error);
}

bool parse_sequences(const std::string& text, const std::string& source, const Alphabet& alphabet, NamedSequences* out,
                     std::string* error) {
  const std::vector<std::string> lines = lines_of(text);
  std::size_t first = 0;
  while (first < lines.size() && blank(lines[first])) ++first;
  if (first == lines.size()) {
    *error = source + ": no sequences (empty input)";
    return false;
  }
  if (const char* why = misplaced(lines[first])) {
    *error = at(source, first) + why;
    return false;
  }
  LetterReader reader{source, alphabet, out};
  const char c = lines[first][0];
  if (c == '>') return parse_fasta(lines, reader, error);
  if (c == '@') return parse_fastq(lines, reader, error);
  *error = at(source, first) + "not FASTA ('>') or FASTQ ('@')";
  return false;
}

bool parse_series(const std::string& text, const std::string& source, NamedSeries* out, std::string* error) {
  const std::vector<std::string> lines = lines_of(text);
  std::vector<std::int32_t> values;
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const std::string& l = lines[k];
    const std::size_t first = l.find_first_not_of(" \t");
    if (first == std::string::npos || l[first] == '#') continue;
    values.clear();
    const char* p = l.c_str();
    while (true) {
      while (*p == ' ' || *p == '\t' || *p == ',') ++p;
      if (*p == '\0') break;
      char* end = nullptr;
      errno = 0;
      const long long v = std::strtoll(p, &end, 10);
      if (end == p || (*end != '\0' && *end != ' ' && *end != '\t' && *end != ',')) {
        *error = at(source, k) + "'" + std::string(p, std::min<std::size_t>(std::strlen(p), 20)) + "' is not a whole number";
        return false;
      }
      if (errno == ERANGE || v < INT32_MIN || v > INT32_MAX) {
        *error = at(source, k) + std::string(p, static_cast<std::size_t>(end - p)) + " is outside the int32 range";
        return false;
      }
      values.push_back(static_cast<std::int32_t>(v));
      p = end;
    }
    if (values.empty()) {
      *error = at(source, k) + "separators but no values (an empty series is not a line of commas)";
      return false;
    }
    out->names.push_back(std::to_string(out->names.size() + 1));
    out->lines.push_back(k + 1);
    out->values.add(values.data(), values.size());
  }
  if (out->names.empty()) {
    *error = source + ": no series (empty input)";
    return false;
  }
  return true;
}

}  // namespace cli
}  // namespace dpx
