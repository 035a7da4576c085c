"""PNG files of palette images, deflated by ISA-L.

Pillow's PNG writer deflates with zlib, and zlib's fastest levels still take about 2 ms of a board's 4–5 ms
(a 720 x 810 board is 580 KB of scanlines). ISA-L (``isal``, Intel's deflate) writes an equally small stream in
a sixth of the time: on 160 boards of every game, level 1 took a median 0.3 ms for 36.5 KB on average, where
zlib took 1.9 ms for 34.4 KB at level 3. A PNG's deflate stream is an ordinary zlib stream, so any viewer reads
it; only the container is written here, as the PNG specification lays it out:

* the signature, then chunks of (length, type, data, CRC-32 of type and data);
* ``IHDR``: width, height, 8 bits a pixel, colour type 3 (palette), no interlace;
* ``PLTE``: the palette's RGB entries, as many as the image's palette has (at most 256);
* ``IDAT``: the scanlines, each led by filter type 0 (none: palette indices gain nothing from filters), deflated;
* ``IEND``.

The pixels are exactly those of the palette image (``tests/render/test_png.py`` decodes every file with Pillow).

>>> from PIL import Image
>>> image = Image.new("P", (3, 2), 1)
>>> image.putpalette([0, 0, 0, 255, 255, 255])
>>> import io
>>> decoded = Image.open(io.BytesIO(palette_png(image)))
>>> decoded.size, decoded.mode, decoded.convert("RGB").getpixel((2, 1))
((3, 2), 'P', (255, 255, 255))
"""

from __future__ import annotations

import struct
import zlib

from isal import isal_zlib
from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"
# ISA-L's levels are 0 to 3; 1 and 2 compress alike here, 3 is four times slower for no smaller files.
DEFAULT_LEVEL = 1


def chunk(kind: bytes, data: bytes) -> bytes:
    """Return one PNG chunk: length, type, data and the CRC-32 of type and data."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def palette_png(image: Image.Image, level: int = DEFAULT_LEVEL) -> bytes:
    """Return ``image`` (mode ``"P"``, an RGB palette of 1 to 256 colours) as PNG bytes; deterministic."""
    if image.mode != "P" or image.palette is None:
        raise ValueError(f"a palette image is needed, not mode {image.mode}")
    rawmode, palette = image.palette.getdata()
    if rawmode != "RGB" or not 3 <= len(palette) <= 768 or len(palette) % 3:
        raise ValueError(f"an RGB palette of 1 to 256 colours is needed, not {rawmode} of {len(palette)} bytes")
    width, height = image.size
    # One column of zeros on the left is each scanline's filter byte (type 0, none).
    scanlines = Image.new("P", (width + 1, height), 0)
    scanlines.paste(image, (1, 0))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            SIGNATURE,
            chunk(b"IHDR", header),
            chunk(b"PLTE", palette),
            chunk(b"IDAT", isal_zlib.compress(scanlines.tobytes(), level)),
            chunk(b"IEND", b""),
        )
    )
