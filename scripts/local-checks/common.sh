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
