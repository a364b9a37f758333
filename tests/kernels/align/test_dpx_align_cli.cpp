// dpx-align end to end: the built program (found next to this test binary's build folder) on
// generated FASTA, FASTQ (plain and gzip) and series files; its table against the library, and
// bad flags and files (exit status 2 with a message, never a crash).
#include <gtest/gtest.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <csignal>
#include <thread>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "align_reference.h"
#include "dpx_align_cli_fixture.h"
#include "dpx/align.h"
#include "dpx/align_distance.h"
#include "test_util.h"

namespace dpx {
namespace {

// A gzip file with stored (uncompressed) deflate blocks: enough for zlib to read.
std::string gzip(const std::string& data) {
  std::uint32_t table[256];
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  std::uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char c : data) crc = table[(crc ^ c) & 0xFF] ^ (crc >> 8);
  crc ^= 0xFFFFFFFFu;
  auto le = [](std::string* s, std::uint32_t v, int bytes) {
    for (int k = 0; k < bytes; ++k) *s += static_cast<char>((v >> (8 * k)) & 0xFF);
  };
  std::string out("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", 10);
  std::size_t pos = 0;
  do {
    const std::size_t len = std::min<std::size_t>(65535, data.size() - pos);
    out += static_cast<char>(pos + len == data.size() ? 1 : 0);
    le(&out, static_cast<std::uint32_t>(len), 2);
    le(&out, static_cast<std::uint32_t>(~len & 0xFFFF), 2);
    out.append(data, pos, len);
    pos += len;
  } while (pos < data.size());
  le(&out, crc, 4);
  le(&out, static_cast<std::uint32_t>(data.size()), 4);
  return out;
}

std::vector<std::vector<std::string>> rows_of(const std::string& tsv) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(tsv);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::istringstream f(line);
    std::string x;
    while (std::getline(f, x, '\t')) fields.push_back(x);
    rows.push_back(fields);
  }
  return rows;
}

std::string field(std::int32_t v) { return v < 0 ? "." : std::to_string(v); }

// A random sequence whose letters the matrix knows (dpx-align refuses unknown ones by default).
std::string known_sequence(std::mt19937_64& rng, std::size_t length, const ScoreMatrix& m) {
  std::string s = test::random_sequence(rng, length, m.letters());
  for (char& c : s)
    if (m.letters().find(static_cast<char>(std::toupper(static_cast<unsigned char>(c)))) == std::string::npos) c = 'X';
  return s;
}

TEST_F(DpxAlignCli, SmithWatermanTableMatchesTheLibrary) {
  auto rng = test::seeded_rng();
  const ScoreMatrix m = test::builtin_matrix("blosum62");
  SequenceBatch queries, targets;
  std::string fasta, fastq;
  for (int k = 0; k < 3; ++k) {
    queries.add(known_sequence(rng, 40 + 30 * k, m));
    fasta += ">query" + std::to_string(k) + " some description\n" + std::string(queries.view(k).substr(0, 25)) + "\n" +
             std::string(queries.view(k).substr(25)) + "\n";
  }
  for (int k = 0; k < 5; ++k) {
    std::string t = known_sequence(rng, 60 + 17 * k, m);
    if (k % 2 == 0) t.insert(10, std::string(queries.view(k % 3).substr(5, 30)));
    targets.add(t);
    fastq += "@target" + std::to_string(k) + "\n" + t + "\n+\n" + std::string(t.size(), 'I') + "\n";
  }
  const std::string q = write("q.fa", fasta), t = write("t.fq.gz", gzip(fastq));
  const Outcome r = run("sw --cigar --backend cpu --quiet " + q + " " + t);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = rows_of(r.out);
  ASSERT_EQ(rows.size(), 1u + 3 * 5);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"query", "target", "score", "query_start", "query_end", "target_start",
                                               "target_end", "cigar"}));
  for (int i = 0; i < 3; ++i) {
    SequenceBatch one;
    one.add(queries.view(i));
    std::vector<AlignResult> want;
    ASSERT_TRUE(align_cpu(one, targets, Pairing::kOneToMany, m, test::align_options(AlignMode::kLocal, 11, 1, true), &want).is_ok());
    for (int j = 0; j < 5; ++j) {
      const auto& row = rows[1 + i * 5 + j];
      const AlignResult& w = want[j];
      EXPECT_EQ(row, (std::vector<std::string>{"query" + std::to_string(i), "target" + std::to_string(j),
                                               std::to_string(w.score), field(w.query_begin), field(w.query_end),
                                               field(w.target_begin), field(w.target_end), w.cigar.empty() ? "." : w.cigar}));
    }
  }
  // the same on whatever backend is there, written to a file
  const std::string out = dir_ + "/out.tsv";
  ASSERT_EQ(run("sw --cigar --output " + out + " " + q + " " + t).status, 0);
  EXPECT_EQ(file_text(out), r.out);
}

