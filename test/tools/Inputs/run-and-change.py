#!/usr/bin/env python3
# run-and-change.py - Change a file while a tool runs, at a stage it pauses
# at (the tools' hidden --testing-pause=STAGE:FILE).
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
#   run-and-change.py PAUSE_FILE ACTION TARGET -- COMMAND...
#
# Runs COMMAND, waits until it creates PAUSE_FILE, then does ACTION to
# TARGET: "append" (a byte), "overwrite" (its last byte, in place, size
# kept), "truncate" (to half its size) or "none"; removes PAUSE_FILE so that the
# tool goes on, and exits with the tool's status, its output passed through.

import os
import subprocess
import sys
import time


def change(action, target):
    if action == "none":
        return
    size = os.path.getsize(target)
    with open(target, "r+b") as f:
        if action == "append":
            f.seek(0, os.SEEK_END)
            f.write(b"\0")
        elif action == "overwrite":
            f.seek(size - 1)
            byte = f.read(1)
            f.seek(size - 1)
            f.write(bytes([byte[0] ^ 0xFF]))
        elif action == "truncate":
            f.truncate(size // 2)
        else:
            sys.exit("unknown action " + action)
    # The same second as the tool's read must still count as a change.
    os.utime(target, ns=(time.time_ns(), time.time_ns() + 1))


def main():
    pause, action, target, dashes = sys.argv[1:5]
    assert dashes == "--"
    if os.path.exists(pause):
        os.remove(pause)
    tool = subprocess.Popen(sys.argv[5:])
    deadline = time.time() + 60
    while not os.path.exists(pause):
        if tool.poll() is not None or time.time() > deadline:
            sys.exit("run-and-change.py: the tool never paused")
        time.sleep(0.01)
    change(action, target)
    os.remove(pause)
    sys.exit(tool.wait())


if __name__ == "__main__":
    main()
