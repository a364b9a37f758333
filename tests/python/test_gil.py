"""The GIL is released while the library works: another Python thread keeps running during a call."""

import threading
import time

import numpy as np

import dpx


def test_other_threads_run_during_a_call(rng):
    img = rng.integers(0, 256, (1200, 1200), dtype=np.uint8)
    go = threading.Event()
    took = []

    def work():
        go.wait()  # the main thread is in its loop by then, so a stall lands inside it
        t0 = time.perf_counter()
        dpx.morphology(img, "close", (21, 21), shape="ellipse", backend="cpu")
        took.append(time.perf_counter() - t0)

    worker = threading.Thread(target=work)
    worker.start()
    longest_gap, last = 0.0, time.perf_counter()
    go.set()
    while worker.is_alive():  # with the GIL held through the call, one gap would span all of it
        now = time.perf_counter()
        longest_gap, last = max(longest_gap, now - last), now
    worker.join()
    assert longest_gap < 0.5 * took[0], f"the main thread stalled {longest_gap:.3f} s of a {took[0]:.3f} s call"