TEST_F(DpxAlignCli, OtherCommands) {
  const std::string q = write("q.fa", ">a\nHEAGAWGHEE\n"), t = write("t.fa", ">b\nPAWHEAE\n");
  Outcome r = run("nw --matrix blosum50 --gap-open 8 --gap-extend 8 --backend cpu " + q + " " + t);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(rows_of(r.out)[1], (std::vector<std::string>{"a", "b", "1", "0", "10", "0", "7", "."}));
  r = run("edit --cigar --backend cpu " + q + " " + t);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(rows_of(r.out)[0][2], "distance");
  const std::string a = write("a.txt", "1 2 3 4\n\n# comment\n5 6 7\n"), b = write("b.txt", "1 2 3\n");
  r = run("dtw --band 0 --backend cpu " + a + " " + b);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = rows_of(r.out);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0][2], "cost");
  EXPECT_EQ(rows[1][2], "inf");  // lengths 4 and 3 with band 0: no warping path
  EXPECT_EQ(rows[2][2], "12");   // |5-1| + |6-2| + |7-3|
}

// Every input is checked before the first row: a too-long record is named with its file and
// line, and --output keeps the file it would have replaced.
TEST_F(DpxAlignCli, InputsAreCheckedBeforeAnythingIsWritten) {
  std::string targets;
  for (int k = 0; k < 300; ++k) targets += ">t" + std::to_string(k) + "\nMKTAYIAKQR\n";
  const std::string q = write("q.fa", ">ok MKTAYIAK\nMKTAYIAK\n>long\n" + std::string(70000, 'A') + "\n");
  const std::string t = write("t.fa", targets);
  const Outcome r = run("sw --quiet --backend cpu " + q + " " + t);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(q + ":3: sequence 'long' has 70000 letters; the limit is 65536"), std::string::npos) << r.err;
  const std::string out = write("old.tsv", "old table\n");
  EXPECT_EQ(run("sw --quiet --backend cpu --output " + out + " " + q + " " + t).status, 2);
  EXPECT_EQ(file_text(out), "old table\n");
  if (cuda_device_count() == 0) {
    const Outcome c = run("edit --quiet --backend cuda " + t + " " + t);
    EXPECT_EQ(c.status, 2) << c.err;
    EXPECT_EQ(c.out, "");
  }
  EXPECT_NE(run("--help").out.find("65536 letters"), std::string::npos);
}

