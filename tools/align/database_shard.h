// --shard i/n of a database stored in another order than its FASTA (a makedb file): the part is
// taken from the original order, as a search of the FASTA takes it, so both give the same rows.
#pragma once

#include <cstddef>

#include "sequence_reader.h"

namespace dpx {
namespace cli {

// The sequences of part `shard` of `shards` of db's original order (split_evenly's parts), in
// db's stored order, with their original indices.
NamedSequences shard_of(const NamedSequences& db, std::size_t shard, std::size_t shards);

}  // namespace cli
}  // namespace dpx
