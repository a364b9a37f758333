from typing import Any, Literal, Sequence, Tuple, Union

import numpy as np

Array = Any  # a numpy array, or a CUDA array (CuPy, PyTorch, Numba)
Stream = Union[int, Any, None]
Backend = Literal["auto", "cuda", "cpu"]

def cuda_built() -> bool: ...
def cuda_device_count() -> int: ...
def morphology(
    img: Array,
    op: Literal["dilate", "erode", "open", "close", "gradient", "tophat", "blackhat"],
    ksize: Union[int, Tuple[int, int]] = (3, 3),
    shape: Literal["rect", "cross", "ellipse"] = "rect",
    iterations: int = 1,
    border: Literal["replicate", "reflect101", "neutral"] = "replicate",
    backend: Backend = "auto",
    stream: Stream = None,
) -> Array: ...
def motion_vectors(
    prev: Array,
    cur: Array,
    block_size: int = 16,
    search_range: int = 16,
    subpel: Literal["none", "half", "quarter"] = "none",
    search: Literal["full", "predictive"] = "full",
    lambda_: int = 0,
    backend: Backend = "auto",
    return_sad: bool = False,
    stream: Stream = None,
) -> Union[Array, Tuple[Array, Array]]: ...