// One letter rule for every command, and no letter silently changed into another.
TEST_F(DpxAlignCli, LettersAreReadOneWayEverywhere) {
  const std::string lower = write("l.fa", ">l\nacgtacgt\n"), upper = write("u.fa", ">u\nACGTACGT\n");
  Outcome r = run("edit --quiet --backend cpu " + lower + " " + upper);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(rows_of(r.out)[1][2], "0");
  r = run("edit --keep-case --quiet --backend cpu " + lower + " " + upper);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(rows_of(r.out)[1][2], "8");
  // U and O as NCBI reads them, so a sequence against itself is all matches
  const std::string uo = write("uo.fa", ">uo\nMKUUOOAY\n");
  r = run("nw --cigar --quiet --backend cpu " + uo + " " + uo);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(rows_of(r.out)[1][7], "8=");
  // unknown letters: an error with file, line and column, or the wildcard with one warning
  const std::string digits = write("d.fa", ">d\nMKTA\nYI1K\n");
  r = run("sw --quiet --backend cpu " + digits + " " + uo);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(digits + ":3:3: letter '1' is not in the alphabet"), std::string::npos) << r.err;
  r = run("edit --quiet --backend cpu " + digits + " " + uo);
  EXPECT_EQ(r.status, 2);
  r = run("sw --unknown-as-wildcard --quiet --backend cpu " + digits + " " + uo);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("1 unknown letters read as the wildcard 'X'"), std::string::npos) << r.err;
  // a matrix without X has no wildcard: N (a real letter) never stands in for unknown ones
  const std::string m = write("m.txt", "   A  C  G  T  N\nA  5 -4 -4 -4 -2\nC -4  5 -4 -4 -2\nG -4 -4  5 -4 -2\n"
                                       "T -4 -4 -4  5 -2\nN -2 -2 -2 -2  6\n");
  const std::string w = write("w.fa", ">w\nWWWWCCCC\n"), k = write("k.fa", ">k\nKKKKHHHH\n");
  r = run("sw --matrix " + m + " --quiet --backend cpu " + w + " " + k);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("letter 'W' is not in the alphabet"), std::string::npos) << r.err;
  const std::string nn = write("n.fa", ">n\nNNAC\n");
  r = run("sw --cigar --matrix " + m + " --quiet --backend cpu " + nn + " " + nn);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(rows_of(r.out)[1][7], "4=");
  // the value read, not a clamped one
  r = run("sw --matrix " + write("big.txt", "  A C\nA 5000 1\nC 1 5\n") + " --quiet --backend cpu " + nn + " " + nn);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("score 5000 is outside"), std::string::npos) << r.err;
  // causes named: a byte-order mark, a header after whitespace, ';' comments
  const struct {
    std::string text, message;
  } files[] = {{"\xEF\xBB\xBF>a\nACGT\n", "byte-order mark"},
               {"  >a\nACGT\n", "not after whitespace"},
               {";comment\n>a\nACGT\n", "';' comment lines"},
               {">a\nACGT\n;comment\nACGT\n", "';' comment lines"}};
  for (const auto& f : files) {
    r = run("edit --quiet --backend cpu " + write("f.fa", f.text) + " " + upper);
    EXPECT_EQ(r.status, 2) << f.text;
    EXPECT_NE(r.err.find(f.message), std::string::npos) << f.text << "\n" << r.err;
  }
}

