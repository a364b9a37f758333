// dpx-align makedb end to end: a search of the database file gives the bytes a search of its FASTA
// gives (ties, shards, blast6), the file holds the sequences sorted by length with their original
// indices, and damaged files or another letter rule are refused before any row.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "align_reference.h"
#include "db_file.h"
#include "dpx_align_cli_fixture.h"
#include "letters.h"
#include "test_util.h"

namespace dpx {
namespace {

class DpxAlignMakedb : public DpxAlignCli {
 protected:
  // makedb `options` of `fasta` into `name`; the test stops when makedb fails.
  std::string makedb(const std::string& options, const std::string& fasta, const std::string& name) {
    const std::string out = dir_ + "/" + name;
    const Outcome r = run("makedb " + options + " " + fasta + " " + out);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(r.out.empty());
    return out;
  }
};

TEST_F(DpxAlignMakedb, SearchGivesTheFastaBytes) {
  auto rng = test::seeded_rng();
  const std::string queries = write("q.fa", protein_fasta(rng, 3, false));
  for (const bool unknown : {false, true}) {
    const std::string letters = unknown ? "--unknown-as-wildcard" : "";
    const std::string fasta = write("db.fa", protein_fasta(rng, 80, unknown));
    const std::string db = makedb(letters, fasta, "db.dpxdb");
    for (const std::string args : {"--top 0", "--top 5", "--top 5 --outfmt blast6 --gap-open 12",
                                   "--top 0 --outfmt blast6 --gap-open 12", "--shard 1/3 --top 5",
                                   "--shard 0/2 --top 0 --outfmt blast6 --gap-open 12", "--top 7 --min-score 30"}) {
      const std::string common = "search --quiet --backend cpu --threads 2 " + letters + " " + args + " " + queries + " ";
      const Outcome want = run(common + fasta), got = run(common + db);
      ASSERT_EQ(want.status, 0) << args << "\n" << want.err;
      EXPECT_EQ(got.status, 0) << args << "\n" << got.err;
      EXPECT_EQ(got.out, want.out) << args;
      EXPECT_EQ(got.err, want.err) << args;  // the unknown-letter warning too
      EXPECT_GT(want.out.size(), 100u) << args;
    }
  }
}

// The database's records by makedb: sorted by length, equal lengths in FASTA order, each with its
// FASTA index, name and header line.
TEST_F(DpxAlignMakedb, StoresSortedByLengthWithOriginalIndices) {
  auto rng = test::seeded_rng();
  const std::string text = protein_fasta(rng, 60, false);
  const std::string fasta = write("db.fa", text), db = makedb("", fasta, "db.dpxdb");
  const ScoreMatrix m = test::builtin_matrix("blosum62");
  const cli::Alphabet alphabet = cli::Alphabet::of_matrix(m, 'X', false, false);
  cli::NamedSequences want, got;
  std::string error;
  ASSERT_TRUE(cli::read_sequences(fasta, alphabet, &want, &error)) << error;
  ASSERT_TRUE(cli::read_database(db, {alphabet.identity(), "--matrix blosum62"}, &got, &error)) << error;
  ASSERT_EQ(got.names.size(), want.names.size());
  EXPECT_FALSE(got.order.identity());
  std::vector<bool> seen(want.names.size());
  for (std::size_t p = 0; p < got.names.size(); ++p) {
    const std::uint32_t o = got.order.original(p);
    ASSERT_LT(o, want.names.size());
    EXPECT_FALSE(seen[o]) << o;
    seen[o] = true;
    EXPECT_EQ(got.order.stored(o), p);
    EXPECT_EQ(got.names[p], want.names[o]);
    EXPECT_EQ(got.lines[p], want.lines[o]);
    EXPECT_EQ(got.letters.view(p), want.letters.view(o));
    if (p > 0) {
      const std::size_t a = got.letters.length(p - 1), b = got.letters.length(p);
      EXPECT_TRUE(a < b || (a == b && got.order.original(p - 1) < o)) << p;
    }
  }
}

// Field offsets of the file's header (db_file.h).
constexpr std::size_t kVersionAt = 5, kZeroAt = 6, kSequencesAt = 8, kLettersAt = 16, kNameBytesAt = 24,
                      kStandInsAt = 32, kRuleBytesAt = 40, kIdentityAt = 48, kHeaderBytes = 576;

std::uint64_t u64_at(const std::string& bytes, std::size_t at) {
  std::uint64_t v;
  std::memcpy(&v, bytes.data() + at, 8);
  return v;
}

std::string u64_bytes(std::uint64_t v) { return std::string(reinterpret_cast<const char*>(&v), 8); }

// Where the sections of a database file start (db_file.h).
struct Sections {
  std::size_t offsets, name_ends, lines, original, names, letters;
  explicit Sections(const std::string& db) {
    const std::uint64_t n = u64_at(db, kSequencesAt);
    offsets = (kHeaderBytes + u64_at(db, kRuleBytesAt) + 7) / 8 * 8;
    name_ends = offsets + 8 * (n + 1);
    lines = name_ends + 8 * (n + 1);
    original = lines + 8 * n;
    names = (original + 4 * n + 7) / 8 * 8;
    letters = (names + u64_at(db, kNameBytesAt) + 7) / 8 * 8;
  }
};

struct Damage {
  std::string name, bytes, message;
};

class DpxAlignDamagedDb : public DpxAlignMakedb {
 protected:
  void SetUp() override {
    DpxAlignMakedb::SetUp();
    if (IsSkipped()) return;
    auto rng = test::seeded_rng();
    queries_ = write("q.fa", protein_fasta(rng, 2, false));
    good_ = file_text(makedb("", write("db.fa", protein_fasta(rng, 30, false)), "good.dpxdb"));
  }

