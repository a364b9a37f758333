// Gapped Karlin-Altschul parameters of the built-in protein matrices, as NCBI BLAST publishes them
// (the <matrix>_values tables of ncbi-cxx-toolkit-public, src/algo/blast/core/blast_stat.c; λ and K
// columns). BLAST names a gap pair by its existence cost a and extension cost b, a gap of length L
// costing a + b * L; dpx-align's --gap-open is the cost of a gap's first letter, a + b.
#pragma once

namespace dpx {
namespace cli {

struct KarlinAltschulEntry {
  const char* matrix;
  int existence, extension;  // BLAST's gap pair
  double lambda, k;
};

constexpr KarlinAltschulEntry kKarlinAltschulTable[] = {
    {"blosum45", 13, 3, 0.207, 0.049}, {"blosum45", 12, 3, 0.199, 0.039}, {"blosum45", 11, 3, 0.190, 0.031},
    {"blosum45", 10, 3, 0.179, 0.023}, {"blosum45", 16, 2, 0.210, 0.051}, {"blosum45", 15, 2, 0.203, 0.041},
    {"blosum45", 14, 2, 0.195, 0.032}, {"blosum45", 13, 2, 0.185, 0.024}, {"blosum45", 12, 2, 0.171, 0.016},
    {"blosum45", 19, 1, 0.205, 0.040}, {"blosum45", 18, 1, 0.198, 0.032}, {"blosum45", 17, 1, 0.189, 0.024},
    {"blosum45", 16, 1, 0.176, 0.016},

    {"blosum50", 13, 3, 0.212, 0.063}, {"blosum50", 12, 3, 0.206, 0.055}, {"blosum50", 11, 3, 0.197, 0.042},
    {"blosum50", 10, 3, 0.186, 0.031}, {"blosum50", 9, 3, 0.172, 0.022},  {"blosum50", 16, 2, 0.215, 0.066},
    {"blosum50", 15, 2, 0.210, 0.058}, {"blosum50", 14, 2, 0.202, 0.045}, {"blosum50", 13, 2, 0.193, 0.035},
    {"blosum50", 12, 2, 0.181, 0.025}, {"blosum50", 19, 1, 0.212, 0.057}, {"blosum50", 18, 1, 0.207, 0.050},
    {"blosum50", 17, 1, 0.198, 0.037}, {"blosum50", 16, 1, 0.186, 0.025}, {"blosum50", 15, 1, 0.171, 0.015},

    {"blosum62", 11, 2, 0.297, 0.082}, {"blosum62", 10, 2, 0.291, 0.075}, {"blosum62", 9, 2, 0.279, 0.058},
    {"blosum62", 8, 2, 0.264, 0.045},  {"blosum62", 7, 2, 0.239, 0.027},  {"blosum62", 6, 2, 0.201, 0.012},
    {"blosum62", 13, 1, 0.292, 0.071}, {"blosum62", 12, 1, 0.283, 0.059}, {"blosum62", 11, 1, 0.267, 0.041},
    {"blosum62", 10, 1, 0.243, 0.024}, {"blosum62", 9, 1, 0.206, 0.010},

    {"blosum80", 25, 2, 0.342, 0.17},  {"blosum80", 13, 2, 0.336, 0.15},  {"blosum80", 9, 2, 0.319, 0.11},
    {"blosum80", 8, 2, 0.308, 0.090},  {"blosum80", 7, 2, 0.293, 0.070},  {"blosum80", 6, 2, 0.268, 0.045},
    {"blosum80", 11, 1, 0.314, 0.095}, {"blosum80", 10, 1, 0.299, 0.071}, {"blosum80", 9, 1, 0.279, 0.048},

    {"pam250", 15, 3, 0.205, 0.049}, {"pam250", 14, 3, 0.200, 0.043}, {"pam250", 13, 3, 0.194, 0.036},
    {"pam250", 12, 3, 0.186, 0.029}, {"pam250", 11, 3, 0.174, 0.020}, {"pam250", 17, 2, 0.204, 0.047},
    {"pam250", 16, 2, 0.198, 0.038}, {"pam250", 15, 2, 0.191, 0.031}, {"pam250", 14, 2, 0.182, 0.024},
    {"pam250", 13, 2, 0.171, 0.017}, {"pam250", 21, 1, 0.205, 0.045}, {"pam250", 20, 1, 0.199, 0.037},
    {"pam250", 19, 1, 0.192, 0.029}, {"pam250", 18, 1, 0.183, 0.021}, {"pam250", 17, 1, 0.171, 0.014},
};

}  // namespace cli
}  // namespace dpx
