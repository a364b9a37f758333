// NVIDIA NPP's 8-bit dilate/erode, loaded at run time (dlopen) so that dpx-bench builds and runs
// where NPP is absent: the benchmark's NPP rows then say "not available".
//
// The NPP types and prototypes are declared here from NPP's public headers (nppdefs.h,
// nppi_morphological_operations.h), so no NPP header is needed at build time. CUDA 13's NPP has
// only the `_Ctx` entry points (taking an NppStreamContext); older ones also the plain ones,
// which run on the stream set with nppSetStream.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

namespace dpx {
namespace bench {

class NppMorph {
 public:
  NppMorph() = default;
  ~NppMorph();
  NppMorph(const NppMorph&) = delete;
  NppMorph& operator=(const NppMorph&) = delete;

  // Loads libnppim and resolves the four functions; on failure `why` says what was missing.
  bool load(std::string* why);
  bool loaded() const { return dilate3x3_ != nullptr; }
  const std::string& library() const { return library_; }

  // Rect 3x3 (nppi{Dilate,Erode}3x3Border_8u_C1R) or a general mask (nppi{Dilate,Erode}Border_8u_C1R,
  // `device_mask` of size x size bytes in device memory, non-zero = inside), border replicate.
  // Returns NPP's status (0 = success).
  int run(bool dilate, const std::uint8_t* src, int src_pitch, std::uint8_t* dst, int dst_pitch, int width,
          int height, int size, const std::uint8_t* device_mask, cudaStream_t stream);

 private:
  struct Size {
    int width, height;
  };
  struct Point {
    int x, y;
  };
  // nppdefs.h NppStreamContext, field for field.
  struct StreamContext {
    cudaStream_t hStream;
    int nCudaDeviceId;
    int nMultiProcessorCount;
    int nMaxThreadsPerMultiProcessor;
    int nMaxThreadsPerBlock;
    std::size_t nSharedMemPerBlock;
    int nCudaDevAttrComputeCapabilityMajor;
    int nCudaDevAttrComputeCapabilityMinor;
    unsigned int nStreamFlags;
    int nReserved0;
  };
  static constexpr int kBorderReplicate = 2;  // NPP_BORDER_REPLICATE

  using Fixed3x3Ctx = int (*)(const std::uint8_t*, std::int32_t, Size, Point, std::uint8_t*, std::int32_t, Size,
                              int, StreamContext);
  using MaskCtx = int (*)(const std::uint8_t*, std::int32_t, Size, Point, std::uint8_t*, std::int32_t, Size,
                          const std::uint8_t*, Size, Point, int, StreamContext);
  using Fixed3x3 = int (*)(const std::uint8_t*, std::int32_t, Size, Point, std::uint8_t*, std::int32_t, Size, int);
  using Mask = int (*)(const std::uint8_t*, std::int32_t, Size, Point, std::uint8_t*, std::int32_t, Size,
                       const std::uint8_t*, Size, Point, int);
  using SetStream = int (*)(cudaStream_t);

  // Fills ctx_ for `stream` (once per stream: the attributes do not change).
  bool context_for(cudaStream_t stream);

  void* handle_ = nullptr;
  std::string library_;
  bool with_ctx_ = false;
  void* dilate3x3_ = nullptr;
  void* erode3x3_ = nullptr;
  void* dilate_ = nullptr;
  void* erode_ = nullptr;
  SetStream set_stream_ = nullptr;
  StreamContext ctx_{};
  bool ctx_valid_ = false;
};

}  // namespace bench
}  // namespace dpx
