/* The dpx plugin: registers its elements, nothing else. */
#include <gst/gst.h>

#include "gstdpxdeshake.h"
#include "gstdpxmorph.h"
#include "gstdpxmotionest.h"

static gboolean plugin_init(GstPlugin* plugin) {
  gboolean ok = FALSE;
  ok |= GST_ELEMENT_REGISTER(dpxdilate, plugin);
  ok |= GST_ELEMENT_REGISTER(dpxerode, plugin);
  ok |= GST_ELEMENT_REGISTER(dpxmorph, plugin);
  ok |= GST_ELEMENT_REGISTER(dpxmotionest, plugin);
  ok |= GST_ELEMENT_REGISTER(dpxdeshake, plugin);
  return ok;
}

GST_PLUGIN_DEFINE(
    GST_VERSION_MAJOR, GST_VERSION_MINOR, dpx,
    "Video morphology and motion estimation on the DPX instructions of NVIDIA GPUs, with CPU fallback",
    plugin_init, PACKAGE_VERSION, "LGPL", PACKAGE_NAME, PACKAGE_ORIGIN)
