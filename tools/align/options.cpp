#include "options.h"

#include <getopt.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "dpx/align.h"

namespace dpx {
namespace cli {
namespace {

enum Flag {
  kMatrix = 256, kWildcard, kMatch, kMismatch, kGapOpen, kGapExtend, kCigar, kBackend, kBand, kThreads, kQuiet,
  kOutput, kHelp, kKeepCase, kUnknownAsWildcard, kTop, kMinScore, kOutfmt, kDevices, kShard, kTimings,
  kFloat,
  kCost,
};

const option kLongOptions[] = {
    {"matrix", required_argument, nullptr, kMatrix},       {"wildcard", required_argument, nullptr, kWildcard},
    {"match", required_argument, nullptr, kMatch},         {"mismatch", required_argument, nullptr, kMismatch},
    {"gap-open", required_argument, nullptr, kGapOpen},    {"gap-extend", required_argument, nullptr, kGapExtend},
    {"cigar", no_argument, nullptr, kCigar},               {"backend", required_argument, nullptr, kBackend},
    {"band", required_argument, nullptr, kBand},           {"threads", required_argument, nullptr, kThreads},
    {"quiet", no_argument, nullptr, kQuiet},               {"output", required_argument, nullptr, kOutput},
    {"help", no_argument, nullptr, kHelp},                 {"keep-case", no_argument, nullptr, kKeepCase},
    {"unknown-as-wildcard", no_argument, nullptr, kUnknownAsWildcard},
    {"top", required_argument, nullptr, kTop},             {"min-score", required_argument, nullptr, kMinScore},
    {"outfmt", required_argument, nullptr, kOutfmt},       {"devices", required_argument, nullptr, kDevices},
    {"shard", required_argument, nullptr, kShard},         {"timings", no_argument, nullptr, kTimings},
    {"float", no_argument, nullptr, kFloat},               {"cost", required_argument, nullptr, kCost},
    {nullptr, 0, nullptr, 0}};

bool parse_int(const char* flag, const char* text, long lo, long hi, int* out, std::string* error) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || errno == ERANGE || v < lo || v > hi) {
    *error = std::string("--") + flag + " needs a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
             ", got '" + text + "'";
    return false;
  }
  *out = static_cast<int>(v);
  return true;
}

bool parse_command(const char* word, Command* out) {
  const struct {
    const char* name;
    Command command;
  } commands[] = {{"sw", Command::kSw},     {"nw", Command::kNw},   {"sg", Command::kSg},
                  {"edit", Command::kEdit}, {"dtw", Command::kDtw}, {"search", Command::kSearch},
                  {"makedb", Command::kMakedb}, {"merge", Command::kMerge}};
  for (const auto& c : commands)
    if (std::strcmp(word, c.name) == 0) {
      *out = c.command;
      return true;
    }
  return false;
}

// What makedb accepts besides --quiet and --help: what decides how letters are read.
bool letter_option(int code) {
  return code == kMatrix || code == kWildcard || code == kKeepCase || code == kUnknownAsWildcard;
}

std::string makedb_usage() {
  return "dpx-align makedb [letter options] DATABASE.fasta OUT\n"
         "  Writes DATABASE (FASTA or FASTQ, plain or gzip) as a database file that search reads in\n"
         "  place of it (told apart by its first bytes) much faster: the letters as search reads them,\n"
         "  sorted by length, names and header lines. A search gives the same rows for either file. It\n"
         "  takes --matrix, --wildcard, --keep-case and --unknown-as-wildcard, and a search of OUT must\n"
         "  read letters the same way (another rule is refused). OUT is replaced only when whole.\n";
}

// What merge accepts.
bool merge_option(int code) {
  return code == kTop || code == kOutfmt || code == kOutput || code == 'o' || code == kHelp || code == 'h';
}

std::string merge_usage() {
  return "dpx-align merge [--top N] [--outfmt tsv|blast6] [--output FILE] SHARD_OUTPUT...\n"
         "  Merges the outputs of one search run as shards (--shard i/n --output OUT, each beside its\n"
         "  OUT.shard record, in any order) into the bytes one search of the whole database writes.\n"
         "  Every shard is checked first: all n of them, each once, each whole, all from the same\n"
         "  options, queries and database; otherwise nothing is written.\n"
         "  --top N              hits per query (default the search's; at most what it kept)\n"
         "  --outfmt tsv|blast6  the shards' format, checked (merge does not convert)\n"
         "  --output FILE        write to FILE, replaced only when whole (default standard output)\n";
}

}  // namespace

std::string letter_options(const CliOptions& o) {
  std::string text = "--matrix " + o.matrix;
  if (o.wildcard != 0) text += std::string(" --wildcard ") + o.wildcard;
  if (o.keep_case) text += " --keep-case";
  if (o.unknown_as_wildcard) text += " --unknown-as-wildcard";
  return text;
}

