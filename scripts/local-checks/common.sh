#===- common.sh - The local checks' shared preamble (sourced) -----------===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Where things are, for a check in one of the folders here: `here` (the
# check's folder), `checks` (this folder), `root` (the tree), `shared` (the
# reference material beside the tree). ExecuTorch's snapshot, Python and
# tools are never assumed: each check takes them as arguments, or from
# ET_SNAPSHOT.
#
#   source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
#
#===----------------------------------------------------------------------===#

here=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
checks=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$checks/../.." && pwd)
shared=$root/../shared

# The arguments of a check that writes files with ExecuTorch's serializers
# and loads them in its runtime: BUILD_DIR PTE_CHECK ET_PYTHON_DIR
# [WORK_DIR]. Sets build, bin, ptecheck, etpython and work (made; a new
# temporary directory when not given); exits 2 when one is missing.
take_check_arguments() {
  if [ $# -lt 3 ]; then
    echo "usage: $(basename "${BASH_SOURCE[1]}") BUILD_DIR PTE_CHECK" \
      "ET_PYTHON_DIR [WORK_DIR]" >&2
    exit 2
  fi
  build=$(cd "$1" && pwd) || exit 2
  bin=$build/bin
  ptecheck=$2
  etpython=$3
  work=${4:-$(mktemp -d)}
  mkdir -p "$work" || exit 2
}
