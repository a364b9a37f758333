// FASTA and FASTQ records: names and letters.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "database_order.h"
#include "dpx/sequences.h"
#include "letters.h"

namespace dpx {
namespace cli {

struct NamedSequences {
  std::vector<std::string> names;  // up to the first whitespace of the header
  std::vector<std::size_t> lines;  // 1-based line of each record's header
  SequenceBatch letters;
  std::size_t stand_ins = 0;       // unknown letters read as the wildcard
  DatabaseOrder order;             // the records' original order (a database from makedb is sorted)
};

// Reads FASTA ('>' headers, sequence on any number of lines) or FASTQ (4-line records: @name,
// letters, '+', qualities of the same length) from `path` (plain or gzip, "-" = standard input),
// told apart by the first character, a line at a time: only the letters read are kept. Whitespace
// inside sequences is dropped; every other letter is read through `alphabet`, and one it does not
// know is an error naming its line and column. A byte-order mark, a header after whitespace,
// ';' comment lines, a record without letters and a name holding a control character (it would
// break the rows of the output) are errors that say so.
bool read_sequences(const std::string& path, const Alphabet& alphabet, NamedSequences* out, std::string* error);

// The same for text in memory named `source`, split as split_lines splits it (tests, fuzzers).
bool parse_sequences(std::string_view text, std::size_t chunk, const std::string& source, const Alphabet& alphabet,
                     NamedSequences* out, std::string* error);

// Fails, naming the first sequence longer than `limit` by its name and line, before any work.
bool check_lengths(const NamedSequences& in, const std::string& source, std::size_t limit, std::string* error);

}  // namespace cli
}  // namespace dpx
