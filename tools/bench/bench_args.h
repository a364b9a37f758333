// The command line of dpx-bench after the subcommand: --reps=N, --warmup=N, --quick, --json=PATH
// and the --KEY=VALUE settings single benchmarks read, parsed once into Options' typed fields.
// Every key is checked here, so a misspelling, a number out of range or a --json path whose folder
// is missing is an error before anything runs.
#pragma once

#include <string>

#include "bench.h"

namespace dpx {
namespace bench {

// Parses argv[first..argc). False with `error` set on an unknown key or a bad value.
bool parse_bench_args(int argc, char** argv, int first, Options* out, std::string* error);

}  // namespace bench
}  // namespace dpx