// Peak resident memory (KiB) of dpx-align run with `args`, its output discarded; -1 on failure.
long peak_rss_kib(const std::vector<std::string>& args) {
  std::vector<char*> argv{const_cast<char*>("dpx-align")};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const std::string path = program();
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execv(path.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (pid < 0 || wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
  return usage.ru_maxrss;
}

// A large FASTA costs its letters once, not its text several times over.
TEST_F(DpxAlignCli, MemoryStaysNearTheInputSize) {
  std::string fasta;
  const std::string letters = "ACGTTGCAAGCTTCGA";
  for (int k = 0; k < 2500; ++k) {  // more than the runner's one-to-many threshold: no chunk copies
    fasta += ">t" + std::to_string(k) + "\n";
    for (int line = 0; line < 125; ++line) {
      for (int c = 0; c < 64; ++c) fasta += letters[(k + line * 7 + c) % letters.size()];
      fasta += "\n";
    }
  }
  const std::string t = write("big.fa", fasta), q = write("q.fa", ">q\nACGTAC\n");
  // What the program costs with no input to speak of (code, the CUDA runtime where built in)
  // is not the input's cost: measured on the query alone and taken off.
  const long base_kib = peak_rss_kib({"edit", "--quiet", "--backend", "cpu", q, q});
  const long kib = peak_rss_kib({"edit", "--quiet", "--backend", "cpu", q, t});
  ASSERT_GT(base_kib, 0);
  ASSERT_GT(kib, 0);
  EXPECT_LE((kib - base_kib) * 1024.0, 1.5 * static_cast<double>(fasta.size()))
      << kib << " KiB (" << base_kib << " KiB without the input) for a FASTA of " << fasta.size() << " bytes";
}

TEST_F(DpxAlignCli, BadFlagsAndFilesExitWithTwo) {
  const std::string q = write("q.fa", ">a\nACDE\n"), t = write("t.fa", ">b\nACDE\n");
  const struct {
    std::string args, message;
  } cases[] = {
      {"align " + q + " " + t, "unknown command"},
      {"sw --gap-open x " + q + " " + t, "--gap-open needs a whole number"},
      {"sw --gap-open 1 --gap-extend 2 " + q + " " + t, "must not exceed"},
      {"sw --band 3 " + q + " " + t, "--band applies to dtw only"},
      {"sw --bogus " + q + " " + t, "unrecognised option"},
      {"sw --backend gpu " + q + " " + t, "--backend needs auto, cuda or cpu"},
      {"sw " + q, "expected 2 input files"},
      {"sw " + q + " " + dir_ + "/missing.fa", "cannot open"},
      {"sw --matrix nosuch " + q + " " + t, "neither a built-in matrix"},
      {"sw " + q + " " + write("bad.fa", "hello\n"), "not FASTA"},
      {"sw " + q + " " + write("empty.fa", "\n\n"), "no sequences"},
      {"sw " + q + " " + write("bad.fq", "@r\nACGT\n+\nII\n"), "2 quality values for 4 letters"},
      {"sw " + q + " " + write("short.fq", "@r\nACGT\n"), "incomplete FASTQ record"},
      {"sw " + q + " " + write("cut.gz", gzip(">b\nACDE\n").substr(0, 20)), "truncated or corrupt"},
      {"sw " + q + " " + write("long.fa", ">l\n" + std::string(kAlignMaxLength + 1, 'A') + "\n"), "the limit is 65536"},
      {"dtw " + write("x.txt", "1 2 zz\n") + " " + write("y.txt", "1\n"), "x.txt:1: 'zz' is not a whole or finite decimal number"},
      {"dtw " + write("x2.txt", "99999999999\n") + " " + write("y2.txt", "1\n"), "outside the int32 range"},
      {"dtw " + write("x3.txt", "1 2\n , ,\n") + " " + write("y3.txt", "1\n"), "x3.txt:2: separators but no values"},
      {"sw --cost sq " + q + " " + t, "--cost applies to dtw only"},
      {"edit --float " + q + " " + t, "--float applies to dtw only"},
      {"dtw --cost l2 " + write("y4.txt", "1\n") + " " + write("y5.txt", "1\n"), "--cost needs abs or sq, got 'l2'"},
  };
  for (const auto& c : cases) {
    const Outcome r = run(c.args + " --quiet --backend cpu");
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
  }
  const Outcome none = run("");
  EXPECT_EQ(none.status, 2);
  EXPECT_NE(none.err.find("missing the command"), std::string::npos) << none.err;
  EXPECT_EQ(run("--help").status, 0);
}

// A float as text that strtof reads back to the same float, and a series as one line of them.
std::string text_of(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", static_cast<double>(v));
  return text;
}

std::string line_of(const float* v, std::size_t n) {
  std::string line;
  for (std::size_t i = 0; i < n; ++i) line += (i ? " " : "") + text_of(v[i]);
  return line + "\n";
}

std::uint32_t bits_of(float v) {
  std::uint32_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// Costs worked out by hand: {0.5, 1.5} against {1}: |-0.5| + |0.5| = 1, squared 0.25 + 0.25 = 0.5;
// 0.1 (0.100000001 in float) against 0 prints all 9 digits.
TEST_F(DpxAlignCli, DtwFloatCostsComputedByHand) {
  const std::string a = write("a.txt", "0.5 1.5\n0.1\n"), b = write("b.txt", "1\n0\n");
  Outcome r = run("dtw --quiet --backend cpu " + a + " " + b);
  ASSERT_EQ(r.status, 0) << r.err;
  auto rows = rows_of(r.out);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[1], (std::vector<std::string>{"1", "1", "1", "0", "2", "0", "1", "."}));
  EXPECT_EQ(rows[2][2], "2");             // 0.5 + 1.5
  EXPECT_EQ(rows[4][2], "0.100000001");  // 0.1 against 0
  r = run("dtw --cost sq --quiet --backend cpu " + a + " " + b);
  ASSERT_EQ(r.status, 0) << r.err;
  rows = rows_of(r.out);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[1][2], "0.5");
  EXPECT_EQ(rows[2][2], "2.5");  // 0.25 + 2.25
  EXPECT_EQ(run("dtw --cost abs --quiet --backend cpu " + a + " " + b).out, run("dtw --quiet --backend cpu " + a + " " + b).out);
}

// Every cost in the table reads back as the library's float, bit for bit, for both costs.
TEST_F(DpxAlignCli, DtwFloatTableMatchesTheLibrary) {
  auto rng = test::seeded_rng();
  std::uniform_real_distribution<float> value(-100.0f, 100.0f);
  FloatSeriesBatch as, bs;
  std::string a_text, b_text;
  for (int k = 0; k < 7; ++k) {
    std::vector<float> v(3 + 5 * k);
    for (float& x : v) x = value(rng);
    (k < 3 ? as : bs).add(v.data(), v.size());
    (k < 3 ? a_text : b_text) += line_of(v.data(), v.size());
  }
  const std::string a = write("a.txt", a_text), b = write("b.txt", b_text);
  for (const DtwCost cost : {DtwCost::kAbsolute, DtwCost::kSquared}) {
    const Outcome r = run(std::string("dtw --quiet --backend cpu --cost ") + (cost == DtwCost::kSquared ? "sq " : "abs ") + a + " " + b);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto rows = rows_of(r.out);
    ASSERT_EQ(rows.size(), 1u + 3 * 4);
    for (std::size_t i = 0; i < 3; ++i) {
      FloatSeriesBatch one;
      one.add(as.item(i), as.length(i));
      DtwFloatOptions options;
      options.cost = cost;
      std::vector<float> want;
      ASSERT_TRUE(dtw_float_cpu(one, bs, Pairing::kOneToMany, options, &want).is_ok());
      for (std::size_t j = 0; j < 4; ++j) {
        const auto& row = rows[1 + i * 4 + j];
        ASSERT_EQ(row.size(), 8u);
        EXPECT_EQ(bits_of(std::strtof(row[2].c_str(), nullptr)), bits_of(want[j])) << row[2] << " vs " << text_of(want[j]);
        EXPECT_EQ(row[4], std::to_string(as.length(i)));
        EXPECT_EQ(row[6], std::to_string(bs.length(j)));
      }
    }
  }
}

// An integer file read with --float gives the int32 table byte for byte (costs below 2^24 are
// exact in float).
TEST_F(DpxAlignCli, DtwIntegerFilesWithFloatGiveTheInt32Table) {
  auto rng = test::seeded_rng();
  std::uniform_int_distribution<int> value(-1000, 1000);
  std::string a_text, b_text;
  for (int k = 0; k < 6; ++k) {
    std::string line;
    for (int i = 0; i < 4 + 3 * k; ++i) line += (i ? " " : "") + std::to_string(value(rng));
    (k < 2 ? a_text : b_text) += line + "\n";
  }
  const std::string a = write("a.txt", a_text), b = write("b.txt", b_text);
  for (const std::string band : {"", "--band 3 "}) {
    const Outcome ints = run("dtw --quiet --backend cpu " + band + a + " " + b);
    const Outcome floats = run("dtw --float --quiet --backend cpu " + band + a + " " + b);
    ASSERT_EQ(ints.status, 0) << ints.err;
    ASSERT_EQ(floats.status, 0) << floats.err;
    EXPECT_EQ(rows_of(ints.out).size(), 1u + 2 * 4);
    EXPECT_EQ(floats.out, ints.out) << band;
  }
  // read as float, squared costs exist; as int32 they do not
  EXPECT_EQ(run("dtw --float --cost sq --quiet --backend cpu " + a + " " + b).status, 0);
}

// One value with a fraction or an exponent, in either file, makes both float; otherwise int32.
TEST_F(DpxAlignCli, DtwFloatIsChosenByOneFractionalValue) {
  const std::string ints = write("i.txt", "1 2 3\n"), other = write("o.txt", "1 2 4\n");
  const std::string fraction = write("f.txt", "1 2 3.5\n"), exponent = write("e.txt", "1 2 4e0\n");
  Outcome r = run("dtw --quiet --backend cpu " + ints + " " + other);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(rows_of(r.out)[1][2], "1");
  r = run("dtw --cost sq --quiet --backend cpu " + ints + " " + other);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("--cost sq needs float series: give --float (or values with a fraction or exponent"), std::string::npos) << r.err;
  const struct {
    std::string a, b, abs, sq;
  } cases[] = {{ints, fraction, "0.5", "0.25"}, {fraction, ints, "0.5", "0.25"}, {ints, exponent, "1", "1"}};
  for (const auto& c : cases) {
    r = run("dtw --quiet --backend cpu " + c.a + " " + c.b);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(rows_of(r.out)[1][2], c.abs) << c.a << " " << c.b;
    r = run("dtw --cost sq --quiet --backend cpu " + c.a + " " + c.b);
    ASSERT_EQ(r.status, 0) << c.a << " " << c.b << "\n" << r.err;
    EXPECT_EQ(rows_of(r.out)[1][2], c.sq) << c.a << " " << c.b;
  }
  // a whole number beyond int32 is a float when the other file makes both float
  const std::string big = write("big.txt", "99999999999 1\n");
  r = run("dtw --quiet --backend cpu " + big + " " + fraction);
  EXPECT_EQ(r.status, 0) << r.err;
  r = run("dtw --quiet --backend cpu " + big + " " + ints);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(big + ":1: 99999999999 is outside the int32 range"), std::string::npos) << r.err;
}

