#include "shard_record.h"

#include <sys/stat.h>

#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "fingerprint.h"
#include "output_file.h"

namespace dpx {
namespace cli {
namespace {

constexpr const char* kMagic = "dpx-align shard record 1";

const char* format_name(OutputFormat f) { return f == OutputFormat::kBlast6 ? "blast6" : "tsv"; }

// `text` split at single spaces.
std::vector<std::string> fields(const std::string& text) {
  std::vector<std::string> out(1);
  for (char c : text) {
    if (c == ' ') out.emplace_back();
    else out.back() += c;
  }
  return out;
}

// Decimal digits only (no sign, no space), within 64 bits.
bool decimal(const std::string& text, std::uint64_t* out) {
  if (text.empty() || text.size() > 20 || text.find_first_not_of("0123456789") != std::string::npos) return false;
  errno = 0;
  *out = std::strtoull(text.c_str(), nullptr, 10);
  return errno == 0;
}

// Exactly hex()'s 16 lower-case digits.
bool fingerprint(const std::string& text, std::uint64_t* out) {
  if (text.size() != 16 || text.find_first_not_of("0123456789abcdef") != std::string::npos) return false;
  *out = std::strtoull(text.c_str(), nullptr, 16);
  return true;
}

// format_name()'s words.
bool format_of(const std::string& text, OutputFormat* out) {
  if (text != "tsv" && text != "blast6") return false;
  *out = text == "tsv" ? OutputFormat::kTsv : OutputFormat::kBlast6;
  return true;
}

// "I/N" with I < N.
bool shard_of(const std::string& text, std::uint64_t* shard, std::uint64_t* shards) {
  const std::size_t slash = text.find('/');
  return slash != std::string::npos && decimal(text.substr(0, slash), shard) &&
         decimal(text.substr(slash + 1), shards) && *shard < *shards;
}

}  // namespace

std::string shard_record_path(const std::string& output) { return output + ".shard"; }

ShardRecord describe_shard(const CliOptions& o, const ScoreMatrix& matrix, const NamedSequences& queries,
                           const NamedSequences& db) {
  ShardRecord r;
  r.shard = o.search.shard;
  r.shards = o.search.shards;
  r.options = letter_options(o);
  if (o.matrix == "dna") r.options += " --match " + std::to_string(o.match) + " --mismatch " + std::to_string(o.mismatch);
  r.options += " --gap-open " + std::to_string(o.gap_open) + " --gap-extend " + std::to_string(o.gap_extend) +
               " --min-score " + std::to_string(o.search.min_score);
  r.top = o.search.top;
  r.format = o.search.format;

  Fingerprint m;
  m.add(matrix.letters());
  for (int i = 0; i < matrix.size(); ++i)
    for (int j = 0; j < matrix.size(); ++j) m.add(static_cast<std::uint64_t>(matrix.score(i, j)));
  r.matrix = m.value();

  Fingerprint q;
  for (std::size_t i = 0; i < queries.names.size(); ++i) {
    q.add(queries.names[i]);
    q.add(queries.letters.view(i));
  }
  r.queries = queries.names.size();
  r.queries_fingerprint = q.value();

  Fingerprint d;
  for (std::size_t original = 0; original < db.names.size(); ++original) {
    const std::size_t p = db.order.stored(static_cast<std::uint32_t>(original));
    d.add(db.names[p]);
    d.add(db.letters.length(p));
  }
  r.sequences = db.names.size();
  r.letters = db.letters.total_length();
  r.database_fingerprint = d.value();
  return r;
}

bool write_shard_record(const std::string& output, ShardRecord r, const std::vector<std::vector<Hit>>& best,
                        std::string* error) {
  struct stat st {};
  if (stat(output.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return true;  // a pipe or device: nothing beside it
  if (!file_fingerprint(output, &r.output_bytes, &r.output_fingerprint, error)) return false;
  OutputFile file;
  if (!file.open(shard_record_path(output), error)) return false;
  std::FILE* out = file.get();
  std::fprintf(out,
               "%s\nshard %" PRIu64 "/%" PRIu64 "\noptions %s\ntop %" PRIu64 "\noutfmt %s\nmatrix %s\n"
               "queries %" PRIu64 " %s\ndatabase %" PRIu64 " %" PRIu64 " %s\noutput %" PRIu64 " %s\nhits\n",
               kMagic, r.shard, r.shards, r.options.c_str(), r.top, format_name(r.format), hex(r.matrix).c_str(),
               r.queries, hex(r.queries_fingerprint).c_str(), r.sequences, r.letters, hex(r.database_fingerprint).c_str(),
               r.output_bytes, hex(r.output_fingerprint).c_str());
  for (const std::vector<Hit>& hits : best) {
    for (std::size_t k = 0; k < hits.size(); ++k) std::fprintf(out, k == 0 ? "%d" : " %d", hits[k].score);
    std::fputc('\n', out);
  }
  std::fputs("end\n", out);
  *error = file.write_error();
  return error->empty() && file.commit(error);
}

bool ShardRecordReader::fail(const std::string& what, std::string* error) const {
  *error = path_ + (line_ > 0 ? ":" + std::to_string(line_) : std::string()) + ": " + what;
  return false;
}

bool ShardRecordReader::next_line(std::string* line) {
  ++line_;
  return static_cast<bool>(std::getline(in_, *line));
}

bool ShardRecordReader::expect(const char* key, std::size_t count, std::string* line, std::vector<std::string>* values) {
  const std::string head = std::string(key) + " ";
  if (!next_line(line) || line->compare(0, head.size(), head) != 0) return false;
  const std::string rest = line->substr(head.size());
  *values = count == 0 ? std::vector<std::string>{rest} : fields(rest);
  return count == 0 || values->size() == count;
}

bool ShardRecordReader::open(const std::string& path, std::string* error) {
  path_ = path;
  line_ = 0;
  record_ = ShardRecord();
  in_.open(path, std::ios::binary);
  if (!in_) {
    *error = errno != ENOENT ? path + ": cannot be read (" + std::strerror(errno) + ")"
                             : path + ": missing; a search writes it beside its output when run with --shard i/n and --output";
    return false;
  }
  std::string line;
  if (!next_line(&line) || line != kMagic) return fail("not a shard record of dpx-align search (or of another version)", error);
  std::vector<std::string> v;
  ShardRecord& r = record_;
  const bool ok =
      expect("shard", 1, &line, &v) && shard_of(v[0], &r.shard, &r.shards) &&
      expect("options", 0, &line, &v) && !(r.options = v[0]).empty() &&
      expect("top", 1, &line, &v) && decimal(v[0], &r.top) &&
      expect("outfmt", 1, &line, &v) && format_of(v[0], &r.format) &&
      expect("matrix", 1, &line, &v) && fingerprint(v[0], &r.matrix) &&
      expect("queries", 2, &line, &v) && decimal(v[0], &r.queries) && fingerprint(v[1], &r.queries_fingerprint) &&
      expect("database", 3, &line, &v) && decimal(v[0], &r.sequences) && decimal(v[1], &r.letters) &&
      fingerprint(v[2], &r.database_fingerprint) &&
      expect("output", 2, &line, &v) && decimal(v[0], &r.output_bytes) && fingerprint(v[1], &r.output_fingerprint);
  if (!ok) return fail("damaged: '" + line + "' is not what belongs there", error);
  if (!next_line(&line) || line != "hits") return fail("damaged: expected 'hits'", error);
  return true;
}

bool ShardRecordReader::next_query(std::vector<std::int32_t>* scores, std::string* error) {
  std::string line;
  if (!next_line(&line) || line == "end") return fail("truncated: its search did not finish (rerun that shard)", error);
  scores->clear();
  if (line.empty()) return true;
  for (const std::string& v : fields(line)) {
    std::uint64_t score = 0;
    if (!decimal(v, &score) || score > INT32_MAX || (!scores->empty() && std::int32_t(score) > scores->back()))
      return fail("damaged: '" + line + "' is not a list of scores, best first", error);
    scores->push_back(static_cast<std::int32_t>(score));
  }
  return true;
}

bool ShardRecordReader::finish(std::string* error) {
  std::string line;
  if (!next_line(&line)) return fail("truncated: its search did not finish (rerun that shard)", error);
  if (line != "end") return fail("damaged: more hit lines than its " + std::to_string(record_.queries) + " queries", error);
  if (next_line(&line) || !in_.eof()) return fail("damaged: lines after its end", error);
  return true;
}

}  // namespace cli
}  // namespace dpx
