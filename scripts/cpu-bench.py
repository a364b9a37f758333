#!/usr/bin/env python3
"""The CPU twin of dpx.morphology beside OpenCV's cv2.dilate on the same numpy arrays, same machine,
same process: milliseconds a call (best of 5 batches), and whether the two results are equal (they
must be: the masks and borders are OpenCV's). Both use every hardware thread.

usage: scripts/cpu-bench.py [--size 1920x1080] [--quick] [--json PATH]
Needs the dpx package (scripts/test-python.sh builds one into BUILD/python-venv) and
python3-opencv. Prints a table last."""

import argparse
import json
import sys
import timeit

import cv2
import numpy as np

import dpx

CASES = [  # (sample type, channels, shape, size)
    *[("uint8", 1, "rect", k) for k in (3, 5, 15, 31, 63, 255)],
    *[("uint8", 1, "cross", k) for k in (5, 31)],
    *[("uint8", 1, "ellipse", k) for k in (5, 15, 31, 63)],
    *[(t, c, s, k) for t, c in (("uint16", 1), ("uint8", 4)) for s, k in (("rect", 3), ("rect", 31), ("ellipse", 15))],
]
CV_SHAPES = {"rect": cv2.MORPH_RECT, "cross": cv2.MORPH_CROSS, "ellipse": cv2.MORPH_ELLIPSE}


def best_ms(fn, number):
    return min(timeit.repeat(fn, number=number, repeat=5)) / number * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="1920x1080")
    ap.add_argument("--quick", action="store_true", help="GRAY8 3x3 and 31x31 only")
    ap.add_argument("--json")
    args = ap.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    rng = np.random.default_rng(20261205)
    cases = [c for c in CASES if c[:2] == ("uint8", 1) and c[2] == "rect" and c[3] in (3, 31)] if args.quick else CASES
    rows, failed = [], False
    for dtype, channels, shape, size in cases:
        dims = (height, width) if channels == 1 else (height, width, channels)
        img = rng.integers(0, np.iinfo(dtype).max + 1, dims, dtype=dtype)
        kernel = cv2.getStructuringElement(CV_SHAPES[shape], (size, size))

        def ours():
            return dpx.morphology(img, "dilate", size, shape=shape, backend="cpu")

        def opencv():
            return cv2.dilate(img, kernel, borderType=cv2.BORDER_REPLICATE)

        equal = bool(np.array_equal(ours(), opencv()))
        failed |= not equal
        number = 2 if size > 31 or channels > 1 else 10
        row = {"case": f"{dtype} x{channels} {width}x{height} dilate {shape} {size}x{size}",
               "dpx_ms": best_ms(ours, number), "opencv_ms": best_ms(opencv, number), "equal": equal}
        rows.append(row)
        print(f"{row['case']}: dpx {row['dpx_ms']:.2f} ms, OpenCV {row['opencv_ms']:.2f} ms", file=sys.stderr)
    print(f"| case | dpx cpu ms | cv2.dilate ms | dpx / OpenCV | results |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['case']} | {r['dpx_ms']:.2f} | {r['opencv_ms']:.2f} | {r['dpx_ms'] / r['opencv_ms']:.2f} | "
              f"{'equal' if r['equal'] else 'DIFFER'} |")
    print(f"threads: dpx every hardware thread, OpenCV {cv2.getNumThreads()}; OpenCV {cv2.__version__}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
