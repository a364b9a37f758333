#include "merge_command.h"

#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include "fingerprint.h"
#include "output_file.h"
#include "shard_record.h"

namespace dpx {
namespace cli {
namespace {

struct ShardInput {
  std::string path;
  ShardRecord record;
};

std::string shard_name(const ShardRecord& r) { return std::to_string(r.shard) + "/" + std::to_string(r.shards); }

// Reads `path`'s record to its end and checks that `path` holds the bytes its search wrote.
Status check_whole(const std::string& path, ShardInput* out) {
  std::string error;
  ShardRecordReader reader;
  if (!reader.open(shard_record_path(path), &error)) {
    const std::string record = shard_record_path("");
    const bool given_a_record = path.size() > record.size() && path.compare(path.size() - record.size(), record.size(), record) == 0;
    return invalid_argument(error + (given_a_record ? " (give the outputs, not their records)" : ""));
  }
  std::vector<std::int32_t> scores;
  for (std::uint64_t q = 0; q < reader.record().queries; ++q)
    if (!reader.next_query(&scores, &error)) return invalid_argument(error);
  if (!reader.finish(&error)) return invalid_argument(error);
  std::uint64_t bytes = 0, fingerprint = 0;
  if (!file_fingerprint(path, &bytes, &fingerprint, &error)) return invalid_argument(error);
  const ShardRecord& r = reader.record();
  if (bytes != r.output_bytes || fingerprint != r.output_fingerprint) {
    return invalid_argument(path + ": not the output its search wrote (" + std::to_string(bytes) + " bytes, fingerprint " +
                            hex(fingerprint) + "; the search wrote " + std::to_string(r.output_bytes) + ", " +
                            hex(r.output_fingerprint) + "): truncated or changed since; rerun shard " + shard_name(r));
  }
  *out = {path, r};
  return Status::ok();
}

// `b` must come from the search `a` came from.
Status check_same_search(const ShardInput& a, const ShardInput& b) {
  const ShardRecord &x = a.record, &y = b.record;
  const std::string other = b.path + ": not from the search " + a.path + " came from: ";
  if (x.options != y.options) return invalid_argument(other + "options '" + y.options + "' against '" + x.options + "'");
  if (x.top != y.top) return invalid_argument(other + "--top " + std::to_string(y.top) + " against " + std::to_string(x.top));
  if (x.format != y.format) return invalid_argument(other + "another --outfmt");
  if (x.matrix != y.matrix) return invalid_argument(other + "another matrix (the same name, other scores)");
  if (x.queries != y.queries || x.queries_fingerprint != y.queries_fingerprint) {
    return invalid_argument(other + "other queries (" + std::to_string(y.queries) + " against " + std::to_string(x.queries) +
                            ", fingerprints " + hex(y.queries_fingerprint) + " and " + hex(x.queries_fingerprint) + ")");
  }
  if (x.sequences != y.sequences || x.letters != y.letters || x.database_fingerprint != y.database_fingerprint) {
    return invalid_argument(other + "another database (" + std::to_string(y.sequences) + " sequences of " +
                            std::to_string(y.letters) + " letters against " + std::to_string(x.sequences) + " of " +
                            std::to_string(x.letters) + ", fingerprints " + hex(y.database_fingerprint) + " and " +
                            hex(x.database_fingerprint) + ")");
  }
  if (x.shards != y.shards) {
    return invalid_argument(other + "shard " + shard_name(y) + " against " + shard_name(x) + " (another shard count)");
  }
  return Status::ok();
}

// Puts the shards in index order; each index must come once.
Status check_every_shard_once(std::vector<ShardInput>* shards) {
  std::stable_sort(shards->begin(), shards->end(),
                   [](const ShardInput& a, const ShardInput& b) { return a.record.shard < b.record.shard; });
  for (std::size_t i = 1; i < shards->size(); ++i) {
    const ShardInput &a = (*shards)[i - 1], &b = (*shards)[i];
    if (a.record.shard == b.record.shard)
      return invalid_argument(a.path + " and " + b.path + " are both shard " + shard_name(a.record));
  }
  const std::uint64_t n = shards->front().record.shards;
  for (std::uint64_t i = 0; i < n; ++i) {
    if (i >= shards->size() || (*shards)[i].record.shard != i)
      return invalid_argument("shard " + std::to_string(i) + "/" + std::to_string(n) + " is missing: give all " +
                              std::to_string(n) + " shard outputs of the search");
  }
  return Status::ok();
}

// The rows per query: --top where given (at most what the shards kept), else the search's.
Status choose_top(const CliOptions& o, const ShardRecord& r, std::uint64_t* top) {
  *top = o.top_given ? o.search.top : r.top;
  if (o.top_given && r.top != 0 && (*top == 0 || *top > r.top)) {
    return invalid_argument("--top " + std::to_string(*top) + ": the shards kept " + std::to_string(r.top) +
                            " hits per query (their search's --top); merge can give " + std::to_string(r.top) + " or fewer");
  }
  if (*top > r.sequences) {
    return invalid_argument("--top " + std::to_string(*top) + " asks for more hits than the database holds (" +
                            std::to_string(r.sequences) + " sequences)");
  }
  if (o.format_given && o.search.format != r.format) {
    return invalid_argument(std::string("--outfmt ") + (o.search.format == OutputFormat::kTsv ? "tsv" : "blast6") +
                            ": the shards were written in the other format (merge keeps their format)");
  }
  return Status::ok();
}

// The merge keeps two files open per shard: a thousand shards are more than the usual soft limit
// of open files, so it is raised (up to the hard limit) when needed.
void allow_open_files(std::size_t count) {
  struct rlimit limit {};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= count) return;
  limit.rlim_cur = limit.rlim_max == RLIM_INFINITY || limit.rlim_max > count ? count : limit.rlim_max;
  setrlimit(RLIMIT_NOFILE, &limit);
}

// One shard's output and record, read a query at a time.
class ShardStream {
 public:
  Status open(const ShardInput& in, std::string* header) {
    path_ = in.path;
    std::string error;
    if (!record_.open(shard_record_path(in.path), &error)) return invalid_argument(error);
    rows_.open(in.path, std::ios::binary);
    if (!rows_) return invalid_argument(in.path + ": cannot be read (" + std::strerror(errno) + ")");
    if (in.record.format == OutputFormat::kTsv && !std::getline(rows_, *header)) return changed();
    return Status::ok();
  }
  // Appends the next query's rows to `rows` and their scores to `scores`.
  Status next_query(std::vector<std::string>* rows, std::vector<std::int32_t>* scores) {
    std::string error;
    std::vector<std::int32_t> mine;
    if (!record_.next_query(&mine, &error)) return invalid_argument(error);
    for (std::int32_t s : mine) {
      rows->emplace_back();
      if (!std::getline(rows_, rows->back())) return changed();
      scores->push_back(s);
    }
    return Status::ok();
  }
  Status finish() {
    std::string error, extra;
    if (!record_.finish(&error)) return invalid_argument(error);
    if (std::getline(rows_, extra) || !rows_.eof()) return changed();
    return Status::ok();
  }

