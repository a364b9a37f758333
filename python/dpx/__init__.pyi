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
