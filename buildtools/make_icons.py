"""Draw the app's icons (static/icon-*.png) from the same shapes as static/icon.svg.

A red card with a white tilted oval and a red ring inside it, as on an UNO card's
face. Pure Python (no imaging library): run it again only if the design changes.

    python3 buildtools/make_icons.py
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "static"
RED = (198, 40, 40)
WHITE = (255, 255, 255)
SIZES = (180, 192, 512)
SAMPLES = 3  # per side of a pixel: anti-aliased edges


def inside_rounded_square(x: float, y: float, radius: float) -> bool:
    """(x, y) in [0, 1]: inside the card, whose corners are rounded by ``radius``."""
    cx = min(max(x, radius), 1 - radius)
    cy = min(max(y, radius), 1 - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2


def inside_oval(x: float, y: float, rx: float, ry: float) -> bool:
    """Inside the oval centred on the card, tilted 30 degrees like the UNO card's."""
    angle = math.radians(-30)
    dx, dy = x - 0.5, y - 0.5
    u = dx * math.cos(angle) - dy * math.sin(angle)
    v = dx * math.sin(angle) + dy * math.cos(angle)
    return (u / rx) ** 2 + (v / ry) ** 2 <= 1


def color_at(x: float, y: float) -> tuple[int, int, int, int]:
    """The card's color (with alpha) at a point."""
    if not inside_rounded_square(x, y, 0.18):
        return (0, 0, 0, 0)
    if inside_oval(x, y, 0.40, 0.27) and not inside_oval(x, y, 0.22, 0.13):
        return (*WHITE, 255)
    return (*RED, 255)


def png(size: int) -> bytes:
    """The icon as a PNG file of ``size`` x ``size`` pixels."""
    rows = []
    for py in range(size):
        row = bytearray([0])
        for px in range(size):
            total = [0, 0, 0, 0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    rgba = color_at((px + (sx + 0.5) / SAMPLES) / size,
                                    (py + (sy + 0.5) / SAMPLES) / size)
                    for i in range(4):
                        total[i] += rgba[i]
            row += bytes(round(t / SAMPLES ** 2) for t in total)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


def main() -> None:
    """Write every size."""
    for size in SIZES:
        (STATIC / f"icon-{size}.png").write_bytes(png(size))


if __name__ == "__main__":
    main()
