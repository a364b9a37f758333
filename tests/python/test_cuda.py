"""The CUDA paths: CuPy arrays and PyTorch tensors used in place (results of the same kind on the
same device, on the caller's stream), numpy arrays copied there and back, and the sequence calls on
the GPU — each against the CPU backend, which test_*.py check against OpenCV, parasail, edlib and
the definitions. Every test skips (and is counted) where no CUDA device is usable."""

import numpy as np
import pytest

import dpx
from conftest import needs_cuda

pytestmark = needs_cuda


@pytest.fixture
def cp():
    return pytest.importorskip("cupy")


@pytest.fixture
def torch():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch without CUDA")
    return torch


def image(rng, shape, dtype=np.uint8):
    return rng.integers(0, np.iinfo(dtype).max + 1, size=shape, dtype=dtype)


@pytest.mark.parametrize("op", ["dilate", "erode", "open", "close", "gradient", "tophat", "blackhat"])
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
@pytest.mark.parametrize("channels", [1, 2, 3, 4])
def test_morphology_cupy_matches_cpu(rng, cp, op, dtype, channels):
    img = image(rng, (67, 129) if channels == 1 else (67, 129, channels), dtype)
    d = cp.asarray(img)
    got = dpx.morphology(d, op, (5, 3), shape="ellipse", iterations=2, border="reflect101")
    assert isinstance(got, cp.ndarray) and got.dtype == d.dtype and got.shape == d.shape
    np.testing.assert_array_equal(cp.asnumpy(got), dpx.morphology(img, op, (5, 3), shape="ellipse", iterations=2,
                                                                   border="reflect101", backend="cpu"))
    np.testing.assert_array_equal(cp.asnumpy(d), img)  # the input is left alone


@pytest.mark.parametrize("ksize, shape", [(3, "rect"), (5, "rect"), ((1, 15), "rect"), ((31, 31), "rect"),
                                          (7, "cross"), (9, "ellipse")])
def test_morphology_4k_cupy_matches_cpu(rng, cp, ksize, shape):
    img = image(rng, (2160, 3840))
    got = dpx.morphology(cp.asarray(img), "dilate", ksize, shape=shape)
    np.testing.assert_array_equal(cp.asnumpy(got), dpx.morphology(img, "dilate", ksize, shape=shape, backend="cpu"))


def test_morphology_pitched_cupy_view_runs_in_place(rng, cp):
    img = image(rng, (100, 160, 4))
    view = cp.asarray(img)[10:90, 7:150]  # rows padded: the pitch of the parent
    got = dpx.morphology(view, "close", 5)
    np.testing.assert_array_equal(cp.asnumpy(got), dpx.morphology(img[10:90, 7:150], "close", 5, backend="cpu"))


def test_morphology_strided_cupy_pixels_raise(rng, cp):
    with pytest.raises(ValueError, match="packed"):
        dpx.morphology(cp.asarray(image(rng, (64, 64)))[:, ::2], "dilate")


def test_morphology_into_a_cupy_out(rng, cp):
    img = image(rng, (70, 133, 2), np.uint16)
    want = dpx.morphology(img, "blackhat", (7, 5), shape="cross", backend="cpu")
    parent = cp.full((70, 140, 2), 0x5A5A, cp.uint16)  # poisoned; rows padded by the parent's pitch
    out = parent[:, 3:136]
    assert dpx.morphology(cp.asarray(img), "blackhat", (7, 5), shape="cross", out=out) is out
    np.testing.assert_array_equal(cp.asnumpy(out), want)
    assert (cp.asnumpy(parent[:, :3]) == 0x5A5A).all() and (cp.asnumpy(parent[:, 136:]) == 0x5A5A).all()
    host = np.full_like(img, 1)
    assert dpx.morphology(img, "blackhat", (7, 5), shape="cross", backend="cuda", out=host) is host
    np.testing.assert_array_equal(host, want)


def test_morphology_into_a_torch_out(rng, torch):
    img = image(rng, (70, 133))
    out = torch.full((70, 133), 7, dtype=torch.uint8, device="cuda")
    assert dpx.morphology(torch.from_numpy(img).cuda(), "tophat", 9, shape="ellipse", out=out) is out
    torch.cuda.synchronize()
    np.testing.assert_array_equal(out.cpu().numpy(), dpx.morphology(img, "tophat", 9, shape="ellipse", backend="cpu"))


