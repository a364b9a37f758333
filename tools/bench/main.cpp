// dpx-bench SUBCOMMAND [--reps=N] [--warmup=N] [--quick] [--json=PATH] [--key=value ...]
// Runs one registered benchmark (or "all"), prints its table last and, with --json, writes every
// report into one JSON file (bench_json.h).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench.h"
#include "bench_args.h"
#include "bench_json.h"

namespace {

// Registered names in order, each once (several files may register under one name).
std::vector<std::string> names_matching(const std::string& which) {
  std::vector<std::string> names;
  for (const auto& e : dpx::bench::registry())
    if ((which == "all" || which == e.name) && std::find(names.begin(), names.end(), e.name) == names.end())
      names.push_back(e.name);
  return names;
}

// One line per subcommand: its helps joined.
void usage(std::FILE* to) {
  std::fprintf(
      to,
      "usage: dpx-bench SUBCOMMAND|all [--reps=N] [--warmup=N] [--quick] [--json=PATH] [--KEY=VALUE]\n"
      "KEY: elements (epilogue), width, height, cases=TEXT (morph), image, dump, photos (motion), sw-queries, "
      "sw-db,\n"
      "     sw-db-count (align), part=TEXT (only the parts whose description below holds TEXT)\n");
  for (const std::string& name : names_matching("all")) {
    std::string help;
    for (const auto& e : dpx::bench::registry())
      if (e.name == name) help += (help.empty() ? "" : "; ") + e.help;
    std::fprintf(to, "  %-10s %s\n", name.c_str(), help.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const std::string which = argv[1];
  dpx::bench::Options opts;
  std::string error;
  if (!dpx::bench::parse_bench_args(argc, argv, 2, &opts, &error)) {
    std::fprintf(stderr, "dpx-bench: %s\n", error.c_str());
    usage(stderr);
    return 2;
  }
  if (opts.quick) opts.reps = std::min(opts.reps, 5);
  // Several files may register under one name (e.g. "align"): they fill one report together.
  const std::vector<std::string> names = names_matching(which);
  const bool found = !names.empty();
  int rc = 0;
  std::vector<dpx::bench::Report> reports;
  for (const std::string& name : names) {
    dpx::bench::Report report(name);
    for (const auto& e : dpx::bench::registry()) {
      if (e.name != name) continue;
      if (!opts.part.empty() && e.help.find(opts.part) == std::string::npos) continue;
      const int r = e.fn(opts, report);
      rc = rc ? rc : r;
    }
    std::printf("\n== dpx-bench %s ==", name.c_str());
    report.print_table();
    reports.push_back(std::move(report));
  }
  if (found && !opts.json_path.empty()) {
    if (dpx::bench::write_reports_json(reports, opts.json_path, &error)) {
      std::printf("json: %s\n", opts.json_path.c_str());
    } else {
      std::fprintf(stderr, "dpx-bench: %s\n", error.c_str());
      rc = rc ? rc : 1;
    }
  }
  if (!found) {
    std::fprintf(stderr, "dpx-bench: unknown benchmark '%s'\n", which.c_str());
    usage(stderr);
    return 2;
  }
  return rc;
}
