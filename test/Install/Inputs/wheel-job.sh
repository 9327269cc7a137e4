#!/bin/sh
# wheel-job.sh PROGRAM.mlir
#
# Runs every emit tool found on PATH (an installed wheel's console scripts):
# each one's --version, then one job: PROGRAM.mlir canonicalized, written,
# deduplicated, verified, compared, sized and linked.
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
set -e
for tool in emit-opt emit-translate emit-link emit-verify emit-diff emit-memory; do
  echo "$(command -v $tool): $($tool --version)"
done
emit-opt "$1" --canonicalize | emit-translate --to-pte -o prog.pte
emit-translate --pte-to-pte prog.pte -o dedup.pte
emit-verify dedup.pte
emit-diff prog.pte dedup.pte
emit-memory dedup.pte | tail -1
emit-link prog.pte --out-dir linked
ls linked
