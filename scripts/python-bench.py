#!/usr/bin/env python3
"""dpx.morphology timed from Python on CuPy device arrays, beside its anchors:

  4K GRAY8 3x3 dilate: per frame, CUDA events around batches of calls over 8 frames (66 MB, more
  than the 60 MB L2 holds), median of the batches: the method of dpx-bench morph. Beside it
  cupyx.scipy.ndimage.grey_dilation on the same arrays (results compared first), the same call on
  PyTorch tensors where PyTorch is, and, with --dpx-bench PATH, dpx-bench morph's default-schedule
  row for the same case (the C++ call).
  64x64 GRAY8 3x3 dilate: microseconds per call, each call synchronised, and calls queued back to
  back; numpy arrays on the CPU and (copied there and back) on CUDA. The 4K and the queued 64x64
  CuPy calls also into out= arrays made beforehand (no allocation a call: the C++ call, too, writes
  into frames it was given).

Prints a table last; --json PATH writes the figures too."""

import argparse
import json
import statistics
import subprocess
import tempfile
import time

import cupy as cp
import cupyx.scipy.ndimage as ndi
import numpy as np

import dpx


def gpu_us_per_call(fn, frames, reps, warmup):
    for i in range(warmup):
        fn(frames[i % len(frames)])
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for _ in range(reps):
        start.record()
        for f in frames:
            fn(f)
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop) * 1e3 / len(frames))
    return statistics.median(times)


def wall_us_per_call(fn, calls, reps, synchronise_each):
    stream = cp.cuda.get_current_stream()
    times = []
    for _ in range(reps):
        stream.synchronize()
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
            if synchronise_each:
                stream.synchronize()
        stream.synchronize()
        times.append((time.perf_counter() - t0) * 1e6 / calls)
    return statistics.median(times)


def dpx_bench_row(path, width, height):
    title = f"GRAY8 {width}x{height} dilate rect 3x3"
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run([path, "morph", f"--cases={title}", f"--json={out.name}"], check=True,
                       stdout=subprocess.DEVNULL)
        rows = [r for b in json.load(open(out.name))["benchmarks"] for r in b["rows"]]
    for r in rows:
        if title in r["case"] and "(default)" in r["note"]:
            return r["median_us"]
    raise RuntimeError(f"dpx-bench morph printed no default row for '{title}'")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dpx-bench", help="path of dpx-bench, for the C++ figure of the same case")
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--json", help="write the figures here too")
    args = parser.parse_args()
    width, height = 3840, 2160
    rng = np.random.default_rng(1)
    host = [rng.integers(0, 256, (height, width), dtype=np.uint8) for _ in range(8)]
    frames = [cp.asarray(h) for h in host]

    got = dpx.morphology(frames[0], "dilate", 3)
    want = ndi.grey_dilation(frames[0], size=(3, 3), mode="nearest")
    assert bool((got == want).all()), "dpx.morphology and grey_dilation disagree"
    assert bool((cp.asnumpy(got) == dpx.morphology(host[0], "dilate", 3, backend="cpu")).all())

    figures = {}
    figures["4K dilate 3x3: dpx.morphology (Python, CuPy array)"] = gpu_us_per_call(
        lambda f: dpx.morphology(f, "dilate", 3), frames, args.reps, 20)
    outs = {id(f): cp.empty_like(f) for f in frames}  # one result frame each, as dpx-bench has
    figures["4K dilate 3x3: dpx.morphology into out= (Python, CuPy array)"] = gpu_us_per_call(
        lambda f: dpx.morphology(f, "dilate", 3, out=outs[id(f)]), frames, args.reps, 20)
    try:
        import torch
        tensors = [torch.as_tensor(f, device="cuda") for f in frames] if torch.cuda.is_available() else []
    except ImportError:
        tensors = []
    if tensors:  # PyTorch's current stream is CuPy's here: the default stream, which the events time
        figures["4K dilate 3x3: dpx.morphology (Python, PyTorch tensor)"] = gpu_us_per_call(
            lambda f: dpx.morphology(f, "dilate", 3), tensors, args.reps, 20)
    figures["4K dilate 3x3: cupyx grey_dilation"] = gpu_us_per_call(
        lambda f: ndi.grey_dilation(f, size=(3, 3), mode="nearest"), frames, max(5, args.reps // 5), 3)
    if args.dpx_bench:
        figures["4K dilate 3x3: dpx-bench morph (C++ morph_cuda, default)"] = dpx_bench_row(args.dpx_bench, width, height)

    small = cp.asarray(host[0][:64, :64])
    small_host = host[0][:64, :64].copy()
    figures["64x64 CuPy: a call + synchronise"] = wall_us_per_call(
        lambda: dpx.morphology(small, "dilate", 3), 200, args.reps, True)
    figures["64x64 CuPy: calls queued back to back"] = wall_us_per_call(
        lambda: dpx.morphology(small, "dilate", 3), 1000, args.reps, False)
    small_out = cp.empty_like(small)
    figures["64x64 CuPy into out=: calls queued back to back"] = wall_us_per_call(
        lambda: dpx.morphology(small, "dilate", 3, out=small_out), 1000, args.reps, False)
    figures["64x64 cupyx grey_dilation: a call + synchronise"] = wall_us_per_call(
        lambda: ndi.grey_dilation(small, size=(3, 3), mode="nearest"), 200, args.reps, True)
    figures["64x64 numpy, backend cpu"] = wall_us_per_call(
        lambda: dpx.morphology(small_host, "dilate", 3, backend="cpu"), 200, args.reps, False)
    figures["64x64 numpy, backend cuda (copies both ways)"] = wall_us_per_call(
        lambda: dpx.morphology(small_host, "dilate", 3, backend="cuda"), 200, args.reps, False)

    python_4k = figures["4K dilate 3x3: dpx.morphology (Python, CuPy array)"]
    print(f"\n{'case':<60} {'us':>10}")
    for name, us in figures.items():
        note = ""
        if name.startswith("4K") and us != python_4k:
            note = f"   Python is {python_4k / us:.3f}x this"
        print(f"{name:<60} {us:>10.2f}{note}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"benchmark": "python-morph", "rows_us": figures}, f, indent=2)


if __name__ == "__main__":
    main()
