// The database file of dpx-align makedb: a FASTA database's letters as search reads them (after the
// letter rule), sorted by length, with names, 1-based header lines and each sequence's original
// index, so a search reads it in one pass instead of parsing text. search maps it with mmap and
// copies the letters once into its batch (a SequenceBatch owns its bytes).
//
// Layout (little-endian, every section starting at a multiple of 8 bytes):
//   header      "DPXDB", format version (1 byte), 2 bytes zero; sequences, letters, name bytes,
//               stand-ins (unknown letters read as the wildcard), rule text bytes (u64 each); the
//               letter rule's identity (512 bytes, Alphabet::identity)
//   rule text   the options the letters were read with, for messages
//   offsets     u64 × (sequences + 1): sequence p's letters are letters[offsets[p], offsets[p+1])
//   name ends   u64 × (sequences + 1), the same for names
//   lines       u64 × sequences: the header line of each in its FASTA
//   original    u32 × sequences: the index of each in its FASTA
//   names, letters
#pragma once

#include <string>

#include "sequence_reader.h"

namespace dpx {
namespace cli {

// The letter rule a database was made with: Alphabet::identity() and the options that chose it.
struct LetterRule {
  std::string identity;
  std::string text;  // e.g. "--matrix blosum62 --keep-case"
};

// True when `path` starts with the database file's magic ("-" never does).
bool is_database_file(const std::string& path);

// Writes `db` (in its FASTA order) to `path` sorted by length, ties in FASTA order, through a
// temporary file renamed over `path` once whole ("-" = standard output).
bool write_database(const std::string& path, const NamedSequences& db, const LetterRule& rule, std::string* error);

// Reads a database written by write_database into `out` (stored order, out->order the FASTA one).
// A file too short or too long for its header, out-of-range offsets or indices, another magic or
// version, a letter rule other than `rule`, or no sequences: false with a message naming `path`.
bool read_database(const std::string& path, const LetterRule& rule, NamedSequences* out, std::string* error);

}  // namespace cli
}  // namespace dpx
