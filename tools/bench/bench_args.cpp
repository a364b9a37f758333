#include "bench_args.h"

#include <cerrno>
#include <cstdlib>
#include <sstream>

#include "bench_json.h"

namespace dpx {
namespace bench {
namespace {

// Reads "--KEY=VALUE"'s value into Options. Numbers are whole, from lo to hi.
struct Setting {
  const char* name;
  enum Kind { kNumber, kText } kind;
  unsigned long long lo, hi;
  void (*store)(Options& o, const std::string& text, unsigned long long number);
};

const Setting kSettings[] = {
    {"reps", Setting::kNumber, 1, 1000000,
     [](Options& o, const std::string&, unsigned long long n) { o.reps = static_cast<int>(n); }},
    {"warmup", Setting::kNumber, 1, 1000000,
     [](Options& o, const std::string&, unsigned long long n) { o.warmup = static_cast<int>(n); }},
    {"json", Setting::kText, 0, 0,
     [](Options& o, const std::string& t, unsigned long long) { o.json_path = t; }},
    {"part", Setting::kText, 0, 0, [](Options& o, const std::string& t, unsigned long long) { o.part = t; }},
    {"elements", Setting::kNumber, 1, 1ull << 34,
     [](Options& o, const std::string&, unsigned long long n) { o.elements = n; }},
    {"width", Setting::kNumber, 1, 65536,
     [](Options& o, const std::string&, unsigned long long n) { o.width = static_cast<int>(n); }},
    {"height", Setting::kNumber, 1, 65536,
     [](Options& o, const std::string&, unsigned long long n) { o.height = static_cast<int>(n); }},
    {"cases", Setting::kText, 0, 0,
     [](Options& o, const std::string& t, unsigned long long) { o.cases = t; }},
    {"image", Setting::kText, 0, 0,
     [](Options& o, const std::string& t, unsigned long long) { o.image = t; }},
    {"dump", Setting::kText, 0, 0, [](Options& o, const std::string& t, unsigned long long) { o.dump = t; }},
    {"photos", Setting::kText, 0, 0,
     [](Options& o, const std::string& t, unsigned long long) { o.photos = t; }},
    {"sw-queries", Setting::kText, 0, 0,
     [](Options& o, const std::string& t, unsigned long long) { o.sw_queries = t; }},
    {"sw-db", Setting::kText, 0, 0,
     [](Options& o, const std::string& t, unsigned long long) {
       std::stringstream list(t);
       for (std::string path; std::getline(list, path, ',');)
         if (!path.empty()) o.sw_db.push_back(path);
     }},
    {"sw-db-count", Setting::kNumber, 0, 100000000,
     [](Options& o, const std::string&, unsigned long long n) { o.sw_db_count = n; }},
};

bool whole_number(const std::string& key, const std::string& val, unsigned long long lo,
                  unsigned long long hi, unsigned long long* out, std::string* error) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(val.c_str(), &end, 10);
  if (val.empty() || *end != '\0' || errno == ERANGE || v < 0 || static_cast<unsigned long long>(v) < lo ||
      static_cast<unsigned long long>(v) > hi) {
    *error = "--" + key + " needs a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
             ", got '" + val + "'";
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
    const Setting* known = nullptr;
    for (const Setting& s : kSettings)
      if (key == s.name) known = &s;
    if (known == nullptr) {
      *error = "unknown option '--" + key + "'";
      return false;
    }
    unsigned long long n = 0;
    if (known->kind == Setting::kNumber && !whole_number(key, val, known->lo, known->hi, &n, error))
      return false;
    if (known->kind == Setting::kText && val.empty()) {
      *error = "--" + key + " needs a value";
      return false;
    }
    known->store(*out, val, n);
  }
  if (!out->json_path.empty()) {
    *error = json_path_problem(out->json_path);
    if (!error->empty()) return false;
  }
  return true;
}

}  // namespace bench
}  // namespace dpx
