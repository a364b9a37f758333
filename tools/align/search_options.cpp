#include "search_options.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace dpx {
namespace cli {
namespace {

// A whole number from lo to hi that fills `text` up to `stop` (or its end).
bool whole(const char* text, char stop, unsigned long long lo, unsigned long long hi, unsigned long long* out,
           const char** rest) {
  if (*text < '0' || *text > '9') return false;
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (errno == ERANGE || v < lo || v > hi || (*end != '\0' && *end != stop)) return false;
  *out = v;
  *rest = end;
  return true;
}

}  // namespace

bool parse_top(const char* text, SearchOptions* out, std::string* error) {
  unsigned long long v = 0;
  const char* rest = nullptr;
  if (!whole(text, 0, 0, 1ull << 32, &v, &rest)) {
    *error = std::string("--top needs a whole number from 0 (all hits) to 4294967296, got '") + text + "'";
    return false;
  }
  out->top = static_cast<std::size_t>(v);
  return true;
}

bool parse_devices(const char* text, SearchOptions* out, std::string* error) {
  out->devices.clear();
  if (std::strcmp(text, "all") == 0) return true;
  const char* p = text;
  while (true) {
    unsigned long long v = 0;
    if (!whole(p, ',', 0, 1023, &v, &p)) {
      *error = std::string("--devices needs 'all' or device numbers separated by commas (0,1), got '") + text + "'";
      return false;
    }
    for (int d : out->devices) {
      if (d == static_cast<int>(v)) {
        *error = std::string("--devices names device ") + std::to_string(v) + " twice in '" + text + "'";
        return false;
      }
    }
    out->devices.push_back(static_cast<int>(v));
    if (*p == '\0') return true;
    ++p;
  }
}

bool parse_shard(const char* text, SearchOptions* out, std::string* error) {
  unsigned long long i = 0, n = 0;
  const char* p = text;
  if (!whole(p, '/', 0, 1u << 20, &i, &p) || *p != '/' || !whole(p + 1, 0, 1, 1u << 20, &n, &p) || i >= n) {
    *error = std::string("--shard needs i/n with 0 <= i < n (shard i of n, e.g. 0/4), got '") + text + "'";
    return false;
  }
  out->shard = static_cast<std::size_t>(i);
  out->shards = static_cast<std::size_t>(n);
  out->sharded = true;
  return true;
}

bool parse_output_format(const char* text, SearchOptions* out, std::string* error) {
  if (std::strcmp(text, "tsv") == 0) {
    out->format = OutputFormat::kTsv;
  } else if (std::strcmp(text, "blast6") == 0) {
    out->format = OutputFormat::kBlast6;
  } else {
    *error = std::string("--outfmt needs tsv or blast6, got '") + text + "'";
    return false;
  }
  return true;
}

std::string search_usage() {
  return "dpx-align search [options] QUERIES DATABASE\n"
         "  Scores every query against every database sequence (Smith-Waterman, score only), keeps each\n"
         "  query's best hits (score descending, ties in database order), then aligns only those. Rows\n"
         "  come query by query, best hit first. Takes the sw options (--matrix, --gap-open, ...) and:\n"
         "  --top N              hits per query (default 10; 0 = all); more than the database holds is\n"
         "                       an error\n"
         "  --min-score S        leave out hits scoring below S (default 1)\n"
         "  --outfmt tsv|blast6  tsv (default): the table above, starts and CIGAR always filled;\n"
         "                       blast6: BLAST's tabular columns qseqid sseqid pident length mismatch\n"
         "                       gapopen qstart qend sstart send evalue bitscore (1-based, inclusive),\n"
         "                       E-value and bit score from NCBI's gapped Karlin-Altschul parameters\n"
         "                       for the matrix and gap pair; the search space is the query's length\n"
         "                       times the database's. BLAST's -gapopen A -gapextend B is --gap-open\n"
         "                       A+B --gap-extend B here (BLAST's default 11/1 is 12/1)\n"
         "  --devices all|0,1,.. GPUs to spread the database over (default all; the output does not\n"
         "                       depend on how many); ignored on the CPU\n"
         "  --shard i/n          score only shard i (0-based) of n equal parts of the database, e.g.\n"
         "                       one per host or GPU; E-values still count the whole database. With\n"
         "                       --output OUT it writes OUT.shard beside OUT, the record that\n"
         "                       dpx-align merge needs to join the shards into one search's bytes\n"
         "  --timings            print how long each stage took on standard error: reading the\n"
         "                       inputs, scoring the database (with its GCUPS), aligning and writing\n"
         "                       the hits\n"
         "  Ctrl-C stops a search: the rows written are whole, --output is left as it was, exit 130.\n";
}

}  // namespace cli
}  // namespace dpx
