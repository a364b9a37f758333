#include "bench_args.h"

#include <cerrno>
#include <cstdlib>

namespace dpx {
namespace bench {
namespace {

// The --KEY=VALUE settings benchmarks read, with the range of the numeric ones (text ones: 0, 0).
struct Key {
  const char* name;
  unsigned long long lo, hi;
};
constexpr Key kKeys[] = {
    {"elements", 1, 1ull << 34},  // epilogue: elements per buffer
    {"width", 1, 65536},          // morph: frame size
    {"height", 1, 65536},
    {"cases", 0, 0},              // morph: only the cases whose title holds this text ("31x31")
    {"image", 0, 0},              // motion: a GRAY8 .pgm to use as the scene
    {"dump", 0, 0},               // motion: a folder for the quality images
    {"sw-queries", 0, 0},         // align: a query FASTA for the database rows
    {"sw-db", 0, 0},              // align: database FASTA files (comma-separated) for those rows
    {"sw-db-count", 0, 100000000},  // align: sequences of each generated database (0: only --sw-db)
    {"part", 0, 0},                 // any: only the parts whose description holds this text
};

bool whole_number(const std::string& key, const std::string& val, unsigned long long lo, unsigned long long hi,
                  unsigned long long* out, std::string* error) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(val.c_str(), &end, 10);
  if (val.empty() || *end != '\0' || errno == ERANGE || v < 0 || static_cast<unsigned long long>(v) < lo ||
      static_cast<unsigned long long>(v) > hi) {
    *error = "--" + key + " needs a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got '" +
             val + "'";
    return false;
  }
  *out = static_cast<unsigned long long>(v);
  return true;
}

}  // namespace

bool parse_bench_args(int argc, char** argv, int first, Options* out, std::string* error) {
  for (int i = first; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") {
      out->quick = true;
      continue;
    }
    const auto eq = a.find('=');
    if (a.rfind("--", 0) != 0 || eq == std::string::npos) {
      *error = "unrecognised argument '" + a + "' (options are --KEY=VALUE)";
      return false;
    }
    const std::string key = a.substr(2, eq - 2), val = a.substr(eq + 1);
    unsigned long long n = 0;
    if (key == "reps" || key == "warmup") {
      if (!whole_number(key, val, 1, 1000000, &n, error)) return false;
      (key == "reps" ? out->reps : out->warmup) = static_cast<int>(n);
      continue;
    }
    if (key == "json") {
      out->json_path = val;
      continue;
    }
    const Key* known = nullptr;
    for (const Key& k : kKeys)
      if (key == k.name) known = &k;
    if (known == nullptr) {
      *error = "unknown option '--" + key + "'";
      return false;
    }
    if (known->hi != 0 && !whole_number(key, val, known->lo, known->hi, &n, error)) return false;
    if (known->hi == 0 && val.empty()) {
      *error = "--" + key + " needs a value";
      return false;
    }
    out->extra[key] = val;
  }
  return true;
}

}  // namespace bench
}  // namespace dpx
