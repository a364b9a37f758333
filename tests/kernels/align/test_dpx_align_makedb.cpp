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
constexpr std::size_t kVersionAt = 5, kSequencesAt = 8, kRuleBytesAt = 40, kHeaderBytes = 560;

std::uint64_t u64_at(const std::string& bytes, std::size_t at) {
  std::uint64_t v;
  std::memcpy(&v, bytes.data() + at, 8);
  return v;
}

TEST_F(DpxAlignMakedb, RefusesDamagedFilesBeforeAnyRow) {
  auto rng = test::seeded_rng();
  const std::string queries = write("q.fa", protein_fasta(rng, 2, false));
  const std::string good = file_text(makedb("", write("db.fa", protein_fasta(rng, 30, false)), "good.dpxdb"));
  const std::uint64_t n = u64_at(good, kSequencesAt);
  const std::size_t offsets = (kHeaderBytes + u64_at(good, kRuleBytesAt) + 7) / 8 * 8;
  const std::size_t original = offsets + 8 * (n + 1) * 2 + 8 * n;
  auto changed = [&](std::size_t at, const std::string& bytes) { return std::string(good).replace(at, bytes.size(), bytes); };
  std::string far(8, '\xff'), repeated = good.substr(original, 4);
  struct Case {
    std::string name, bytes, message;
  };
  std::vector<Case> cases = {
      {"magic.dpxdb", changed(2, "Y"), "magic.dpxdb:1: not FASTA"},
      {"version.dpxdb", changed(kVersionAt, "\x07"), "version.dpxdb: database format version 7"},
      {"offset.dpxdb", changed(offsets + 8, far), "offset.dpxdb: corrupt: sequence offsets out of range"},
      {"index.dpxdb", changed(original + 4, repeated), "index.dpxdb: corrupt: original indices"},
      {"count.dpxdb", changed(kSequencesAt, far), "count.dpxdb: truncated"},
      {"longer.dpxdb", good + "x", "longer.dpxdb: corrupt: " + std::to_string(good.size() + 1) + " bytes"},
  };
  for (const std::size_t cut : {std::size_t(5), std::size_t(100), kHeaderBytes, offsets + 12, original + 2, good.size() - 1})
    cases.push_back({"cut" + std::to_string(cut) + ".dpxdb", good.substr(0, cut), "cut" + std::to_string(cut) + ".dpxdb: truncated"});
  {
    std::string error;
    const std::string empty = dir_ + "/empty.dpxdb";
    ASSERT_TRUE(cli::write_database(empty, cli::NamedSequences(), {cli::Alphabet::of_matrix(test::builtin_matrix("blosum62"), 'X', false, false).identity(), "--matrix blosum62"}, &error)) << error;
    cases.push_back({"empty.dpxdb", file_text(empty), "empty.dpxdb: no sequences (an empty database)"});
  }
  const std::string out = write("kept.tsv", "old\n");
  for (const Case& c : cases) {
    const Outcome r = run("search --top 0 --quiet --backend cpu --output " + out + " " + queries + " " + write(c.name, c.bytes));
    EXPECT_EQ(r.status, 2) << c.name << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.name << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << c.name;
    EXPECT_EQ(file_text(out), "old\n") << c.name;
  }
  // the undamaged file searches
  EXPECT_EQ(run("search --top 0 --quiet --backend cpu " + queries + " " + write("same.dpxdb", good)).status, 0);
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
