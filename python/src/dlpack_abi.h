// The DLPack structures the bindings exchange with other array libraries, as the DLPack 0.8 ABI
// lays them out (dlpack/dlpack.h, DLPACK_VERSION 80): the "dltensor" capsule of __dlpack__ holds a
// DLManagedTensor. Only the members and codes the bindings use are named.
#pragma once

#include <cstdint>

namespace dpx {
namespace py_bindings {
namespace dlpack {

enum DeviceType : std::int32_t {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,  // page-locked host memory
  kDLCUDAManaged = 13,
};

enum TypeCode : std::uint8_t {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
};

struct DLDevice {
  std::int32_t device_type;
  std::int32_t device_id;
};

struct DLDataType {
  std::uint8_t code;
  std::uint8_t bits;
  std::uint16_t lanes;
};

struct DLTensor {
  void* data;
  DLDevice device;
  std::int32_t ndim;
  DLDataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;  // in elements; NULL: compact, C order
  std::uint64_t byte_offset;
};

struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};

// The capsule names of the protocol: a fresh capsule, and one a consumer has taken.
inline constexpr const char* kCapsuleName = "dltensor";
inline constexpr const char* kUsedCapsuleName = "used_dltensor";

}  // namespace dlpack
}  // namespace py_bindings
}  // namespace dpx
