#!/usr/bin/env bash
# Installs what the build needs (Debian packages), builds into build/ and runs every test suite.
# Ends with one line "tests: N passed, N failed, N skipped" (GPU tests skip where no CUDA device is).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/deps.sh"
dpx_install_packages
dpx_build build "$@"
root=$(cd "$here/.." && pwd)
rc=0
meson test -C "$root/build" --print-errorlogs --num-processes 1 || rc=$?
# Each test binary prints "NAME: N passed, N failed, N skipped"; add them up.
grep -hE '^test-[a-z]+: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$root/build/meson-logs/testlog.txt" |
  awk '{p+=$2; f+=$4; s+=$6} END {printf "tests: %d passed, %d failed, %d skipped\n", p, f, s}'
exit $rc