  std::string changed(std::size_t at, const std::string& bytes, bool seal) const {
    std::string db = std::string(good_).replace(at, bytes.size(), bytes);
    if (seal) cli::seal_database(&db);
    return db;
  }

  // Each damaged file is refused with its message, exit status 2, no row, --output kept.
  void expect_refused(const std::vector<Damage>& cases) {
    const std::string out = write("kept.tsv", "old\n");
    for (const Damage& c : cases) {
      const Outcome r = run("search --top 0 --quiet --backend cpu --output " + out + " " + queries_ + " " + write(c.name, c.bytes));
      EXPECT_EQ(r.status, 2) << c.name << "\n" << r.err;
      EXPECT_NE(r.err.find(c.message), std::string::npos) << c.name << "\n" << r.err;
      EXPECT_TRUE(r.out.empty()) << c.name;
      EXPECT_EQ(file_text(out), "old\n") << c.name;
    }
    // the undamaged file searches
    EXPECT_EQ(run("search --top 0 --quiet --backend cpu " + queries_ + " " + write("same.dpxdb", good_)).status, 0);
  }

  std::string queries_, good_;
};

TEST_F(DpxAlignDamagedDb, RefusesTruncatedOrDamagedFilesBeforeAnyRow) {
  const Sections at(good_);
  const std::string far(8, '\xff');
  std::vector<Damage> cases = {
      {"magic.dpxdb", changed(2, "Y", false), "magic.dpxdb:1: not FASTA"},
      {"version.dpxdb", changed(kVersionAt, "\x07", false), "version.dpxdb: database format version 7"},
      {"old.dpxdb", changed(kVersionAt, "\x01", false), "old.dpxdb: database format version 1; this dpx-align reads version 2 (run dpx-align makedb again)"},
      {"count.dpxdb", changed(kSequencesAt, far, false), "count.dpxdb: corrupt: the header's checksum does not match"},
      {"identity.dpxdb", changed(kIdentityAt + 'A', "B", false), "identity.dpxdb: corrupt: the header's checksum does not match"},
      {"offset.dpxdb", changed(at.offsets + 8, far, false), "offset.dpxdb: corrupt: the checksum of its index does not match"},
      {"name.dpxdb", changed(at.names + 1, "\t", false), "name.dpxdb: corrupt: the checksum of its names does not match"},
      {"letter.dpxdb", changed(at.letters + 3, good_[at.letters + 3] == 'A' ? "C" : "A", false), "letter.dpxdb: corrupt: the checksum of its letters does not match"},
      {"longer.dpxdb", good_ + "x", "longer.dpxdb: corrupt: " + std::to_string(good_.size() + 1) + " bytes"},
  };
  for (const std::size_t cut : {std::size_t(5), std::size_t(100), kHeaderBytes, at.offsets + 12, at.original + 2, good_.size() - 1})
    cases.push_back({"cut" + std::to_string(cut) + ".dpxdb", good_.substr(0, cut), "cut" + std::to_string(cut) + ".dpxdb: truncated"});
  {
    std::string error;
    const std::string empty = dir_ + "/empty.dpxdb";
    ASSERT_TRUE(cli::write_database(empty, cli::NamedSequences(), {cli::Alphabet::of_matrix(test::builtin_matrix("blosum62"), 'X', false, false).identity(), "--matrix blosum62"}, &error)) << error;
    cases.push_back({"empty.dpxdb", file_text(empty), "empty.dpxdb: no sequences (an empty database)"});
  }
  expect_refused(cases);
}

// A file whose checksums match (made so here) is still checked field by field.
TEST_F(DpxAlignDamagedDb, RefusesFieldsOutOfRangeBehindGoodChecksums) {
  const Sections at(good_);
  const std::uint64_t n = u64_at(good_, kSequencesAt);
  const std::string far = u64_bytes(~std::uint64_t(0));
  const std::string first_original = good_.substr(at.original, 4);
  const std::uint64_t line0 = u64_at(good_, at.lines);
  std::vector<Damage> cases = {
      {"standins.dpxdb", changed(kStandInsAt, far, true), "standins.dpxdb: corrupt: 18446744073709551615 stand-ins for unknown letters"},
      {"standins1.dpxdb", changed(kStandInsAt, u64_bytes(1), true), "standins1.dpxdb: corrupt: stand-ins for unknown letters under a rule without them"},
      {"count.dpxdb", changed(kSequencesAt, far, true), "count.dpxdb: truncated"},
      {"letters.dpxdb", changed(kLettersAt, far, true), "letters.dpxdb: truncated"},
      {"rule.dpxdb", changed(kRuleBytesAt, u64_bytes(1 << 20), true), "rule.dpxdb: corrupt: 1048576 bytes of letter options"},
      {"zero.dpxdb", changed(kZeroAt, "\x01", true), "zero.dpxdb: corrupt: reserved header bytes are not zero"},
      {"offset.dpxdb", changed(at.offsets + 8, far, true), "offset.dpxdb: corrupt: sequence offsets out of range"},
      {"emptyseq.dpxdb", changed(at.offsets + 8, u64_bytes(0), true), "emptyseq.dpxdb: corrupt: sequence offsets out of range or a sequence without letters"},
      {"nameend.dpxdb", changed(at.name_ends + 8, far, true), "nameend.dpxdb: corrupt: name offsets out of range"},
      {"index.dpxdb", changed(at.original + 4, first_original, true), "index.dpxdb: corrupt: original indices out of range or repeated"},
      {"indexfar.dpxdb", changed(at.original, std::string(4, '\xff'), true), "indexfar.dpxdb: corrupt: original indices"},
      {"line0.dpxdb", changed(at.lines, u64_bytes(0), true), "line0.dpxdb: corrupt: header lines out of order"},
      {"lines.dpxdb", changed(at.lines + 8 * (n - 1), u64_bytes(line0), true), "lines.dpxdb: corrupt: header lines out of order"},
  };
  for (const char c : {'\0', '\t', '\n', '\x7f'}) {
    cases.push_back({"name.dpxdb", changed(at.names + 1, std::string(1, c), true), "name.dpxdb: corrupt: the name of sequence 0 holds a control character"});
  }
  for (const char c : {'\0', '\xff', '\t', 'J', 'a', '#'}) {
    const std::string shown = c == '\0' ? "byte 0x00" : c == '\xff' ? "byte 0xff" : c == '\t' ? "byte 0x09" : std::string("'") + c + "'";
    cases.push_back({"letter.dpxdb", changed(at.letters + 3, std::string(1, c), true),
                     "letter.dpxdb: corrupt: letter " + shown + " at letter offset 3, which '--matrix blosum62' never gives"});
  }
  // the first two sequences (sorted by length) swapped in length: no longer sorted
  const std::uint64_t a = u64_at(good_, at.offsets + 8), b = u64_at(good_, at.offsets + 16);
  if (b > a + 1) cases.push_back({"sorted.dpxdb", changed(at.offsets + 8, u64_bytes(b - 1), true), "sorted.dpxdb: corrupt: sequences not sorted by length"});
  expect_refused(cases);
}

// A damaged identity block that still passes its checksum is named by what it reads differently.
TEST_F(DpxAlignDamagedDb, NamesWhatAChangedLetterRuleReadsDifferently) {
  expect_refused({
      {"identity.dpxdb", changed(kIdentityAt + 'J', "X", true),
       "identity.dpxdb: made with the same letter options '--matrix blosum62', which read letters differently now ('J': "
       "the file reads it as 'X', this search refuses it): the matrix file changed since"},
  });
}

TEST_F(DpxAlignMakedb, RefusesAnotherLetterRule) {
  auto rng = test::seeded_rng();
  const std::string queries = write("q.fa", ">q\nACGTTGCAAGCT\n");  // read alike by every rule below
  const std::string fasta = write("db.fa", protein_fasta(rng, 20, false));
  const std::string plain = makedb("", fasta, "plain.dpxdb"), wild = makedb("--unknown-as-wildcard", fasta, "wild.dpxdb");
  const struct {
    std::string args, message;
  } cases[] = {
      {"--keep-case " + plain, "plain.dpxdb: made with letter options '--matrix blosum62', which read letters differently "
                               "from this search's '--matrix blosum62 --keep-case'"},
      {"--matrix dna " + plain, "this search's '--matrix dna'"},
      {wild, "made with letter options '--matrix blosum62 --unknown-as-wildcard'"},
  };
  for (const auto& c : cases) {
    const Outcome r = run("search --top 0 --quiet --backend cpu " + queries + " " + c.args);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << c.args;
  }
  // another matrix over the same letters reads them alike
  EXPECT_EQ(run("search --top 0 --quiet --backend cpu --matrix blosum80 " + queries + " " + plain).status, 0);
}

// makedb's own input: the FASTA reader's messages, the letter options only, OUT never half written.
TEST_F(DpxAlignMakedb, RefusesBadFastaAndOptions) {
  const std::string out = write("kept.dpxdb", "old\n");
  const struct {
    std::string args, message;
  } cases[] = {
      {write("m.fa", ">a\nMKV\n  >b\nMKV\n"), "m.fa:3: a header must start at the beginning of its line"},
      {write("u.fa", ">a\nMKJV\n"), "u.fa:2:3: letter 'J' is not in the alphabet"},
      {write("none.fa", ""), "none.fa: no sequences"},
      {"--top 3 " + write("ok.fa", ">a\nMKV\n"), "makedb takes the letter options only"},
      {"--output x " + write("ok.fa", ">a\nMKV\n"), "makedb takes the letter options only"},
  };
  for (const auto& c : cases) {
    const Outcome r = run("makedb " + c.args + " " + out);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
    EXPECT_EQ(file_text(out), "old\n") << c.args;
  }
}

}  // namespace
}  // namespace dpx
