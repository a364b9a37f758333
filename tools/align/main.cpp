// dpx-align: aligns every query against every target (Smith-Waterman, Needleman-Wunsch,
// semi-global, edit distance) or warps every series against every other (DTW), on the GPU when
// there is one, and writes a TSV table; or searches a database for each query's best hits, FASTA
// or a database file written once by makedb; or merges the outputs of a search run in shards.
// Bad flags or inputs: a message and exit status 2; Ctrl-C during a search: 130.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <future>
#include <sstream>
#include <string>
#include <vector>

#include "db_file.h"
#include "dpx/align.h"
#include "dpx/align_distance.h"
#include "input_file.h"
#include "letters.h"
#include "merge_command.h"
#include "options.h"
#include "output_file.h"
#include "progress.h"
#include "runner.h"
#include "search_command.h"
#include "sequence_reader.h"
#include "series_reader.h"
#include "tsv_writer.h"

namespace {

using namespace dpx;
using namespace dpx::cli;

int fail(const std::string& message, int code = 2) {
  std::fprintf(stderr, "dpx-align: %s\n", message.c_str());
  return code;
}

// Creates every visible device's context; errors are left to the search that follows.
void warm_up_devices() {
  for (int d = 0; d < cuda_device_count(); ++d) {
    std::size_t free_bytes = 0, total_bytes = 0;
    if (set_cuda_device(d).is_ok()) (void)cuda_memory_info(&free_bytes, &total_bytes);
  }
}

// The column letters of a matrix file: the tokens of its first line that is not blank or '#'.
std::string column_letters(const std::string& text) {
  std::istringstream in(text);
  std::string line, letters, tok;
  while (letters.empty() && std::getline(in, line)) {
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    std::istringstream tokens(line);
    while (tokens >> tok) letters += tok;
  }
  return letters;
}

// A matrix file without a wildcard (no X, no --wildcard) gets a stand-in letter no input can hold
// (unknown letters are errors then), so none of its real letters loses its '=' in CIGARs.
constexpr char kStandIn = '?';

Status add_stand_in(const ScoreMatrix& m, ScoreMatrix* out) {
  const int n = m.size();
  std::vector<int> scores;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j) scores.push_back(i < n && j < n ? m.score(i, j) : m.min_score());
  return ScoreMatrix::from_scores(m.letters() + kStandIn, scores, kStandIn, m.name(), out);
}

