#include "cudasw4_anchor.h"

#include <cstdio>
#include <random>

namespace dpx {
namespace bench {

std::string cudasw4_align_command(const std::string& bin, const std::string& queries,
                                  const Cudasw4Database& db) {
  const std::string kernels =
      " --singlePassType DPXs16 --manyPassType_small DPXs16 --manyPassType_large DPXs32";
  const std::string common = "--uploadFull --prefetchDBFile --mat blosum62";
  const std::string align = "'" + bin + "/align' --query '" + queries + "'";
  if (db.pseudo_count > 0) {  // run.sh's order
    return align + " --top 0 --verbose " + common + kernels + " --pseudodb " +
           std::to_string(db.pseudo_count) + " " + std::to_string(db.pseudo_length) + " 2>&1";
  }
  return align + " --db '" + db.db + "' --top 10 --verbose " + common + kernels + " 2>&1";
}

double cudasw4_gcups(const std::string& text, double* seconds) {
  const std::size_t at = text.rfind("Total time:");
  if (at == std::string::npos) return 0;
  double s = 0, g = 0;
  if (std::sscanf(text.c_str() + at, "Total time: %lf s, %lf GCUPS", &s, &g) != 2) return 0;
  *seconds = s;
  return g;
}

std::string cudasw4_pseudo_sequence(std::int32_t length) {
  static const char kLetters[] = "ARNDCQEGHILKMFPSTWYV";
  std::mt19937 gen(42);
  std::uniform_int_distribution<> dist(0, 19);
  std::string s(length > 0 ? static_cast<std::size_t>(length) : 0, ' ');
  for (char& c : s) c = kLetters[dist(gen)];
  return s;
}

}  // namespace bench
}  // namespace dpx
