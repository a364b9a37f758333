"""Host tensors offered only through DLPack (__dlpack__ / __dlpack_device__): the same results as
numpy arrays, the capsule consumed once and its deleter called, and bad tensors refused with a
ValueError that says why."""

import gc
import weakref

import numpy as np
import pytest

import dpx


class DLPackOnly:
    """A numpy array behind nothing but the DLPack protocol; `device` overrides what
    __dlpack_device__ reports, `reuse` hands out one capsule every time."""

    def __init__(self, array, device=None, reuse=False):
        self._array = array
        self._device = device
        self._capsule = array.__dlpack__() if reuse else None
        self.exports = 0

    def __dlpack__(self, stream=None):
        assert stream is None, "host tensors take no stream"
        self.exports += 1
        return self._capsule if self._capsule is not None else self._array.__dlpack__()

    def __dlpack_device__(self):
        return self._device if self._device is not None else self._array.__dlpack_device__()


def image(rng, shape, dtype=np.uint8):
    return rng.integers(0, np.iinfo(dtype).max + 1, size=shape, dtype=dtype)


def released(array_ref):
    gc.collect()
    return array_ref() is None


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
@pytest.mark.parametrize("shape", [(37, 53), (20, 31, 3)])
def test_morphology_of_a_dlpack_tensor_equals_numpy(rng, dtype, shape):
    img = image(rng, shape, dtype)
    wrapped = DLPackOnly(img)
    got = dpx.morphology(wrapped, "gradient", (5, 3), shape="cross", backend="cpu")
    assert isinstance(got, np.ndarray) and got.dtype == img.dtype and got.shape == img.shape
    np.testing.assert_array_equal(got, dpx.morphology(img, "gradient", (5, 3), shape="cross", backend="cpu"))
    assert wrapped.exports == 1


def test_strided_dlpack_tensors_equal_numpy(rng):
    img = image(rng, (40, 90))
    view = img[3:, ::3]  # a column stride of three samples, an offset into the array
    np.testing.assert_array_equal(dpx.morphology(DLPackOnly(view), "open", 3, backend="cpu"),
                                  dpx.morphology(np.ascontiguousarray(view), "open", 3, backend="cpu"))


def test_motion_vectors_of_dlpack_tensors_equal_numpy(rng):
    prev = image(rng, (64, 96))
    cur = np.roll(prev, (2, -3), axis=(0, 1))
    want_v, want_s = dpx.motion_vectors(prev, cur, block_size=8, search_range=6, backend="cpu", return_sad=True)
    v, s = dpx.motion_vectors(DLPackOnly(prev), DLPackOnly(cur), block_size=8, search_range=6, backend="cpu",
                              return_sad=True)
    np.testing.assert_array_equal(v, want_v)
    np.testing.assert_array_equal(s, want_s)


def test_epilogue_of_dlpack_tensors_equals_numpy(rng):
    acc = rng.integers(-2**31, 2**31, size=(9, 8), dtype=np.int64).astype(np.int32)
    residual = rng.integers(-32768, 32768, size=acc.shape).astype(np.int16)
    bias = rng.integers(-500, 500, size=8).astype(np.int32)
    np.testing.assert_array_equal(dpx.requantize(DLPackOnly(acc), shift=7, bias=bias, dtype="int8", relu=True,
                                                 backend="cpu"),
                                  dpx.requantize(acc, shift=7, bias=bias, dtype="int8", relu=True, backend="cpu"))
    np.testing.assert_array_equal(dpx.requantize_residual(DLPackOnly(acc), DLPackOnly(residual), shift=9,
                                                          clamp=(-99, 99), backend="cpu"),
                                  dpx.requantize_residual(acc, residual, shift=9, clamp=(-99, 99), backend="cpu"))
    a, b, c = (rng.integers(-32768, 32768, size=(5, 7)).astype(np.int16) for _ in range(3))
    got = dpx.max3(DLPackOnly(a), DLPackOnly(b), DLPackOnly(c), relu=True, backend="cpu")
    np.testing.assert_array_equal(got, dpx.max3(a, b, c, relu=True, backend="cpu"))


