#!/usr/bin/env bash
#===- et-bundle-python.sh - ExecuTorch's bundled-program serializer -------===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# ../shared/tools/et-python's tree (ExecuTorch's serializer without
# PyTorch) plus devtools/bundled_program/{schema,serialize} from the same
# snapshot and revision, in a directory of its own:
#
#   et-bundle-python.sh ET_PYTHON_DIR SNAPSHOT_GIT_DIR [DEST]
#
# DEST defaults to $HOME/.cache/emit-bars/et-bundle-python; prints it.
#===----------------------------------------------------------------------===#
set -euo pipefail
etpython=${1:?ET_PYTHON_DIR}
snap=${2:?SNAPSHOT_GIT_DIR}
dest=${3:-$HOME/.cache/emit-bars/et-bundle-python}
rev=$(cat "$etpython/REV")
if [ "$(cat "$dest/REV" 2>/dev/null)" != "$rev" ]; then
  rm -rf "$dest.tmp"
  cp -r "$etpython" "$dest.tmp"
  bundled=$dest.tmp/executorch/devtools/bundled_program
  mkdir -p "$bundled"
  for d in schema serialize; do
    git -C "$snap" archive --prefix="$d/" "$rev:devtools/bundled_program/$d" |
      tar -x -C "$bundled"
  done
  # The serializer reads its schema as package data, as the build installs it.
  cp "$bundled"/schema/*.fbs "$bundled/serialize/"
  touch "$dest.tmp/executorch/devtools/__init__.py" "$bundled/__init__.py"
  rm -rf "$dest"
  mv "$dest.tmp" "$dest"
fi
echo "$dest"
