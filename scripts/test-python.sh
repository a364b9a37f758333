#!/usr/bin/env bash
# Builds the dpx Python package CPU-only (the C++ suites cover the CUDA build), installs it with pip
# into a virtual environment that sees Debian's numpy, pytest, OpenCV, parasail and edlib
# (BUILD_DIR/python-venv; nothing outside BUILD_DIR is touched) and runs tests/python.
# Ends with one line "python: N passed, N failed, N skipped".
#   usage: scripts/test-python.sh [BUILD_DIR]      (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/${1:-build}
venv=$build/python-venv
[ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv --system-site-packages --without-pip "$venv"
# meson-python 0.12 keeps its native file in the source tree and then only reconfigures the build
# folder, which fails once that folder is gone: start afresh then
[ -f "$build/python-wheel/build.ninja" ] || rm -f "$root/.mesonpy-native-file.ini"
"$venv/bin/python" -m pip install --quiet --no-build-isolation --no-deps --disable-pip-version-check \
  --config-settings=setup-args=-Dcuda=disabled --config-settings=builddir="$build/python-wheel" "$root" >&2
log=$build/python-tests.log
rc=0
(cd "$build" && "$venv/bin/python" -m pytest -p no:cacheprovider -q -rs "$root/tests/python") 2>&1 | tee "$log" >&2 ||
  rc=$?
# pytest's last line: "=== 3 failed, 120 passed, 4 skipped in 2.10s ===" (any of the counts may be missing)
tail -n 1 "$log" | awk '{for (i = 1; i < NF; ++i) n[$(i + 1)] += $i}
  END {printf "python: %d passed, %d failed, %d skipped\n", n["passed"] + n["passed,"],
       n["failed"] + n["failed,"] + n["error"] + n["error,"] + n["errors"] + n["errors,"], n["skipped"] + n["skipped,"]}'
exit $rc
