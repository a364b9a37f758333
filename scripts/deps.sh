#!/usr/bin/env bash
# Shared by demo.sh and test.sh: installs the Debian packages the build needs when they are missing,
# then configures (once) and builds the given build folder.
set -euo pipefail

DPX_PACKAGES=(meson ninja-build pkg-config g++ libgtest-dev zlib1g-dev
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libgstreamer-plugins-bad1.0-dev libjson-glib-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad)

# The Python package's build and tests (scripts/test-python.sh).
DPX_PYTHON_PACKAGES=(python3-mesonpy python3-pip python3-venv pybind11-dev python3-pybind11 python3-numpy python3-pytest
  python3-opencv python3-parasail python3-edlib)

dpx_install_packages() {
  local missing=()
  for p in "${DPX_PACKAGES[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing: ${missing[*]}" >&2
  local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
}

# Meson (1.0) passes nvcc no depfile options, so ninja never learns which headers a .cu file
# includes and keeps its object when only a header changed: kernels built from old code, unnoticed.
# Removes every CUDA object of BUILD_DIR older than the project's newest header, so that the next
# build compiles it again (ccache makes those whose preprocessed source is unchanged cheap).
dpx_drop_stale_cuda_objects() {
  local dir root newest
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  dir=$(cd "$root" && cd "$1" 2>/dev/null && pwd) || return 0
  newest=$(find "$root" \( -path "$root/.git" -o -path "$root/.gpu" -o -path "$root/build*" -o -path "$dir" \) -prune -o \
    -type f \( -name '*.h' -o -name '*.cuh' -o -name '*.hpp' \) -printf '%T@ %p\n' | sort -n | tail -n 1 | cut -d' ' -f2-)
  [ -n "$newest" ] || return 0
  find "$dir" -type f -name '*.cu.o' ! -newer "$newest" -print -delete | sed 's/^/compiled again (a header is newer): /' >&2
}

# dpx_build BUILD_DIR [meson options...] [-- TARGETS...] (every target when none is named)
dpx_build() {
  local dir=$1; shift
  local options=() targets=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do options+=("$1"); shift; done
  [ $# -gt 0 ] && shift && targets=("$@")
  local root; root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  [ -d /usr/local/cuda/bin ] && export PATH="/usr/local/cuda/bin:$PATH"
  if [ ! -f "$root/$dir/build.ninja" ]; then
    meson setup "$root/$dir" "$root" --buildtype=release "${options[@]}" >&2
  fi
  dpx_drop_stale_cuda_objects "$root/$dir"
  meson compile -C "$root/$dir" "${targets[@]}" >&2
}

# Whether a CUDA device can run here: the driver's nvidia-smi lists at least one GPU.
dpx_gpu_usable() {
  command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '
}
