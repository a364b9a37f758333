#include "sequence_reader.h"

#include "input_file.h"
#include "record_lengths.h"

#include <algorithm>
#include <cctype>

namespace dpx {
namespace cli {
namespace {

bool blank(std::string_view s) {
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) return false;
  return true;
}

std::string name_of(std::string_view header, std::size_t index) {
  std::size_t end = 0;
  while (end < header.size() && !std::isspace(static_cast<unsigned char>(header[end]))) ++end;
  return end > 0 ? std::string(header.substr(0, end)) : "seq" + std::to_string(index + 1);
}

std::string at(const std::string& source, std::size_t line) { return source + ":" + std::to_string(line + 1) + ": "; }

// The reason a line that should hold letters or a header cannot, or nullptr.
const char* misplaced(std::string_view l) {
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

  bool append(std::string_view line, std::size_t k, std::string* seq, std::string* error) {
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

// FASTA or FASTQ fed a line at a time; the format is set by the first line that is not blank.
class SequenceParser {
 public:
  SequenceParser(const std::string& source, const Alphabet& alphabet, NamedSequences* out)
      : reader_{source, alphabet, out} {}

  bool line(std::string_view l, std::size_t k, std::string* error) {
    if (format_ == 0) {
      if (blank(l)) return true;
      if (const char* why = misplaced(l)) return fail(k, why, error);
      if (l[0] != '>' && l[0] != '@') return fail(k, "not FASTA ('>') or FASTQ ('@')", error);
      format_ = l[0];
    }
    return format_ == '>' ? fasta(l, k, error) : fastq(l, k, error);
  }

  bool finish(std::string* error) {
    if (format_ == 0) {
      *error = reader_.source + ": no sequences (empty input)";
      return false;
    }
    if (format_ == '@' && step_ != 0) return fail(record_, "incomplete FASTQ record (needs 4 lines)", error);
    return !open_ || close_record(error);
  }

 private:
  bool fail(std::size_t k, const std::string& why, std::string* error) {
    *error = at(reader_.source, k) + why;
    return false;
  }

  // A name is written into every row of the output: a control character would break the table.
  bool start_record(std::string_view header, std::size_t k, std::string* error) {
    NamedSequences* out = reader_.out;
    std::string name = name_of(header, out->names.size());
    for (std::size_t col = 0; col < name.size(); ++col) {
      const unsigned char c = static_cast<unsigned char>(name[col]);
      if (c < 0x20 || c == 0x7f) {
        *error = reader_.source + ":" + std::to_string(k + 1) + ":" + std::to_string(col + 2) + ": the name holds the control character \\x" +
                 LetterReader::hex(name[col]) + "; names are printable text";
        return false;
      }
    }
    out->names.push_back(std::move(name));
    out->lines.push_back(k + 1);
    seq_.clear();
    return true;
  }

  // One rule for every command: a record without letters is an error, never an empty alignment.
  bool close_record(std::string* error) {
    NamedSequences* out = reader_.out;
    if (seq_.empty()) {
      *error = reader_.source + ":" + std::to_string(out->lines.back()) + ": record '" + out->names.back() + "' has no letters";
      return false;
    }
    out->letters.add(seq_);
    return true;
  }

  bool fasta(std::string_view l, std::size_t k, std::string* error) {
    if (!l.empty() && l[0] == '>') {
      if (open_ && !close_record(error)) return false;
      open_ = true;
      return start_record(l.substr(1), k, error);
    }
    if (blank(l)) return true;
    if (!open_) return fail(k, "sequence letters before the first '>' header", error);
    return reader_.append(l, k, &seq_, error);
  }

  // Records of 4 lines: @name, letters, '+', qualities of the same length.
  bool fastq(std::string_view l, std::size_t k, std::string* error) {
    switch (step_) {
      case 0:
        if (blank(l)) return true;
        if (l[0] != '@') return fail(k, "expected a FASTQ record starting with '@'", error);
        if (!start_record(l.substr(1), k, error)) return false;
        record_ = k;
        break;
      case 1:
        if (!reader_.append(l, k, &seq_, error)) return false;
        break;
      case 2:
        if (l.empty() || l[0] != '+') return fail(k, "expected the '+' line of a FASTQ record", error);
        break;
      default: {
        std::size_t qual = 0;
        for (char c : l) qual += !std::isspace(static_cast<unsigned char>(c));
        if (qual != seq_.size()) {
          return fail(k, std::to_string(qual) + " quality values for " + std::to_string(seq_.size()) + " letters", error);
        }
        step_ = 0;
        return close_record(error);
      }
    }
    ++step_;
    return true;
  }

  LetterReader reader_;
  char format_ = 0;  // '>' or '@' once known
  std::string seq_;
  bool open_ = false;       // FASTA: a record is being read
  int step_ = 0;            // FASTQ: line within the record
  std::size_t record_ = 0;  // FASTQ: the record's first line
};

}  // namespace

bool read_sequences(const std::string& path, const Alphabet& alphabet, NamedSequences* out, std::string* error) {
  SequenceParser parser(path, alphabet, out);
  // The letters fit in a plain file's size: one allocation, never regrown (pages it does not fill
  // are never touched).
  std::size_t size = 0;
  const bool read = read_input_lines(path, [&](std::string_view l, std::size_t k) {
    if (k == 0) out->letters.reserve(size);
    return parser.line(l, k, error);
  }, error, &size);
  return read && parser.finish(error);
}

bool parse_sequences(std::string_view text, std::size_t chunk, const std::string& source, const Alphabet& alphabet,
                     NamedSequences* out, std::string* error) {
  SequenceParser parser(source, alphabet, out);
  return split_lines(text, chunk, [&](std::string_view l, std::size_t k) { return parser.line(l, k, error); }) &&
         parser.finish(error);
}

bool check_lengths(const NamedSequences& in, const std::string& source, std::size_t limit, std::string* error) {
  return check_record_lengths(in.names, in.lines, in.letters, source, "sequence", "letters", limit, error);
}

}  // namespace cli
}  // namespace dpx
