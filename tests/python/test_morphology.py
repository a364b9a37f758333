"""dpx.morphology against cv2.morphologyEx on the CPU backend (the CUDA backend gives the same bits;
test_cuda.py checks it against this one)."""

import numpy as np
import pytest

import dpx

cv2 = pytest.importorskip("cv2")  # python3-opencv (scripts/deps.sh)

OPS = {"dilate": cv2.MORPH_DILATE, "erode": cv2.MORPH_ERODE, "open": cv2.MORPH_OPEN, "close": cv2.MORPH_CLOSE,
       "gradient": cv2.MORPH_GRADIENT, "tophat": cv2.MORPH_TOPHAT, "blackhat": cv2.MORPH_BLACKHAT}
SHAPES = {"rect": cv2.MORPH_RECT, "cross": cv2.MORPH_CROSS, "ellipse": cv2.MORPH_ELLIPSE}
BORDERS = {"replicate": cv2.BORDER_REPLICATE, "reflect101": cv2.BORDER_REFLECT_101, "neutral": cv2.BORDER_CONSTANT}


def opencv(img, op, ksize, shape="rect", iterations=1, border="replicate"):
    element = cv2.getStructuringElement(SHAPES[shape], ksize)
    # BORDER_CONSTANT with OpenCV's default value: the neutral border (never wins)
    return cv2.morphologyEx(img, OPS[op], element, iterations=iterations, borderType=BORDERS[border])


