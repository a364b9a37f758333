#include "scan_cases.h"

#include <string>

#include "align_reference.h"

namespace dpx {
namespace test {

std::vector<ScanCase> profile_scan_cases(std::mt19937_64& rng) {
  const ScoreMatrix m = builtin_matrix("blosum62");
  const std::string letters = m.letters() + "jouBzx";  // unknown letters score as the wildcard
  const std::vector<int> lengths = {0,   1,   2,   31,  32,  33,  63,  64,  65,  127,  128,  129,
                                    255, 256, 257, 300, 301, 511, 512, 513, 700, 1024, 1025, 2100};
  std::vector<ScanCase> cases;
  // 1 .. 128: 8 x 16; 129 and 256: 8 x 32; in passes: 257 and 567 of 8 x 16, 512, 1024, 1025 and
  // 2048 of 8 x 32
  for (int n : {1, 2, 31, 32, 33, 128, 129, 256, 257, 512, 567, 1024, 1025, 2048}) {
    ScanCase c;
    std::string query = random_sequence(rng, n, letters);
    for (std::size_t k = 0; k < letters.size() && k < query.size(); ++k)
      query[(k * 7) % query.size()] = letters[k];
    c.query.add(query);
    for (int len : lengths) {
      std::string s = random_sequence(rng, len, letters);
      for (int at : {len / 3, 700})
        if (at + n <= len && len % 2 == 1) s.replace(static_cast<std::size_t>(at), query.size(), query);
      if (len > 300 && n > 300)
        s.replace(static_cast<std::size_t>(len / 4), 200,
                  query.substr(static_cast<std::size_t>(n - 250), 200));
      c.targets.add(s);
    }
    c.matrix = m;
    c.options = align_options(AlignMode::kLocal, n % 2 ? 11 : 10, n % 2 ? 1 : 2, false);
    c.options.score_only = true;
    cases.push_back(std::move(c));
  }
  // s(query, target) kept in its orientation: random matrices, small to 24 letters (the paired
  // table's largest), scores to -128 and 127 (the PRMT's sign extension)
  for (int size : {4, 20, 24}) {
    ScanCase c;
    const std::string alphabet =
        std::string("ACDEFGHIKLMNPQRSTVWYBZXJ").substr(0, static_cast<std::size_t>(size));
    c.matrix = random_matrix(rng, alphabet, size == 20 ? -9 : -128, size == 20 ? 9 : 127);
    c.query.add(random_sequence(rng, size == 4 ? 300 : 140, alphabet));
    for (int len : lengths) c.targets.add(random_sequence(rng, len, alphabet));
    c.options = align_options(AlignMode::kLocal, size, 2, false);
    c.options.score_only = true;
    cases.push_back(std::move(c));
  }
  // lanes past the int16 limit come back for 32 bits, whichever lane of a slot they are in (2,978
  // * 11 is past 32,767 - 11 too): four of the six
  ScanCase big;
  big.query.add(std::string(3100, 'W'));
  for (int len : {3100, 2978, 2979, 2000, 3100, 400})
    big.targets.add(std::string(static_cast<std::size_t>(len), 'W'));
  big.matrix = m;
  big.options = align_options(AlignMode::kLocal, 11, 1, false);
  big.options.score_only = true;
  cases.push_back(std::move(big));
  return cases;
}

}  // namespace test
}  // namespace dpx
