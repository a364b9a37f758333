"""dpx: morphology, motion vectors, sequence alignment and a quantised epilogue on the DPX
instructions of NVIDIA Hopper GPUs, with a CPU twin giving the same bits.

Every function takes numpy arrays (run on the backend asked for: CUDA when a device is usable,
else the CPU) or CUDA arrays (CuPy, PyTorch, Numba: anything with __cuda_array_interface__ or
DLPack), which are used in place and give results on the same device, queued on the caller's
stream. Results for CUDA tensors that come only through DLPack are dpx.DeviceArray objects.
"""

from ._dpx import DeviceArray, cuda_built, cuda_device_count
from ._morphology import morphology
from ._motion import motion_vectors
from ._alignment import Alignment, Hit, align, dtw, edit_distance, search, sw_scores
from ._epilogue import max3, min3, requantize, requantize_residual

__all__ = ["DeviceArray", "cuda_built", "cuda_device_count", "morphology", "motion_vectors", "Alignment", "Hit", "sw_scores", "align",
           "search", "edit_distance", "dtw", "requantize", "requantize_residual", "max3", "min3"]
