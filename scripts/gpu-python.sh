#!/usr/bin/env bash
# On the GPU machine (nvcc, meson, ninja, python3 with its headers, numpy, pybind11, CuPy, PyTorch;
# no GStreamer): builds the dpx Python package for this python3 with the CUDA backend (through
# scripts/gpu-build.sh, so .gpu/devroot.tgz from scripts/gpu-devroot.sh supplies zlib's headers),
# installs it into BUILD_DIR/python-site, runs tests/python there (the CUDA tests included; the
# suites against OpenCV, parasail and edlib skip where those are missing) and
# scripts/python-bench.py. Extra arguments go to python-bench.py (e.g. --dpx-bench PATH).
#   there: scripts/gpu-python.sh [BUILD_DIR] [python-bench.py options...]   (default: build-python-gpu)
# Where that python3 has no pytest, carry this machine's (pure Python) in .gpu/pylib:
#   here:  scripts/gpu-python.sh --pack-pytest
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = --pack-pytest ]; then
  mkdir -p "$root/.gpu/pylib"
  for m in pytest _pytest pluggy iniconfig attr attrs packaging py py.py; do
    cp -r "/usr/lib/python3/dist-packages/$m" "$root/.gpu/pylib/"
  done
  exit 0
fi
build=$root/${1:-build-python-gpu}; shift || true
cd "$root"
# the extension is built for this python3 (meson's own may be another)
native=$(mktemp --suffix=.ini)
printf "[binaries]\npython = '%s'\n" "$(command -v python3)" > "$native"
scripts/gpu-build.sh "$build" --native-file="$native" -Dpython=enabled -Dplugin=disabled -Dtests=disabled -Dbench=false -Dcuda-arch=sm_90
site=$build/python-site
rm -rf "$site" && mkdir -p "$site/dpx"
cp python/dpx/*.py python/dpx/*.pyi python/dpx/py.typed "$build"/python/_dpx*.so "$site/dpx/"
export PYTHONPATH=$site${PYTHONPATH:+:$PYTHONPATH}
python3 -c 'import pytest' 2>/dev/null || export PYTHONPATH=$PYTHONPATH:$root/.gpu/pylib
python3 -c 'import dpx; print("dpx from", dpx.__file__, "- CUDA built:", dpx.cuda_built(), "devices:", dpx.cuda_device_count())'
rc=0
(cd "$build" && python3 -m pytest -p no:cacheprovider -q -rs "$root/tests/python") || rc=$?
python3 scripts/python-bench.py "$@" || rc=$?
exit $rc
