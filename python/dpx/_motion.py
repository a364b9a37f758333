from . import _arrays, _dpx


def motion_vectors(prev, cur, block_size=16, search_range=16, subpel="none", search="full", lambda_=0,
                   backend="auto", return_sad=False, stream=None):
    """Block-matching motion vectors of `cur` against `prev` (the vectors of dpxmotionest).

    prev, cur: 2-D uint8/uint16 frames of one shape (luma); numpy or CUDA arrays.
    block_size: 4, 8, 16 or 32; blocks tile the frame from the top-left corner, the last row and
        column partial where the size does not divide it.
    search_range: |dx|, |dy| <= search_range pixels (1..64 full, 1..128 predictive).
    subpel: 'none', 'half' or 'quarter' refinement.
    search: 'full' (exhaustive) or 'predictive'.
    lambda_: 0..4096, weight of the distance to the predicted vector (smoother fields).
    backend, stream: as in dpx.morphology.

    Returns a float32 array (rows, columns, 2) of (x, y) in pixels: block (r, c)'s pixels match
    prev at (x + dx, y + dy), where its content was. With return_sad=True, (vectors, sads) with
    sads an int32 array (rows, columns) of the chosen candidates' sums of absolute differences.
    Results are on the frames' device, in their kind of array; dpx.DeviceArrays for CUDA frames
    that came only through DLPack.
    """
    prev = _arrays.prepare(prev, "prev", stream)
    cur = _arrays.prepare(cur, "cur", stream)
    rows, columns, scale = _dpx.motion_grid(prev, cur, block_size, search_range, subpel, search, lambda_)
    lent = cur if isinstance(cur, _dpx.DeviceArray) else prev if isinstance(prev, _dpx.DeviceArray) else None
    if lent is not None:  # no array framework to shape the records: the binding gives pixels and SADs
        vectors = _arrays.empty_like(lent, (rows, columns, 2), "float32")
        sads = _arrays.empty_like(lent, (rows, columns), "int32") if return_sad else None
        _dpx.motion_vectors_in_pixels(prev, cur, vectors, sads, block_size, search_range, subpel, search, lambda_,
                                      backend, _arrays.stream_handle(cur, stream))
        return (vectors, sads) if return_sad else vectors
    raw = _arrays.empty_like(cur, (rows, columns, 2), "int32")  # MotionVector: int16 dx, int16 dy, SAD
    _dpx.motion_vectors(prev, cur, raw, block_size, search_range, subpel, search, lambda_, backend,
                        _arrays.stream_handle(cur, stream))
    vectors = _arrays.astype(_arrays.view(raw, "int16")[..., :2], "float32")
    if scale != 1:
        vectors /= scale
    if not return_sad:
        return vectors
    return vectors, _arrays.contiguous(raw[..., 1])
