#!/usr/bin/env python3
# wheel-files.py DIST_DIR
#
# Lists the files of the one wheel in DIST_DIR, then what its executables
# and libraries need at run time (ldd), as one line "needs: ..." of library
# names: a self-contained wheel needs only the C and C++ runtimes.
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0

import os
import re
import subprocess
import sys
import tempfile
import zipfile

dist = sys.argv[1]
(wheel,) = [name for name in os.listdir(dist) if name.endswith(".whl")]
with zipfile.ZipFile(os.path.join(dist, wheel)) as archive:
    names = sorted(archive.namelist())
    for name in names:
        print(name)
    needs = set()
    with tempfile.TemporaryDirectory() as work:
        for name in names:
            if "/_bin/" not in name and not name.endswith(".so"):
                continue
            path = archive.extract(name, work)
            out = subprocess.run(["ldd", path], capture_output=True,
                                 text=True).stdout
            needs |= {re.sub(r"\.so.*", "", m.group(1))
                      for m in re.finditer(r"^\s*(\S+) =>", out, re.M)}
print("needs: " + " ".join(sorted(needs)))
