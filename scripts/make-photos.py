#!/usr/bin/python3
"""Writes the test photographs (tests/data/photos/*.pgm, binary 8-bit grey, BT.601 luma) from
scikit-image's sample data (Debian: python3-skimage). Every one is public domain or CC0."""
import pathlib
import sys

import numpy as np
import skimage.data

PHOTOS = {  # name: (loader, licence)
    "astronaut": ("astronaut", "public domain (NASA)"),
    "coffee": ("coffee", "CC0, Rachel Michetti"),
    "chelsea": ("chelsea", "CC0, Stefan van der Walt"),
    "camera": ("camera", "CC0, Lav Varshney"),
    "rocket": ("rocket", "public domain (SpaceX)"),
}


def to_grey(img: np.ndarray) -> np.ndarray:
    if img.ndim == 2:
        return img.astype(np.uint8)
    rgb = img[..., :3].astype(np.float64)
    return np.clip(np.rint(rgb @ [0.299, 0.587, 0.114]), 0, 255).astype(np.uint8)


def main() -> None:
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "tests/data/photos")
    out.mkdir(parents=True, exist_ok=True)
    for name, (loader, _licence) in PHOTOS.items():
        grey = to_grey(getattr(skimage.data, loader)())
        h, w = grey.shape
        (out / f"{name}.pgm").write_bytes(f"P5\n{w} {h}\n255\n".encode() + grey.tobytes())


if __name__ == "__main__":
    main()
