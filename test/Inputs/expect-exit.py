#!/usr/bin/env python3
# expect-exit.py CODE COMMAND...
#
# Runs COMMAND, passing its output through, and succeeds only when it exits
# with CODE: lit's `not` tells failure from success, not one code from
# another.
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0

import subprocess
import sys

code = subprocess.run(sys.argv[2:]).returncode
if code != int(sys.argv[1]):
    sys.stderr.write("expected exit code %s, got %d\n" % (sys.argv[1], code))
    sys.exit(1)
