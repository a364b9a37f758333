// The CUDA epilogue against the CPU one, bit for bit: many sizes, each pointer offset by 0..7
// elements from a 256-byte boundary (so vector and element-wise paths, heads and tails all run),
// both ops policies. Outputs are poisoned first and the bytes around them checked afterwards.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "dpx/device.h"
#include "dpx/epilogue.h"
#include "epilogue_variants.h"
#include "epilogue_test_data.h"
#include "test_util.h"

namespace {

using dpx::Activation;
using dpx::Merge3Params;
using dpx::MergeOp;
using dpx::QuantType;
using dpx::RequantChannels;
using dpx::RequantParams;
using dpx::OpsPolicy;

constexpr std::size_t kGuardBytes = 64;
const std::size_t kSizes[] = {0, 1, 2, 3, 7, 8, 9, 31, 32, 33, 1000, (std::size_t{1} << 20) + 3};
const OpsPolicy kPolicies[] = {OpsPolicy::kDpx, OpsPolicy::kPlain};

// n elements of `element` bytes, `offset` elements into a poisoned device allocation that runs
// kGuardBytes past their end.
class GuardedBuffer {
 public:
  ::testing::AssertionResult init(std::size_t n, std::size_t element, std::size_t offset) {
    bytes_ = n * element;
    start_ = offset * element;
    total_ = start_ + bytes_ + kGuardBytes;
    const dpx::Status s = buf_.allocate(total_);
    if (!s.is_ok()) return ::testing::AssertionFailure() << s.message();
    auto r = cuda(cudaMemset(buf_.data(), dpx::test::kPoisonByte, total_), "cudaMemset");
    return r ? settle() : r;
  }
  void* data() const { return static_cast<unsigned char*>(buf_.data()) + start_; }
  template <typename T>
  T* as() const { return static_cast<T*>(data()); }

  ::testing::AssertionResult upload(const void* host) const {
    auto r = cuda(cudaMemcpy(data(), host, bytes_, cudaMemcpyHostToDevice), "upload");
    return r ? settle() : r;
  }
  // The elements back into `host`, after checking that every byte around them is still poison.
  ::testing::AssertionResult download(void* host) const {
    std::vector<unsigned char> all(total_);
    auto r = cuda(cudaMemcpy(all.data(), buf_.data(), total_, cudaMemcpyDeviceToHost), "download");
    if (!r) return r;
    for (std::size_t i = 0; i < total_; ++i) {
      if ((i < start_ || i >= start_ + bytes_) && all[i] != dpx::test::kPoisonByte) {
        return ::testing::AssertionFailure() << "byte " << static_cast<long long>(i) - static_cast<long long>(start_)
                                             << " relative to the output (of " << bytes_ << ") was written";
      }
    }
    std::memcpy(host, all.data() + start_, bytes_);
    return ::testing::AssertionSuccess();
  }