def test_morphology_out_on_the_other_side_raises(rng, cp):
    img = image(rng, (32, 32))
    with pytest.raises(ValueError, match="same side"):
        dpx.morphology(cp.asarray(img), "dilate", out=np.empty_like(img))
    with pytest.raises(ValueError, match="same side"):
        dpx.morphology(img, "dilate", out=cp.empty((32, 32), cp.uint8))
    d = cp.asarray(img)
    with pytest.raises(ValueError, match="overlap"):
        dpx.morphology(d, "dilate", out=d)


def test_morphology_numpy_on_cuda_matches_cpu(rng):
    img = image(rng, (123, 77, 3), np.uint16)
    np.testing.assert_array_equal(dpx.morphology(img, "tophat", 7, backend="cuda"),
                                  dpx.morphology(img, "tophat", 7, backend="cpu"))


def test_morphology_torch_tensor(rng, torch):
    img = image(rng, (90, 111))
    t = torch.from_numpy(img).cuda()
    got = dpx.morphology(t, "gradient", 3)
    assert isinstance(got, torch.Tensor) and got.device == t.device and got.dtype == torch.uint8
    np.testing.assert_array_equal(got.cpu().numpy(), dpx.morphology(img, "gradient", 3, backend="cpu"))


def test_morphology_on_a_cupy_stream(rng, cp):
    img = image(rng, (512, 768))
    d = cp.asarray(img)
    cp.cuda.Device().synchronize()
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        got = dpx.morphology(d, "open", 9)  # CuPy's current stream: `stream`
        again = dpx.morphology(d, "open", 9, stream=stream.ptr)
    stream.synchronize()
    want = dpx.morphology(img, "open", 9, backend="cpu")
    np.testing.assert_array_equal(cp.asnumpy(got), want)
    np.testing.assert_array_equal(cp.asnumpy(again), want)


def test_morphology_on_a_torch_stream(rng, torch):
    img = image(rng, (256, 300))
    t = torch.from_numpy(img).cuda()
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        got = dpx.morphology(t, "erode", 5)
    stream.synchronize()
    np.testing.assert_array_equal(got.cpu().numpy(), dpx.morphology(img, "erode", 5, backend="cpu"))


def test_cuda_arrays_refuse_the_cpu_backend_and_numpy_partners(rng, cp):
    d = cp.asarray(image(rng, (32, 32)))
    with pytest.raises(ValueError, match="backend='cpu'"):
        dpx.morphology(d, "dilate", backend="cpu")
    with pytest.raises(ValueError, match="same side"):
        dpx.motion_vectors(image(rng, (32, 32)), d)


def test_arrays_on_two_devices_raise(rng, cp):
    if cp.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("one CUDA device")
    a = cp.asarray(image(rng, (32, 32)))
    with cp.cuda.Device(1):
        b = cp.asarray(image(rng, (32, 32)))
        got = dpx.morphology(b, "dilate")
        assert got.device.id == 1
    with pytest.raises(ValueError, match="device"):
        dpx.motion_vectors(a, b)


def test_bad_cuda_input_raises(rng, cp):
    with pytest.raises(ValueError, match="dtype"):
        dpx.morphology(cp.zeros((8, 8), cp.float32), "dilate")
    with pytest.raises(ValueError, match="empty"):
        dpx.morphology(cp.zeros((0, 8), cp.uint8), "dilate")
    with pytest.raises(ValueError, match="dimensions"):
        dpx.morphology(cp.zeros((2, 8, 8, 1), cp.uint8), "dilate")


@pytest.mark.parametrize("subpel", ["none", "quarter"])
def test_motion_vectors_cupy_and_torch_match_cpu(rng, cp, subpel):
    prev = image(rng, (144, 176))
    cur = np.roll(prev, (3, -2), axis=(0, 1))
    want_v, want_s = dpx.motion_vectors(prev, cur, block_size=8, search_range=8, subpel=subpel, lambda_=2,
                                        backend="cpu", return_sad=True)
    v, s = dpx.motion_vectors(cp.asarray(prev), cp.asarray(cur), block_size=8, search_range=8, subpel=subpel,
                              lambda_=2, return_sad=True)
    assert isinstance(v, cp.ndarray) and v.dtype == cp.float32 and s.dtype == cp.int32
    np.testing.assert_array_equal(cp.asnumpy(v), want_v)
    np.testing.assert_array_equal(cp.asnumpy(s), want_s)
    np.testing.assert_array_equal(dpx.motion_vectors(prev, cur, block_size=8, search_range=8, subpel=subpel, lambda_=2,
                                                     backend="cuda"), want_v)


