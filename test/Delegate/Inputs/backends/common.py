"""What every backend's payloads are built with: flatc and the schemas (from the command line), 16-byte padding, a region header of little-endian fields."""
import json
import os
import subprocess
import sys


FLATC, SCHEMAS, OUT = sys.argv[1:4]
# The test inputs beside the generator (the backends' option schemas).
INPUTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)


NONE = 2**32 - 1


def flatbuffer(name, graph, schema="xnnpack.fbs", root=None):
    path = os.path.join(OUT, name + ".json")
    with open(path, "w") as out:
        json.dump(graph, out)
    subprocess.run([FLATC, "--binary", "-o", OUT]
                   + (["--root-type", root] if root else [])
                   + [os.path.join(SCHEMAS, schema), path], check=True)
    with open(os.path.join(OUT, name + ".bin"), "rb") as binary:
        return binary.read()


def pad16(data):
    return data + b"\0" * (-len(data) % 16)


def region_header(magic, length, *fields):
    """A header of a magic at 4 and little-endian (value, width) fields."""
    data = b"\0" * 4 + magic
    for value, width in fields:
        data += value.to_bytes(width, "little")
    return data + b"\0" * (length - len(data))
