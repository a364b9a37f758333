// The record a search run as one shard (--shard i/n --output OUT) writes beside its output, as
// OUT.shard, so that dpx-align merge can check that its inputs are the whole of one search and
// rebuild the rows one run would give. A side file, not a header in OUT: blast6 output stays plain
// BLAST tabular for the programs that read it, and blast6 rows lack the raw score the merge ranks by.
//
// The file is text, written whole through a temporary file, then renamed:
//   dpx-align shard record 1          name and format version
//   shard I/N
//   options --matrix blosum62 ...     the options that decide the rows, as on the command line
//   top N                             hits kept per query (0 = all)
//   outfmt tsv|blast6
//   matrix FINGERPRINT                of the matrix's letters and scores
//   queries COUNT FINGERPRINT         of the queries' names and letters
//   database SEQUENCES LETTERS FINGERPRINT   of every database name and length, in FASTA order
//   output BYTES FINGERPRINT          of OUT as the search wrote it
//   hits                              then one line per query: its rows' scores, in row order
//   ...
//   end                               the search finished
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "dpx/align.h"
#include "options.h"
#include "sequence_reader.h"
#include "top_hits.h"

namespace dpx {
namespace cli {

struct ShardRecord {
  std::uint64_t shard = 0, shards = 1;
  std::string options;
  std::uint64_t top = 0;
  OutputFormat format = OutputFormat::kTsv;
  std::uint64_t matrix = 0;
  std::uint64_t queries = 0, queries_fingerprint = 0;
  std::uint64_t sequences = 0, letters = 0, database_fingerprint = 0;
  std::uint64_t output_bytes = 0, output_fingerprint = 0;
};

// Where the record of `output` lives.
std::string shard_record_path(const std::string& output);

// The record of a search by `o` of `db` (the whole database) for `queries`, its output still to be
// fingerprinted.
ShardRecord describe_shard(const CliOptions& o, const ScoreMatrix& matrix, const NamedSequences& queries,
                           const NamedSequences& db);

// Fingerprints `output` (written whole) into `record` and writes the record beside it with each
// query's hit scores from `best`. False with `error` naming the file. Writes nothing when `output`
// is not a regular file (a pipe, a device): nothing can be merged from it.
bool write_shard_record(const std::string& output, ShardRecord record, const std::vector<std::vector<Hit>>& best,
                        std::string* error);

// Reads a record a query at a time, so that a merge holds one query's rows per shard.
class ShardRecordReader {
 public:
  // Reads everything before the hits; false with `error` naming the file when it is missing or not
  // a shard record.
  bool open(const std::string& path, std::string* error);
  const ShardRecord& record() const { return record_; }
  // The next query's scores, best first; false with `error` when the record ends before it.
  bool next_query(std::vector<std::int32_t>* scores, std::string* error);
  // After the last query: false with `error` unless the record ends with its end line.
  bool finish(std::string* error);

 private:
  bool fail(const std::string& what, std::string* error) const;
  bool next_line(std::string* line);
  // The next line, when it starts with `key`: its values (count 0: the rest of the line as one).
  bool expect(const char* key, std::size_t count, std::string* line, std::vector<std::string>* values);

  std::string path_;
  std::ifstream in_;
  std::uint64_t line_ = 0;
  ShardRecord record_;
};

}  // namespace cli
}  // namespace dpx
