from typing import Any, List, Literal, NamedTuple, Optional, Sequence, Tuple, Union, overload

import numpy as np

Array = Any  # a numpy array, a CUDA array (CuPy, PyTorch, Numba, DeviceArray) or a DLPack tensor
Stream = Union[int, Any, None]
Backend = Literal["auto", "cuda", "cpu"]

class DeviceArray:
    @staticmethod
    def empty(shape: Sequence[int], dtype: Any, device: int) -> "DeviceArray": ...
    @property
    def shape(self) -> Tuple[int, ...]: ...
    @property
    def strides(self) -> Tuple[int, ...]: ...
    @property
    def dtype(self) -> np.dtype: ...
    @property
    def ndim(self) -> int: ...
    @property
    def size(self) -> int: ...
    @property
    def nbytes(self) -> int: ...
    @property
    def device(self) -> int: ...
    @property
    def __cuda_array_interface__(self) -> dict: ...
    def __dlpack__(self, *, stream: Optional[int] = None) -> Any: ...
    def __dlpack_device__(self) -> Tuple[int, int]: ...
    def get(self) -> np.ndarray: ...

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
    out: Optional[Array] = None,
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

Sequence_ = Union[str, bytes, bytearray, memoryview]
Matrix = Literal["blosum45", "blosum50", "blosum62", "blosum80", "pam250", "dna"]

class Alignment(NamedTuple):
    score: int
    query_begin: int
    query_end: int
    target_begin: int
    target_end: int
    cigar: str

class Hit(NamedTuple):
    target: int
    score: int
    query_begin: int
    query_end: int
    target_begin: int
    target_end: int
    cigar: str

def sw_scores(
    queries: Sequence[Sequence_],
    targets: Sequence[Sequence_],
    matrix: Matrix = "blosum62",
    gap_open: int = 11,
    gap_extend: int = 1,
    backend: Backend = "auto",
    match: int = 2,
    mismatch: int = -3,
) -> np.ndarray: ...
def align(
    queries: Sequence[Sequence_],
    targets: Sequence[Sequence_],
    mode: Literal["sw", "nw", "semiglobal"] = "sw",
    matrix: Matrix = "blosum62",
    gap_open: int = 11,
    gap_extend: int = 1,
    traceback: bool = True,
    backend: Backend = "auto",
    match: int = 2,
    mismatch: int = -3,
) -> List[Alignment]: ...
def search(
    queries: Sequence[Sequence_],
    database: Sequence[Sequence_],
    top: int = 10,
    min_score: int = 1,
    matrix: Matrix = "blosum62",
    gap_open: int = 11,
    gap_extend: int = 1,
    backend: Backend = "auto",
    match: int = 2,
    mismatch: int = -3,
) -> List[List[Hit]]: ...
@overload
def edit_distance(a: Sequence[Sequence_], b: Sequence[Sequence_], cigar: Literal[False] = False,
                  backend: Backend = "auto") -> np.ndarray: ...
@overload
def edit_distance(a: Sequence[Sequence_], b: Sequence[Sequence_], cigar: Literal[True],
                  backend: Backend = "auto") -> Tuple[np.ndarray, List[str]]: ...
def dtw(
    x: Sequence[np.ndarray],
    y: Sequence[np.ndarray],
    cost: Literal["abs", "squared"] = "abs",
    band: Optional[int] = None,
    backend: Backend = "auto",
) -> np.ndarray: ...
def requantize(
    acc: Array,
    shift: int = 0,
    bias: Optional[Any] = None,
    shifts: Optional[Any] = None,
    dtype: Literal["int16", "int8"] = "int16",
    relu: bool = False,
    clamp: Optional[Tuple[int, int]] = None,
    backend: Backend = "auto",
    stream: Stream = None,
    out: Optional[Array] = None,
) -> Array: ...
def requantize_residual(
    acc: Array,
    residual: Array,
    shift: int = 0,
    bias: Optional[Any] = None,
    shifts: Optional[Any] = None,
    relu: bool = False,
    clamp: Optional[Tuple[int, int]] = None,
    backend: Backend = "auto",
    stream: Stream = None,
    out: Optional[Array] = None,
) -> Array: ...
def max3(a: Array, b: Array, c: Array, relu: bool = False, clamp: Optional[Tuple[int, int]] = None,
         backend: Backend = "auto", stream: Stream = None, out: Optional[Array] = None) -> Array: ...
def min3(a: Array, b: Array, c: Array, relu: bool = False, clamp: Optional[Tuple[int, int]] = None,
         backend: Backend = "auto", stream: Stream = None, out: Optional[Array] = None) -> Array: ...
