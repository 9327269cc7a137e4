#!/usr/bin/env bash
#===- scripts/setup.sh - Install dependencies, configure and build emit ---===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Idempotent: installs the Debian 12 packages emit needs when they are missing,
# configures the build tree with CMake + Ninja, and builds every target.
#
#   scripts/setup.sh [BUILD_DIR]        (default: build)
#
# Environment: EMIT_CMAKE_ARGS adds extra CMake arguments.
#===----------------------------------------------------------------------===#
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${1:-$root/build}"

packages=(
  cmake ninja-build g++
  llvm-19-dev llvm-19-tools libmlir-19-dev mlir-19-tools
  libflatbuffers-dev flatbuffers-compiler libxxhash-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
    missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing missing packages: ${missing[*]}"
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null; then
      sudo_cmd=(sudo)
    else
      echo "setup: error: need root (or sudo) to install: ${missing[*]}" >&2
      exit 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  if ! "${sudo_cmd[@]}" apt-get update -q >/dev/null ||
     ! "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends \
       "${missing[@]}" >/dev/null; then
    echo "setup: error: apt-get could not install: ${missing[*]}" >&2
    echo "setup: this project needs Debian 12 (bookworm) package sources." >&2
    exit 1
  fi
fi

if [[ ! -f "$build_dir/build.ninja" ]]; then
  cmake -G Ninja -S "$root" -B "$build_dir" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-19/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-19/build/utils/lit/lit.py \
    ${EMIT_CMAKE_ARGS:-} >/dev/null
fi
cmake --build "$build_dir"
