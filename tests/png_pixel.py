#!/usr/bin/python3
"""Prints the colour of pixels of a PNG, for the picture tests.

usage: png_pixel.py FILE.png X Y [X Y ...]
prints one line "#rrggbb" per point (alpha dropped: the pictures are drawn
on an opaque white background).  A minimal decoder on the standard library
(zlib): 8-bit greyscale, RGB or RGBA, not interlaced -- what rsvg-convert
writes -- with the five PNG row filters.
"""
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("%s: not a PNG" % path)
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    channels = {0: 1, 2: 3, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace:
        sys.exit("%s: unsupported PNG (depth %d, colour type %d, interlace %d)" % (path, depth, colour, interlace))
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 255
        rows.append(line)
        prev = line
    return width, height, channels, rows


def main():
    if len(sys.argv) < 4 or len(sys.argv) % 2:
        sys.exit(__doc__)
    width, height, channels, rows = decode(sys.argv[1])
    for k in range(2, len(sys.argv), 2):
        x, y = int(float(sys.argv[k])), int(float(sys.argv[k + 1]))
        if not (0 <= x < width and 0 <= y < height):
            sys.exit("(%d, %d) is outside the %d x %d picture" % (x, y, width, height))
        px = rows[y][x * channels:(x + 1) * channels]
        rgb = (px[0], px[0], px[0]) if channels == 1 else tuple(px[:3])
        print("#%02x%02x%02x" % rgb)


if __name__ == "__main__":
    main()
