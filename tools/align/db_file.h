// The database file of dpx-align makedb: a FASTA database's letters as search reads them (after the
// letter rule), sorted by length, with names, 1-based header lines and each sequence's original
// index, so a search reads it in one pass instead of parsing text. search maps it with mmap and
// copies the letters once into its batch (a SequenceBatch owns its bytes).
//
// Layout (little-endian, every section starting at a multiple of 8 bytes):
//   header      "DPXDB", format version (1 byte), 2 bytes zero; sequences, letters, name bytes,
//               stand-ins (unknown letters read as the wildcard), rule text bytes (u64 each); the
//               letter rule's identity (512 bytes, Alphabet::identity); the CRC-32s of the index,
//               names and letters sections, then of the header's bytes before it (u32 each)
//   index       rule text: the options the letters were read with, for messages
//               offsets     u64 × (sequences + 1): sequence p's letters are letters[offsets[p], offsets[p+1])
//               name ends   u64 × (sequences + 1), the same for names
//               lines       u64 × sequences: the header line of each in its FASTA
//               original    u32 × sequences: the index of each in its FASTA
//   names, letters
// A section's checksum covers its bytes up to the next section (padding included).
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
// Refused with a message naming `path`: another magic or format version, a file shorter or longer
// than its header says, a checksum that does not match, a letter rule other than `rule`, and any
// field out of range (empty sequences or names, a name holding a control character, a letter the
// rule never gives, offsets, header lines or indices out of order or range, stand-ins beyond the
// letters, sequences not sorted by length, no sequences).
bool read_database(const std::string& path, const LetterRule& rule, NamedSequences* out, std::string* error);

// The same for a file's bytes; `source` names it in messages.
bool read_database_bytes(const char* bytes, std::size_t size, const std::string& source, const LetterRule& rule,
                         NamedSequences* out, std::string* error);

// Recomputes the checksums of the database file held in `bytes` (nothing when it is too short to
// hold a header), so that tests and the fuzzer can change a field and still reach the checks
// behind the checksums.
void seal_database(std::string* bytes);

}  // namespace cli
}  // namespace dpx