std::string usage() {
  return "usage: dpx-align sw|nw|sg|edit [options] QUERIES TARGETS\n"
         "       dpx-align dtw [--band R] [--float] [--cost abs|sq] [options] A.txt B.txt\n"
         "       dpx-align search [options] QUERIES DATABASE\n"
         "       dpx-align makedb [letter options] DATABASE.fasta OUT\n"
         "       dpx-align merge [--top N] [--outfmt tsv|blast6] [--output FILE] SHARD_OUTPUT...\n"
         "\n"
         "Aligns every query against every target and writes a TSV table (with a header line) to the\n"
         "output: query, target, score (distance, cost), query_start, query_end, target_start,\n"
         "target_end, cigar. Positions are 0-based, the end exclusive; '.' marks a value not computed\n"
         "(starts of local alignments without --cigar) or empty.\n"
         "\n"
         "  sw    Smith-Waterman (local)        nw    Needleman-Wunsch (global)\n"
         "  sg    semi-global: the whole query, free target ends\n"
         "  edit  edit distance (Levenshtein)   dtw   dynamic time warping of number series\n"
         "\n"
         "QUERIES and TARGETS are FASTA or FASTQ, plain or gzip ('-' = standard input). For dtw, A and B\n"
         "hold one series per line: numbers separated by whitespace or commas (blank and '#' lines\n"
         "skipped). They are int32 unless --float is given or a value in either file has a fraction\n"
         "or an exponent (1.5, -.25, 2e3): then every value is a float32 and costs print with 9\n"
         "significant digits. NaN, infinity and values beyond the type's range are errors.\n"
         "Sequences and series are limited to " + std::to_string(kAlignMaxLength) +
         " letters (values) each; every input, the matrix and\n"
         "the backend are checked before anything is written.\n"
         "\n"
         "  --matrix NAME|FILE   blosum45, blosum50, blosum62 (default), blosum80, pam250, dna, or a\n"
         "                       matrix file in the NCBI format\n"
         "  --match N, --mismatch N   scores of --matrix dna (default 2, -3)\n"
         "  --wildcard C         the wildcard letter of a matrix file (default its X; without one\n"
         "                       there is none)\n"
         "  --gap-open N         cost of a gap's first letter (default 11); a gap of length L costs\n"
         "  --gap-extend N       open + (L - 1) * extend (default extend 1)\n"
         "  --cigar              compute start positions and CIGARs (sw, nw, sg, edit)\n"
         "  --band R             dtw: Sakoe-Chiba radius (default none)\n"
         "  --float              dtw: read the series as float32, fractions or not\n"
         "  --cost abs|sq        dtw: a cell costs |a - b| (default) or (a - b)^2; sq needs float series\n"
         "  --backend auto|cuda|cpu   where to run (default auto: the GPU when there is one)\n"
         "  --threads N          CPU threads (default: all)\n"
         "  --output FILE        write the table to FILE instead of standard output\n"
         "  --quiet              no progress line on standard error\n"
         "\n"
         "Letters, in every command: upper and lower case are the same letter (--keep-case compares\n"
         "them as written). A letter outside the alphabet (the matrix's letters; A-Z for edit) is an\n"
         "error naming its file, line and column; U and O are read as C and K, as NCBI BLAST does, when\n"
         "the matrix lacks them.\n"
         "  --keep-case          compare letters as written\n"
         "  --unknown-as-wildcard  sw, nw, sg, search: read unknown letters as the matrix's wildcard,\n"
         "                       with one warning giving their count\n"
         "\n" + search_usage() + "\n" + makedb_usage() + "\n" + merge_usage();
}

