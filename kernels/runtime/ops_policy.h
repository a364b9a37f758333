// The one switch between the DPX instructions and plain two-operand min/max, chosen at run time in
// the variant entry points dpx-bench and the tests call (dpx::variants; libdpx's public calls
// always run DPX). Compile-time code takes the matching policy type of dpx_ops.cuh: ops::Dpx or
// ops::PlainOps.
#pragma once

namespace dpx {

enum class OpsPolicy { kDpx, kPlain };

inline const char* ops_policy_name(OpsPolicy policy) { return policy == OpsPolicy::kDpx ? "dpx" : "plain"; }

}  // namespace dpx
