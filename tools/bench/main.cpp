// dpx-bench SUBCOMMAND [--reps=N] [--warmup=N] [--quick] [--json=PATH] [--key=value ...]
// Runs one registered benchmark (or "all"), prints its table last and writes JSON.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench.h"
#include "bench_args.h"

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
  std::fprintf(to, "usage: dpx-bench SUBCOMMAND|all [--reps=N] [--warmup=N] [--quick] [--json=PATH] [--KEY=VALUE]\n"
                  "KEY: elements (epilogue), width, height, cases=TEXT (morph), image, dump (motion), sw-queries, sw-db,\n"
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
  for (const std::string& name : names) {
    dpx::bench::Report report(name);
    const auto part = opts.extra.find("part");
    for (const auto& e : dpx::bench::registry()) {
      if (e.name != name) continue;
      if (part != opts.extra.end() && e.help.find(part->second) == std::string::npos) continue;
      const int r = e.fn(opts, report);
      rc = rc ? rc : r;
    }
    const std::string path = opts.json_path.empty() || which == "all" ? "dpx-bench-" + name + ".json" : opts.json_path;
    std::printf("\n== dpx-bench %s ==", name.c_str());
    report.print_table();
    if (!report.write_json(path)) {
      std::fprintf(stderr, "dpx-bench: could not write %s\n", path.c_str());
      rc = rc ? rc : 1;
    } else {
      std::printf("json: %s\n", path.c_str());
    }
  }
  if (!found) {
    std::fprintf(stderr, "dpx-bench: unknown benchmark '%s'\n", which.c_str());
    usage(stderr);
    return 2;
  }
  return rc;
}
