#include "npp_morph.h"

#include <dlfcn.h>

namespace dpx {
namespace bench {

NppMorph::~NppMorph() {
  if (handle_ != nullptr) dlclose(handle_);
}

bool NppMorph::load(std::string* why) {
  static const char* const kLibraries[] = {
      "libnppim.so.13", "libnppim.so.12", "libnppim.so", "/usr/local/cuda/lib64/libnppim.so.13",
      "/usr/local/cuda/lib64/libnppim.so.12", "/usr/local/cuda/lib64/libnppim.so",
  };
  for (const char* name : kLibraries) {
    handle_ = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (handle_ != nullptr) {
      library_ = name;
      break;
    }
  }
  if (handle_ == nullptr) {
    *why = "libnppim not found";
    return false;
  }
  // The _Ctx forms first (the only ones in CUDA 13), then the plain forms with nppSetStream.
  const char* const kCtx[] = {"nppiDilate3x3Border_8u_C1R_Ctx", "nppiErode3x3Border_8u_C1R_Ctx",
                              "nppiDilateBorder_8u_C1R_Ctx", "nppiErodeBorder_8u_C1R_Ctx"};
  const char* const kPlain[] = {"nppiDilate3x3Border_8u_C1R", "nppiErode3x3Border_8u_C1R",
                                "nppiDilateBorder_8u_C1R", "nppiErodeBorder_8u_C1R"};
  void** slots[] = {&dilate3x3_, &erode3x3_, &dilate_, &erode_};
  for (int form = 0; form < 2; ++form) {
    const char* const* names = form == 0 ? kCtx : kPlain;
    bool all = true;
    for (int i = 0; i < 4; ++i) all = all && (*slots[i] = dlsym(handle_, names[i])) != nullptr;
    if (form == 1) set_stream_ = reinterpret_cast<SetStream>(dlsym(handle_, "nppSetStream"));
    if (all && (form == 0 || set_stream_ != nullptr)) {
      with_ctx_ = form == 0;
      return true;
    }
  }
  for (void** slot : slots) *slot = nullptr;
  *why = library_ + " lacks nppi{Dilate,Erode}{3x3,}Border_8u_C1R[_Ctx]";
  return false;
}

bool NppMorph::context_for(cudaStream_t stream) {
  if (ctx_valid_ && ctx_.hStream == stream) return true;
  StreamContext* ctx = &ctx_;
  *ctx = StreamContext{};
  ctx->hStream = stream;
  int v = 0;
  if (cudaGetDevice(&ctx->nCudaDeviceId) != cudaSuccess) return false;
  const int dev = ctx->nCudaDeviceId;
  bool ok = cudaDeviceGetAttribute(&ctx->nMultiProcessorCount, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess;
  ok = ok && cudaDeviceGetAttribute(&ctx->nMaxThreadsPerMultiProcessor, cudaDevAttrMaxThreadsPerMultiProcessor,
                                    dev) == cudaSuccess;
  ok = ok && cudaDeviceGetAttribute(&ctx->nMaxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock, dev) == cudaSuccess;
  ok = ok && cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlock, dev) == cudaSuccess;
  ctx->nSharedMemPerBlock = static_cast<std::size_t>(v);
  ok = ok && cudaDeviceGetAttribute(&ctx->nCudaDevAttrComputeCapabilityMajor, cudaDevAttrComputeCapabilityMajor,
                                    dev) == cudaSuccess;
  ok = ok && cudaDeviceGetAttribute(&ctx->nCudaDevAttrComputeCapabilityMinor, cudaDevAttrComputeCapabilityMinor,
                                    dev) == cudaSuccess;
  ok = ok && cudaStreamGetFlags(stream, &ctx->nStreamFlags) == cudaSuccess;
  ctx_valid_ = ok;
  return ok;
}

int NppMorph::run(bool dilate, const std::uint8_t* src, int src_pitch, std::uint8_t* dst, int dst_pitch, int width,
                  int height, int size, const std::uint8_t* device_mask, cudaStream_t stream) {
  constexpr int kNotLoaded = -1000;  // outside NPP's own status range
  if (!loaded()) return kNotLoaded;
  const Size roi{width, height};
  const Point origin{0, 0};
  const Size mask_size{size, size};
  const Point anchor{size / 2, size / 2};
  void* fixed = dilate ? dilate3x3_ : erode3x3_;
  void* general = dilate ? dilate_ : erode_;
  const bool use_fixed = size == 3 && device_mask == nullptr;
  if (with_ctx_) {
    if (!context_for(stream)) return kNotLoaded;
    const StreamContext& ctx = ctx_;
    if (use_fixed) {
      return reinterpret_cast<Fixed3x3Ctx>(fixed)(src, src_pitch, roi, origin, dst, dst_pitch, roi,
                                                  kBorderReplicate, ctx);
    }
    return reinterpret_cast<MaskCtx>(general)(src, src_pitch, roi, origin, dst, dst_pitch, roi, device_mask,
                                              mask_size, anchor, kBorderReplicate, ctx);
  }
  set_stream_(stream);
  if (use_fixed) {
    return reinterpret_cast<Fixed3x3>(fixed)(src, src_pitch, roi, origin, dst, dst_pitch, roi, kBorderReplicate);
  }
  return reinterpret_cast<Mask>(general)(src, src_pitch, roi, origin, dst, dst_pitch, roi, device_mask, mask_size,
                                         anchor, kBorderReplicate);
}

}  // namespace bench
}  // namespace dpx
