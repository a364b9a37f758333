#include "dpx/fault_injection.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace dpx {
namespace {

std::atomic<Fault> g_kind{Fault::kNone};
std::atomic<long> g_target{0}, g_seen{0};

Fault kind_of(const char* call) {
  if (std::strncmp(call, "launch of ", 10) == 0) return Fault::kLaunch;
  if (std::strstr(call, "Malloc") != nullptr || std::strstr(call, "HostAlloc") != nullptr) return Fault::kAlloc;
  if (std::strstr(call, "Memcpy") != nullptr || std::strstr(call, "Memset") != nullptr) return Fault::kCopy;
  return Fault::kNone;
}

// "alloc:3" and the like; anything else arms nothing.
void apply(const char* setting) {
  g_kind = Fault::kNone;
  g_seen = 0;
  if (setting == nullptr) return;
  const struct {
    const char* name;
    Fault kind;
  } kinds[] = {{"alloc:", Fault::kAlloc}, {"copy:", Fault::kCopy}, {"launch:", Fault::kLaunch}};
  for (const auto& k : kinds) {
    const std::size_t n = std::strlen(k.name);
    if (std::strncmp(setting, k.name, n) != 0) continue;
    char* end = nullptr;
    const long target = std::strtol(setting + n, &end, 10);
    if (end == setting + n || *end != '\0' || target < 1) return;
    g_target = target;
    g_kind = k.kind;
  }
}

}  // namespace

bool fault_injection_armed() {
  static const bool read = (apply(std::getenv("DPX_FAULT_INJECT")), true);
  (void)read;
  return g_kind.load(std::memory_order_relaxed) != Fault::kNone;
}

Fault fault_due(const char* call) {
  const Fault kind = kind_of(call);
  const bool due = kind != Fault::kNone && kind == g_kind.load() && g_seen.fetch_add(1) + 1 == g_target.load();
  return due ? kind : Fault::kNone;
}

void set_fault_injection(const char* setting) {
  (void)fault_injection_armed();  // the environment's setting read first, so it cannot replace this one later
  apply(setting);
}

long fault_injection_count() { return fault_injection_armed() ? g_seen.load() : 0; }

}  // namespace dpx
