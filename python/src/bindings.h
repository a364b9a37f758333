// One registration function per family; module.cpp calls them all.
#pragma once

#include <pybind11/pybind11.h>

namespace dpx {
namespace py_bindings {

void bind_morphology(pybind11::module_& m);
void bind_motion(pybind11::module_& m);
void bind_alignment(pybind11::module_& m);
void bind_search(pybind11::module_& m);
void bind_epilogue(pybind11::module_& m);
void bind_device_array(pybind11::module_& m);  // dpx.DeviceArray
void bind_dlpack(pybind11::module_& m);        // the DLPack consumer

}  // namespace py_bindings
}  // namespace dpx
