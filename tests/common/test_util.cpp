#include "test_util.h"

#include "dpx/device.h"

namespace dpx {
namespace test {

bool gpu_available() { return dpx::cuda_device_count() > 0; }

}  // namespace test
}  // namespace dpx
