// The flags of dpx-align search and how their values are read; options.cpp's parser calls these.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace dpx {
namespace cli {

enum class OutputFormat { kTsv, kBlast6 };

struct SearchOptions {
  std::size_t top = 10;           // hits per query, 0 = all
  int min_score = 1;              // a local score of 0 is no alignment
  OutputFormat format = OutputFormat::kTsv;
  std::vector<int> devices;       // empty = every visible device
  std::size_t shard = 0, shards = 1;  // --shard i/n: this run scores shard i of n of the database
  bool sharded = false;           // --shard given: --output gets a record for merge beside it
  bool timings = false;           // --timings: each stage's time on standard error
};

// Each reads one flag's value into `out`; false with a message naming the flag otherwise.
bool parse_top(const char* text, SearchOptions* out, std::string* error);
bool parse_devices(const char* text, SearchOptions* out, std::string* error);
bool parse_shard(const char* text, SearchOptions* out, std::string* error);
bool parse_output_format(const char* text, SearchOptions* out, std::string* error);

// The search part of --help.
std::string search_usage();

}  // namespace cli
}  // namespace dpx
