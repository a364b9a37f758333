#!/usr/bin/env bash
# The main job on an embedded default: builds, then runs the morphology benchmark in quick mode
# and says where its output is.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/deps.sh"
dpx_install_packages
dpx_build build
root=$(cd "$here/.." && pwd)
mkdir -p "$root/demo-output"
(cd "$root/demo-output" && "$root/build/tools/dpx-bench" morph --quick)
echo "demo output: $root/demo-output"
