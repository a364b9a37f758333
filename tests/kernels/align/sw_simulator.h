// Runs the GPU alignment on the host: the kernels' own per-thread code (GroupThread, sw_group.h),
// their slot layout and schedule from the same plan, with warp shuffles replaced by copies. The
// host side of the DPX policy is the portable definition the CPU uses, so the results must equal
// align_cpu's exactly; the device tests then check the device against the same CPU results.
#pragma once

#include <vector>

#include "dpx/align.h"

namespace dpx {
namespace test {

struct SimulationStats {
  int two_pair_slots = 0;   // 16-bit slots holding two pairs
  int reruns = 0;           // local pairs sent back to 32 bits
  int wide_pairs = 0;       // pairs planned in 32 bits from the start
  int multipass_slots = 0;  // slots whose target took more than one pass
  int traceback_chunks = 0;
  int scan_launches = 0;    // launches of the database scan (score-only plans)
  int profile_launches = 0; // of those, launches with the query profile
  unsigned traceback_shapes = 0;  // bit c: traceback shape kTracebackConfigs[c] ran
};

// Which kernel a scan plan's launches run: the library's paired table, or the query profile
// (variants::ProfileScan, for queries whose profile fits; the others keep the paired table).
enum class SimScan { kPairedTable, kQueryProfile };

Status simulate_gpu(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                    const ScoreMatrix& matrix, const AlignOptions& options, std::vector<AlignResult>* out,
                    SimulationStats* stats, SimScan scan = SimScan::kPairedTable);

}  // namespace test
}  // namespace dpx
