// CPU epilogue: [0, n) in ranges on the worker pool; each range in blocks of kBlock elements through
// the functors the CUDA kernels run (host side of dpx::ops::Dpx), the ragged end one by one.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "dpx/epilogue.h"
#include "epilogue_args.h"
#include "epilogue_functor.cuh"
#include "worker_pool.h"

namespace dpx {
namespace epilogue {
namespace {

using Ops = ops::Dpx;
using ops::lanes::pack;
using ops::lanes::shi;
using ops::lanes::slo;

constexpr std::size_t kBlock = 64;                // elements per step (even)
constexpr std::size_t kMinPerThread = 256 * 1024;  // below this a thread costs more than it saves

template <typename Out>
void store_pairs(const std::uint32_t* w, std::size_t words, Out* out) {
  for (std::size_t j = 0; j < words; ++j) {
    out[2 * j] = static_cast<Out>(slo(w[j]));
    out[2 * j + 1] = static_cast<Out>(shi(w[j]));
  }
}

void load_pairs(const std::int16_t* p, std::size_t words, std::uint32_t* w) {
  for (std::size_t j = 0; j < words; ++j) w[j] = pack(p[2 * j], p[2 * j + 1]);
}

// requantize (residual == nullptr) or requantize_residual over [begin, end).
template <typename K, typename Out>
void requantize_range(const Requantizer<Ops>& rq, const std::int32_t* acc, const std::int16_t* residual,
                      Out* out, std::size_t begin, std::size_t end) {
  K k(rq.args.channels, begin);
  std::size_t i = begin;
  for (; i + kBlock <= end; i += kBlock) {
    std::int32_t a[kBlock];
    std::copy(acc + i, acc + i + kBlock, a);
    std::uint32_t w[kBlock / 2];
    if (residual != nullptr) {
      std::uint32_t r[kBlock / 2];
      load_pairs(residual + i, kBlock / 2, r);  // read before out, which may be residual itself
      rq.pairs_plus(a, r, k, w);
    } else {
      rq.pairs(a, k, w);
    }
    store_pairs(w, kBlock / 2, out + i);
  }
  for (; i < end; ++i) {
    out[i] = static_cast<Out>(residual != nullptr ? rq.single_plus(acc[i], residual[i], k) : rq.single(acc[i], k));
  }
}

template <typename Out>
Status requantize_all(const RequantArgs& args, const std::int32_t* acc, const std::int16_t* residual, Out* out,
                    std::size_t n, int threads) {
  const Requantizer<Ops> rq{args};
  const bool per_channel = args.channels.entries != nullptr;
  return runtime::for_each_range(n, threads, kMinPerThread, [&](std::size_t begin, std::size_t end) {
    if (per_channel) {
      requantize_range<ChannelConstants>(rq, acc, residual, out, begin, end);
    } else {
      requantize_range<TensorConstants>(rq, acc, residual, out, begin, end);
    }
    return Status::ok();
  });
}

void merge3_range(const Merger<Ops>& merge, const std::int16_t* a, const std::int16_t* b, const std::int16_t* c,
                  std::int16_t* out, std::size_t begin, std::size_t end) {
  constexpr std::size_t kWords = kBlock / 2;
  std::size_t i = begin;
  for (; i + kBlock <= end; i += kBlock) {
    std::uint32_t wa[kWords], wb[kWords], wc[kWords], w[kWords];
    load_pairs(a + i, kWords, wa);
    load_pairs(b + i, kWords, wb);
    load_pairs(c + i, kWords, wc);
    merge(wa, wb, wc, w);
    store_pairs(w, kWords, out + i);
  }
  for (; i < end; ++i) out[i] = static_cast<std::int16_t>(merge.single(a[i], b[i], c[i]));
}

}  // namespace
}  // namespace epilogue

Status requantize_cpu(const std::int32_t* acc, std::size_t n, const RequantParams& params, void* out,
                      int threads) {
  epilogue::RequantArgs args;
  DPX_RETURN_IF_ERROR(epilogue::check_threads("requantize", threads));
  DPX_RETURN_IF_ERROR(epilogue::resolve_requantize("requantize", acc, nullptr, false, n, params, out,
                                                   epilogue::Memory::kHost, &args));
  if (params.output == QuantType::kInt8) {
    return epilogue::requantize_all(args, acc, nullptr, static_cast<std::int8_t*>(out), n, threads);
  }
  return epilogue::requantize_all(args, acc, nullptr, static_cast<std::int16_t*>(out), n, threads);
}

Status requantize_residual_cpu(const std::int32_t* acc, const std::int16_t* residual, std::size_t n,
                               const RequantParams& params, std::int16_t* out, int threads) {
  epilogue::RequantArgs args;
  DPX_RETURN_IF_ERROR(epilogue::check_threads("requantize_residual", threads));
  DPX_RETURN_IF_ERROR(epilogue::resolve_requantize("requantize_residual", acc, residual, true, n, params, out,
                                                   epilogue::Memory::kHost, &args));
  return epilogue::requantize_all(args, acc, residual, out, n, threads);
}

Status merge3_cpu(const std::int16_t* a, const std::int16_t* b, const std::int16_t* c, std::size_t n,
                  const Merge3Params& params, std::int16_t* out, int threads) {
  epilogue::MergeArgs args;
  DPX_RETURN_IF_ERROR(epilogue::check_threads("merge3", threads));
  DPX_RETURN_IF_ERROR(epilogue::resolve_merge3(a, b, c, n, params, out, &args));
  const epilogue::Merger<epilogue::Ops> merge{args};
  return runtime::for_each_range(n, threads, epilogue::kMinPerThread, [&](std::size_t begin, std::size_t end) {
    epilogue::merge3_range(merge, a, b, c, out, begin, end);
    return Status::ok();
  });
}

}  // namespace dpx