 private:
  Status changed() const { return invalid_argument(path_ + ": its rows do not match its record; it changed while merging"); }

  std::string path_;
  ShardRecordReader record_;
  std::ifstream rows_;
};

// Writes each query's best rows over `shards` (in index order) to `out` (its write errors are the
// output file's to report).
Status write_merged(const std::vector<ShardInput>& shards, std::uint64_t top, std::FILE* out) {
  std::vector<ShardStream> streams(shards.size());
  std::string header;
  for (std::size_t s = 0; s < shards.size(); ++s) DPX_RETURN_IF_ERROR(streams[s].open(shards[s], &header));
  if (shards[0].record.format == OutputFormat::kTsv) std::fprintf(out, "%s\n", header.c_str());
  std::vector<std::string> rows;
  std::vector<std::int32_t> scores;
  std::vector<std::size_t> order;
  for (std::uint64_t q = 0; q < shards[0].record.queries; ++q) {
    rows.clear();
    scores.clear();
    for (ShardStream& s : streams) DPX_RETURN_IF_ERROR(s.next_query(&rows, &scores));
    // rows are in shard order, each shard's best first: a stable sort by score keeps database order on ties
    order.resize(rows.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
    const std::size_t kept = top == 0 ? order.size() : std::min<std::size_t>(order.size(), top);
    for (std::size_t k = 0; k < kept; ++k) std::fprintf(out, "%s\n", rows[order[k]].c_str());
  }
  for (ShardStream& s : streams) DPX_RETURN_IF_ERROR(s.finish());
  return Status::ok();
}

}  // namespace

Status run_merge(const CliOptions& o) {
  allow_open_files(2 * o.shard_outputs.size() + 16);
  std::vector<ShardInput> shards(o.shard_outputs.size());
  for (std::size_t i = 0; i < shards.size(); ++i) DPX_RETURN_IF_ERROR(check_whole(o.shard_outputs[i], &shards[i]));
  for (std::size_t i = 1; i < shards.size(); ++i) DPX_RETURN_IF_ERROR(check_same_search(shards[0], shards[i]));
  DPX_RETURN_IF_ERROR(check_every_shard_once(&shards));
  std::uint64_t top = 0;
  DPX_RETURN_IF_ERROR(choose_top(o, shards[0].record, &top));

  std::string error;
  OutputFile output;
  if (!output.open(o.output, &error)) return invalid_argument(error);
  const Status written = write_merged(shards, top, output.get());
  if (!output.write_error().empty()) return invalid_argument(output.write_error());
  DPX_RETURN_IF_ERROR(written);
  if (!output.commit(&error)) return invalid_argument(error);
  return Status::ok();
}

}  // namespace cli
}  // namespace dpx
