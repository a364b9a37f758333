// Runs the wavefront's device code on the host: G threads play the lanes of one group, and
// shfl_up / shfl_xor / sync meet at a barrier, as __shfl_*_sync and __syncwarp make a warp's lanes
// meet. With it the host tests check the kernels' schedule (strips, steps, boundary rows, result
// cells, direction layout) exactly as the GPU runs it, only slower.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#include "../../../kernels/align/pair_batch.cuh"
#include "../../../kernels/align/wavefront.cuh"

namespace dpx {
namespace test {

class SimBarrier {
 public:
  explicit SimBarrier(int count) : count_(count) {}
  void arrive_and_wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    const std::uint64_t generation = generation_;
    if (++waiting_ == count_) {
      waiting_ = 0;
      ++generation_;
      cv_.notify_all();
    } else {
      cv_.wait(lock, [&] { return generation_ != generation; });
    }
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  int count_, waiting_ = 0;
  std::uint64_t generation_ = 0;
};

struct SimShared {
  explicit SimShared(int lanes) : barrier(lanes), slots(lanes) {}
  SimBarrier barrier;
  std::vector<std::uint64_t> slots;
};

template <int G>
class SimGroup {
 public:
  static constexpr int kSize = G;
  SimGroup(SimShared* shared, int lane) : shared_(shared), lane_(lane) {}
  int lane() const { return lane_; }
  template <typename T>
  T shfl_up(T v) const { return exchange(v, lane_ == 0 ? lane_ : lane_ - 1); }
  template <typename T>
  T shfl_xor(T v, int mask) const { return exchange(v, lane_ ^ mask); }
  void sync() const { shared_->barrier.arrive_and_wait(); }

 private:
  template <typename T>
  T exchange(T v, int source) const {
    static_assert(sizeof(T) <= sizeof(std::uint64_t) && std::is_trivially_copyable<T>::value, "shuffled type");
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof(T));
    shared_->slots[lane_] = bits;
    sync();
    bits = shared_->slots[source];
    sync();  // nobody overwrites a slot before every lane has read
    T out;
    std::memcpy(&out, &bits, sizeof(T));
    return out;
  }
  SimShared* shared_;
  int lane_;
};

// Runs every task of `factory` on one simulated group of G lanes with R rows per lane, as
// run_group_tasks does on the device; scratch sized for matrices of up to max_cols columns.
template <int G, int R, class Factory>
void simulate_group(const Factory& factory, int max_cols) {
  using Value = typename Factory::Cell::Value;
  std::vector<Value> scratch(align::wavefront_scratch_values(max_cols));
  SimShared shared(G);
  std::vector<std::thread> lanes;
  for (int lane = 0; lane < G; ++lane) {
    lanes.emplace_back([&, lane] {
      const SimGroup<G> g(&shared, lane);
      align::run_group_tasks<R>(factory, g, 0, 1, scratch.data());
    });
  }
  for (auto& t : lanes) t.join();
}

// View of two host batches, for factories run on the host.
template <typename T>
align::PairBatchView<T> host_view(const PackedBatch<T>& queries, const PackedBatch<T>& targets, Pairing pairing) {
  align::PairBatchView<T> v;
  v.query_data = queries.data();
  v.query_offsets = queries.offsets().data();
  v.target_data = targets.data();
  v.target_offsets = targets.offsets().data();
  v.pairs = static_cast<std::int64_t>(pair_count(queries.size(), targets.size(), pairing));
  v.one_to_many = pairing == Pairing::kOneToMany;
  return v;
}

// Output values no kernel writes.
constexpr std::int64_t kPoisonResult = -0x5A5A5A5A5A5A5A5ALL;

}  // namespace test
}  // namespace dpx
