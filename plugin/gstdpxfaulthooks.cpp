// The plugin's exported fault injection hooks (gstdpxfaulthooks.h): forwards to its copy of libdpx.
#include "gstdpxfaulthooks.h"

#include "dpx/fault_injection.h"

void gst_dpx_set_fault_injection(const char* setting) {
  dpx::set_fault_injection(setting);
}

long gst_dpx_fault_injection_count(void) {
  return dpx::fault_injection_count();
}
