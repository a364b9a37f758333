"""Shared fixtures: a seeded generator per test (the seed is printed, so a failure can be rerun with
DPX_TEST_SEED=...), and whether a CUDA device is usable."""

import os
import zlib

import numpy as np
import pytest

import dpx


@pytest.fixture
def rng(request):
    seed = int(os.environ.get("DPX_TEST_SEED", zlib.crc32(request.node.nodeid.encode())))
    print(f"seed {seed} (DPX_TEST_SEED={seed} reruns it)")
    return np.random.default_rng(seed)


HAVE_CUDA = dpx.cuda_built() and dpx.cuda_device_count() > 0
needs_cuda = pytest.mark.skipif(not HAVE_CUDA, reason="no usable CUDA device (or dpx built without CUDA)")
