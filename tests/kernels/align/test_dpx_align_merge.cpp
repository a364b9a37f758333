// dpx-align merge end to end: the shard outputs of a search (--shard i/n --output) merge into the
// bytes one search writes, in tsv and blast6, for FASTA and database files, with shards that hold
// no hits, --top over the shards and ties across them; every mismatched, missing, truncated or
// changed shard is refused before anything is written.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "dpx_align_cli_fixture.h"
#include "test_util.h"

namespace dpx {
namespace {

constexpr const char* kSearch = "search --quiet --backend cpu --threads 2 ";

class DpxAlignMerge : public DpxAlignCli {
 protected:
  // `args` run as shards 0..n-1 of n, each to `name`.i; the outputs in shard order.
  std::vector<std::string> search_shards(const std::string& args, std::size_t n, const std::string& name) {
    std::vector<std::string> outputs;
    for (std::size_t i = 0; i < n; ++i) outputs.push_back(search_shard(args, i, n, name));
    return outputs;
  }
  // `args` run as shard i of n, to `name`.i.
  std::string search_shard(const std::string& args, std::size_t i, std::size_t n, const std::string& name) {
    const std::string output = dir_ + "/" + name + "." + std::to_string(i);
    const Outcome r = run(std::string(kSearch) + "--shard " + std::to_string(i) + "/" + std::to_string(n) +
                          " --output " + output + " " + args);
    EXPECT_EQ(r.status, 0) << args << " shard " << i << "\n" << r.err;
    return output;
  }
  // The search of `args` on one host (standard output).
  std::string one_host(const std::string& args) {
    const Outcome r = run(kSearch + args);
    EXPECT_EQ(r.status, 0) << args << "\n" << r.err;
    return r.out;
  }
};

std::string joined(const std::vector<std::string>& paths) {
  std::string text;
  for (const std::string& p : paths) text += " " + p;
  return text;
}

// The outputs in an order of their own, so the merge cannot lean on the order it is given.
std::vector<std::string> shuffled(std::vector<std::string> paths, std::mt19937_64& rng) {
  std::shuffle(paths.begin(), paths.end(), rng);
  return paths;
}

TEST_F(DpxAlignMerge, GivesTheOneHostBytes) {
  auto rng = test::seeded_rng();
  const std::string queries = write("q.fa", protein_fasta(rng, 4, false));
  const std::string fasta = write("db.fa", protein_fasta(rng, 90, false));
  ASSERT_EQ(run("makedb " + fasta + " " + dir_ + "/db.dpxdb").status, 0);
  const std::string dpxdb = dir_ + "/db.dpxdb";
  const std::vector<std::string> searches = {  // FASTA and its database file, tsv and blast6
      "--top 5 " + queries + " " + fasta, "--top 3 --min-score 45 " + queries + " " + fasta,
      "--top 0 --min-score 40 --outfmt blast6 --gap-open 12 " + queries + " " + fasta,
      "--top 0 " + queries + " " + dpxdb, "--top 4 --outfmt blast6 --gap-open 12 " + queries + " " + dpxdb};
  for (const std::string& args : searches) {
    const std::string want = one_host(args);
    ASSERT_GT(want.size(), 100u) << args;
    for (const std::size_t n : {1, 2, 5}) {
      const std::vector<std::string> outputs = search_shards(args, n, "hits");
      const Outcome r = run("merge" + joined(shuffled(outputs, rng)));
      EXPECT_EQ(r.status, 0) << args << ", " << n << " shards\n" << r.err;
      EXPECT_EQ(r.out, want) << args << ", " << n << " shards";
      EXPECT_TRUE(r.err.empty()) << r.err;
      if (n != 2) continue;
      const std::string out = dir_ + "/merged";  // --output gets the same bytes
      EXPECT_EQ(run("merge --output " + out + joined(outputs)).status, 0);
      EXPECT_EQ(file_text(out), want) << args << ", " << n << " shards";
    }
  }
}

// More shards than sequences, and a score floor that leaves most shards and queries without hits.
TEST_F(DpxAlignMerge, ShardsWithoutHits) {
  auto rng = test::seeded_rng();
  const std::string queries = write("q.fa", protein_fasta(rng, 3, false));
  const std::string db = write("db.fa", protein_fasta(rng, 5, false));
  for (const std::string options : {"--top 0", "--top 2 --outfmt blast6 --gap-open 12", "--top 0 --min-score 200"}) {
    const std::string args = options + " " + queries + " " + db;
    const std::string want = one_host(args);
    const std::vector<std::string> outputs = search_shards(args, 8, "hits");
    std::size_t empty = 0;  // shards whose record lists no score for any query
    for (const std::string& o : outputs) {
      const std::string record = file_text(o + ".shard");
      empty += record.substr(record.find("\nhits\n") + 6) == "\n\n\nend\n";
    }
    EXPECT_GE(empty, 3u) << args;
    const Outcome r = run("merge" + joined(shuffled(outputs, rng)));
    EXPECT_EQ(r.status, 0) << args << "\n" << r.err;
    EXPECT_EQ(r.out, want) << args;
  }
}

// A query equal to every database sequence: the best hits tie, and the merge keeps database order
// across shard boundaries.
TEST_F(DpxAlignMerge, TiesFollowDatabaseOrderAcrossShards) {
  const std::string seq = "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQAPILSRVGDGTQDNLSGAEKAVQVKVKALPDAQFEVVHSLAKWKRQTLGQHDFSAGEGLYTHMKALRPDEDRLSPLHSVYVDQWDWERVMGDGERQFSTLKSTVEAIWAGIKATEAAVSEEFGLAPFLPDQIHFVHSQELLSRYPDLDAKGRERAIAKDLGAVFLVGIGGKLSDGHRHDVRAPDYDDWUAQ";
  std::string fasta;
  for (int i = 0; i < 12; ++i) fasta += ">same" + std::to_string(i) + "\n" + seq.substr(0, 60 + (i % 3 == 0 ? 0 : 30)) + "\n";
  const std::string queries = write("q.fa", ">q\n" + seq.substr(0, 60) + "\n");
  const std::string db = write("db.fa", fasta);
  auto rng = test::seeded_rng();
  for (const std::string options : {"--top 5", "--top 0", "--top 3 --outfmt blast6 --gap-open 12"}) {
    const std::string args = options + " " + queries + " " + db;
    const std::string want = one_host(args);
    for (const std::size_t n : {2, 5}) {
      const Outcome r = run("merge" + joined(shuffled(search_shards(args, n, "hits"), rng)));
      EXPECT_EQ(r.status, 0) << r.err;
      EXPECT_EQ(r.out, want) << args << ", " << n << " shards";
    }
  }
  // the tie is real: five equal best hits, named in database order
  const std::string top = one_host("--top 5 " + queries + " " + db);
  for (const char* name : {"\tsame0\t", "\tsame1\t", "\tsame2\t", "\tsame3\t", "\tsame4\t"})
    EXPECT_NE(top.find(name), std::string::npos) << top;
}

TEST_F(DpxAlignMerge, TopOverShards) {
  auto rng = test::seeded_rng();
  const std::string queries = write("q.fa", protein_fasta(rng, 3, false));
  const std::string db = write("db.fa", protein_fasta(rng, 60, false));
  const std::vector<std::string> five = search_shards("--top 5 " + queries + " " + db, 3, "five");
  const std::vector<std::string> all = search_shards("--top 0 " + queries + " " + db, 3, "all");
  for (const int top : {1, 3, 5}) {
    const std::string want = one_host("--top " + std::to_string(top) + " " + queries + " " + db);
    EXPECT_EQ(run("merge --top " + std::to_string(top) + joined(five)).out, want) << top;
    EXPECT_EQ(run("merge --top " + std::to_string(top) + joined(all)).out, want) << top;
  }
  EXPECT_EQ(run("merge --top 0" + joined(all)).out, one_host("--top 0 " + queries + " " + db));
  EXPECT_EQ(run("merge --top 60 --outfmt tsv" + joined(all)).out, one_host("--top 60 " + queries + " " + db));
}

// A search's shards from FASTA and from its database file belong together.
TEST_F(DpxAlignMerge, FastaAndDatabaseFileShardsMerge) {
  auto rng = test::seeded_rng();
  const std::string queries = write("q.fa", protein_fasta(rng, 3, false));
  const std::string fasta = write("db.fa", protein_fasta(rng, 50, false)), db = dir_ + "/db.dpxdb";
  ASSERT_EQ(run("makedb " + fasta + " " + db).status, 0);
  const std::string args = "--top 6 " + queries + " ";
  const std::vector<std::string> a = search_shards(args + fasta, 3, "fasta"), b = search_shards(args + db, 3, "dpxdb");
  const Outcome r = run("merge " + a[0] + " " + b[1] + " " + a[2]);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, one_host(args + fasta));
}

// Only a search with --shard and --output to a regular file writes the record.
TEST_F(DpxAlignMerge, RecordBesideShardOutputsOnly) {
  const std::string queries = write("q.fa", ">q\nMKTAYIAKQRQISFVKSHFSRQ\n"), db = write("db.fa", ">a\nMKTAYIAKQR\n>b\nQISFVKSHF\n");
  ASSERT_EQ(run(std::string(kSearch) + "--top 0 --output " + dir_ + "/plain " + queries + " " + db).status, 0);
  EXPECT_NE(access((dir_ + "/plain").c_str(), F_OK), -1);
  EXPECT_EQ(access((dir_ + "/plain.shard").c_str(), F_OK), -1);
  ASSERT_EQ(run(std::string(kSearch) + "--top 0 --shard 0/2 --output /dev/null " + queries + " " + db).status, 0);
  EXPECT_EQ(access("/dev/null.shard", F_OK), -1);  // nothing beside a device
  const std::vector<std::string> one = search_shards("--top 0 " + queries + " " + db, 1, "one");
  const std::string record = file_text(one[0] + ".shard");
  EXPECT_EQ(record.rfind("dpx-align shard record 1\nshard 0/1\noptions --matrix blosum62 --gap-open 11 --gap-extend 1 "
                         "--min-score 1\ntop 0\noutfmt tsv\n", 0), 0u) << record;
  const std::size_t hits = record.find("\nhits\n");
  ASSERT_NE(hits, std::string::npos) << record;
  const std::string scores = record.substr(hits + 6);  // one query: one line of scores, best first
  EXPECT_EQ(std::count(scores.begin(), scores.end(), '\n'), 2) << record;
  EXPECT_EQ(scores.substr(scores.size() - 4), "end\n") << record;
  EXPECT_EQ(run("merge " + one[0]).out, file_text(one[0]));
}

TEST_F(DpxAlignMerge, ShardOutsideTheRangeRefused) {
  const std::string queries = write("q.fa", ">q\nMKTAYIAKQR\n"), db = write("db.fa", ">a\nMKTAYIAKQR\n");
  for (const std::string shard : {"4/4", "5/4", "0/0", "-1/4", "1", "1/", "/4", "a/4"}) {
    const Outcome r = run(std::string(kSearch) + "--shard " + shard + " " + queries + " " + db);
    EXPECT_EQ(r.status, 2) << shard;
    EXPECT_NE(r.err.find("--shard needs i/n with 0 <= i < n"), std::string::npos) << shard << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << shard;
  }
}

class DpxAlignMergeRefusals : public DpxAlignMerge {
 protected:
  void SetUp() override {
    DpxAlignMerge::SetUp();
    if (IsSkipped()) return;
    auto rng = test::seeded_rng();
    queries_ = write("q.fa", protein_fasta(rng, 3, false));
    db_ = write("db.fa", protein_fasta(rng, 40, false));
    good_ = search_shards(args(""), 3, "good");
  }
  std::string args(const std::string& extra) const { return "--top 4 " + extra + " " + queries_ + " " + db_; }
  // Copies `path` and its record to `name` (and `name`.shard).
  std::string copy(const std::string& path, const std::string& name) {
    write(name + ".shard", file_text(path + ".shard"));
    return write(name, file_text(path));
  }

