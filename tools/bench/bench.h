// dpx-bench harness: subcommand registry, timing (CUDA events / host clock, warm-up, median of
// many runs) and the report (a table printed last; JSON through bench_json.h when asked).
//
// A benchmark file registers itself:
//   static dpx::bench::Registration reg("morph", "morphology, 4K GRAY8/GRAY16", run_morph_bench);
// and adds rows: each figure beside its anchors (device copy, plain variant, NPP, CPU) in one run.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dpx/device.h"

namespace dpx {
namespace bench {

// The command line after the subcommand, parsed once (bench_args.h). A setting not given keeps
// its empty value here and the benchmark uses its own default.
struct Options {
  int reps = 50;  // timed runs per figure (median reported)
  int warmup = 5;
  bool quick = false;                      // smaller sizes / fewer reps, for a smoke run
  std::string json_path;                   // --json: where to write the report ("" = no JSON)
  std::string part;                        // --part: only the parts whose description holds this text
  std::optional<std::size_t> elements;     // --elements (epilogue): elements per buffer
  std::optional<int> width, height;        // --width, --height (morph): frame size
  std::string cases;                       // --cases (morph): only the cases whose title holds this text
  std::string image;                       // --image (motion): a GRAY8 .pgm to use as the scene
  std::string dump;                        // --dump (motion): a folder for the quality images
  std::string photos = "tests/data/photos";  // --photos (motion): the real-photo rows' folder of .pgm
  std::string sw_queries;                  // --sw-queries (align): a query FASTA for the database rows
  std::vector<std::string> sw_db;          // --sw-db (align): database FASTA files for those rows
  std::optional<std::size_t> sw_db_count;  // --sw-db-count (align): sequences of each generated database
};

struct Row {
  std::string section;    // e.g. "3x3 dilate GRAY8 3840x2160"
  std::string variant;    // e.g. "dpx", "plain", "npp", "cpu", "copy"
  double median_us = 0;   // per unit of work (frame, batch, ...)
  double throughput = 0;  // in `unit`, 0 = none
  std::string unit;       // "GB/s", "GCUPS", "Mpx/s", ...
  std::string note;       // e.g. "0.55x NPP, 1.2x copy"
};

class Report {
 public:
  explicit Report(std::string name) : name_(std::move(name)) {}
  void add(Row row) { rows_.push_back(std::move(row)); }
  const std::string& name() const { return name_; }
  const std::vector<Row>& rows() const { return rows_; }
  // Median of the row with this section/variant, or 0 when absent.
  double median_of(const std::string& section, const std::string& variant) const;
  void print_table() const;

 private:
  std::string name_;
  std::vector<Row> rows_;
};

using BenchFn = int (*)(const Options&, Report&);

struct Registration {
  Registration(const char* name, const char* help, BenchFn fn);
};

struct Entry {
  std::string name, help;
  BenchFn fn;
};
std::vector<Entry>& registry();

// Median microseconds of `body(i)` over opts.reps runs after opts.warmup, host clock.
double time_host_us(const Options& opts, const std::function<void(int)>& body);

// Median microseconds of stream work enqueued by `body(i)`, timed with CUDA events on `stream`,
// each rep separately. Returns -1 when CUDA is not available.
double time_cuda_us(const Options& opts, cudaStream_t stream, const std::function<void(int)>& body);

// Formats "0.55x" of a over b (b > 0), or "n/a".
std::string ratio(double a, double b);

// What a shell command printed on stdout, or "" when it could not run or exited non-zero (anchors
// are other projects' programs, run as they are).
std::string command_output(const std::string& command);

}  // namespace bench
}  // namespace dpx
