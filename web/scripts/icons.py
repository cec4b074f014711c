#!/usr/bin/env python3
"""Draws the web app's icons (web/public/icons/icon-192.png, icon-512.png): a white spade on the
felt green of the page (theme colour #0f5132), full-bleed so that they also serve as maskable
icons (the spade stays inside the central 80 % safe zone). Standard library only (zlib PNG);
the PNGs are committed, run this again only to change them: python3 web/scripts/icons.py"""
import math
import os
import struct
import zlib

GREEN = (0x0F, 0x51, 0x32)
WHITE = (0xFF, 0xFF, 0xFF)


def inside_spade(x, y):
    """(x, y) in [-1, 1]², y down: a spade of two lobes, a point on top and a stem."""
    # the lobes: two circles
    r = 0.30
    for cx in (-0.27, 0.27):
        if (x - cx) ** 2 + (y - 0.12) ** 2 <= r * r:
            return True
    # the upper body: a triangle from the top point to the lobes' outer edges
    top, base = -0.62, 0.14
    if top <= y <= base:
        half = (y - top) / (base - top) * 0.56
        if abs(x) <= half:
            return True
    # the stem: a narrow flared foot
    if 0.2 <= y <= 0.62:
        half = 0.06 + (y - 0.2) / 0.42 * 0.16
        if abs(x) <= half:
            return True
    return False


def png(size, path):
    ss = 3  # samples per axis per pixel (anti-aliasing)
    rows = []
    for py in range(size):
        row = bytearray([0])
        for px in range(size):
            hits = 0
            for sy in range(ss):
                for sx in range(ss):
                    x = ((px + (sx + 0.5) / ss) / size) * 2 - 1
                    y = ((py + (sy + 0.5) / ss) / size) * 2 - 1
                    hits += inside_spade(x / 0.8, y / 0.8)
            a = hits / (ss * ss)
            row += bytes(round(g * (1 - a) + w * a) for g, w in zip(GREEN, WHITE))
        rows.append(bytes(row))
    raw = zlib.compress(b"".join(rows), 9)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", raw))
        f.write(chunk(b"IEND", b""))


if __name__ == "__main__":
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "public", "icons")
    os.makedirs(out, exist_ok=True)
    for size in (192, 512):
        png(size, os.path.join(out, f"icon-{size}.png"))
