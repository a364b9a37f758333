"""dpx.motion_vectors against a plain exhaustive SAD search written from the definitions in
dpx/motion.h, on the CPU backend."""

import numpy as np
import pytest

import dpx


def reference_vectors(prev, cur, block, search_range):
    """Every candidate keeping the block inside the frame; the smallest SAD, then the smallest
    |dx| + |dy|, then dy, then dx."""
    h, w = cur.shape
    rows, cols = -(-h // block), -(-w // block)
    vectors = np.zeros((rows, cols, 2), np.float32)
    sads = np.zeros((rows, cols), np.int64)
    for r in range(rows):
        for c in range(cols):
            y0, x0 = r * block, c * block
            bh, bw = min(block, h - y0), min(block, w - x0)
            blk = cur[y0:y0 + bh, x0:x0 + bw].astype(np.int64)
            best = None
            for dy in range(-search_range, search_range + 1):
                for dx in range(-search_range, search_range + 1):
                    if not (0 <= x0 + dx and x0 + dx + bw <= w and 0 <= y0 + dy and y0 + dy + bh <= h):
                        continue
                    sad = int(np.abs(blk - prev[y0 + dy:y0 + dy + bh, x0 + dx:x0 + dx + bw]).sum())
                    key = (sad, abs(dx) + abs(dy), dy, dx)
                    if best is None or key < best:
                        best = key
            vectors[r, c] = (best[3], best[2])
            sads[r, c] = best[0]
    return vectors, sads


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
@pytest.mark.parametrize("block, search_range", [(4, 3), (8, 5), (16, 2)])
def test_full_search_matches_the_definition(rng, dtype, block, search_range):
    top = np.iinfo(dtype).max + 1
    h, w = int(rng.integers(block, 50)), int(rng.integers(block, 60))
    prev = rng.integers(0, top, (h, w), dtype=dtype)
    cur = np.roll(prev, (int(rng.integers(-3, 4)), int(rng.integers(-3, 4))), axis=(0, 1))
    cur[: h // 3, : w // 3] = rng.integers(0, top, (h // 3, w // 3), dtype=dtype)  # a part that matches nothing
    cur[h // 2:, :4] = 7  # flat: ties
    vectors, sads = dpx.motion_vectors(prev, cur, block_size=block, search_range=search_range, backend="cpu",
                                       return_sad=True)
    want_vectors, want_sads = reference_vectors(prev, cur, block, search_range)
    assert vectors.dtype == np.float32 and sads.dtype == np.int32
    np.testing.assert_array_equal(vectors, want_vectors)
    np.testing.assert_array_equal(sads, want_sads)


def test_a_shifted_frame_gives_its_shift(rng):
    prev = rng.integers(0, 256, (96, 128), dtype=np.uint8)
    cur = np.roll(prev, (2, -3), axis=(0, 1))  # content moved down 2, left 3
    vectors = dpx.motion_vectors(prev, cur, block_size=16, search_range=8)
    inner = vectors[1:-1, 1:-1]
    assert (inner == np.array([3, -2], np.float32)).all()


@pytest.mark.parametrize("subpel, scale", [("half", 2), ("quarter", 4)])
def test_subpel_vectors_are_in_their_units(rng, subpel, scale):
    prev = rng.integers(0, 256, (64, 64), dtype=np.uint8)
    cur = np.roll(prev, (1, 1), axis=(0, 1))
    vectors = dpx.motion_vectors(prev, cur, block_size=8, search_range=4, subpel=subpel, lambda_=4)
    assert vectors.shape == (8, 8, 2)
    np.testing.assert_array_equal(vectors * scale, np.round(vectors * scale))
    assert np.abs(vectors).max() <= 4 + 1


def test_predictive_search_runs(rng):
    prev = rng.integers(0, 256, (64, 80), dtype=np.uint8)
    cur = np.roll(prev, (0, 5), axis=(0, 1))
    vectors = dpx.motion_vectors(prev, cur, block_size=16, search_range=100, search="predictive")
    assert vectors.shape == (4, 5, 2)
    assert (vectors[:, 1:-1] == np.array([-5, 0], np.float32)).all()


def test_strided_frames_give_the_result_of_copies(rng):
    big = rng.integers(0, 256, (80, 100), dtype=np.uint8)
    prev, cur = big[::2, ::2], np.roll(big, 2, axis=1)[::2, ::2]
    np.testing.assert_array_equal(dpx.motion_vectors(prev, cur, block_size=8, search_range=3),
                                  dpx.motion_vectors(prev.copy(), cur.copy(), block_size=8, search_range=3))


@pytest.mark.parametrize("prev, cur, kwargs, message", [
    (np.zeros((16, 16), np.float32), np.zeros((16, 16), np.float32), {}, "dtype"),
    (np.zeros((16, 16, 3), np.uint8), np.zeros((16, 16, 3), np.uint8), {}, "dimensions"),
    (np.zeros((16, 16), np.uint8), np.zeros((16, 17), np.uint8), {}, "shape"),
    (np.zeros((16, 16), np.uint8), np.zeros((16, 16), np.uint16), {}, "dtype"),
    (np.zeros((0, 16), np.uint8), np.zeros((0, 16), np.uint8), {}, "empty"),
    (np.zeros((16, 16), np.uint8), np.zeros((16, 16), np.uint8), {"block_size": 12}, "block"),
    (np.zeros((16, 16), np.uint8), np.zeros((16, 16), np.uint8), {"block_size": 0}, "block"),
    (np.zeros((16, 16), np.uint8), np.zeros((16, 16), np.uint8), {"search_range": 65}, "range"),
    (np.zeros((16, 16), np.uint8), np.zeros((16, 16), np.uint8), {"subpel": "eighth"}, "subpel"),
    (np.zeros((16, 16), np.uint8), np.zeros((16, 16), np.uint8), {"search": "diamond"}, "search"),
    (np.zeros((16, 16), np.uint8), np.zeros((16, 16), np.uint8), {"lambda_": -1}, "lambda"),
])
def test_bad_input_raises_value_error(prev, cur, kwargs, message):
    with pytest.raises(ValueError, match=message):
        dpx.motion_vectors(prev, cur, **kwargs)
