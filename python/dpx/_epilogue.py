import numpy as np

from . import _arrays, _dpx

_ARITHMETIC = """
    For element i, c its channel (i mod C, the last dimension) when per-channel constants are given:
        v = acc[i] + bias[c]                (64-bit, before the shift: never wraps)
        r = (v + 2^(s-1)) >> s              s = shifts[c] or `shift`, 0..31 (ties towards +inf)
        q = saturate(r)                     to the output type
        out = activation(q)                 none, relu max(q, 0), or clamp (lo, hi)
"""

_COMMON = """
    relu: max(x, 0) after saturation; clamp: (lo, hi) instead (within the output type).
    backend, stream: as in dpx.morphology; numpy arrays run on the backend asked for, CUDA arrays
        in place on their device. The same bits on the CPU and CUDA.
    out: a C-contiguous array of the result's dtype and shape to write into (as in dpx.morphology),
        returned; by default a new array.
    Raises ValueError for bad arguments (dtype, shape, constants, a shift out of range).
"""


def _constants(x, name):
    """Per-channel constants as a 1-D int32 numpy array (a list of ints is fine)."""
    if x is None:
        return None
    if _arrays.is_cuda(x):
        raise ValueError(f"{name}: per-channel constants are a host (numpy) array")
    a = np.asarray(x)
    if a.dtype.kind not in "iu":
        raise ValueError(f"{name}: integers expected, got dtype {a.dtype}")
    if a.size and (a.min() < np.iinfo(np.int32).min or a.max() > np.iinfo(np.int32).max):
        raise ValueError(f"{name}: values must fit int32")
    return np.ascontiguousarray(a, dtype=np.int32)


def requantize(acc, shift=0, bias=None, shifts=None, dtype="int16", relu=False, clamp=None, backend="auto",
               stream=None, out=None):
    """int32 accumulators to int16 or int8: bias, rounding shift, saturation, activation.

    acc: an int32 array of any shape (numpy or CUDA).
    shift: the rounding shift of every element, 0..31 (unless `shifts` gives one per channel).
    bias, shifts: per-channel int32 constants, one per entry of acc's last dimension.
    dtype: 'int16' or 'int8', the output type.
    Returns `out`, or a new array of acc's shape and kind.
    """
    name = str(np.dtype(dtype))
    if name not in ("int16", "int8"):
        raise ValueError(f"dtype must be 'int16' or 'int8', got {dtype!r}")
    acc = _arrays.prepare(acc, "acc", stream)
    result = _arrays.output(out, acc, dtype=name, stream=stream)
    if _arrays.dtype_name(result) != name:
        raise ValueError(f"out: dtype must be {name} (the dtype asked for), got {_arrays.dtype_name(result)}")
    _dpx.requantize(acc, None, result, shift, _constants(bias, "bias"), _constants(shifts, "shifts"), relu, clamp,
                    backend, _arrays.stream_handle(acc, stream))
    return result if out is None else out


def requantize_residual(acc, residual, shift=0, bias=None, shifts=None, relu=False, clamp=None, backend="auto",
                        stream=None, out=None):
    """requantize to int16, then a residual added: out = activation(saturate16(q + residual)).

    acc: int32; residual: int16 of acc's shape. Returns `out`, or a new int16 array.
    """
    acc = _arrays.prepare(acc, "acc", stream)
    residual = _arrays.prepare(residual, "residual", stream)
    result = _arrays.output(out, acc, dtype="int16", stream=stream)
    _dpx.requantize(acc, residual, result, shift, _constants(bias, "bias"), _constants(shifts, "shifts"), relu, clamp,
                    backend, _arrays.stream_handle(acc, stream))
    return result if out is None else out


def _merge3(op, a, b, c, relu, clamp, backend, stream, out):
    a, b, c = (_arrays.prepare(x, name, stream) for x, name in ((a, "a"), (b, "b"), (c, "c")))
    result = _arrays.output(out, a, stream=stream)
    _dpx.merge3(a, b, c, result, op, relu, clamp, backend, _arrays.stream_handle(a, stream))
    return result if out is None else out


def max3(a, b, c, relu=False, clamp=None, backend="auto", stream=None, out=None):
    """Elementwise maximum of three int16 arrays of one shape, then the activation; `out` or a new array."""
    return _merge3("max", a, b, c, relu, clamp, backend, stream, out)


def min3(a, b, c, relu=False, clamp=None, backend="auto", stream=None, out=None):
    """Elementwise minimum of three int16 arrays of one shape, then the activation; `out` or a new array."""
    return _merge3("min", a, b, c, relu, clamp, backend, stream, out)


for _f in (requantize, requantize_residual, max3, min3):
    _f.__doc__ += _COMMON
requantize.__doc__ += _ARITHMETIC
requantize_residual.__doc__ += _ARITHMETIC
