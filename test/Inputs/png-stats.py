#!/usr/bin/env python3
# png-stats.py - What a screenshot shows, without an imaging library.
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
#   png-stats.py FILE.png                 prints size, ink and colours
#   png-stats.py FILE.png --require INK COLOURS
#                                         ... and fails below them
#   png-stats.py FILE.png --crop Y0 Y1 OUT.png
#
# "ink" is the share of pixels that are not (near) white, in percent;
# "colours" the number of distinct colours. A blank page has no ink and one
# colour. Reads 8-bit RGB and RGBA PNGs, as Chromium writes them.

import struct
import sys
import zlib


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert depth == 8 and colour in (2, 6), "only 8-bit RGB(A)"
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc \
                    else corner
                line[x] = (line[x] + pred) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def write(path, width, channels, rows):
    raw = b"".join(b"\0" + row for row in rows)
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + \
            struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, len(rows), 8,
                                           2 if channels == 3 else 6, 0, 0,
                                           0)))
        f.write(chunk(b"IDAT", zlib.compress(raw)))
        f.write(chunk(b"IEND", b""))


def main():
    width, height, channels, rows = read(sys.argv[1])
    if "--crop" in sys.argv:
        y0, y1, out = sys.argv[sys.argv.index("--crop") + 1:][:3]
        write(out, width, channels, rows[int(y0):int(y1)])
        return
    ink, colours = 0, set()
    for row in rows[::2]:
        for x in range(0, width * channels, channels * 2):
            pixel = row[x:x + 3]
            colours.add(pixel)
            if min(pixel) < 235:
                ink += 1
    samples = len(rows[::2]) * len(range(0, width * channels, channels * 2))
    share = 100.0 * ink / samples
    print("size %dx%d ink %.1f%% colours %d" %
          (width, height, share, len(colours)))
    if "--require" in sys.argv:
        need_ink, need_colours = sys.argv[sys.argv.index("--require") + 1:][:2]
        if share < float(need_ink) or len(colours) < int(need_colours):
            sys.exit("png-stats.py: the picture is (nearly) blank")


if __name__ == "__main__":
    main()
