// Batches of sequences packed end to end — what the alignment, edit-distance and DTW batch calls
// take. A host batch is built with add(); a device batch is its copy in device memory.
//
//   dpx::SequenceBatch targets;             // letters (bytes)
//   for (auto& s : reads) targets.add(s);
//   dpx::DeviceSequenceBatch d;
//   d.upload(targets, stream);              // stream-ordered
//
// Pairing of two batches (queries, targets):
//   kPairwise  — queries[i] with targets[i]; the batches must have the same size;
//   kOneToMany — the single query (queries.size() == 1) with every target.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "dpx/device.h"
#include "dpx/status.h"

namespace dpx {

enum class Pairing { kPairwise, kOneToMany };

template <typename T>
class PackedBatch {
 public:
  PackedBatch() : offsets_{0} {}

  void add(const T* items, std::size_t n) {
    data_.insert(data_.end(), items, items + n);
    offsets_.push_back(data_.size());
  }
  void clear() {
    data_.clear();
    offsets_.assign(1, 0);
  }
  // Room for `items` items in all, so a batch of known size is built without regrowing.
  void reserve(std::size_t items) { data_.reserve(items); }

  std::size_t size() const { return offsets_.size() - 1; }
  bool empty() const { return size() == 0; }
  std::size_t length(std::size_t i) const { return offsets_[i + 1] - offsets_[i]; }
  const T* item(std::size_t i) const { return data_.data() + offsets_[i]; }
  std::size_t total_length() const { return data_.size(); }
  std::size_t max_length() const {
    std::size_t m = 0;
    for (std::size_t i = 0; i < size(); ++i) m = length(i) > m ? length(i) : m;
    return m;
  }
  // data()[offsets()[i] .. offsets()[i + 1]) is element i; offsets().size() == size() + 1.
  const T* data() const { return data_.data(); }
  const std::vector<std::uint64_t>& offsets() const { return offsets_; }

 private:
  std::vector<T> data_;
  std::vector<std::uint64_t> offsets_;
};

// Letters (any bytes; each algorithm documents how it maps them).
class SequenceBatch : public PackedBatch<char> {
 public:
  using PackedBatch<char>::add;
  void add(std::string_view s) { PackedBatch<char>::add(s.data(), s.size()); }
  std::string_view view(std::size_t i) const { return std::string_view(item(i), length(i)); }
};

// Integer and float time series (DTW).
using SeriesBatch = PackedBatch<std::int32_t>;
using FloatSeriesBatch = PackedBatch<float>;

// A packed batch in device memory; upload() enqueues the copies on `stream`. The host batch may
// be freed once the stream has passed the copies (synchronise, or keep it alive until then).
template <typename T>
class DevicePackedBatch {
 public:
  Status upload(const PackedBatch<T>& host, cudaStream_t stream);

  std::size_t size() const { return count_; }
  const T* data() const { return data_.as<const T>(); }
  const std::uint64_t* offsets() const { return offsets_.as<const std::uint64_t>(); }

 private:
  DeviceBuffer data_, offsets_;
  std::size_t count_ = 0;
};

using DeviceSequenceBatch = DevicePackedBatch<char>;
using DeviceSeriesBatch = DevicePackedBatch<std::int32_t>;
using DeviceFloatSeriesBatch = DevicePackedBatch<float>;

// Checks a pairing: kPairwise needs equal sizes, kOneToMany exactly one query. `what` prefixes
// the message ("smith_waterman").
Status validate_pairing(std::size_t queries, std::size_t targets, Pairing pairing, const char* what);

// Number of pairs a pairing forms (targets for kOneToMany, queries for kPairwise).
inline std::size_t pair_count(std::size_t queries, std::size_t targets, Pairing pairing) {
  return pairing == Pairing::kOneToMany ? targets : queries;
}

}  // namespace dpx
