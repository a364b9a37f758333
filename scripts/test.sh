#!/usr/bin/env bash
# Installs what the build needs (Debian packages), builds into build/ and runs every test suite,
# then installs the Python package (CPU-only, into build/python-venv) and runs its pytest suite.
# Ends with one line "tests: N passed, N failed, N skipped", the C++ and Python tests together (GPU
# tests skip where no CUDA device is).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/deps.sh"
dpx_install_packages "${DPX_PYTHON_PACKAGES[@]}"
dpx_build build "$@"
root=$(cd "$here/.." && pwd)
rc=0
# test-kernels is registered in two halves: the suites run side by side, one per core.
meson test -C "$root/build" --print-errorlogs --num-processes "$(nproc)" || rc=$?
python=$("$here/test-python.sh" build | tail -n 1) || rc=1
echo "$python"
# Each test binary prints "NAME: N passed, N failed, N skipped", the Python suite the same line; add them up.
{ grep -hE '^test-[a-z]+: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$root/build/meson-logs/testlog.txt"; echo "$python"; } |
  awk '{p+=$2; f+=$4; s+=$6} END {printf "tests: %d passed, %d failed, %d skipped\n", p, f, s}'
exit $rc