def test_results_into_dlpack_tensors(rng):
    img = image(rng, (30, 41))
    storage = np.full_like(img, 3)  # poisoned: every pixel must be written
    out = DLPackOnly(storage)
    assert dpx.morphology(img, "close", 5, backend="cpu", out=out) is out
    np.testing.assert_array_equal(storage, dpx.morphology(img, "close", 5, backend="cpu"))
    assert out.exports == 1
    acc = rng.integers(-2**31, 2**31, size=(6, 8), dtype=np.int64).astype(np.int32)
    q = np.full(acc.shape, 7, np.int8)
    q_out = DLPackOnly(q)
    assert dpx.requantize(acc, shift=5, dtype="int8", backend="cpu", out=q_out) is q_out
    np.testing.assert_array_equal(q, dpx.requantize(acc, shift=5, dtype="int8", backend="cpu"))


def test_the_deleter_runs(rng):
    img = image(rng, (16, 16))
    ref = weakref.ref(img)  # numpy's DLPack tensor holds the array until its deleter runs
    wrapped = DLPackOnly(img)
    del img
    dpx.morphology(wrapped, "dilate", backend="cpu")
    del wrapped
    assert released(ref)


def test_the_deleter_runs_when_a_tensor_is_refused(rng):
    img = image(rng, (16, 16)).astype(np.float32)
    ref = weakref.ref(img)
    wrapped = DLPackOnly(img)
    del img
    with pytest.raises(ValueError, match="dtype"):
        dpx.morphology(wrapped, "dilate", backend="cpu")
    del wrapped
    assert released(ref)


def test_a_capsule_is_consumed_once(rng):
    wrapped = DLPackOnly(image(rng, (8, 8)), reuse=True)
    dpx.morphology(wrapped, "erode", backend="cpu")
    with pytest.raises(ValueError, match="consumed once"):
        dpx.morphology(wrapped, "erode", backend="cpu")


def test_bad_dlpack_tensors_raise(rng):
    with pytest.raises(ValueError, match="dtype must be uint8 or uint16, got float32"):
        dpx.morphology(DLPackOnly(np.zeros((8, 8), np.float32)), "dilate", backend="cpu")
    with pytest.raises(ValueError, match="unsupported DLPack dtype"):
        dpx.morphology(DLPackOnly(np.zeros((8, 8), np.complex64)), "dilate", backend="cpu")
    with pytest.raises(ValueError, match="dimensions"):
        dpx.morphology(DLPackOnly(image(rng, (64,))), "dilate", backend="cpu")
    frames = image(rng, (2, 16, 16, 1))
    with pytest.raises(ValueError, match="dimensions"):
        dpx.motion_vectors(DLPackOnly(frames[0]), DLPackOnly(frames[1]), backend="cpu")
    with pytest.raises(ValueError, match="negative DLPack strides"):
        dpx.morphology(DLPackOnly(image(rng, (8, 8))[:, ::-1]), "dilate", backend="cpu")
    with pytest.raises(ValueError, match="empty"):
        dpx.morphology(DLPackOnly(image(rng, (0, 8))), "dilate", backend="cpu")


@pytest.mark.parametrize("device", [(4, 0), (10, 0), (14, 1)])  # OpenCL, ROCm, oneAPI
def test_other_devices_raise(rng, device):
    wrapped = DLPackOnly(image(rng, (8, 8)), device=device)
    with pytest.raises(ValueError, match="neither the CPU nor a CUDA device"):
        dpx.morphology(wrapped, "dilate")
    assert wrapped.exports == 0  # refused before a capsule was asked for


def test_a_tensor_elsewhere_than_its_device_says_raises(rng):
    img = image(rng, (8, 8))
    ref = weakref.ref(img)
    wrapped = DLPackOnly(img, device=(3, 0))  # claims pinned memory; the tensor says CPU
    del img
    with pytest.raises(ValueError, match="differs from __dlpack_device__"):
        dpx.morphology(wrapped, "dilate", backend="cpu")
    del wrapped
    assert released(ref)


@pytest.mark.skipif(dpx.cuda_built(), reason="dpx built with CUDA")
def test_a_cuda_dlpack_tensor_without_cuda_raises(rng):
    with pytest.raises(RuntimeError, match="without CUDA"):
        dpx.morphology(DLPackOnly(image(rng, (8, 8)), device=(2, 0)), "dilate")
