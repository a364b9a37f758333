// dpx-align: aligns every query against every target (Smith-Waterman, Needleman-Wunsch,
// semi-global, edit distance) or warps every series against every other (DTW), on the GPU when
// there is one, and writes a TSV table. Bad flags or inputs: a message and exit status 2.
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>

#include "dpx/align.h"
#include "dpx/align_distance.h"
#include "input_file.h"
#include "options.h"
#include "output_file.h"
#include "progress.h"
#include "runner.h"
#include "sequence_reader.h"
#include "tsv_writer.h"

namespace {

using namespace dpx;
using namespace dpx::cli;

int fail(const std::string& message, int code = 2) {
  std::fprintf(stderr, "dpx-align: %s\n", message.c_str());
  return code;
}

// The wildcard of a matrix file: --wildcard, else X or N from its column letters.
bool matrix_wildcard(const std::string& text, char given, char* out) {
  if (given != 0) {
    *out = given;
    return true;
  }
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    std::istringstream letters(line);
    std::string tok;
    bool x = false, n = false;
    while (letters >> tok) {
      x = x || tok == "X" || tok == "x";
      n = n || tok == "N" || tok == "n";
    }
    *out = x ? 'X' : 'N';
    return x || n;
  }
  return false;
}

bool load_matrix(const CliOptions& o, ScoreMatrix* m, std::string* error) {
  Status s;
  if (o.matrix == "dna") {
    s = ScoreMatrix::dna(o.match, o.mismatch, m);
  } else if (ScoreMatrix::builtin(o.matrix, m).is_ok()) {
    return true;
  } else {
    std::string text;
    if (!read_input_file(o.matrix, &text, error)) {
      *error = "--matrix '" + o.matrix + "' is neither a built-in matrix (blosum45, blosum50, blosum62, blosum80, pam250, dna) nor a readable file (" + *error + ")";
      return false;
    }
    char wildcard = 0;
    if (!matrix_wildcard(text, o.wildcard, &wildcard)) {
      *error = "matrix file " + o.matrix + " has neither X nor N; name its wildcard letter with --wildcard";
      return false;
    }
    s = ScoreMatrix::parse(text, wildcard, o.matrix, m);
  }
  if (!s.is_ok()) *error = s.message();
  return s.is_ok();
}

bool load_sequences(const std::string& path, NamedSequences* out, std::string* error) {
  std::string text;
  return read_input_file(path, &text, error) && parse_sequences(text, path, out, error);
}

bool load_series(const std::string& path, NamedSeries* out, std::string* error) {
  std::string text;
  return read_input_file(path, &text, error) && parse_series(text, path, out, error);
}

}  // namespace

int main(int argc, char** argv) {
  CliOptions o;
  std::string error;
  switch (parse_options(argc, argv, &o, &error)) {
    case ParseResult::kHelp:
      std::fputs(usage().c_str(), stdout);
      return 0;
    case ParseResult::kError:
      std::fprintf(stderr, "dpx-align: %s\n\n%s", error.c_str(), usage().c_str());
      return 2;
    case ParseResult::kOk:
      break;
  }
  if (o.query_path == "-" && o.target_path == "-") return fail("only one input can be standard input");

  const bool series = o.command == Command::kDtw;
  ScoreMatrix matrix;
  NamedSequences queries, targets;
  NamedSeries a, b;
  const bool scoring = o.command == Command::kSw || o.command == Command::kNw || o.command == Command::kSg;
  if (scoring && !load_matrix(o, &matrix, &error)) return fail(error);
  const bool loaded = series ? load_series(o.query_path, &a, &error) && load_series(o.target_path, &b, &error)
                             : load_sequences(o.query_path, &queries, &error) && load_sequences(o.target_path, &targets, &error);
  if (!loaded) return fail(error);
  const bool short_enough =
      series ? check_lengths(a, o.query_path, kAlignDistanceMaxLength, &error) &&
                   check_lengths(b, o.target_path, kAlignDistanceMaxLength, &error)
             : check_lengths(queries, o.query_path, kAlignMaxLength, &error) &&
                   check_lengths(targets, o.target_path, kAlignMaxLength, &error);
  if (!short_enough) return fail(error);
  const Status usable = resolve_backend(o.backend, &o.backend);
  if (!usable.is_ok()) return fail(usable.message());

  OutputFile output;
  if (!output.open(o.output, &error)) return fail(error);
  std::FILE* file = output.get();
  const char* value_name = series ? "cost" : o.command == Command::kEdit ? "distance" : "score";
  TsvWriter writer(file, value_name);
  const std::uint64_t total = series ? std::uint64_t(a.names.size()) * b.names.size()
                                     : std::uint64_t(queries.names.size()) * targets.names.size();
  Progress progress(total, !o.quiet);
  const Status s = series ? run_series(o, a, b, &writer, &progress)
                          : run_sequences(o, matrix, queries, targets, &writer, &progress);
  progress.finish();
  if (!s.is_ok()) return fail(s.message(), s.code() == StatusCode::kInvalidArgument ? 2 : 1);
  if (!writer.ok()) return fail("cannot write " + o.output);
  return output.commit(&error) ? 0 : fail(error);
}
