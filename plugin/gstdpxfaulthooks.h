// Entry points for tests of how the elements handle a failing GPU. The plugin links its own copy of
// libdpx with every symbol hidden, so a test arming libdpx's fault injection in its own process
// image would not reach the elements: these two, exported from the plugin, arm and count the
// plugin's copy (the same setting as DPX_FAULT_INJECT, see dpx/fault_injection.h). Tests resolve
// them with dlsym from the loaded plugin.
#pragma once

#include <glib.h>
#include <gmodule.h>

G_BEGIN_DECLS

// "KIND:N" as DPX_FAULT_INJECT spells it, or NULL for none; restarts the count.
G_MODULE_EXPORT void gst_dpx_set_fault_injection(const char* setting);

// The calls of the armed kind the plugin's libdpx counted since it was armed; 0 when unarmed.
G_MODULE_EXPORT long gst_dpx_fault_injection_count(void);

G_END_DECLS