// A value no float holds, or not written as a whole or decimal number, is refused by name and
// line, with or without --float.
TEST_F(DpxAlignCli, DtwFloatValuesAreChecked) {
  const std::string good = write("good.txt", "1.5 2\n");
  const struct {
    std::string text, message;
  } cases[] = {{"0.5\n1 nan\n", ":2: 'nan' is not a whole or finite decimal number"},
               {"0.5 -inf\n", ":1: '-inf' is not a whole or finite decimal number"},
               {"0.5\n\n1e40\n", ":3: 1e40 is outside the float range"},
               {"1 -3.5e38\n", ":1: -3.5e38 is outside the float range"},
               {"1.5x 2\n", ":1: '1.5x' is not a whole or finite decimal number"},
               {"0x1p3\n", ":1: '0x1p3' is not a whole or finite decimal number"},
               {"1e 2\n", ":1: '1e' is not a whole or finite decimal number"},
               {"2 . 3\n", ":1: '.' is not a whole or finite decimal number"},
               {std::string(40, '9') + "\n", ":1: " + std::string(40, '9') + " is outside the int32 and float ranges"}};
  for (const auto& c : cases) {
    const std::string bad = write("bad.txt", c.text);
    for (const std::string flag : {"", "--float "}) {
      const Outcome r = run("dtw --quiet --backend cpu " + flag + good + " " + bad);
      EXPECT_EQ(r.status, 2) << c.text;
      EXPECT_EQ(r.out, "");
      EXPECT_NE(r.err.find(bad + c.message), std::string::npos) << flag << c.text << "\n" << r.err;
    }
  }
  // the forms a decimal may take
  const Outcome r = run("dtw --quiet --backend cpu " + write("forms.txt", "+1.5 -.25 2. 1E+1 3e-1,-0\n") + " " + good);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(rows_of(r.out)[1][4], "6");
}