// Loads --matrix; `wildcard` gets its wildcard letter, 0 when it has none.
bool load_matrix(const CliOptions& o, ScoreMatrix* m, char* wildcard, std::string* error) {
  Status s;
  if (o.matrix == "dna") {
    s = ScoreMatrix::dna(o.match, o.mismatch, m);
  } else if (ScoreMatrix::builtin(o.matrix, m).is_ok()) {
    s = Status::ok();
  } else {
    std::string text;
    if (!read_input_file(o.matrix, &text, error)) {
      *error = "--matrix '" + o.matrix + "' is neither a built-in matrix (blosum45, blosum50, blosum62, blosum80, pam250, dna) nor a readable file (" + *error + ")";
      return false;
    }
    const std::string letters = column_letters(text);
    const char given = o.wildcard != 0 ? o.wildcard : letters.find_first_of("Xx") != std::string::npos ? 'X' : 0;
    if (given != 0) {
      s = ScoreMatrix::parse(text, given, o.matrix, m);
    } else {
      ScoreMatrix plain;
      s = ScoreMatrix::parse(text, letters.empty() ? 'X' : letters[0], o.matrix, &plain);
      if (s.is_ok()) s = add_stand_in(plain, m);
      *wildcard = 0;
      if (s.is_ok()) return true;
    }
  }
  if (!s.is_ok()) *error = s.message();
  if (s.is_ok()) *wildcard = m->letters()[m->wildcard()];
  return s.is_ok();
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
  if (o.command == Command::kMerge) {
    const Status s = run_merge(o);
    return s.is_ok() ? 0 : fail(s.message(), s.code() == StatusCode::kInvalidArgument ? 2 : 1);
  }
  if (o.query_path == "-" && o.target_path == "-") return fail("only one input can be standard input");

  const bool series = o.command == Command::kDtw;
  ScoreMatrix matrix;
  NamedSequences queries, targets;
  NamedSeries a, b;
  const bool search = o.command == Command::kSearch;
  const bool makedb = o.command == Command::kMakedb;
  const bool scoring =
      o.command == Command::kSw || o.command == Command::kNw || o.command == Command::kSg || search || makedb;
  char wildcard = 0;
  if (scoring && !load_matrix(o, &matrix, &wildcard, &error)) return fail(error);
  if (scoring && o.unknown_as_wildcard && wildcard == 0) {
    return fail("--unknown-as-wildcard: matrix " + o.matrix + " has no wildcard (no X); name one with --wildcard");
  }
  const Alphabet alphabet = scoring ? Alphabet::of_matrix(matrix, wildcard, o.keep_case, o.unknown_as_wildcard)
                                    : Alphabet::letters(o.keep_case);
  // makedb reads its FASTA as `queries`; search takes a makedb file in place of its FASTA
  const LetterRule rule{alphabet.identity(), letter_options(o)};
  // A search on the GPU creates the devices' contexts (a few hundred milliseconds) while it reads.
  std::future<void> warm_up;
  if (search && o.backend != Backend::kCpu) warm_up = std::async(std::launch::async, warm_up_devices);
  const auto read_start = std::chrono::steady_clock::now();
  const bool loaded = series ? read_series(o.query_path, o.float_series, &a, &error) &&
                                   read_series(o.target_path, o.float_series, &b, &error) &&
                                   settle_series_type(o.float_series, &a, &b, &error)
                             : read_sequences(o.query_path, alphabet, &queries, &error) &&
                                   (makedb || (search && is_database_file(o.target_path)
                                                   ? read_database(o.target_path, rule, &targets, &error)
                                                   : read_sequences(o.target_path, alphabet, &targets, &error)));
  if (!loaded) return fail(error);
  if (search && o.search.timings) {
    std::fprintf(stderr, "dpx-align: timings: reading the inputs %.2f s\n", seconds_since(read_start));
  }
  if (const std::size_t n = queries.stand_ins + targets.stand_ins) {
    std::fprintf(stderr, "dpx-align: warning: %zu unknown letters read as the wildcard '%c'\n", n, wildcard);
  }

  const bool short_enough =
      series ? check_lengths(a, o.query_path, kAlignDistanceMaxLength, &error) &&
                   check_lengths(b, o.target_path, kAlignDistanceMaxLength, &error)
             : check_lengths(queries, o.query_path, kAlignMaxLength, &error) &&
                   check_lengths(targets, o.target_path, kAlignMaxLength, &error);
  if (!short_enough) return fail(error);
  if (makedb) return write_database(o.target_path, queries, rule, &error) ? 0 : fail(error);
  const Status fits = series ? check_series_options(o, a) : Status::ok();
  if (!fits.is_ok()) return fail(fits.message());
  const Status usable = resolve_backend(o.backend, &o.backend);
  if (!usable.is_ok()) return fail(usable.message());
  if (search) {
    bool interrupted = false;
    const Status s = run_search(o, matrix, queries, targets, &interrupted);
    if (interrupted) return fail("interrupted; the rows written are whole" + std::string(o.output == "-" ? "" : ", " + o.output + " is unchanged"), 130);
    return s.is_ok() ? 0 : fail(s.message(), s.code() == StatusCode::kInvalidArgument ? 2 : 1);
  }

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
  if (!output.write_error().empty()) return fail(output.write_error());
  if (!s.is_ok()) return fail(s.message(), s.code() == StatusCode::kInvalidArgument ? 2 : 1);
  return output.commit(&error) ? 0 : fail(error);
}
