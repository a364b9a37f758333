// The one switch between the DPX instructions and plain two-operand min/max, chosen at run time by
// the variants dpx-bench and the tests run (the public calls always take kDpx). Compile-time code
// takes the matching policy type of dpx_ops.cuh: ops::Dpx or ops::PlainOps.
#pragma once

namespace dpx {

enum class OpsPolicy { kDpx, kPlain };

inline const char* ops_policy_name(OpsPolicy policy) { return policy == OpsPolicy::kDpx ? "dpx" : "plain"; }

}  // namespace dpx