// The band on float series: one peak, early in A and late in B. Unbanded the peaks warp onto each
// other (cost 0; the series without a peak costs the peak, 10); band 0 pairs i with i (10 + 10 =
// 20) and has no path for unequal lengths.
TEST_F(DpxAlignCli, DtwFloatHonoursTheBand) {
  std::vector<float> a(10, 0.5f), b(10, 0.5f), shorter(9, 0.5f);
  a[2] = 10.5f;
  b[8] = 10.5f;
  const std::string af = write("a.txt", line_of(a.data(), a.size()) + line_of(shorter.data(), shorter.size()));
  const std::string bf = write("b.txt", line_of(b.data(), b.size()));
  const auto costs = [&](const std::string& band) {
    const Outcome r = run("dtw --quiet --backend cpu " + band + af + " " + bf);
    EXPECT_EQ(r.status, 0) << r.err;
    const auto rows = rows_of(r.out);
    return rows.size() == 3 ? std::vector<std::string>{rows[1][2], rows[2][2]} : std::vector<std::string>{};
  };
  EXPECT_EQ(costs(""), (std::vector<std::string>{"0", "10"}));
  EXPECT_EQ(costs("--band 0 "), (std::vector<std::string>{"20", "inf"}));
  FloatSeriesBatch x, y;
  x.add(a.data(), a.size());
  y.add(b.data(), b.size());
  DtwFloatOptions banded;
  banded.band = 3;
  std::vector<float> want;
  ASSERT_TRUE(dtw_float_cpu(x, y, Pairing::kPairwise, banded, &want).is_ok());
  ASSERT_NE(want[0], 0.0f);
  const auto band3 = costs("--band 3 ");
  ASSERT_EQ(band3.size(), 2u);
  EXPECT_EQ(band3[0], text_of(want[0]));
}


