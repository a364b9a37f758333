// dpx-align search from loaded inputs: the checks only search needs, the scorers (every chosen GPU,
// or the CPU), Ctrl-C, the output.
#pragma once

#include "dpx/align.h"
#include "options.h"
#include "sequence_reader.h"

namespace dpx {
namespace cli {

// Checks what only search refuses (empty records, --top beyond the database, a gap pair without
// statistics for blast6), runs the search and writes its rows. Errors in the request come back as
// kInvalidArgument; `interrupted` is set when Ctrl-C stopped it (the output is then not committed).
Status run_search(const CliOptions& options, const ScoreMatrix& matrix, const NamedSequences& queries,
                  const NamedSequences& database, bool* interrupted);

}  // namespace cli
}  // namespace dpx
