"""dpx.requantize, requantize_residual, max3 and min3 on the CPU backend against the arithmetic of
dpx/epilogue.h written in numpy."""

import numpy as np
import pytest

import dpx


def reference(acc, shift=0, bias=None, shifts=None, dtype="int16", relu=False, clamp=None, residual=None):
    channels = acc.shape[-1]
    v = acc.astype(np.int64).reshape(-1, channels)
    if bias is not None:
        v = v + np.asarray(bias, np.int64)
    s = np.broadcast_to(np.asarray(shifts if shifts is not None else shift, np.int64), v.shape)
    rounded = np.where(s > 0, (v + (np.int64(1) << np.maximum(s - 1, 0))) >> s, v)
    info = np.iinfo(dtype)
    q = np.clip(rounded, info.min, info.max)
    if residual is not None:
        q = np.clip(q + residual.astype(np.int64).reshape(q.shape), -32768, 32767)
    if relu:
        q = np.maximum(q, 0)
    if clamp is not None:
        q = np.clip(q, clamp[0], clamp[1])
    return q.reshape(acc.shape).astype(dtype)


def accumulators(rng, shape):
    acc = rng.integers(-2**31, 2**31, size=shape, dtype=np.int64).astype(np.int32)
    acc.flat[:: max(1, acc.size // 7)] = rng.integers(-300, 300, size=acc.flat[:: max(1, acc.size // 7)].size)
    return acc


@pytest.mark.parametrize("dtype", ["int16", "int8"])
@pytest.mark.parametrize("shift", [0, 1, 7, 31])
@pytest.mark.parametrize("activation", [{}, {"relu": True}, {"clamp": (-5, 90)}])
def test_requantize_matches_the_arithmetic(rng, dtype, shift, activation):
    acc = accumulators(rng, (3, 17, 5))
    got = dpx.requantize(acc, shift=shift, dtype=dtype, backend="cpu", **activation)
    assert got.dtype == np.dtype(dtype) and got.shape == acc.shape
    np.testing.assert_array_equal(got, reference(acc, shift=shift, dtype=dtype, **activation))


def test_per_channel_bias_and_shifts(rng):
    acc = accumulators(rng, (9, 6))
    bias = rng.integers(-2**31, 2**31, size=6, dtype=np.int64).astype(np.int32)
    shifts = rng.integers(0, 32, size=6).astype(np.int32)
    for kwargs in ({"bias": bias, "shift": 3}, {"shifts": shifts}, {"bias": list(bias), "shifts": shifts}):
        np.testing.assert_array_equal(dpx.requantize(acc, backend="cpu", **kwargs), reference(acc, **kwargs))


def test_requantize_residual(rng):
    acc = accumulators(rng, (4, 33))
    residual = rng.integers(-32768, 32768, size=acc.shape, dtype=np.int64).astype(np.int16)
    got = dpx.requantize_residual(acc, residual, shift=9, relu=True, backend="cpu")
    np.testing.assert_array_equal(got, reference(acc, shift=9, relu=True, residual=residual))


@pytest.mark.parametrize("function, numpy_op", [(dpx.max3, np.maximum), (dpx.min3, np.minimum)])
@pytest.mark.parametrize("activation", [{}, {"relu": True}, {"clamp": (-100, 100)}])
def test_merge3(rng, function, numpy_op, activation):
    a, b, c = (rng.integers(-32768, 32768, size=(7, 31), dtype=np.int64).astype(np.int16) for _ in range(3))
    want = numpy_op(numpy_op(a, b), c)
    if activation.get("relu"):
        want = np.maximum(want, 0)
    if "clamp" in activation:
        want = np.clip(want, *activation["clamp"])
    np.testing.assert_array_equal(function(a, b, c, backend="cpu", **activation), want)


def test_out_is_written_and_returned(rng):
    acc = accumulators(rng, (9, 16))
    out = np.full(acc.shape, 99, np.int8)
    assert dpx.requantize(acc, shift=9, dtype="int8", out=out) is out
    np.testing.assert_array_equal(out, reference(acc, shift=9, dtype="int8"))
    residual = rng.integers(-32768, 32768, size=acc.shape, dtype=np.int64).astype(np.int16)
    out16 = np.full(acc.shape, -1, np.int16)
    assert dpx.requantize_residual(acc, residual, shift=3, out=out16) is out16
    np.testing.assert_array_equal(out16, reference(acc, shift=3, residual=residual))
    a, b, c = (rng.integers(-32768, 32768, size=(5, 8), dtype=np.int64).astype(np.int16) for _ in range(3))
    want = np.maximum(np.maximum(a, b), c)
    assert dpx.max3(a, b, c, out=a) is a  # the very same array as an input: elementwise, allowed
    np.testing.assert_array_equal(a, want)


def test_strided_inputs_give_the_result_of_copies(rng):
    acc = accumulators(rng, (20, 8))
    np.testing.assert_array_equal(dpx.requantize(acc[::2, ::2], shift=4), reference(acc[::2, ::2].copy(), shift=4))


@pytest.mark.parametrize("call, message", [
    (lambda: dpx.requantize(np.zeros(4, np.int16)), "dtype must be int32"),
    (lambda: dpx.requantize(np.zeros(0, np.int32)), "empty"),
    (lambda: dpx.requantize(np.zeros(4, np.int32), shift=32), "shift"),
    (lambda: dpx.requantize(np.zeros(4, np.int32), dtype="int32"), "dtype must be"),
    (lambda: dpx.requantize(np.zeros((2, 4), np.int32), bias=[1, 2, 3]), "last dimension"),
    (lambda: dpx.requantize(np.zeros(4, np.int32), shifts=[0, 1, 2, 40]), "shift"),
    (lambda: dpx.requantize(np.zeros(4, np.int32), bias=[0.5] * 4), "integers"),
    (lambda: dpx.requantize(np.zeros(4, np.int32), relu=True, clamp=(0, 1)), "exclude"),
    (lambda: dpx.requantize(np.zeros(4, np.int32), clamp=(5, 1)), "clamp"),
    (lambda: dpx.requantize(np.zeros(4, np.int32), dtype="int8", clamp=(0, 300)), "clamp"),
    (lambda: dpx.requantize_residual(np.zeros(4, np.int32), np.zeros(5, np.int16)), "shape"),
    (lambda: dpx.requantize_residual(np.zeros(4, np.int32), np.zeros(4, np.int32)), "int16"),
    (lambda: dpx.max3(np.zeros(4, np.int16), np.zeros(4, np.int16), np.zeros(3, np.int16)), "shape"),
    (lambda: dpx.min3(np.zeros(4, np.int16), np.zeros(4, np.int8), np.zeros(4, np.int16)), "int16"),
    (lambda: dpx.requantize(np.zeros(4, np.int32), dtype="int8", out=np.zeros(4, np.int16)), "out: dtype must be int8"),
    (lambda: dpx.requantize(np.zeros(4, np.int32), out=np.zeros(5, np.int16)), "shape"),
    (lambda: dpx.requantize_residual(np.zeros(4, np.int32), np.zeros(4, np.int16), out=np.zeros(4, np.int8)),
     "int16 output"),
    (lambda: dpx.requantize(np.zeros(8, np.int32), out=np.zeros(16, np.int16)[::2]), "contiguous"),
    (lambda: (lambda buf: dpx.max3(buf[:8], buf[:8], buf[:8], backend="cpu", out=buf[1:]))(np.zeros(9, np.int16)),
     "overlaps"),
])
def test_bad_input_raises_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()