  // merge `inputs` must fail naming `message`, writing nothing: not to standard output, not over --output.
  void expect_refused(const std::string& inputs, const std::string& message) {
    const std::string kept = write("kept", "old\n");
    for (const std::string& output : {std::string(), " --output " + kept}) {
      const Outcome r = run("merge" + output + " " + inputs);
      EXPECT_EQ(r.status, 2) << inputs << "\n" << r.err;
      EXPECT_NE(r.err.find(message), std::string::npos) << inputs << "\nwant: " << message << "\ngot: " << r.err;
      EXPECT_TRUE(r.out.empty()) << inputs;
      EXPECT_EQ(file_text(kept), "old\n") << inputs;
    }
  }

  std::string queries_, db_;
  std::vector<std::string> good_;
};

TEST_F(DpxAlignMergeRefusals, MissingFiles) {
  expect_refused(good_[0] + " " + good_[1] + " " + dir_ + "/nowhere", dir_ + "/nowhere.shard: missing");
  const std::string plain = dir_ + "/plain";
  ASSERT_EQ(run(std::string(kSearch) + "--output " + plain + " " + args("")).status, 0);
  expect_refused(plain, plain + ".shard: missing");
  const std::string bare = write("bare", file_text(good_[1]));
  expect_refused(good_[0] + " " + bare + " " + good_[2], bare + ".shard: missing");
  write("lone.shard", file_text(good_[1] + ".shard"));
  expect_refused(good_[0] + " " + dir_ + "/lone " + good_[2], dir_ + "/lone: No such file");
}

TEST_F(DpxAlignMergeRefusals, TruncatedOrChangedShards) {
  const std::string rows = file_text(good_[1]), record = file_text(good_[1] + ".shard");
  ASSERT_GT(rows.size(), 50u);
  const std::string cut = copy(good_[1], "cut");
  write("cut", rows.substr(0, rows.size() - 7));
  expect_refused(good_[0] + " " + cut + " " + good_[2], cut + ": not the output its search wrote");
  std::string flipped = rows;
  flipped[rows.size() / 2] = flipped[rows.size() / 2] == '1' ? '2' : '1';
  const std::string changed = copy(good_[1], "changed");
  write("changed", flipped);
  expect_refused(good_[0] + " " + changed + " " + good_[2], changed + ": not the output its search wrote");
  const std::string unfinished = copy(good_[1], "unfinished");
  write("unfinished.shard", record.substr(0, record.rfind("end\n")));
  expect_refused(good_[0] + " " + unfinished + " " + good_[2], unfinished + ".shard:");
  expect_refused(good_[0] + " " + unfinished + " " + good_[2], "truncated: its search did not finish");
  const std::string half = copy(good_[1], "half");
  write("half.shard", record.substr(0, record.size() / 2));
  expect_refused(good_[0] + " " + half + " " + good_[2], half + ".shard:");
  const std::string other = copy(good_[1], "other");
  write("other.shard", "not a record\n");
  expect_refused(good_[0] + " " + other + " " + good_[2], other + ".shard:1: not a shard record");
  const std::string damaged = copy(good_[1], "damaged");
  std::string text = record;
  text.replace(text.find("top 4"), 5, "top x");
  write("damaged.shard", text);
  expect_refused(good_[0] + " " + damaged + " " + good_[2], damaged + ".shard:4: damaged: 'top x'");
}

TEST_F(DpxAlignMergeRefusals, ShardsOfAnotherSearch) {
  const struct {
    std::string extra, message;
  } cases[] = {
      {"--gap-open 12", "options '--matrix blosum62 --gap-open 12 --gap-extend 1 --min-score 1' against '--matrix blosum62 --gap-open 11"},
      {"--min-score 30", "options '--matrix blosum62 --gap-open 11 --gap-extend 1 --min-score 30' against '"},
      {"--matrix blosum80", "options '--matrix blosum80"},
      {"--top 5", "--top 5 against 4"},
  };
  for (const auto& c : cases) {
    const std::string other = search_shard(args(c.extra), 1, 3, "other");
    expect_refused(good_[0] + " " + other + " " + good_[2], other + ": not from the search " + good_[0] + " came from: " + c.message);
  }
  {  // another format, all else equal
    const std::string b6 = search_shard("--outfmt blast6 --gap-open 12 --top 4 " + queries_ + " " + db_, 1, 3, "b6");
    const std::string tsv = search_shard("--gap-open 12 --top 4 " + queries_ + " " + db_, 0, 3, "tsv");
    expect_refused(tsv + " " + b6, "another --outfmt");
  }
  auto rng = test::seeded_rng();
  rng.discard(1000);
  const std::string queries = write("q2.fa", protein_fasta(rng, 3, false));
  const std::string q = search_shard("--top 4 " + queries + " " + db_, 1, 3, "q");
  expect_refused(good_[0] + " " + q + " " + good_[2], "other queries");
  const std::string db = write("db2.fa", file_text(db_) + ">extra\nMKV\n");
  const std::string d = search_shard("--top 4 " + queries_ + " " + db, 1, 3, "d");
  expect_refused(good_[0] + " " + d + " " + good_[2], "another database (41 sequences");
  std::string renamed = file_text(db_);
  renamed[1] = 'z';  // the same letters under another name
  const std::string r = search_shard("--top 4 " + queries_ + " " + write("db3.fa", renamed), 1, 3, "r");
  expect_refused(good_[0] + " " + r + " " + good_[2], "another database (40 sequences");
  const std::string four = search_shard(args(""), 1, 4, "four");
  expect_refused(good_[0] + " " + four + " " + good_[2], "shard 1/4 against 0/3 (another shard count)");
}

TEST_F(DpxAlignMergeRefusals, EveryShardOnce) {
  expect_refused(good_[0] + " " + good_[2], "shard 1/3 is missing: give all 3 shard outputs");
  expect_refused(good_[1], "shard 0/3 is missing");
  const std::string again = copy(good_[1], "again");
  expect_refused(good_[0] + " " + good_[1] + " " + again + " " + good_[2], " are both shard 1/3");
  expect_refused(good_[0] + " " + good_[1] + " " + good_[1], good_[1] + " and " + good_[1] + " are both shard 1/3");
  // and the whole set merges
  EXPECT_EQ(run("merge " + good_[2] + " " + good_[0] + " " + good_[1]).out, one_host(args("")));
}

TEST_F(DpxAlignMergeRefusals, MergeOptions) {
  const std::string all = good_[0] + " " + good_[1] + " " + good_[2];
  expect_refused("--top 5 " + all, "--top 5: the shards kept 4 hits per query (their search's --top); merge can give 4 or fewer");
  expect_refused("--top 0 " + all, "--top 0: the shards kept 4");
  expect_refused("--outfmt blast6 " + all, "--outfmt blast6: the shards were written in the other format");
  const std::vector<std::string> every = search_shards("--top 0 " + queries_ + " " + db_, 2, "every");
  expect_refused("--top 41 " + every[0] + " " + every[1], "--top 41 asks for more hits than the database holds (40 sequences)");
  for (const std::string& bad : {std::string(), "--matrix blosum80 " + all, "--shard 0/3 " + all, "--top x " + all, "--outfmt sam " + all}) {
    const Outcome r = run("merge " + bad);
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_TRUE(r.out.empty()) << bad;
    EXPECT_FALSE(r.err.empty()) << bad;
  }
  EXPECT_NE(run("merge").err.find("merge needs the shard outputs of a search"), std::string::npos);
  EXPECT_NE(run("merge --matrix blosum80 " + all).err.find("merge takes --top, --outfmt and --output only"), std::string::npos);
}

}  // namespace
}  // namespace dpx