// A hit worked out by hand: BLOSUM62, a gap of one letter costing 12 (BLAST's 11/1: λ 0.267,
// K 0.041). WWWWKWWWW against GGWWWWWWWWGG: the eight W pairs (8 x 11) and the K against a gap
// (-12) score 76 — better than K against W (-3), which leaves only seven W pairs (74). Columns 9,
// identities 8 (88.889%), no mismatch, one gap; query 1-9, target 3-10. E = 0.041 x 9 x 12 x
// e^(-0.267 x 76) = 6.82e-09; bits = (0.267 x 76 - ln 0.041) / ln 2 = 33.9.
TEST_F(DpxAlignCli, SearchBlastRowComputedByHand) {
  const std::string q = write("q.fa", ">q query\nWWWWKWWWW\n"), db = write("db.fa", ">t target\nGGWWWWWWWWGG\n");
  Outcome r = run("search --outfmt blast6 --gap-open 12 --top 1 --quiet --backend cpu " + q + " " + db);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "q\tt\t88.889\t9\t0\t1\t1\t9\t3\t10\t6.82e-09\t33.9\n");
  r = run("search --gap-open 12 --top 1 --quiet " + q + " " + db);  // TSV, on whatever backend is there
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(rows_of(r.out)[1], (std::vector<std::string>{"q", "t", "76", "0", "9", "2", "10", "4=1I4="}));
}

