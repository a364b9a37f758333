// Runs a dpx-align command: every query against every target, in chunks the backends take well,
// rows written in query-major order.
#pragma once

#include "align_device.h"
#include "dpx/align.h"
#include "options.h"
#include "progress.h"
#include "sequence_reader.h"
#include "series_reader.h"
#include "tsv_writer.h"

namespace dpx {
namespace cli {

// sw, nw, sg (with `matrix`) and edit (matrix unused). `device`, when given, runs the GPU side of
// sw/nw/sg in place of CUDA (and of the --backend choice).
Status run_sequences(const CliOptions& options, const ScoreMatrix& matrix, const NamedSequences& queries,
                     const NamedSequences& targets, TsvWriter* out, Progress* progress,
                     AlignDevice* device = nullptr);

// dtw's flags against the series read: --cost sq needs float series.
Status check_series_options(const CliOptions& options, const NamedSeries& a);

// dtw, on int32 or float series as `a` and `b` hold them (settle_series_type).
Status run_series(const CliOptions& options, const NamedSeries& a, const NamedSeries& b, TsvWriter* out,
                  Progress* progress);

}  // namespace cli
}  // namespace dpx
