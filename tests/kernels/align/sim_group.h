// Runs the wavefront's device code on the host: G threads play the lanes of one group, and
// shfl_up / shfl_xor / sync meet at a barrier, as __shfl_*_sync and __syncwarp make a warp's lanes
// meet. With it the host tests check the kernels' schedule (strips, steps, boundary rows, result
// cells, direction layout) exactly as the GPU runs it, only slower.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#include "align/common/pair_batch.cuh"
#include "align/common/wavefront.cuh"

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

// Runs every task of `factory` on one simulated group of G lanes with R rows per lane, as the
// batch kernel's groups do; scratch sized for matrices of up to max_cols columns.
template <int G, int R, class Factory>
void simulate_group(const Factory& factory, int max_cols) {
  using Value = typename Factory::Cell::Value;
  std::vector<Value> scratch(align::wavefront_scratch_values(max_cols));
  SimShared shared(G);
  std::vector<std::thread> lanes;
  for (int lane = 0; lane < G; ++lane) {
    lanes.emplace_back([&, lane] {
      const SimGroup<G> g(&shared, lane);
      for (std::int64_t task = 0; task < factory.tasks(); ++task) align::run_task<R>(factory, task, g, scratch.data());
    });
  }
  for (auto& t : lanes) t.join();
}

// Strip progress between simulated groups, as BlockHandoff keeps it between a block's warps.
class SimHandoff {
 public:
  explicit SimHandoff(std::vector<std::atomic<int>>* progress) : progress_(progress) {}
  void wait(int strip, int col) const {
    while ((*progress_)[static_cast<std::size_t>(strip)].load(std::memory_order_acquire) < col) std::this_thread::yield();
  }
  void publish(int strip, int col) const {
    (*progress_)[static_cast<std::size_t>(strip)].store(col, std::memory_order_release);
  }

 private:
  std::vector<std::atomic<int>>* progress_;
};

// Runs every task of `factory` on `members` simulated groups of G lanes sharing each task, as the
// cooperative kernel's warps do.
template <int G, int R, class Factory>
void simulate_members(const Factory& factory, int members, int max_cols, int max_strips) {
  using Value = typename Factory::Cell::Value;
  std::vector<Value> scratch(align::wavefront_scratch_values(max_cols));
  for (std::int64_t task = 0; task < factory.tasks(); ++task) {
    std::vector<std::atomic<int>> progress(static_cast<std::size_t>(max_strips));
    for (auto& p : progress) p.store(0);
    const SimHandoff handoff(&progress);
    std::vector<std::unique_ptr<SimShared>> groups;
    for (int m = 0; m < members; ++m) groups.push_back(std::make_unique<SimShared>(G));
    std::vector<std::thread> lanes;
    for (int m = 0; m < members; ++m) {
      for (int lane = 0; lane < G; ++lane) {
        lanes.emplace_back([&, m, lane] {
          const SimGroup<G> g(groups[static_cast<std::size_t>(m)].get(), lane);
          align::run_task<R>(factory, task, g, scratch.data(), m, members, handoff);
        });
      }
    }
    for (auto& t : lanes) t.join();  // the block-wide barrier between tasks
  }
}

// simulate_group for members == 1, else simulate_members (strips of G * R rows, at most 65,536 rows).
template <int G, int R, class Factory>
void simulate(const Factory& factory, int members, int max_cols) {
  if (members == 1) {
    simulate_group<G, R>(factory, max_cols);
  } else {
    simulate_members<G, R>(factory, members, max_cols, static_cast<int>(kAlignDistanceMaxLength / (G * R)) + 1);
  }
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