 private:
  // cudaMemcpy/cudaMemset run on the legacy stream, which the non-blocking stream the kernels use
  // does not wait for (a pageable upload can return before its DMA ends): finish them here.
  static ::testing::AssertionResult settle() { return cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }
  static ::testing::AssertionResult cuda(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << what << ": " << cudaGetErrorString(e);
  }
  dpx::DeviceBuffer buf_;
  std::size_t bytes_ = 0, start_ = 0, total_ = 0;
};

template <typename T>
::testing::AssertionResult same_bytes(const std::vector<T>& gpu, const std::vector<T>& cpu, const std::string& what) {
  for (std::size_t i = 0; i < cpu.size(); ++i) {
    if (gpu[i] != cpu[i]) {
      return ::testing::AssertionFailure() << what << ": element " << i << " of " << cpu.size() << " is "
                                           << static_cast<int>(gpu[i]) << " on the GPU, " << static_cast<int>(cpu[i])
                                           << " on the CPU";
    }
  }
  return ::testing::AssertionSuccess();
}

// After a launch that returned `launched`: waits for the stream, then holds the target's elements
// (and the poison around them) to the CPU's result.
template <typename T>
::testing::AssertionResult gpu_matches_cpu(const dpx::Status& launched, cudaStream_t stream, const GuardedBuffer& target,
                                           const std::vector<T>& cpu, const std::string& what) {
  if (!launched.is_ok()) return ::testing::AssertionFailure() << what << ": " << launched.message();
  const cudaError_t e = cudaStreamSynchronize(stream);
  if (e != cudaSuccess) return ::testing::AssertionFailure() << what << ": " << cudaGetErrorString(e);
  std::vector<T> gpu(cpu.size());
  ::testing::AssertionResult r = target.download(gpu.data());
  if (!r) return r << " (" << what << ")";
  return same_bytes(gpu, cpu, what);
}

std::string label(OpsPolicy policy, std::size_t n, std::size_t variant, std::size_t offset) {
  return std::string(dpx::ops_policy_name(policy)) + " n=" + std::to_string(n) + " variant " +
         std::to_string(variant) + " offset " + std::to_string(offset);
}

// Per-channel tables used by the variants (host and device copies).
struct Tables {
  RequantChannels both3, bias37;
  ::testing::AssertionResult make(std::mt19937_64& rng, cudaStream_t stream) {
    const auto b3 = dpx::test::epilogue_bias(rng, 3), s3 = dpx::test::epilogue_shifts(rng, 3);
    const auto b37 = dpx::test::epilogue_bias(rng, 37);
    for (const dpx::Status& s : {both3.set(3, b3.data(), s3.data()), bias37.set(37, b37.data(), nullptr),
                                 both3.upload(stream), bias37.upload(stream)}) {
      if (!s.is_ok()) return ::testing::AssertionFailure() << s.message();
    }
    return ::testing::AssertionSuccess();
  }
};

RequantParams requant(int shift, QuantType output, Activation act, const RequantChannels* channels = nullptr) {
  RequantParams p;
  p.shift = shift;
  p.output = output;
  p.activation = act;
  p.channels = channels;
  return p;
}

Merge3Params merge(MergeOp op, Activation act) {
  Merge3Params m;
  m.op = op;
  m.activation = act;
  return m;
}

std::vector<RequantParams> requant_variants(const Tables& t) {
  return {requant(7, QuantType::kInt16, Activation::relu()),
          requant(12, QuantType::kInt8, Activation::clamp(-50, 100)),
          requant(0, QuantType::kInt16, Activation::none()),
          requant(31, QuantType::kInt8, Activation::none()),
          requant(0, QuantType::kInt16, Activation::clamp(-300, 6000), &t.both3),
          requant(9, QuantType::kInt8, Activation::relu(), &t.bias37),
          requant(0, QuantType::kInt8, Activation::none(), &t.both3)};
}

int element_shift(const RequantParams& p, std::size_t i) {
  return p.channels && p.channels->has_shifts() ? p.channels->host_channels()[i % p.channels->channels()].shift : p.shift;
}

// requantize on the GPU at the given offsets against requantize_cpu.
template <typename Out>
void expect_requantize_matches_cpu(OpsPolicy policy, const std::vector<std::int32_t>& acc, const RequantParams& p,
                                   std::size_t acc_offset, std::size_t out_offset, cudaStream_t stream,
                                   const std::string& what) {
  const std::size_t n = acc.size();
  std::vector<Out> cpu(n);
  const dpx::Status sc = dpx::requantize_cpu(acc.data(), n, p, cpu.data());
  ASSERT_TRUE(sc.is_ok()) << sc.message();
  GuardedBuffer d_acc, d_out;
  ASSERT_TRUE(d_acc.init(n, sizeof(std::int32_t), acc_offset));
  ASSERT_TRUE(d_out.init(n, sizeof(Out), out_offset));
  ASSERT_TRUE(d_acc.upload(acc.data()));
  ASSERT_TRUE(gpu_matches_cpu(
      dpx::variants::requantize_cuda(policy, d_acc.as<std::int32_t>(), n, p, d_out.data(), stream), stream, d_out,
      cpu, what));
}

class EpilogueCuda : public ::testing::Test {
 protected:
  void SetUp() override {
    DPX_REQUIRE_GPU();
    ASSERT_TRUE(stream_.create().is_ok());
  }
  dpx::Stream stream_;
};

TEST_F(EpilogueCuda, RequantizeMatchesCpuOnEverySizeAndAlignment) {
  auto rng = dpx::test::seeded_rng();
  Tables tables;
  ASSERT_TRUE(tables.make(rng, stream_.get()));
  const auto variants = requant_variants(tables);
  for (std::size_t vi = 0; vi < variants.size(); ++vi) {
    const RequantParams& p = variants[vi];
    for (std::size_t n : kSizes) {
      const auto acc = dpx::test::epilogue_accumulators(rng, n, [&](std::size_t i) { return element_shift(p, i); });
      for (std::size_t off = 0; off < 8; ++off) {
        const std::size_t out_off = (off * 5 + 3) % 8;
        for (OpsPolicy policy : kPolicies) {
          const std::string what = label(policy, n, vi, off) + " out offset " + std::to_string(out_off);
          if (p.output == QuantType::kInt8) {
            expect_requantize_matches_cpu<std::int8_t>(policy, acc, p, off, out_off, stream_.get(), what);
          } else {
            expect_requantize_matches_cpu<std::int16_t>(policy, acc, p, off, out_off, stream_.get(), what);
          }
          if (HasFatalFailure()) return;
        }
      }
    }
  }
}

// Beyond one sweep of the grid, each thread's channel walker must skip exactly to its next vector.
TEST_F(EpilogueCuda, GridStrideLoopKeepsChannelsInStep) {
  auto rng = dpx::test::seeded_rng();
  const std::size_t n = (std::size_t{1} << 23) + 5;
  for (std::size_t c : {37u, 1000u}) {
    RequantChannels ch;
    const auto bias = dpx::test::epilogue_bias(rng, c), shifts = dpx::test::epilogue_shifts(rng, c);
    ASSERT_TRUE(ch.set(c, bias.data(), shifts.data()).is_ok());
    ASSERT_TRUE(ch.upload(stream_.get()).is_ok());
    RequantParams p;
    p.channels = &ch;
    p.activation = Activation::relu();
    const auto acc = dpx::test::epilogue_accumulators(rng, n, [&](std::size_t i) { return element_shift(p, i); });
    for (OpsPolicy policy : kPolicies) {
      p.output = QuantType::kInt16;
      expect_requantize_matches_cpu<std::int16_t>(policy, acc, p, 1, 3, stream_.get(), "int16 C=" + std::to_string(c));
      p.output = QuantType::kInt8;
      expect_requantize_matches_cpu<std::int8_t>(policy, acc, p, 2, 5, stream_.get(), "int8 C=" + std::to_string(c));
      if (HasFatalFailure()) return;
    }
  }
}

TEST_F(EpilogueCuda, ResidualMatchesCpuOnEverySizeAndAlignmentAlsoInPlace) {
  auto rng = dpx::test::seeded_rng();
  Tables tables;
  ASSERT_TRUE(tables.make(rng, stream_.get()));
  const std::vector<RequantParams> variants = {
      requant(10, QuantType::kInt16, Activation::relu()),
      requant(0, QuantType::kInt16, Activation::clamp(-20000, 20000), &tables.both3),
      requant(0, QuantType::kInt16, Activation::none())};
  for (std::size_t vi = 0; vi < variants.size(); ++vi) {
    const RequantParams& p = variants[vi];
    for (std::size_t n : kSizes) {
      const auto acc = dpx::test::epilogue_accumulators(rng, n, [&](std::size_t i) { return element_shift(p, i); });
      const auto res = dpx::test::epilogue_int16(rng, n);
      std::vector<std::int16_t> cpu(n);
      const dpx::Status sc = dpx::requantize_residual_cpu(acc.data(), res.data(), n, p, cpu.data());
      ASSERT_TRUE(sc.is_ok()) << sc.message();
      for (std::size_t off = 0; off < 8; ++off) {
        for (OpsPolicy policy : kPolicies) {
          const bool in_place = off % 4 == 3;
          const std::string what = label(policy, n, vi, off) + (in_place ? " in place" : "");
          GuardedBuffer d_acc, d_res, d_out;
          ASSERT_TRUE(d_acc.init(n, 4, off));
          ASSERT_TRUE(d_res.init(n, 2, (off * 3 + 2) % 8));
          ASSERT_TRUE(d_out.init(n, 2, (off * 5 + 1) % 8));
          ASSERT_TRUE(d_acc.upload(acc.data()));
          ASSERT_TRUE(d_res.upload(res.data()));
          const GuardedBuffer& target = in_place ? d_res : d_out;
          ASSERT_TRUE(gpu_matches_cpu(
              dpx::variants::requantize_residual_cuda(policy, d_acc.as<std::int32_t>(), d_res.as<std::int16_t>(), n,
                                                      p, target.as<std::int16_t>(), stream_.get()),
              stream_.get(), target, cpu, what));
        }
      }
    }
  }
}

// A per-channel table the resident-channel kernel takes: shifts of 1..31, and unshifted channels
// only without a bias (with `wide`, channel 0 adds a bias unshifted, which hands the call to the
// walked kernel).
::testing::AssertionResult resident_table(std::mt19937_64& rng, std::size_t c, bool wide, cudaStream_t stream,
                                          RequantChannels* ch) {
  auto bias = dpx::test::epilogue_bias(rng, c);
  auto shifts = dpx::test::epilogue_shifts(rng, c);
  for (std::size_t i = 0; i < c; ++i) {
    if (shifts[i] == 0 && i % 2 == 0) bias[i] = 0;
    if (shifts[i] == 0 && i % 2 == 1) shifts[i] = 1;
  }
  if (wide) {
    shifts[0] = 0;
    bias[0] = 12345;
  }
  for (const dpx::Status& s : {ch->set(c, bias.data(), shifts.data()), ch->upload(stream)}) {
    if (!s.is_ok()) return ::testing::AssertionFailure() << s.message();
  }
  if (ch->has_unshifted_bias() != wide) return ::testing::AssertionFailure() << "unexpected table";
  return ::testing::AssertionSuccess();
}

// Per-channel tables against the CPU on both kernels, the public call's (resident channels where the
// table suits them) and the walked one, with and without a residual (in place too): tables the
// resident kernel takes, tables it hands to the walked kernel (a biased unshifted channel; C = 4099,
// whose period exceeds its grid), every size and alignment, and a tensor beyond one sweep of the grid.
TEST_F(EpilogueCuda, PerChannelTablesMatchCpuOnBothKernels) {
  auto rng = dpx::test::seeded_rng();
  struct Table {
    std::size_t c;
    bool wide;
  };
  const Table tables[] = {{1, false},  {3, false},    {37, false},   {64, false},
                          {96, false}, {1000, false}, {4099, false}, {37, true}};
  const Activation acts[] = {Activation::relu(), Activation::none(), Activation::clamp(-300, 6000)};
  for (std::size_t ti = 0; ti < std::size(tables); ++ti) {
    RequantChannels ch;
    ASSERT_TRUE(resident_table(rng, tables[ti].c, tables[ti].wide, stream_.get(), &ch));
    std::vector<std::size_t> sizes(std::begin(kSizes), std::end(kSizes));
    if (ti == 2 || ti == 5) sizes.push_back((std::size_t{1} << 23) + 5);
    for (std::size_t n : sizes) {
      const RequantParams p = requant(0, QuantType::kInt16, acts[n % 3], &ch);
      const auto acc =
          dpx::test::epilogue_accumulators(rng, n, [&](std::size_t i) { return element_shift(p, i); });
      const auto res = dpx::test::epilogue_int16(rng, n);
      std::vector<std::int16_t> cpu(n), cpu_res(n);
      ASSERT_TRUE(dpx::requantize_cpu(acc.data(), n, p, cpu.data()).is_ok());
      ASSERT_TRUE(dpx::requantize_residual_cpu(acc.data(), res.data(), n, p, cpu_res.data()).is_ok());
      const std::size_t offsets = n > 100000 ? 2 : 8;
      for (std::size_t off = 0; off < offsets; ++off) {
        const std::string what = "C=" + std::to_string(tables[ti].c) + (tables[ti].wide ? " wide" : "") +
                                 " n=" + std::to_string(n) + " offset " + std::to_string(off);
        GuardedBuffer d_acc;
        ASSERT_TRUE(d_acc.init(n, 4, off));
        ASSERT_TRUE(d_acc.upload(acc.data()));
        const std::int32_t* a = d_acc.as<std::int32_t>();
        const bool in_place = off % 4 == 3;
        for (const bool walked : {false, true}) {  // fresh, poisoned outputs for each kernel
          const std::string kernel = what + (walked ? " walked" : " public call");
          GuardedBuffer d_res, d_out, d_out_res;
          ASSERT_TRUE(d_res.init(n, 2, (off * 3 + 2) % 8));
          ASSERT_TRUE(d_out.init(n, 2, (off * 5 + 1) % 8));
          ASSERT_TRUE(d_out_res.init(n, 2, (off * 7 + 4) % 8));
          ASSERT_TRUE(d_res.upload(res.data()));
          ASSERT_TRUE(gpu_matches_cpu(
              walked ? dpx::variants::requantize_walked_cuda(a, nullptr, n, p, d_out.data(), stream_.get())
                     : dpx::requantize_cuda(a, n, p, d_out.data(), stream_.get()),
              stream_.get(), d_out, cpu, kernel));
          const GuardedBuffer& target = in_place ? d_res : d_out_res;
          auto* r = d_res.as<std::int16_t>();
          auto* t = target.as<std::int16_t>();
          ASSERT_TRUE(gpu_matches_cpu(
              walked ? dpx::variants::requantize_walked_cuda(a, r, n, p, t, stream_.get())
                     : dpx::requantize_residual_cuda(a, r, n, p, t, stream_.get()),
              stream_.get(), target, cpu_res, kernel + " residual" + (in_place ? " in place" : "")));
        }
      }
    }
  }
}

TEST_F(EpilogueCuda, Merge3MatchesCpuOnEverySizeAndAlignmentAlsoInPlace) {
  auto rng = dpx::test::seeded_rng();
  const std::vector<Merge3Params> variants = {
      merge(MergeOp::kMax, Activation::relu()), merge(MergeOp::kMin, Activation::clamp(-1000, 77)),
      merge(MergeOp::kMin, Activation::relu()), merge(MergeOp::kMax, Activation::none())};
  for (std::size_t vi = 0; vi < variants.size(); ++vi) {
    for (std::size_t n : kSizes) {
      const auto a = dpx::test::epilogue_int16(rng, n), b = dpx::test::epilogue_int16(rng, n),
                 c = dpx::test::epilogue_int16(rng, n);
      std::vector<std::int16_t> cpu(n);
      const dpx::Status sc = dpx::merge3_cpu(a.data(), b.data(), c.data(), n, variants[vi], cpu.data());
      ASSERT_TRUE(sc.is_ok()) << sc.message();
      for (std::size_t off = 0; off < 8; ++off) {
        for (OpsPolicy policy : kPolicies) {
          const bool in_place = off % 4 == 1;
          const std::string what = label(policy, n, vi, off) + (in_place ? " in place" : "");
          GuardedBuffer da, db, dc, d_out;
          ASSERT_TRUE(da.init(n, 2, off));
          ASSERT_TRUE(db.init(n, 2, (off + 3) % 8));
          ASSERT_TRUE(dc.init(n, 2, (off * 5 + 1) % 8));
          ASSERT_TRUE(d_out.init(n, 2, (off * 7 + 2) % 8));
          ASSERT_TRUE(da.upload(a.data()));
          ASSERT_TRUE(db.upload(b.data()));
          ASSERT_TRUE(dc.upload(c.data()));
          const GuardedBuffer& target = in_place ? da : d_out;
          ASSERT_TRUE(gpu_matches_cpu(
              dpx::variants::merge3_cuda(policy, da.as<std::int16_t>(), db.as<std::int16_t>(), dc.as<std::int16_t>(),
                                         n, variants[vi], target.as<std::int16_t>(), stream_.get()),
              stream_.get(), target, cpu, what));
        }
      }
    }
  }
}

TEST_F(EpilogueCuda, PublicEntryPointsRunTheDpxPolicy) {
  auto rng = dpx::test::seeded_rng();
  const std::size_t n = 4099;
  RequantParams p;
  p.shift = 5;
  p.activation = Activation::relu();
  const auto acc = dpx::test::epilogue_accumulators(rng, n, [](std::size_t) { return 5; });
  std::vector<std::int16_t> cpu(n);
  ASSERT_TRUE(dpx::requantize_cpu(acc.data(), n, p, cpu.data()).is_ok());
  GuardedBuffer d_acc, d_out;
  ASSERT_TRUE(d_acc.init(n, 4, 1));
  ASSERT_TRUE(d_out.init(n, 2, 1));
  ASSERT_TRUE(d_acc.upload(acc.data()));
  EXPECT_TRUE(gpu_matches_cpu(dpx::requantize_cuda(d_acc.as<std::int32_t>(), n, p, d_out.data(), stream_.get()),
                              stream_.get(), d_out, cpu, "requantize_cuda"));
}

TEST_F(EpilogueCuda, RefusesUnreachableMemoryAndTablesWithoutADeviceCopy) {
  std::vector<std::int32_t> host_acc(64, 1);
  GuardedBuffer d_acc, d_out;
  ASSERT_TRUE(d_acc.init(64, 4, 0));
  ASSERT_TRUE(d_out.init(64, 2, 0));
  RequantParams p;
  int device = 0, pageable = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, device), cudaSuccess);
  if (!pageable) {
    const dpx::Status s = dpx::requantize_cuda(host_acc.data(), 64, p, d_out.data(), stream_.get());
    EXPECT_EQ(s.code(), dpx::StatusCode::kInvalidArgument) << s.message();
    EXPECT_NE(s.message().find("acc is ordinary host memory"), std::string::npos) << s.message();
  }
  const std::int32_t bias[] = {4, 5};
  RequantChannels ch;
  ASSERT_TRUE(ch.set(2, bias, nullptr).is_ok());
  p.channels = &ch;
  const dpx::Status s = dpx::requantize_cuda(d_acc.as<std::int32_t>(), 64, p, d_out.data(), stream_.get());
  EXPECT_EQ(s.code(), dpx::StatusCode::kInvalidArgument) << s.message();
  EXPECT_NE(s.message().find("no device copy"), std::string::npos) << s.message();
  std::vector<std::int16_t> untouched(64);
  ASSERT_EQ(cudaStreamSynchronize(stream_.get()), cudaSuccess);
  EXPECT_TRUE(d_out.download(untouched.data()));
  for (std::int16_t v : untouched) ASSERT_EQ(static_cast<std::uint16_t>(v), 0xA5A5u) << "a refused call wrote";
}

}  // namespace
