#!/usr/bin/env python3
# pte-json.py FLATC SCHEMA FILE.pte
#
# Decodes a .pte with flatc against the project's schema and prints the JSON
# with every list of scalars on one line, so that FileCheck patterns read
# like the data: `"sizes": [2, 3]`.
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0

import json
import os
import subprocess
import sys
import tempfile


def render(value, indent=0):
    pad = "  " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [
            '%s  "%s": %s' % (pad, key, render(item, indent + 1))
            for key, item in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list):
        if all(not isinstance(item, (dict, list)) for item in value):
            return "[" + ", ".join(json.dumps(item) for item in value) + "]"
        items = [pad + "  " + render(item, indent + 1) for item in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(value)


def main():
    flatc, schema, pte = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([flatc, "--json", "--strict-json", "--raw-binary",
                        "--defaults-json", "-o", out, schema, "--", pte],
                       check=True)
        name = os.path.splitext(os.path.basename(pte))[0] + ".json"
        with open(os.path.join(out, name)) as f:
            data = json.load(f)
    print(render(data))


if __name__ == "__main__":
    main()
