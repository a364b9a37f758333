// dpx-align merge: the outputs of one search run as shards (--shard i/n --output OUT, each with
// its OUT.shard record) into the bytes one run over the whole database writes.
#pragma once

#include "dpx/status.h"
#include "options.h"

namespace dpx {
namespace cli {

// Checks every shard before the first row: each record whole and its output the bytes its search
// wrote, all from one search (options, matrix, queries, database, shard count), every shard index
// once. Then writes, query by query, the best rows over all shards: score descending, ties in
// shard order (the shards are consecutive parts of the database, so this is database order), at
// most --top of them. Refusals come back as kInvalidArgument naming the file; nothing is written.
Status run_merge(const CliOptions& options);

}  // namespace cli
}  // namespace dpx
