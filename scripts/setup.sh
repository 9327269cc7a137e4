#!/usr/bin/env bash
#===- scripts/setup.sh - Install dependencies, configure and build emit ---===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Idempotent: installs the Debian 12 packages emit needs when they are missing,
# configures the build tree with CMake + Ninja, and builds every target.
#
#   scripts/setup.sh [BUILD_DIR]        (default: build, or build-22)
#
# Environment:
#   EMIT_LLVM_VERSION=19|22   the LLVM/MLIR to build against (default 19).
#     Debian 12 ships MLIR 22 in its security archive, but libmlir-22 and
#     libmlir-19 conflict as packages: when MLIR 19 is installed, MLIR 22 is
#     unpacked (apt-get download + dpkg -x) into EMIT_MLIR22_ROOT (default
#     ~/.cache/emit-llvm22/root) instead; nothing of 19 is removed.
#   EMIT_CMAKE_ARGS   extra CMake arguments.
#   EMIT_TARGETS      build only these targets (space-separated), not all.
#   EMIT_EXTRA_PACKAGES   more Debian packages to install when missing
#     (scripts/test.sh asks for what only the tests need).
#===----------------------------------------------------------------------===#
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="${EMIT_LLVM_VERSION:-19}"
case "$version" in
  19) build_dir="${1:-$root/build}" ;;
  22) build_dir="${1:-$root/build-22}" ;;
  *) echo "setup: error: EMIT_LLVM_VERSION must be 19 or 22, not '$version'" >&2
     exit 1 ;;
esac

sudo_cmd=()
if [[ $(id -u) -ne 0 ]] && command -v sudo >/dev/null; then
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
apt_updated=
apt_update() {
  [[ -n "$apt_updated" ]] || "${sudo_cmd[@]}" apt-get update -q >/dev/null
  apt_updated=1
}

installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

packages=(
  cmake ninja-build g++
  "llvm-$version-dev" "llvm-$version-tools"
  libflatbuffers-dev flatbuffers-compiler libxxhash-dev libgtest-dev
  python3-venv python3-build python3-jsonschema
  ${EMIT_EXTRA_PACKAGES:-}
)
# MLIR 19 as packages; MLIR 22 as packages only where 19's are not.
if [[ $version == 19 ]] || ! installed libmlir-19-dev; then
  packages+=("libmlir-$version-dev" "mlir-$version-tools")
fi

missing=()
for p in "${packages[@]}"; do
  installed "$p" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing missing packages: ${missing[*]}"
  if [[ $(id -u) -ne 0 && ${#sudo_cmd[@]} -eq 0 ]]; then
    echo "setup: error: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
  if ! apt_update ||
     ! "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends \
       "${missing[@]}" >/dev/null; then
    echo "setup: error: apt-get could not install: ${missing[*]}" >&2
    echo "setup: this project needs Debian 12 (bookworm) package sources." >&2
    exit 1
  fi
fi

# Where MLIR is: installed, or MLIR 22 unpacked beside an installed 19.
mlir_dir="/usr/lib/llvm-$version/lib/cmake/mlir"
if [[ ! -f "$mlir_dir/MLIRConfig.cmake" ]]; then
  unpacked="${EMIT_MLIR22_ROOT:-$HOME/.cache/emit-llvm22/root}"
  mlir_dir="$unpacked/usr/lib/llvm-$version/lib/cmake/mlir"
  if [[ ! -f "$mlir_dir/MLIRConfig.cmake" ]]; then
    echo "setup: unpacking MLIR $version into $unpacked (libmlir-$version" \
         "conflicts with the installed libmlir-19)"
    debs="$(mktemp -d)"
    trap 'rm -rf "$debs"' EXIT
    apt_update
    (cd "$debs" && apt-get download -q "libmlir-$version" \
       "libmlir-$version-dev" "mlir-$version-tools" >/dev/null 2>&1) || {
      echo "setup: error: apt-get could not download MLIR $version" >&2
      exit 1
    }
    mkdir -p "$unpacked"
    for deb in "$debs"/*.deb; do dpkg -x "$deb" "$unpacked"; done
  fi
fi

lit="/usr/lib/llvm-$version/build/utils/lit/lit.py"
[[ -f "$lit" ]] || lit="/usr/lib/llvm-$version/bin/lit"
if [[ ! -f "$build_dir/build.ninja" ]]; then
  cmake -G Ninja -S "$root" -B "$build_dir" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR="$mlir_dir" \
    -DLLVM_DIR="/usr/lib/llvm-$version/lib/cmake/llvm" \
    -DLLVM_EXTERNAL_LIT="$lit" \
    ${EMIT_CMAKE_ARGS:-} >/dev/null
fi
# shellcheck disable=SC2086 # EMIT_TARGETS is a list.
cmake --build "$build_dir" ${EMIT_TARGETS:+--target $EMIT_TARGETS}
