#!/usr/bin/env python3
"""Prints how many pixels of a PNG are not its first pixel's colour, and how many colours it has: a chart that
rendered blank prints 0. Used by the report chart test (ReportCLITests) after rsvg-convert; standard library only.
    python3 scripts/png-ink.py chart.png      # e.g. "ink 41873 colours 212"
"""
import struct, sys, zlib

data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, width, height, colour, depth = 8, b"", 0, 0, 0, 0
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        width, height, depth, colour = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
assert depth == 8 and colour in (2, 6), f"expected 8-bit RGB or RGBA, found depth {depth} colour type {colour}"
bpp = 4 if colour == 6 else 3
raw = zlib.decompress(idat)
stride = width * bpp
rows, prev, i = [], bytearray(stride), 0
for _ in range(height):
    kind, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]
        c = prev[x - bpp] if x >= bpp else 0
        if kind == 1: line[x] = (line[x] + a) & 255
        elif kind == 2: line[x] = (line[x] + b) & 255
        elif kind == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif kind == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(line))
    prev = line
first = rows[0][:bpp]
pixels = [row[x:x + bpp] for row in rows for x in range(0, stride, bpp)]
print("ink", sum(1 for p in pixels if p != first), "colours", len(set(pixels)))
