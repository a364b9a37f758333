// The fault injection's counting: the Nth call of the armed kind fails, no other call, and a
// setting not of the form KIND:N arms nothing.
#include <gtest/gtest.h>

#include "dpx/fault_injection.h"

namespace dpx {
namespace {

class FaultInjection : public ::testing::Test {
 protected:
  void TearDown() override { set_fault_injection(nullptr); }
};

TEST_F(FaultInjection, TheNthCallOfTheKindFails) {
  set_fault_injection("copy:2");
  ASSERT_TRUE(fault_injection_armed());
  EXPECT_EQ(fault_due("cudaMalloc(&data_, bytes)"), Fault::kNone);
  EXPECT_EQ(fault_due("cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream)"), Fault::kNone);
  EXPECT_EQ(fault_due("launch of sw_kernel"), Fault::kNone);
  EXPECT_EQ(fault_due("cudaSetDevice(device)"), Fault::kNone);
  EXPECT_EQ(fault_due("cudaMemsetAsync(p, 0, n, stream)"), Fault::kCopy);
  EXPECT_EQ(fault_due("cudaMemcpy2DAsync(d, dp, s, sp, w, h, k, stream)"), Fault::kNone);

  set_fault_injection("alloc:1");
  EXPECT_EQ(fault_due("cudaMemcpyAsync(a, b, n, k, s)"), Fault::kNone);
  EXPECT_EQ(fault_due("cudaHostAlloc(&data_, bytes, cudaHostAllocDefault)"), Fault::kAlloc);
  EXPECT_EQ(fault_due("cudaMalloc(&data_, bytes)"), Fault::kNone);

  set_fault_injection("launch:3");
  for (int k = 1; k <= 5; ++k)
    EXPECT_EQ(fault_due("launch of edit_kernel"), k == 3 ? Fault::kLaunch : Fault::kNone) << k;
}

TEST_F(FaultInjection, CountsTheCallsOfTheArmedKindOnly) {
  EXPECT_EQ(fault_injection_count(), 0);
  set_fault_injection("alloc:1000000");  // beyond reach: counts without failing
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(fault_due("cudaMallocAsync(&p, n, s)"), Fault::kNone);
    EXPECT_EQ(fault_due("cudaMemcpyAsync(a, b, n, k, s)"), Fault::kNone);
    EXPECT_EQ(fault_due("launch of morph_kernel"), Fault::kNone);
  }
  EXPECT_EQ(fault_injection_count(), 3);
  set_fault_injection("launch:2");  // re-arming restarts the count; the failed call is counted
  EXPECT_EQ(fault_injection_count(), 0);
  for (int k = 1; k <= 4; ++k) EXPECT_EQ(fault_due("launch of k"), k == 2 ? Fault::kLaunch : Fault::kNone);
  EXPECT_EQ(fault_injection_count(), 4);
  set_fault_injection(nullptr);
  EXPECT_EQ(fault_injection_count(), 0);
}

TEST_F(FaultInjection, OtherSettingsArmNothing) {
  for (const char* setting : {"alloc:0", "alloc:", "alloc:3x", "alloc:-1", "bogus:1", "alloc", "", "copy 1"}) {
    set_fault_injection(setting);
    EXPECT_FALSE(fault_injection_armed()) << setting;
    EXPECT_EQ(fault_due("cudaMalloc(&p, n)"), Fault::kNone) << setting;
  }
  set_fault_injection(nullptr);
  EXPECT_FALSE(fault_injection_armed());
}

}  // namespace
}  // namespace dpx