// Bad input to search: a message naming the file (and line), exit status 2, not one row written,
// and --output left as it was.
TEST_F(DpxAlignCli, SearchRefusesBadInputBeforeAnyRow) {
  const std::string q = write("q.fa", ">q\nMKTAYIAKQR\n"), db = write("db.fa", ">a\nMKTAYIAK\n>b\nQRMKT\n");
  const std::string out = write("kept.tsv", "old\n");
  const struct {
    std::string args, message;
  } cases[] = {
      {q + " " + write("m.fa", ">a\nMKV\n  >b\nMKV\n"), "m.fa:3: a header must start at the beginning of its line"},
      {q + " " + write("e.fa", ">a\n>b\nMKV\n"), "e.fa:1: record 'a' has no letters"},
      {write("eq.fa", ">q\nMK\n>r\n") + " " + db, "eq.fa:3: record 'r' has no letters"},
      {q + " " + write("u.fa", ">a\nMKJV\n"), "u.fa:2:3: letter 'J' is not in the alphabet"},
      {q + " " + dir_ + "/vanished.fa", "cannot open"},
      {q + " " + write("cut.fa.gz", gzip(">a\nMKTAYIAKQRMKTAYIAKQR\n").substr(0, 24)), "truncated or corrupt"},
      {q + " " + write("none.fa", ""), "none.fa: no sequences"},
      {"--top 3 " + q + " " + db, "--top 3 asks for more hits than"},
      {"--outfmt blast6 --gap-open 9 --gap-extend 3 " + q + " " + db, "blosum62: 13/2 12/2 11/2"},
      {"--outfmt sam " + q + " " + db, "--outfmt needs tsv or blast6"},
      {"--shard 2/2 " + q + " " + db, "--shard needs i/n"},
      {"--devices 0,x " + q + " " + db, "--devices needs 'all'"},
      {"--cigar " + q + " " + db, "--cigar does not apply to search"},
  };
  for (const auto& c : cases) {
    const Outcome r = run("search --top 2 --quiet --backend cpu --output " + out + " " + c.args);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << c.args;
    EXPECT_EQ(file_text(out), "old\n") << c.args;
  }
  EXPECT_EQ(run("sw --top 2 " + q + " " + db).err.find("--top applies to search only") != std::string::npos, true);
  // unknown residues as the wildcard: counted, one warning, and the search runs
  const Outcome r = run("search --top 1 --quiet --backend cpu --unknown-as-wildcard " + q + " " + write("w.fa", ">a\nMKJJVB1\n"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("warning: 3 unknown letters read as the wildcard 'X'"), std::string::npos) << r.err;
}

// Ctrl-C during a search: exit status 130, and --output never appears (nor its temporary file).
TEST_F(DpxAlignCli, SearchStopsCleanlyOnInterrupt) {
  auto rng = test::seeded_rng();
  const ScoreMatrix m = test::builtin_matrix("blosum62");
  std::string queries, db;
  for (int k = 0; k < 40000; ++k) queries += ">q" + std::to_string(k) + "\n" + known_sequence(rng, 50, m) + "\n";
  for (int k = 0; k < 200; ++k) db += ">t" + std::to_string(k) + "\n" + known_sequence(rng, 50, m) + "\n";
  const std::string q = write("q.fa", queries), t = write("db.fa", db), out = dir_ + "/hits.tsv", err = dir_ + "/err";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, STDERR_FILENO);
    execl(program().c_str(), "dpx-align", "search", "--backend", "cpu", "--threads", "1", "--output", out.c_str(),
          q.c_str(), t.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // wait for the first progress line: the search is then under way
  std::string seen;
  for (int tries = 0; tries < 600 && seen.find("pairs") == std::string::npos; ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    seen = file_text(err);
  }
  ASSERT_NE(seen.find("pairs"), std::string::npos) << seen;
  kill(pid, SIGINT);
  int raw = 0;
  ASSERT_EQ(waitpid(pid, &raw, 0), pid);
  ASSERT_TRUE(WIFEXITED(raw)) << "ended by signal " << (WIFSIGNALED(raw) ? WTERMSIG(raw) : 0);
  EXPECT_EQ(WEXITSTATUS(raw), 130);
  const std::string said = file_text(err);
  EXPECT_NE(said.find("interrupted"), std::string::npos) << said;
  EXPECT_NE(access(out.c_str(), F_OK), 0);
  DIR* d = opendir(dir_.c_str());
  ASSERT_NE(d, nullptr);
  for (const dirent* entry; (entry = readdir(d)) != nullptr;)
    EXPECT_EQ(std::string(entry->d_name).find(".tmp."), std::string::npos) << entry->d_name;
  closedir(d);
}

}  // namespace
}  // namespace dpx