def test_motion_vectors_torch(rng, torch):
    prev = image(rng, (64, 96))
    cur = np.roll(prev, 4, axis=1)
    v, s = dpx.motion_vectors(torch.from_numpy(prev).cuda(), torch.from_numpy(cur).cuda(), return_sad=True)
    assert v.is_cuda and v.dtype == torch.float32
    want_v, want_s = dpx.motion_vectors(prev, cur, backend="cpu", return_sad=True)
    np.testing.assert_array_equal(v.cpu().numpy(), want_v)
    np.testing.assert_array_equal(s.cpu().numpy(), want_s)


def test_epilogue_cupy_matches_cpu(rng, cp):
    acc = rng.integers(-2**31, 2**31, size=(33, 16), dtype=np.int64).astype(np.int32)
    bias = rng.integers(-1000, 1000, size=16).astype(np.int32)
    residual = rng.integers(-32768, 32768, size=acc.shape).astype(np.int16)
    got = dpx.requantize(cp.asarray(acc), shift=5, bias=bias, dtype="int8", relu=True)
    np.testing.assert_array_equal(cp.asnumpy(got), dpx.requantize(acc, shift=5, bias=bias, dtype="int8", relu=True,
                                                                  backend="cpu"))
    got = dpx.requantize_residual(cp.asarray(acc), cp.asarray(residual), shift=12, clamp=(-50, 50))
    np.testing.assert_array_equal(cp.asnumpy(got), dpx.requantize_residual(acc, residual, shift=12, clamp=(-50, 50),
                                                                           backend="cpu"))
    a, b, c = (rng.integers(-32768, 32768, size=1001).astype(np.int16) for _ in range(3))
    np.testing.assert_array_equal(cp.asnumpy(dpx.max3(cp.asarray(a), cp.asarray(b), cp.asarray(c))),
                                  dpx.max3(a, b, c, backend="cpu"))
    out = cp.full(acc.shape, 99, cp.int8)
    assert dpx.requantize(cp.asarray(acc), shift=5, bias=bias, dtype="int8", relu=True, out=out) is out
    np.testing.assert_array_equal(cp.asnumpy(out), dpx.requantize(acc, shift=5, bias=bias, dtype="int8", relu=True,
                                                                  backend="cpu"))
    np.testing.assert_array_equal(dpx.min3(a, b, c, backend="cuda"), dpx.min3(a, b, c, backend="cpu"))


def test_epilogue_torch(rng, torch):
    acc = rng.integers(-2**20, 2**20, size=(8, 8, 4)).astype(np.int32)
    got = dpx.requantize(torch.from_numpy(acc).cuda(), shift=3)
    assert got.is_cuda and got.dtype == torch.int16
    np.testing.assert_array_equal(got.cpu().numpy(), dpx.requantize(acc, shift=3, backend="cpu"))


def test_sequences_on_cuda_match_cpu(rng):
    letters = list("ARNDCQEGHILKMFPSTWYV")
    seqs = ["".join(rng.choice(letters, size=int(rng.integers(1, 300)))) for _ in range(24)]
    q, t = seqs[:12], seqs[12:]
    np.testing.assert_array_equal(dpx.sw_scores(q, t, backend="cuda"), dpx.sw_scores(q, t, backend="cpu"))
    for mode in ("sw", "nw", "semiglobal"):
        assert dpx.align(q, t, mode=mode, backend="cuda") == dpx.align(q, t, mode=mode, backend="cpu")
    d_cuda, c_cuda = dpx.edit_distance(q, t, cigar=True, backend="cuda")
    d_cpu, c_cpu = dpx.edit_distance(q, t, cigar=True, backend="cpu")
    np.testing.assert_array_equal(d_cuda, d_cpu)
    assert c_cuda == c_cpu
    assert dpx.search(q, seqs, top=5, backend="cuda") == dpx.search(q, seqs, top=5, backend="cpu")
    x = [rng.integers(-100, 100, size=int(rng.integers(1, 200))).astype(np.int32) for _ in range(8)]
    y = [rng.integers(-100, 100, size=int(rng.integers(1, 200))).astype(np.int32) for _ in range(8)]
    np.testing.assert_array_equal(dpx.dtw(x, y, band=20, backend="cuda"), dpx.dtw(x, y, band=20, backend="cpu"))
    xf, yf = [s.astype(np.float32) / 7 for s in x], [s.astype(np.float32) / 3 for s in y]
    np.testing.assert_array_equal(dpx.dtw(xf, yf, cost="squared", backend="cuda"),
                                  dpx.dtw(xf, yf, cost="squared", backend="cpu"))


class CudaDLPackOnly:
    """A CuPy array or PyTorch tensor behind nothing but the DLPack protocol; keeps the stream
    arguments it was asked for."""

    def __init__(self, array):
        self._array = array
        self.streams = []

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        return self._array.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()


