// How dpx-bench runs CUDASW++4.0 (anchors/cudasw4), the anchor of the database-scan rows: its
// `align` command line for a database built by its makedb or for its built-in pseudo-database, the
// figure it reports, and the sequence that pseudo-database holds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace dpx {
namespace bench {

// What CUDASW++4.0 scans: a database built by its makedb (`db`), or, with pseudo_count > 0, its
// `--pseudodb pseudo_count pseudo_length`.
struct Cudasw4Database {
  std::string db;
  std::size_t pseudo_count = 0;
  std::int32_t pseudo_length = 0;
};

// The shell command running `bin`/align over `queries` with its DPX-s16 kernels (DPX-s32 for the
// long targets), BLOSUM62, its default gaps 11 / 1, the database uploaded whole, stderr merged.
// A makedb database keeps a 10-hit list; the pseudo-database runs as its own peak benchmark
// (anchors/cudasw4/run.sh): no hit list.
std::string cudasw4_align_command(const std::string& bin, const std::string& queries,
                                  const Cudasw4Database& db);

// The figure before " GCUPS" on the last "Total time: X s, Y GCUPS" line of its output (X in
// *seconds), or 0 where there is none.
double cudasw4_gcups(const std::string& text, double* seconds);

// The sequence `--pseudodb N L` repeats N times: L letters of "ARNDCQEGHILKMFPSTWYV" drawn by
// std::mt19937 seeded 42 through std::uniform_int_distribution<>(0, 19), as its PseudoDBdata draws
// them (the same letters where both are built against libstdc++).
std::string cudasw4_pseudo_sequence(std::int32_t length);

}  // namespace bench
}  // namespace dpx
