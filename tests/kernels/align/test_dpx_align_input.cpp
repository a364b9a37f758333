// How dpx-align reads its text inputs: lines end at "\n", "\r\n" or a lone "\r" alike (wherever a
// read splits them); a record without letters and a name holding a control character are refused
// by every command with the same message.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "dpx_align_cli_fixture.h"
#include "input_file.h"

namespace dpx {
namespace {

std::vector<std::string> lines_of(const std::string& path) {
  std::vector<std::string> lines;
  std::string error;
  EXPECT_TRUE(cli::read_input_lines(path, [&](std::string_view l, std::size_t k) {
    EXPECT_EQ(k, lines.size());
    lines.emplace_back(l);
    return true;
  }, &error)) << error;
  return lines;
}

TEST_F(DpxAlignCli, LinesEndAtLineFeedCarriageReturnOrBoth) {
  EXPECT_EQ(lines_of(write("lf", "a\nbb\n\nc")), (std::vector<std::string>{"a", "bb", "", "c"}));
  EXPECT_EQ(lines_of(write("crlf", "a\r\nbb\r\n\r\nc\r\n")), (std::vector<std::string>{"a", "bb", "", "c"}));
  EXPECT_EQ(lines_of(write("cr", "a\rbb\r\rc\r")), (std::vector<std::string>{"a", "bb", "", "c"}));
  EXPECT_EQ(lines_of(write("mixed", "a\r\n\rbb\n\r\nc")), (std::vector<std::string>{"a", "", "bb", "", "c"}));
  // the reads are 64 KiB: every way a line end can fall on their border
  const std::size_t chunk = 1 << 16;
  for (const std::string end : {"\n", "\r", "\r\n"}) {
    for (std::size_t shift = 0; shift < 3; ++shift) {
      const std::string first(chunk - 2 + shift, 'x');
      const std::vector<std::string> got = lines_of(write("border", first + end + "yz" + end + end + "w"));
      EXPECT_EQ(got, (std::vector<std::string>{first, "yz", "", "w"})) << shift << " " << end.size();
    }
  }
}

// Text in memory split into pieces of every small size gives the lines a file gives.
TEST(SplitLines, PiecesOfAnySizeGiveTheSameLines) {
  const std::string text = "a\r\nbb\r\rccc\n\n\r\nd\re";
  const std::vector<std::string> want{"a", "bb", "", "ccc", "", "", "d", "e"};
  for (std::size_t chunk = 0; chunk <= text.size() + 1; ++chunk) {
    std::vector<std::string> got;
    EXPECT_TRUE(cli::split_lines(text, chunk, [&](std::string_view l, std::size_t k) {
      EXPECT_EQ(k, got.size());
      got.emplace_back(l);
      return true;
    }));
    EXPECT_EQ(got, want) << chunk;
  }
}

TEST_F(DpxAlignCli, OldMacLineEndingsGiveTheSameTable) {
  const std::string q = ">q1 first\nMKVLAAGIVG\nLLLAWW\n>q2\nPPGGHHKL\n", t = ">t1\nMKVLAGIVGLLAW\n>t2\nHHKLPPGG\n";
  auto with = [](std::string text, const std::string& end) {
    std::string out;
    for (char c : text) out += c == '\n' ? end : std::string(1, c);
    return out;
  };
  const Outcome want = run("sw --quiet --backend cpu " + write("q.fa", q) + " " + write("t.fa", t));
  ASSERT_EQ(want.status, 0) << want.err;
  ASSERT_EQ(std::count(want.out.begin(), want.out.end(), '\n'), 5);
  for (const std::string end : {"\r", "\r\n"}) {
    const Outcome got = run("sw --quiet --backend cpu " + write("qc.fa", with(q, end)) + " " + write("tc.fa", with(t, end)));
    EXPECT_EQ(got.status, 0) << got.err;
    EXPECT_EQ(got.out, want.out) << end.size();
  }
}

// One rule for every command: a record without letters is refused with the same message.
TEST_F(DpxAlignCli, EveryCommandRefusesARecordWithoutLetters) {
  const std::string good = write("good.fa", ">g\nMKVL\n");
  const struct {
    std::string name, text, message;
  } inputs[] = {
      {"first.fa", ">a\n>b\nMKV\n", "first.fa:1: record 'a' has no letters"},
      {"last.fa", ">a\nMKV\n\n>b x\n\n", "last.fa:4: record 'b' has no letters"},
      {"blank.fa", ">a\nMKV\n>b\n  \n>c\nMK\n", "blank.fa:3: record 'b' has no letters"},
      {"empty.fq", "@a\nMKV\n+\nIII\n@b\n\n+\n\n", "empty.fq:5: record 'b' has no letters"},
  };
  for (const std::string command : {"sw", "nw", "sg", "edit", "search --top 0"}) {
    for (const auto& in : inputs) {
      const std::string file = write(in.name, in.text);
      for (const std::string& args : {file + " " + good, good + " " + file}) {
        const Outcome r = run(command + " --quiet --backend cpu " + args);
        EXPECT_EQ(r.status, 2) << command << " " << args;
        EXPECT_EQ(r.err, "dpx-align: " + dir_ + "/" + in.message + "\n") << command << " " << args;
        EXPECT_TRUE(r.out.empty()) << command;
      }
    }
  }
  const Outcome db = run("makedb " + write("db.fa", inputs[0].text) + " " + dir_ + "/db.dpxdb");
  EXPECT_EQ(db.status, 2);
  EXPECT_NE(db.err.find("db.fa:1: record 'a' has no letters"), std::string::npos) << db.err;
}

// A name goes into every row: a control character in it (a NUL, an escape) would break the table.
TEST_F(DpxAlignCli, NamesWithControlCharactersAreRefused) {
  const std::string good = write("good.fa", ">g\nMKVL\n");
  const struct {
    std::string text, message;
  } inputs[] = {
      {std::string(">a\0b\nMKV\n", 9), "n.fa:1:3: the name holds the control character \\x00"},
      {">ok\nMK\n>x\x1b[31m\nMKV\n", "n.fa:3:3: the name holds the control character \\x1b"},
      {"@a\x7f\nMKV\n+\nIII\n", "n.fa:1:3: the name holds the control character \\x7f"},
  };
  for (const auto& in : inputs) {
    for (const std::string command : {"sw", "edit", "search --top 0", "makedb"}) {
      const std::string file = write("n.fa", in.text);
      const Outcome r = run(command + " --quiet " + file + " " + (command == "makedb" ? dir_ + "/n.dpxdb" : good));
      EXPECT_EQ(r.status, 2) << command;
      EXPECT_NE(r.err.find(in.message), std::string::npos) << command << "\n" << r.err;
    }
  }
  // tabs and other whitespace end the name: the rest of the header is its description
  const Outcome r = run("sw --quiet --backend cpu " + write("tab.fa", ">a\tdescription\nMKV\n") + " " + good);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.substr(r.out.find('\n') + 1, 4), "a\tg\t");
}

}  // namespace
}  // namespace dpx