def test_morphology_of_a_cuda_dlpack_tensor(rng, cp):
    img = image(rng, (75, 130, 2), np.uint16)
    d = cp.asarray(img)
    wrapped = CudaDLPackOnly(d)
    got = dpx.morphology(wrapped, "close", (3, 5), border="neutral")
    want = dpx.morphology(img, "close", (3, 5), border="neutral", backend="cpu")
    assert isinstance(got, dpx.DeviceArray) and got.shape == img.shape and got.dtype == img.dtype
    assert got.device == d.device.id and got.__dlpack_device__() == (2, d.device.id)
    assert wrapped.streams == [1]  # the legacy default stream, as the array API spells it
    np.testing.assert_array_equal(got.get(), want)
    np.testing.assert_array_equal(cp.asnumpy(cp.asarray(got)), want)  # __cuda_array_interface__
    np.testing.assert_array_equal(cp.asnumpy(cp.from_dlpack(got)), want)
    again = dpx.morphology(got, "dilate")  # a DeviceArray is a CUDA array like any other
    assert isinstance(again, dpx.DeviceArray)
    np.testing.assert_array_equal(again.get(), dpx.morphology(want, "dilate", backend="cpu"))


def test_a_cuda_dlpack_tensor_on_a_stream(rng, cp):
    img = image(rng, (128, 200))
    d = cp.asarray(img)
    cp.cuda.Device().synchronize()
    stream = cp.cuda.Stream(non_blocking=True)
    wrapped = CudaDLPackOnly(d)
    got = dpx.morphology(wrapped, "tophat", 7, stream=stream)
    assert wrapped.streams == [stream.ptr]
    np.testing.assert_array_equal(got.get(), dpx.morphology(img, "tophat", 7, backend="cpu"))


def test_the_cuda_dlpack_deleter_runs(rng, cp):
    import sys
    d = cp.asarray(image(rng, (64, 64)))
    before = sys.getrefcount(d)
    got = dpx.morphology(CudaDLPackOnly(d), "erode")
    assert got.shape == (64, 64)
    import gc
    gc.collect()
    assert sys.getrefcount(d) == before  # CuPy's tensor held the array until its deleter ran


def test_epilogue_of_cuda_dlpack_tensors(rng, cp):
    acc = rng.integers(-2**31, 2**31, size=(17, 8), dtype=np.int64).astype(np.int32)
    got = dpx.requantize(CudaDLPackOnly(cp.asarray(acc)), shift=6, dtype="int8", clamp=(-20, 90))
    assert isinstance(got, dpx.DeviceArray) and got.dtype == np.int8
    np.testing.assert_array_equal(got.get(), dpx.requantize(acc, shift=6, dtype="int8", clamp=(-20, 90),
                                                            backend="cpu"))
    a, b, c = (rng.integers(-32768, 32768, size=(3, 333)).astype(np.int16) for _ in range(3))
    got = dpx.min3(*(CudaDLPackOnly(cp.asarray(x)) for x in (a, b, c)), relu=True)
    np.testing.assert_array_equal(got.get(), dpx.min3(a, b, c, relu=True, backend="cpu"))


def motion_pair(rng, shape, dtype):
    """Two frames, the second the first moved (its rows and columns partly covered by blocks)."""
    prev = image(rng, shape, dtype)
    return prev, np.roll(prev, (3, -5), axis=(0, 1))


def check_motion_results(got, want, return_sad, device):
    results, wanted = (got, want) if return_sad else ((got,), (want,))
    assert len(results) == len(wanted)
    for r, w in zip(results, wanted):
        assert isinstance(r, dpx.DeviceArray) and r.device == device
        assert r.dtype == w.dtype and r.shape == w.shape
        np.testing.assert_array_equal(r.get(), w)


@pytest.mark.parametrize("subpel", ["none", "half", "quarter"])
@pytest.mark.parametrize("return_sad", [False, True])
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
def test_motion_vectors_of_cuda_dlpack_tensors(rng, cp, subpel, return_sad, dtype):
    prev, cur = motion_pair(rng, (70, 101), dtype)
    kwargs = dict(block_size=8, search_range=7, subpel=subpel, lambda_=3, return_sad=return_sad)
    want = dpx.motion_vectors(prev, cur, backend="cpu", **kwargs)  # the numpy path
    wrapped_prev, wrapped_cur = CudaDLPackOnly(cp.asarray(prev)), CudaDLPackOnly(cp.asarray(cur))
    got = dpx.motion_vectors(wrapped_prev, wrapped_cur, **kwargs)
    assert wrapped_prev.streams == [1] and wrapped_cur.streams == [1]
    check_motion_results(got, want, return_sad, cp.cuda.runtime.getDevice())


