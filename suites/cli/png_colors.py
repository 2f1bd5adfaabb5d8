#!/usr/bin/env python3
"""Checks that a PNG screenshot is not blank and shows given colours (the charts' fills).

Usage: png_colors.py FILE [#rrggbb ...]
Pure Python (zlib only; PIL is not needed): decodes 8-bit RGB/RGBA PNGs, counts distinct colours
and looks for each wanted colour within +-4 per channel. Exit 0 when the image has at least 8
distinct colours and every wanted colour occurs in at least 50 pixels; 1 otherwise, saying why.
"""
import struct, sys, zlib

def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError(f"unsupported PNG (depth {depth}, colour type {ctype}, interlace {interlace})")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    i = 0
    for _ in range(h):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        if f == 1:
            for x in range(bpp, stride):
                line[x] = (line[x] + line[x - bpp]) & 255
        elif f == 2:
            for x in range(stride):
                line[x] = (line[x] + prev[x]) & 255
        elif f == 3:
            for x in range(stride):
                left = line[x - bpp] if x >= bpp else 0
                line[x] = (line[x] + ((left + prev[x]) >> 1)) & 255
        elif f == 4:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b = prev[x]
                c = prev[x - bpp] if x >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows

def main():
    path, wanted = sys.argv[1], sys.argv[2:]
    w, h, bpp, rows = decode(path)
    counts = {}
    for line in rows:
        for x in range(0, len(line), bpp):
            px = line[x:x + 3]
            counts[px] = counts.get(px, 0) + 1
    ok = True
    print(f"{path}: {w}x{h}, {len(counts)} distinct colours")
    if len(counts) < 8:
        print("FAIL: the screenshot is (nearly) blank")
        ok = False
    for hexcol in wanted:
        r, g, b = (int(hexcol.lstrip("#")[k:k + 2], 16) for k in (0, 2, 4))
        n = sum(c for px, c in counts.items() if abs(px[0] - r) <= 4 and abs(px[1] - g) <= 4 and abs(px[2] - b) <= 4)
        print(f"  {hexcol}: {n} pixels")
        if n < 50:
            print(f"FAIL: colour {hexcol} not drawn")
            ok = False
    sys.exit(0 if ok else 1)

if __name__ == "__main__":
    main()
