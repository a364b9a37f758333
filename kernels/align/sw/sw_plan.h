// How a batch is laid out on the GPU, decided on the host from the sequence lengths alone:
// which pairs run in packed 16-bit lanes (and with which partner), which in 32 bits, which are
// trivial, and how the traceback splits into chunks that fit its workspace.
#pragma once

#include <cstdint>
#include <vector>

#include "dpx/align.h"

namespace dpx {
namespace align {

// A strip shape: G threads per group, R columns per thread (sw_strip.h).
struct StripConfig {
  int group, columns;
  int width() const { return group * columns; }
};

// Packed 16-bit score kernels, narrowest first; the widest also takes longer targets in passes.
constexpr StripConfig kScore16Configs[] = {{4, 16},  {8, 16},  {16, 16}, {32, 12}, {32, 16},
                                           {32, 20}, {32, 24}, {32, 28}, {32, 32}};
constexpr int kScore16ConfigCount = sizeof(kScore16Configs) / sizeof(kScore16Configs[0]);
// Database-scan kernels (sw_scan.h: local, score only, one query against many targets). First the
// single-pass shapes, narrowest first, widths in steps of 32 columns up to 512 and of 64 up to
// 1,024 so a target wastes little padding; then the shape for wider targets, which take passes
// (narrower: the column store's registers). One pass shape only: launches that use the column
// store run one after another, and each brings its longest target as a long pole (with four pass
// shapes chosen for the least padding, a generated database scanned slower: docs/notes/smith-waterman.md).
constexpr StripConfig kScanConfigs[] = {{4, 16},  {8, 12},  {8, 16},  {8, 20},  {8, 24},  {8, 28},  {8, 32},
                                        {16, 18}, {16, 20}, {16, 22}, {16, 24}, {16, 26}, {16, 28}, {16, 30},
                                        {16, 32}, {32, 18}, {32, 20}, {32, 22}, {32, 24}, {32, 26}, {32, 28},
                                        {32, 30}, {32, 32}, {32, 22}};
constexpr int kScanConfigCount = sizeof(kScanConfigs) / sizeof(kScanConfigs[0]);
constexpr int kScanSinglePassCount = 23;  // the shapes before this index take one pass
// The scan shape for a target of m letters (an index into kScanConfigs): the narrowest single-pass
// shape that holds it, else the pass shape that pads it least.
int scan_config(std::int32_t m);
// 32-bit score kernel: pairs that cannot use 16 bits, and local pairs that came close to its limit.
constexpr StripConfig kScore32Config = {32, 16};
// Traceback shapes. First the 32-bit ones (one pair a group; a direction word holds the 4-bit codes
// of 8 columns) for pairs whose values may leave 16 bits, then the packed ones (two pairs a group in
// the 16-bit lanes; four bit-plane words per step and thread, sw_group.h), narrowest first: the
// group shapes for short targets, then the 32-thread ones, which also take longer targets in passes
// (packed_traceback_config).
constexpr StripConfig kTracebackConfigs[] = {{8, 8}, {32, 8}, {8, 16}, {16, 16}, {32, 12}, {32, 16}};
constexpr int kTracebackConfigCount = sizeof(kTracebackConfigs) / sizeof(kTracebackConfigs[0]);
constexpr int kTracebackPackedFirst = 2;
constexpr bool traceback_packed(int config) { return config >= kTracebackPackedFirst; }
// The packed traceback shape for a target of m letters: the narrowest group shape that holds it,
// else the 32-thread shape with the least work, passes x columns a thread (384 or 512 columns a
// pass: a 700-letter target takes two passes of 384, not two of 512), the wider on a tie.
int packed_traceback_config(std::int32_t m);
// Direction words a (pass, step, thread) stores: four bit planes packed, one word of codes in 32 bits.
constexpr int traceback_thread_words(bool packed) { return packed ? 4 : 1; }
// Words of a column-store entry: H and E of one row (GroupThread::Boundary).
constexpr int kColumnStoreEntryWords = 2;

// Largest D (alphabet + padding letter) for the paired one-to-many table (D^3 words of shared memory).
constexpr int kPairedMaxTableSide = 25;

enum class ScorerKind { kPaired, kTwoLookup };

// The 16-bit scorer a batch uses: the paired one-to-many table where the alphabet allows.
ScorerKind scorer_for(Pairing pairing, const ScoreMatrix& matrix);

struct Slot {
  std::int32_t a, b;  // pair indices; b = -1 when the slot holds one pair
};

// A run of slots that one kernel launch with one strip shape takes.
struct SlotRange {
  int config;              // index into the config table of its kernel
  std::int32_t first, count;
  std::int32_t max_rows;   // longest query among its pairs
  std::int32_t max_passes;
};

struct ScorePlan {
  ScorerKind scorer = ScorerKind::kTwoLookup;
  bool scan = false;  // ranges16 run the scan kernels (their configs index kScanConfigs)
  std::vector<Slot> slots16;
  std::vector<SlotRange> ranges16;
  std::vector<Slot> slots32;       // one pair each, 32 bits from the start
  SlotRange range32{};             // over slots32
  std::vector<std::int32_t> trivial;  // pairs with an empty side
  std::int32_t local16_pairs = 0;  // how many pairs may come back from 16 bits for a 32-bit rerun
  std::int32_t max_rows_local16 = 0;  // longest query among those (rerun workspace)
  std::int32_t max_cols_local16 = 0;  // longest target among those
  std::int32_t overflow_limit = 0;    // local 16-bit: a lane above this is rerun in 32 bits
};

// A traceback launch's unit of work: one pass of the slots a warp takes (32 / G consecutive slots;
// only the 32-thread shapes take passes, so a slot with passes is a warp's alone). A slot's passes
// follow each other in the list and run on different warps side by side: each but the last leaves
// its last column in a column store after the slot's direction words, and the next pass reads it
// as it is written.
struct PassItem {
  std::int32_t first_slot;  // its range's slots from here (TracebackChunk::ranges)
  std::int32_t pass;
};

// A chunk's slots of one strip shape, and their pass items.
struct TracebackRange : SlotRange {
  std::int32_t first_item = 0;  // in TracebackPlan::items
  std::int32_t item_count = 0;
};

struct TracebackChunk {
  std::vector<TracebackRange> ranges;  // into TracebackPlan::slots, one per strip shape present
  std::int32_t first, count;       // its slots
  std::int32_t items_first, items; // its pass items
  std::uint64_t words;             // direction words (and column stores) it needs
};

struct TracebackPlan {
  ScorerKind scorer = ScorerKind::kTwoLookup;  // the packed shapes' table
  std::vector<Slot> slots;                 // grouped by strip shape; two pairs in a packed slot
  std::vector<PassItem> items;             // per chunk and range, in slot order, a slot's passes together
  std::vector<std::uint64_t> word_offset;  // per pair: its slot's first direction word within its chunk
  std::vector<std::uint8_t> config;        // per pair: index into kTracebackConfigs
  std::vector<TracebackChunk> chunks;
  std::vector<std::int32_t> trivial;
  std::uint64_t max_chunk_words = 0;
};

// Lengths of pair k: n[k] letters of query, m[k] of target.
struct PairLengths {
  std::vector<std::int32_t> n, m;
};
PairLengths pair_lengths(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing);

// True when a non-local pair's every value is guaranteed to fit the packed 16-bit lanes.
bool fits_16_bits(std::int32_t n, std::int32_t m, const ScoreMatrix& matrix, const AlignOptions& options);

// True when a plan's packed pairs run the database scan: local, score only, one query against
// many targets with the paired table.
bool uses_scan(Pairing pairing, const ScoreMatrix& matrix, const AlignOptions& options);

// `order`, when given, lists every pair by descending target length; the buckets then keep that
// order instead of being sorted (a plan for one target set sorts its targets once).
ScorePlan plan_scores(const PairLengths& lengths, Pairing pairing, const ScoreMatrix& matrix,
                      const AlignOptions& options, const std::vector<std::int32_t>* order = nullptr);

// Pairs by descending target length (ties by index): the `order` above for one-to-many pairs.
std::vector<std::int32_t> order_by_target_length(const PairLengths& lengths);

// Direction words a slot of shape kTracebackConfigs[config] needs: n rows (the longest query of
// the slot), m columns (the longest target); then its column stores, n entries of (H, E) for each
// pass but the last.
std::uint64_t traceback_words(std::int32_t n, std::int32_t m, int config);

// Pairs whose values fit 16 bits (fits_16_bits) run in the packed shapes, the others in 32 bits.
TracebackPlan plan_traceback(const PairLengths& lengths, Pairing pairing, const ScoreMatrix& matrix,
                             const AlignOptions& options, std::uint64_t budget_words,
                             const std::vector<std::int32_t>* order = nullptr);

// Direction words a traceback chunk may take: a quarter of the device's free memory, at least 1 and
// at most 4 GiB (fewer chunks: each brings its own tail and walk). A larger single slot still runs,
// in a chunk of its own.
std::uint64_t traceback_budget_words(std::uint64_t free_bytes);

}  // namespace align
}  // namespace dpx