@pytest.mark.parametrize("return_sad", [False, True])
def test_motion_vectors_of_cuda_dlpack_tensors_on_a_stream(rng, cp, return_sad):
    prev, cur = motion_pair(rng, (96, 128), np.uint8)
    kwargs = dict(search="predictive", search_range=20, subpel="quarter", return_sad=return_sad)
    d_prev, d_cur = cp.asarray(prev), cp.asarray(cur)
    cp.cuda.Device().synchronize()
    stream = cp.cuda.Stream(non_blocking=True)
    wrapped_prev, wrapped_cur = CudaDLPackOnly(d_prev), CudaDLPackOnly(d_cur)
    got = dpx.motion_vectors(wrapped_prev, wrapped_cur, stream=stream, **kwargs)
    assert wrapped_prev.streams == [stream.ptr] and wrapped_cur.streams == [stream.ptr]
    check_motion_results(got, dpx.motion_vectors(prev, cur, backend="cpu", **kwargs), return_sad, d_cur.device.id)


def test_motion_vectors_of_device_arrays(rng, cp):
    prev, cur = motion_pair(rng, (64, 80), np.uint8)
    # DeviceArrays from a call on DLPack tensors are frames like any other
    d_prev, d_cur = (dpx.morphology(CudaDLPackOnly(cp.asarray(f)), "dilate", 3) for f in (prev, cur))
    want = dpx.motion_vectors(*(dpx.morphology(f, "dilate", 3, backend="cpu") for f in (prev, cur)), block_size=16,
                              subpel="half", backend="cpu", return_sad=True)
    got = dpx.motion_vectors(d_prev, d_cur, block_size=16, subpel="half", return_sad=True)
    check_motion_results(got, want, True, d_cur.device)


@pytest.mark.parametrize("return_sad", [False, True])
def test_motion_vectors_of_torch_dlpack_tensors(rng, torch, return_sad):
    prev, cur = motion_pair(rng, (45, 77), np.uint8)
    kwargs = dict(block_size=4, search_range=5, subpel="quarter", return_sad=return_sad)
    got = dpx.motion_vectors(CudaDLPackOnly(torch.from_numpy(prev).cuda()),
                             CudaDLPackOnly(torch.from_numpy(cur).cuda()), **kwargs)
    check_motion_results(got, dpx.motion_vectors(prev, cur, backend="cpu", **kwargs), return_sad,
                         torch.cuda.current_device())


def test_torch_tensors_through_dlpack(rng, torch):
    img = image(rng, (50, 70))
    got = dpx.morphology(CudaDLPackOnly(torch.from_numpy(img).cuda()), "blackhat", 5)
    np.testing.assert_array_equal(torch.from_dlpack(got).cpu().numpy(),
                                  dpx.morphology(img, "blackhat", 5, backend="cpu"))


def test_bad_cuda_dlpack_tensors_raise(rng, cp):
    with pytest.raises(ValueError, match="dtype"):
        dpx.morphology(CudaDLPackOnly(cp.zeros((8, 8), cp.int32)), "dilate")
    with pytest.raises(ValueError, match="dimensions"):
        dpx.morphology(CudaDLPackOnly(cp.zeros((8,), cp.uint8)), "dilate")
    with pytest.raises(ValueError, match="packed"):
        dpx.morphology(CudaDLPackOnly(cp.zeros((8, 16), cp.uint8)[:, ::2]), "dilate")
    with pytest.raises(ValueError, match="backend='cpu'"):
        dpx.morphology(CudaDLPackOnly(cp.zeros((8, 8), cp.uint8)), "dilate", backend="cpu")
    frame = cp.zeros((32, 32), cp.uint8)
    with pytest.raises(ValueError, match="same side"):
        dpx.motion_vectors(CudaDLPackOnly(frame), np.zeros((32, 32), np.uint8))
    with pytest.raises(ValueError, match="backend='cpu'"):
        dpx.motion_vectors(CudaDLPackOnly(frame), CudaDLPackOnly(frame), backend="cpu")


def test_a_cuda_dlpack_tensor_on_another_device_raises(rng, cp):
    if cp.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("one CUDA device")
    with cp.cuda.Device(1):
        d = cp.asarray(image(rng, (32, 32)))
    with pytest.raises(ValueError, match="device 1"):
        dpx.morphology(CudaDLPackOnly(d), "dilate")
