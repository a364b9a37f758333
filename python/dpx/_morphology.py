from . import _arrays, _dpx


def _element_size(ksize):
    if isinstance(ksize, int):
        return ksize, ksize
    try:
        width, height = ksize
        return int(width), int(height)
    except (TypeError, ValueError):
        raise ValueError(f"ksize must be an int or a (width, height) pair, got {ksize!r}") from None


def morphology(img, op, ksize=(3, 3), shape="rect", iterations=1, border="replicate", backend="auto",
               stream=None, out=None):
    """Grayscale morphology of an image, each channel on its own; OpenCV's morphologyEx results.

    img: a 2-D uint8/uint16 array, or 3-D with channels last; a numpy array or a CUDA array
        (CuPy, PyTorch, Numba, or a DLPack tensor), which is used in place.
    op: 'dilate', 'erode', 'open', 'close', 'gradient' (dilate - erode), 'tophat' (img - open) or
        'blackhat' (close - img).
    ksize: (width, height) of the structuring element, odd; an int for a square. Rectangles up to
        255, crosses and ellipses up to 63.
    shape: 'rect', 'cross' or 'ellipse' (cv2.getStructuringElement's masks).
    iterations: as in cv2.morphologyEx (open x2 = erode, erode, dilate, dilate).
    border: 'replicate' (cv2.BORDER_REPLICATE), 'reflect101' (cv2.BORDER_REFLECT_101) or 'neutral'
        (outside pixels never win: cv2.BORDER_CONSTANT with its default value).
    backend: 'auto' (CUDA when a device is usable), 'cuda' or 'cpu'; CUDA arrays always run on
        their device.
    stream: for CUDA: a stream (int handle, CuPy/Numba/PyTorch stream); default: the current
        stream of the array's framework. CUDA arrays return at once, the work queued on it.
    out: an array to write the result into instead of a new one: img's dtype and shape, on img's
        side (numpy for numpy, CUDA on img's device), apart from img, pixels packed within a row
        (rows may be padded, but not a numpy out of the CUDA backend). Saves an allocation a call.

    Returns `out`, or a new array of img's type, shape and kind (numpy, CuPy, ...), on img's device;
    a dpx.DeviceArray for a CUDA tensor that came only through DLPack.
    Raises ValueError for bad arguments, RuntimeError for device failures.
    """
    width, height = _element_size(ksize)
    img = _arrays.prepare(img, "img", stream)
    result = _arrays.output(out, img, stream=stream)
    _dpx.morphology(img, result, op, width, height, shape, int(iterations), border, backend,
                    _arrays.stream_handle(img, stream))
    return result if out is None else out
