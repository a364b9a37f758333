"""Array plumbing shared by every family: numpy inputs made contiguous, results allocated beside
their inputs (numpy, CuPy, PyTorch or Numba), and the CUDA stream a call runs on."""

import sys

import numpy as np

from . import _dpx


_CUDA_BUILT = _dpx.cuda_built()


def is_cuda(x):
    """True for arrays in CUDA memory. CuPy and PyTorch are told by type (reading
    __cuda_array_interface__ builds a dict, which a small call notices)."""
    if isinstance(x, np.ndarray):
        return False
    kind = _framework(x)
    if kind == "cupy" or kind == "dpx":
        return True
    if kind == "torch":
        return bool(x.is_cuda)
    return hasattr(x, "__cuda_array_interface__")


def prepare(x, name="array", stream=None):
    """A CUDA array as it is; an object offering only DLPack through it (a dpx.DeviceArray lending
    CUDA memory, or a numpy array over host memory); anything else as a C-contiguous numpy array.
    `stream` is the call's (as its `stream` argument): a DLPack exporter orders its work before it."""
    if isinstance(x, np.ndarray):
        return np.ascontiguousarray(x)
    if is_cuda(x):
        if not _CUDA_BUILT:
            raise RuntimeError(f"{name} is a CUDA array, but dpx was built without CUDA support")
        return x
    if _offers_only_dlpack(x):
        x = _dpx.from_dlpack(x, name, stream_handle(None, stream))  # None: the default stream
        if isinstance(x, _dpx.DeviceArray):
            return x
    return np.ascontiguousarray(x)


def _offers_only_dlpack(x):
    """True for an object whose memory comes only through DLPack (one that also offers
    __array_interface__ is read through that)."""
    return hasattr(x, "__dlpack__") and not hasattr(x, "__array_interface__")


_FRAMEWORKS = {}  # type -> its package's name, looked up once a type


def _framework(x):
    t = type(x)
    kind = _FRAMEWORKS.get(t)
    if kind is None:
        kind = _FRAMEWORKS[t] = "dpx" if t is _dpx.DeviceArray else t.__module__.split(".")[0]
    return kind


def output(out, like, shape=None, dtype=None, stream=None):
    """The array a call writes its result into: the caller's `out`, used in place (the call checks
    its dtype, shape, side and that it is writable and apart from the inputs), or, when None, a new
    array beside `like` (empty_like). Never a copy: a result must not land in a temporary."""
    if out is None:
        return empty_like(like, shape, dtype)
    if isinstance(out, np.ndarray) or is_cuda(out):
        return out
    if _offers_only_dlpack(out):
        return _dpx.from_dlpack(out, "out", stream_handle(None, stream))
    raise TypeError(f"out: expected a numpy array or a CUDA array, got {type(out).__name__}")


_TORCH_DTYPES = ("uint8", "int8", "int16", "uint16", "int32", "uint32", "int64", "float32", "float64")


def empty_like(x, shape=None, dtype=None):
    """A new C-contiguous array of `shape` and `dtype` (numpy's name; default: x's) where x lives."""
    if shape is None:
        shape = x.shape if hasattr(x, "shape") else tuple(x.__cuda_array_interface__["shape"])
    kind = _framework(x)
    if kind == "cupy":  # first: the small-call path
        cupy = sys.modules["cupy"]
        device = x.data.device_id
        if device == cupy.cuda.runtime.getDevice():
            return cupy.empty(shape, x.dtype if dtype is None else dtype)
        with cupy.cuda.Device(device):
            return cupy.empty(shape, x.dtype if dtype is None else dtype)
    if not is_cuda(x):
        return np.empty(shape, dtype=x.dtype if dtype is None else np.dtype(dtype))
    if kind == "torch":
        import torch
        if dtype is None:
            torch_dtype = x.dtype
        elif str(np.dtype(dtype)) in _TORCH_DTYPES:
            torch_dtype = getattr(torch, str(np.dtype(dtype)))
        else:
            raise TypeError(f"no PyTorch dtype for {dtype}")
        return torch.empty(shape, dtype=torch_dtype, device=x.device)
    if kind == "dpx":
        return _dpx.DeviceArray.empty(shape, np.dtype(x.dtype if dtype is None else dtype).name, x.device)
    if kind == "numba":
        from numba import cuda
        return cuda.device_array(shape, dtype=x.dtype if dtype is None else np.dtype(dtype))
    raise TypeError(f"cannot allocate a result beside a {type(x).__name__} CUDA array; "
                    "pass a CuPy array, a PyTorch tensor or a Numba device array")


def stream_handle(x, stream):
    """The cudaStream_t a call runs on, as an integer: `stream` (an int, a CuPy or Numba stream, a
    torch.cuda.Stream) or, when None, the current stream of x's framework (0, the default stream,
    for numpy arrays and other frameworks)."""
    if stream is None:
        kind = _framework(x)
        if kind == "cupy":
            return sys.modules["cupy"].cuda.get_current_stream().ptr
        if kind == "torch" and x.is_cuda:
            return sys.modules["torch"].cuda.current_stream(x.device).cuda_stream
        return 0
    if isinstance(stream, int):
        return stream
    for attr in ("ptr", "cuda_stream", "handle"):
        value = getattr(stream, attr, None)
        if value is not None:
            return int(getattr(value, "value", value) or 0)
    raise TypeError(f"stream: expected an int, a CuPy, Numba or PyTorch stream, got {type(stream).__name__}")


def dtype_name(x):
    """numpy's name of x's dtype ("int16"), whatever x's framework ("torch.int16" for PyTorch)."""
    return str(x.dtype).rsplit(".", 1)[-1]


def view(x, dtype):
    """x's bytes as `dtype` (numpy's name), the last axis rescaled, in x's framework."""
    if _framework(x) == "torch":
        import torch
        return x.view(getattr(torch, dtype))
    return x.view(dtype)


def astype(x, dtype):
    """A copy of x converted to `dtype` (numpy's name), in x's framework."""
    if _framework(x) == "torch":
        import torch
        return x.to(getattr(torch, dtype))
    return x.astype(dtype)


def contiguous(x):
    if _framework(x) == "torch":
        return x.contiguous()
    if _framework(x) == "cupy":
        import cupy
        return cupy.ascontiguousarray(x)
    return np.ascontiguousarray(x)