ParseResult parse_options(int argc, char** argv, CliOptions* out, std::string* error) {
  if (argc < 2) {
    *error = "missing the command (sw, nw, sg, edit, dtw, search, makedb or merge)";
    return ParseResult::kError;
  }
  if (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) return ParseResult::kHelp;
  if (!parse_command(argv[1], &out->command)) {
    *error = std::string("unknown command '") + argv[1] + "' (sw, nw, sg, edit, dtw, search, makedb or merge)";
    return ParseResult::kError;
  }
  const bool search = out->command == Command::kSearch;
  const bool makedb = out->command == Command::kMakedb;
  const bool merge = out->command == Command::kMerge;
  const bool scoring = out->command == Command::kSw || out->command == Command::kNw || out->command == Command::kSg || search;
  bool ok = true;
  opterr = 0;
  optind = 0;  // all of getopt's state afresh (1 would keep where a previous call stopped inside a
               // word); argv[0] of the sub-vector below is the command
  int code;
  while (ok && (code = getopt_long(argc - 1, argv + 1, ":ho:", kLongOptions, nullptr)) != -1) {
    const bool not_an_option = code == '?' || code == ':';  // reported below
    if (merge && !merge_option(code) && !not_an_option) {
      *error = "merge takes --top, --outfmt and --output only";
      return ParseResult::kError;
    }
    const bool only_scoring = code == kMatrix || code == kWildcard || code == kMatch || code == kMismatch ||
                              code == kGapOpen || code == kGapExtend || code == kUnknownAsWildcard;
    if (only_scoring && !scoring && !(makedb && letter_option(code))) {
      *error = std::string("--") + kLongOptions[code - kMatrix].name + " applies to sw, nw, sg and search only";
      return ParseResult::kError;
    }
    if (makedb && !letter_option(code) && !not_an_option && code != kQuiet && code != kHelp && code != 'h') {
      *error = "makedb takes the letter options only (--matrix, --wildcard, --keep-case, --unknown-as-wildcard)";
      return ParseResult::kError;
    }
    if (code >= kTop && code <= kTimings && !search && !merge) {
      *error = std::string("--") + kLongOptions[code - kMatrix].name + " applies to search only";
      return ParseResult::kError;
    }
    if ((code == kBand || code == kFloat || code == kCost) && out->command != Command::kDtw) {
      *error = std::string("--") + kLongOptions[code - kMatrix].name + " applies to dtw only";
      return ParseResult::kError;
    }
    switch (code) {
      case kMatrix: out->matrix = optarg; break;
      case kWildcard:
        if (std::strlen(optarg) != 1) {
          *error = std::string("--wildcard needs one letter, got '") + optarg + "'";
          ok = false;
        }
        out->wildcard = optarg[0];
        break;
      case kMatch: ok = parse_int("match", optarg, -128, 127, &out->match, error); break;
      case kMismatch: ok = parse_int("mismatch", optarg, -128, 127, &out->mismatch, error); break;
      case kGapOpen: ok = parse_int("gap-open", optarg, 0, 8192, &out->gap_open, error); break;
      case kGapExtend: ok = parse_int("gap-extend", optarg, 0, 8192, &out->gap_extend, error); break;
      case kCigar:
        if (out->command == Command::kDtw || search) {
          *error = search ? "--cigar does not apply to search (its hits always come with their alignment)"
                          : "--cigar does not apply to dtw";
          ok = false;
        }
        out->cigar = true;
        break;
      case kBackend:
        if (std::strcmp(optarg, "auto") == 0) out->backend = Backend::kAuto;
        else if (std::strcmp(optarg, "cuda") == 0) out->backend = Backend::kCuda;
        else if (std::strcmp(optarg, "cpu") == 0) out->backend = Backend::kCpu;
        else {
          *error = std::string("--backend needs auto, cuda or cpu, got '") + optarg + "'";
          ok = false;
        }
        break;
      case kBand: ok = parse_int("band", optarg, -1, INT_MAX, &out->band, error); break;
      case kFloat: out->float_series = true; break;
      case kCost:
        if (std::strcmp(optarg, "abs") == 0) out->cost = DtwCost::kAbsolute;
        else if (std::strcmp(optarg, "sq") == 0) out->cost = DtwCost::kSquared;
        else {
          *error = std::string("--cost needs abs or sq, got '") + optarg + "'";
          ok = false;
        }
        break;
      case kThreads: ok = parse_int("threads", optarg, 0, 4096, &out->threads, error); break;
      case kQuiet: out->quiet = true; break;
      case kKeepCase: out->keep_case = true; break;
      case kUnknownAsWildcard: out->unknown_as_wildcard = true; break;
      case kTop:
        ok = parse_top(optarg, &out->search, error);
        out->top_given = true;
        break;
      case kMinScore: ok = parse_int("min-score", optarg, 0, INT_MAX, &out->search.min_score, error); break;
      case kOutfmt:
        ok = parse_output_format(optarg, &out->search, error);
        out->format_given = true;
        break;
      case kDevices: ok = parse_devices(optarg, &out->search, error); break;
      case kShard: ok = parse_shard(optarg, &out->search, error); break;
      case kTimings: out->search.timings = true; break;
      case 'o':
      case kOutput: out->output = optarg; break;
      case 'h':
      case kHelp: return ParseResult::kHelp;
      case ':':  // argv[optind] is the option getopt just looked at (it indexes argv + 1)
        *error = std::string("option '") + argv[optind] + "' needs a value";
        ok = false;
        break;
      default:
        *error = std::string("unrecognised option '") +
                 (optopt > 0 && optopt < 256 ? std::string("-") + static_cast<char>(optopt) : std::string(argv[optind])) + "'";
        ok = false;
    }
  }
  if (!ok) return ParseResult::kError;
  const int positional = argc - 1 - optind;
  if (merge) {
    if (positional == 0) {
      *error = "merge needs the shard outputs of a search";
      return ParseResult::kError;
    }
    out->shard_outputs.assign(argv + 1 + optind, argv + argc);
    return ParseResult::kOk;
  }
  if (positional != 2) {
    *error = std::string(makedb ? "expected 2 files (" : "expected 2 input files (") +
             std::string(out->command == Command::kDtw ? "A and B" : search ? "QUERIES and DATABASE"
                                                       : makedb ? "DATABASE.fasta and OUT" : "QUERIES and TARGETS") +
             "), got " + std::to_string(positional);
    return ParseResult::kError;
  }
  out->query_path = argv[1 + optind];
  out->target_path = argv[2 + optind];
  if (scoring && out->gap_extend > out->gap_open) {
    *error = "--gap-extend (" + std::to_string(out->gap_extend) + ") must not exceed --gap-open (" + std::to_string(out->gap_open) + ")";
    return ParseResult::kError;
  }
  return ParseResult::kOk;
}

}  // namespace cli
}  // namespace dpx
