// Substitution matrices: built-in values checked by hand against the NCBI tables, letter mapping,
// DNA, parsing and bad input.
#include <gtest/gtest.h>

#include "dpx/align.h"

namespace {

dpx::ScoreMatrix builtin(const char* name) {
  dpx::ScoreMatrix m;
  const dpx::Status s = dpx::ScoreMatrix::builtin(name, &m);
  EXPECT_TRUE(s.is_ok()) << s.message();
  return m;
}

TEST(ScoreMatrix, BuiltinValuesMatchTheNcbiTables) {
  const dpx::ScoreMatrix b62 = builtin("blosum62");
  EXPECT_EQ(b62.size(), 24);
  EXPECT_EQ(b62.letters(), "ARNDCQEGHILKMFPSTWYVBZX*");
  EXPECT_EQ(b62.score('W', 'W'), 11);
  EXPECT_EQ(b62.score('C', 'C'), 9);
  EXPECT_EQ(b62.score('A', 'R'), -1);
  EXPECT_EQ(b62.score('H', 'Y'), 2);
  EXPECT_EQ(b62.score('B', 'D'), 4);
  EXPECT_EQ(b62.score('X', 'A'), 0);
  EXPECT_EQ(b62.score('X', 'X'), -1);
  EXPECT_EQ(b62.score('*', '*'), 1);
  EXPECT_EQ(b62.score('*', 'L'), -4);
  EXPECT_EQ(b62.max_score(), 11);
  EXPECT_EQ(b62.min_score(), -4);

  const dpx::ScoreMatrix b45 = builtin("BLOSUM45");
  EXPECT_EQ(b45.score('C', 'C'), 12);
  EXPECT_EQ(b45.score('W', 'W'), 15);
  EXPECT_EQ(b45.score('W', 'C'), -5);
  const dpx::ScoreMatrix b50 = builtin("blosum50");
  EXPECT_EQ(b50.score('P', 'P'), 10);
  EXPECT_EQ(b50.score('C', 'C'), 13);
  EXPECT_EQ(b50.score('F', 'Y'), 4);
  const dpx::ScoreMatrix b80 = builtin("Blosum80");
  EXPECT_EQ(b80.score('W', 'W'), 16);
  EXPECT_EQ(b80.score('C', 'D'), -7);
  EXPECT_EQ(b80.score('D', 'D'), 10);
  const dpx::ScoreMatrix pam = builtin("pam250");
  EXPECT_EQ(pam.score('W', 'W'), 17);
  EXPECT_EQ(pam.score('C', 'W'), -8);
  EXPECT_EQ(pam.score('W', 'R'), 2);
  EXPECT_EQ(pam.score('F', 'Y'), 7);
}

TEST(ScoreMatrix, BuiltinsAreSymmetric) {
  for (const char* name : {"blosum45", "blosum50", "blosum62", "blosum80", "pam250"}) {
    const dpx::ScoreMatrix m = builtin(name);
    for (int a = 0; a < m.size(); ++a)
      for (int b = 0; b < m.size(); ++b) EXPECT_EQ(m.score(a, b), m.score(b, a)) << name << " " << a << "," << b;
  }
}

TEST(ScoreMatrix, LettersAreCaseInsensitiveAndUnknownsAreTheWildcard) {
  const dpx::ScoreMatrix m = builtin("blosum62");
  EXPECT_EQ(m.encode('w'), m.encode('W'));
  EXPECT_EQ(m.score('w', 'W'), 11);
  EXPECT_EQ(m.letters()[m.wildcard()], 'X');
  for (char c : {'J', 'O', 'U', 'j', '#', ' ', '\0', '1'}) EXPECT_EQ(m.encode(c), m.wildcard()) << int(c);
  EXPECT_EQ(m.score('J', 'A'), m.score('X', 'A'));
}

TEST(ScoreMatrix, Dna) {
  dpx::ScoreMatrix m;
  ASSERT_TRUE(dpx::ScoreMatrix::dna(2, -3, &m).is_ok());
  EXPECT_EQ(m.letters(), "ACGTN");
  EXPECT_EQ(m.score('A', 'a'), 2);
  EXPECT_EQ(m.score('G', 'T'), -3);
  EXPECT_EQ(m.score('N', 'N'), -3);
  EXPECT_EQ(m.score('R', 'A'), -3);  // IUPAC codes other than N are unknown letters -> N
  EXPECT_EQ(m.encode('u'), m.wildcard());
  EXPECT_FALSE(dpx::ScoreMatrix::dna(200, -3, &m).is_ok());
}

TEST(ScoreMatrix, ParsesTheNcbiTextFormat) {
  const char* text =
      "# a comment\n"
      "   A  B  Z\n"
      "A  4 -1 -2\n"
      "B -1  5  0\n"
      "\n"
      "Z -2  0  1\n";
  dpx::ScoreMatrix m;
  const dpx::Status s = dpx::ScoreMatrix::parse(text, 'Z', "mine", &m);
  ASSERT_TRUE(s.is_ok()) << s.message();
  EXPECT_EQ(m.name(), "mine");
  EXPECT_EQ(m.size(), 3);
  EXPECT_EQ(m.score('a', 'b'), -1);
  EXPECT_EQ(m.score('Q', 'Q'), 1);  // unknown -> Z
  EXPECT_EQ(m.min_score(), -2);
  EXPECT_EQ(m.max_score(), 5);
}

TEST(ScoreMatrix, RejectsBadInput) {
  dpx::ScoreMatrix m;
  EXPECT_EQ(dpx::ScoreMatrix::builtin("blosum99", &m).code(), dpx::StatusCode::kInvalidArgument);
  EXPECT_FALSE(dpx::ScoreMatrix::parse("A B\nA 1 2\n", 'A', "short", &m).is_ok());          // too few rows
  EXPECT_FALSE(dpx::ScoreMatrix::parse("A B\nA 1 2\nB 1\n", 'A', "row", &m).is_ok());      // short row
  EXPECT_FALSE(dpx::ScoreMatrix::parse("A B\nB 1 2\nA 1 2\n", 'A', "order", &m).is_ok());  // rows out of order
  EXPECT_FALSE(dpx::ScoreMatrix::parse("A B\nA 1 x\nB 1 2\n", 'A', "nan", &m).is_ok());
  EXPECT_FALSE(dpx::ScoreMatrix::parse("A B\nA 1 2\nB 2 1\n", 'Q', "wild", &m).is_ok());   // wildcard not a letter
  EXPECT_FALSE(dpx::ScoreMatrix::parse("A B\nA 1 200\nB 2 1\n", 'A', "range", &m).is_ok());
  EXPECT_FALSE(dpx::ScoreMatrix::from_scores("Aa", {1, 0, 0, 1}, 'A', "dup", &m).is_ok());  // a == A
  EXPECT_FALSE(dpx::ScoreMatrix::from_scores("AB", {1, 0, 0}, 'A', "count", &m).is_ok());
  EXPECT_FALSE(dpx::ScoreMatrix::from_scores(std::string(32, 'A'), std::vector<int>(32 * 32), 'A', "big", &m).is_ok());
}

}  // namespace
