// Command line of dpx-align.
#pragma once

#include <string>
#include <vector>

#include "dpx/align_distance.h"
#include "dpx/device.h"
#include "search_options.h"

namespace dpx {
namespace cli {

enum class Command { kSw, kNw, kSg, kEdit, kDtw, kSearch, kMakedb, kMerge };

struct CliOptions {
  Command command = Command::kSw;
  std::string matrix = "blosum62";  // a built-in name, "dna", or a file in the NCBI format
  char wildcard = 0;                // for a matrix file: 0 = its 'X', or none
  bool keep_case = false;           // compare letters as written instead of in upper case
  bool unknown_as_wildcard = false; // letters outside the matrix become its wildcard, not an error
  int match = 2, mismatch = -3;     // --matrix dna
  int gap_open = 11, gap_extend = 1;
  bool cigar = false;
  Backend backend = Backend::kAuto;
  int band = -1;                    // dtw
  bool float_series = false;        // dtw: read the series as float even without fractions
  DtwCost cost = DtwCost::kAbsolute;  // dtw
  int threads = 0;                  // CPU threads, 0 = all
  bool quiet = false;               // no progress line
  std::string output = "-";
  SearchOptions search;             // search
  std::string query_path, target_path;  // makedb: the FASTA database and the file to write
  std::vector<std::string> shard_outputs;  // merge
  bool top_given = false, format_given = false;  // merge: else the shards' --top and --outfmt
};

enum class ParseResult { kOk, kHelp, kError };

// Parses argv (argv[1] is the command). On kError, `error` says what was wrong.
ParseResult parse_options(int argc, char** argv, CliOptions* out, std::string* error);

std::string usage();

// The options that set how letters are read (--matrix, --wildcard, --keep-case,
// --unknown-as-wildcard) as they would be written on the command line.
std::string letter_options(const CliOptions& o);

}  // namespace cli
}  // namespace dpx