def random_image(rng, shape, dtype):
    top = np.iinfo(dtype).max + 1
    img = rng.integers(0, top, size=shape, dtype=dtype)
    # flat patches and extremes, so ties and saturating differences occur
    img[: shape[0] // 3, : shape[1] // 4] = top - 1
    img[shape[0] // 2 :, shape[1] // 2 : shape[1] // 2 + 3] = 0
    return img


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("border", BORDERS)
def test_ops_shapes_borders_match_opencv(rng, op, shape, border):
    img = random_image(rng, (int(rng.integers(1, 60)), int(rng.integers(1, 70))), np.uint8)
    ksize = (int(rng.choice([1, 3, 5, 7])), int(rng.choice([1, 3, 5, 9])))
    got = dpx.morphology(img, op, ksize, shape=shape, border=border, backend="cpu")
    np.testing.assert_array_equal(got, opencv(img, op, ksize, shape, 1, border))


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
@pytest.mark.parametrize("channels", [1, 2, 3, 4])
@pytest.mark.parametrize("op", ["dilate", "open", "tophat"])
def test_channels_and_types_match_opencv(rng, dtype, channels, op):
    shape = (41, 67) if channels == 1 else (41, 67, channels)
    img = random_image(rng, shape, dtype)
    got = dpx.morphology(img, op, (5, 3), shape="ellipse", iterations=2, backend="cpu")
    assert got.dtype == img.dtype and got.shape == img.shape
    np.testing.assert_array_equal(got, opencv(img, op, (5, 3), "ellipse", 2))


@pytest.mark.parametrize("ksize", [(1, 15), (15, 1), (31, 31), (255, 3)])
def test_large_rectangles_match_opencv(rng, ksize):
    img = random_image(rng, (300, 280), np.uint8)
    np.testing.assert_array_equal(dpx.morphology(img, "erode", ksize, backend="cpu"), opencv(img, "erode", ksize))


def test_int_ksize_is_a_square(rng):
    img = random_image(rng, (20, 30), np.uint8)
    np.testing.assert_array_equal(dpx.morphology(img, "close", 5), opencv(img, "close", (5, 5)))


def test_strided_views_give_the_result_of_a_copy(rng):
    img = random_image(rng, (64, 96, 4), np.uint8)
    for view in (img[5:50, 3:80], img[::2, ::3], img[:, :, 1], img[::-1]):
        np.testing.assert_array_equal(dpx.morphology(view, "dilate", 3, backend="cpu"),
                                      opencv(np.ascontiguousarray(view), "dilate", (3, 3)))


def test_input_is_left_alone(rng):
    img = random_image(rng, (30, 40), np.uint16)
    before = img.copy()
    dpx.morphology(img, "gradient", 3)
    np.testing.assert_array_equal(img, before)


@pytest.mark.parametrize("backend", ["cpu", "auto"])
def test_out_is_written_in_place_and_returned(rng, backend):
    img = random_image(rng, (37, 53, 2), np.uint16)
    out = np.full_like(img, 0x5A5A)  # poisoned: every pixel must be written
    got = dpx.morphology(img, "open", (5, 3), shape="ellipse", backend=backend, out=out)
    assert got is out
    np.testing.assert_array_equal(out, opencv(img, "open", (5, 3), shape="ellipse"))


def test_out_with_padded_rows_keeps_its_padding(rng):
    img = random_image(rng, (40, 61), np.uint8)
    storage = np.full((40, 64), 7, np.uint8)
    dpx.morphology(img, "gradient", 3, backend="cpu", out=storage[:, :61])
    np.testing.assert_array_equal(storage[:, :61], opencv(img, "gradient", (3, 3)))
    assert (storage[:, 61:] == 7).all()


@pytest.mark.parametrize("make_out, message", [
    (lambda img: np.zeros((8, 9), np.uint8), "shape"),
    (lambda img: np.zeros((8, 8), np.uint16), "dtype must be uint8"),
    (lambda img: img, "overlap"),
    (lambda img: np.zeros((8, 8), np.uint8)[::-1], "packed"),
    (lambda img: np.broadcast_to(np.zeros(8, np.uint8), (8, 8)), "packed|read-only"),
])
def test_bad_out_raises_value_error_and_leaves_the_input(make_out, message):
    img = np.arange(64, dtype=np.uint8).reshape(8, 8)
    before = img.copy()
    with pytest.raises(ValueError, match=message):
        dpx.morphology(img, "dilate", backend="cpu", out=make_out(img))
    np.testing.assert_array_equal(img, before)


def test_out_of_another_kind_raises_type_error():
    with pytest.raises(TypeError, match="out"):
        dpx.morphology(np.zeros((8, 8), np.uint8), "dilate", out=[[0] * 8] * 8)


@pytest.mark.parametrize("img, message", [
    (np.zeros((8, 8), np.float32), "dtype must be uint8 or uint16"),
    (np.zeros((8, 8), np.int16), "dtype must be uint8 or uint16"),
    (np.zeros(8, np.uint8), "expected 2 or 3 dimensions"),
    (np.zeros((2, 8, 8, 1), np.uint8), "expected 2 or 3 dimensions"),
    (np.zeros((0, 8), np.uint8), "empty"),
    (np.zeros((8, 8, 0), np.uint8), "empty"),
])
def test_bad_images_raise_value_error(img, message):
    with pytest.raises(ValueError, match=message):
        dpx.morphology(img, "dilate")


@pytest.mark.parametrize("kwargs, message", [
    (dict(op="smooth"), "op must be one of"),
    (dict(op="dilate", shape="disk"), "shape must be"),
    (dict(op="dilate", border="wrap"), "border must be"),
    (dict(op="dilate", backend="tpu"), "backend must be"),
    (dict(op="dilate", ksize=4), "width 4"),
    (dict(op="dilate", ksize=(3, 257)), "height 257"),
    (dict(op="dilate", ksize=(65, 65), shape="ellipse"), "65"),
    (dict(op="dilate", ksize=(3, 3, 3)), "ksize must be"),
    (dict(op="dilate", iterations=0), "iterations"),
])
def test_bad_arguments_raise_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        dpx.morphology(np.ones((8, 8), np.uint8), **kwargs)


def test_non_arrays_raise():
    with pytest.raises((TypeError, ValueError)):
        dpx.morphology("not an image", "dilate")


@pytest.mark.skipif(dpx.cuda_built(), reason="this build has CUDA")
def test_cuda_backend_without_cuda_raises_runtime_error():
    with pytest.raises(RuntimeError, match="without CUDA"):
        dpx.morphology(np.ones((8, 8), np.uint8), "dilate", backend="cuda")


class FakeCudaArray:
    """Something that says it is a CUDA array (the pointer is never read without CUDA)."""

    def __init__(self, shape, typestr):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr, "data": (4096, False), "version": 3,
                                         "strides": None, "stream": None}


@pytest.mark.skipif(dpx.cuda_built(), reason="this build has CUDA")
def test_cuda_arrays_without_cuda_raise_runtime_error():
    with pytest.raises(RuntimeError, match="without CUDA"):
        dpx.morphology(FakeCudaArray((8, 8), "|u1"), "dilate")
