// AlignPlan's ownership and queries, the same in both builds (the CUDA build fills it in).
#include "align_cuda_plan.h"

namespace dpx {

AlignPlan::AlignPlan() = default;
AlignPlan::~AlignPlan() { delete impl_; }
AlignPlan::AlignPlan(AlignPlan&& o) noexcept : impl_(o.impl_) { o.impl_ = nullptr; }
AlignPlan& AlignPlan::operator=(AlignPlan&& o) noexcept {
  if (this != &o) {
    delete impl_;
    impl_ = o.impl_;
    o.impl_ = nullptr;
  }
  return *this;
}
std::size_t AlignPlan::pairs() const { return impl_ ? impl_->pairs : 0; }
std::uint64_t AlignPlan::cells() const { return impl_ ? impl_->cells : 0; }

}  // namespace dpx
