// dpx.requantize, dpx.requantize_residual, dpx.max3 and dpx.min3: the epilogue on flat C-order
// arrays of any shape, per-channel constants along the last dimension.
#include <pybind11/stl.h>

#include <optional>
#include <string>

#include "arrays.h"
#include "bindings.h"
#include "dpx/epilogue.h"
#include "placement.h"

namespace dpx {
namespace py_bindings {
namespace {

Activation activation(bool relu, std::optional<std::pair<int, int>> clamp) {
  if (relu && clamp) raise_value_error("relu and clamp exclude each other");
  if (relu) return Activation::relu();
  if (clamp) return Activation::clamp(clamp->first, clamp->second);
  return Activation::none();
}

void check_tensor(const ArrayView& a, const char* dtype) {
  require_dtype(a, {dtype});
  require_not_empty(a);
  require_contiguous(a);
}

// Per-channel constants (host int32 arrays of acc's last dimension), or none.
bool read_channels(py::handle bias_obj, py::handle shifts_obj, const ArrayView& acc, RequantChannels* out) {
  if (bias_obj.is_none() && shifts_obj.is_none()) return false;
  const std::int64_t channels = acc.shape.empty() ? 1 : acc.shape.back();
  const std::int32_t* tables[2] = {nullptr, nullptr};
  ArrayView views[2];
  const py::handle objects[2] = {bias_obj, shifts_obj};
  const char* names[2] = {"bias", "shifts"};
  for (int i = 0; i < 2; ++i) {
    if (objects[i].is_none()) continue;
    views[i] = view_array(objects[i], names[i]);
    require_ndim(views[i], {1});
    require_dtype(views[i], {"int32"});
    require_contiguous(views[i]);
    if (views[i].on_device()) raise_value_error(std::string(names[i]) + ": per-channel constants are a host (numpy) array");
    if (views[i].shape[0] != channels)
      raise_value_error(std::string(names[i]) + " holds " + std::to_string(views[i].shape[0]) +
                        " entries, but acc's last dimension (the channels) is " + std::to_string(channels));
    tables[i] = static_cast<const std::int32_t*>(views[i].data);
  }
  throw_if_error(out->set(static_cast<std::size_t>(channels), tables[0], tables[1]));
  return true;
}

void requantize(py::handle acc_obj, py::handle residual_obj, py::handle out_obj, int shift, py::handle bias_obj,
                py::handle shifts_obj, bool relu, std::optional<std::pair<int, int>> clamp, const std::string& backend,
                std::uintptr_t stream) {
  const ArrayView acc = view_array(acc_obj, "acc"), out = view_array(out_obj, "out");
  check_tensor(acc, "int32");
  require_same_shape(acc, out);
  require_dtype(out, {"int16", "int8"});
  require_contiguous(out);
  require_writable(out);
  const bool with_residual = !residual_obj.is_none();
  const ArrayView residual = with_residual ? view_array(residual_obj, "residual") : ArrayView{};
  if (with_residual) {
    check_tensor(residual, "int16");
    require_same_shape(acc, residual);
  }
  RequantChannels channels;
  RequantParams p;
  p.shift = shift;
  p.channels = read_channels(bias_obj, shifts_obj, acc, &channels) ? &channels : nullptr;
  p.output = out.dtype == "int8" ? QuantType::kInt8 : QuantType::kInt16;
  p.activation = activation(relu, clamp);
  const Placement where = with_residual ? place({&acc, &residual, &out}, backend, stream) : place({&acc, &out}, backend, stream);
  const std::size_t n = acc.size();
  py::gil_scoped_release unlocked;
  if (!where.cuda) {
    throw_if_error(with_residual ? requantize_residual_cpu(static_cast<const std::int32_t*>(acc.data),
                                                           static_cast<const std::int16_t*>(residual.data), n, p,
                                                           static_cast<std::int16_t*>(out.data))
                                 : requantize_cpu(static_cast<const std::int32_t*>(acc.data), n, p, out.data));
    return;
  }
  CallScope scope(where);
  DeviceOperand d_acc, d_residual, d_out;
  throw_if_error(d_acc.input(acc, where.stream));
  if (with_residual) throw_if_error(d_residual.input(residual, where.stream));
  throw_if_error(d_out.output(out, where.stream));
  if (p.channels != nullptr) throw_if_error(channels.upload(where.stream));
  throw_if_error(with_residual ? requantize_residual_cuda(static_cast<const std::int32_t*>(d_acc.data()),
                                                          static_cast<const std::int16_t*>(d_residual.data()), n, p,
                                                          static_cast<std::int16_t*>(d_out.data()), where.stream)
                               : requantize_cuda(static_cast<const std::int32_t*>(d_acc.data()), n, p, d_out.data(),
                                                 where.stream));
  throw_if_error(d_out.finish(where.stream));
  // per-channel constants live in `channels`, freed on return
  if (where.waits || p.channels != nullptr) throw_if_error(synchronize(where.stream));
}

void merge3(py::handle a_obj, py::handle b_obj, py::handle c_obj, py::handle out_obj, const std::string& op, bool relu,
            std::optional<std::pair<int, int>> clamp, const std::string& backend, std::uintptr_t stream) {
  const ArrayView a = view_array(a_obj, "a"), b = view_array(b_obj, "b"), c = view_array(c_obj, "c"),
                  out = view_array(out_obj, "out");
  check_tensor(a, "int16");
  for (const ArrayView* x : {&b, &c, &out}) {
    require_dtype(*x, {"int16"});
    require_same_shape(a, *x);
    require_contiguous(*x);
  }
  require_writable(out);
  Merge3Params p;
  p.op = op == "max" ? MergeOp::kMax : MergeOp::kMin;
  p.activation = activation(relu, clamp);
  const Placement where = place({&a, &b, &c, &out}, backend, stream);
  const std::size_t n = a.size();
  py::gil_scoped_release unlocked;
  if (!where.cuda) {
    throw_if_error(merge3_cpu(static_cast<const std::int16_t*>(a.data), static_cast<const std::int16_t*>(b.data),
                              static_cast<const std::int16_t*>(c.data), n, p, static_cast<std::int16_t*>(out.data)));
    return;
  }
  CallScope scope(where);
  DeviceOperand d_a, d_b, d_c, d_out;
  throw_if_error(d_a.input(a, where.stream));
  throw_if_error(d_b.input(b, where.stream));
  throw_if_error(d_c.input(c, where.stream));
  throw_if_error(d_out.output(out, where.stream));
  throw_if_error(merge3_cuda(static_cast<const std::int16_t*>(d_a.data()), static_cast<const std::int16_t*>(d_b.data()),
                             static_cast<const std::int16_t*>(d_c.data()), n, p, static_cast<std::int16_t*>(d_out.data()),
                             where.stream));
  throw_if_error(d_out.finish(where.stream));
  if (where.waits) throw_if_error(synchronize(where.stream));
}

}  // namespace

void bind_epilogue(py::module_& m) {
  m.def("requantize", &requantize, py::arg("acc"), py::arg("residual"), py::arg("out"), py::arg("shift"),
        py::arg("bias"), py::arg("shifts"), py::arg("relu"), py::arg("clamp"), py::arg("backend"), py::arg("stream"));
  m.def("merge3", &merge3, py::arg("a"), py::arg("b"), py::arg("c"), py::arg("out"), py::arg("op"), py::arg("relu"),
        py::arg("clamp"), py::arg("backend"), py::arg("stream"));
}

}  // namespace py_bindings
}  // namespace dpx
