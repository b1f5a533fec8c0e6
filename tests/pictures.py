"""Files for upload tests, made on the spot: good pictures, a damaged one, a
decompression bomb, one full of metadata, and files that are not pictures."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib

from PIL import Image

#: Text hidden in the metadata of :func:`exif_jpeg`: it must never come out again.
SECRET = "OWNER-SECRET-4242"


def picture(fmt: str = "PNG", size: tuple[int, int] = (300, 450), color: str = "#3a7") -> bytes:
    """A plain picture in ``fmt`` (PNG, JPEG, WEBP, GIF)."""
    out = io.BytesIO()
    img = Image.new("RGB", size, color)
    # A stripe, so a picture is not one flat colour.
    img.paste(Image.new("RGB", (size[0], max(1, size[1] // 10)), "#fff"), (0, size[1] // 2))
    img.save(out, fmt)
    return out.getvalue()


def numbered(n: int, fmt: str = "PNG") -> bytes:
    """A small picture of its own colour for card ``n`` of a test deck."""
    hue = (n * 47) % 256
    return picture(fmt, (120, 180), f"#{hue:02x}{(255 - hue):02x}{(n * 91) % 256:02x}")


def exif_jpeg() -> bytes:
    """A landscape JPEG (300 × 200, red) whose EXIF says: turn me upright (orientation 6:
    a portrait 200 × 300), and carries a camera, an author and a GPS position."""
    img = Image.new("RGB", (300, 200), "#d00")
    exif = Image.Exif()
    exif[0x0112] = 6  # orientation: rotate 90° clockwise to show
    exif[0x010F] = SECRET  # camera make
    exif[0x013B] = SECRET  # artist
    gps = exif.get_ifd(0x8825)
    gps[1] = "N"
    gps[2] = (45.0, 27.0, 1.0)
    out = io.BytesIO()
    img.save(out, "JPEG", exif=exif.tobytes(), comment=SECRET.encode())
    return out.getvalue()


def damaged_jpeg() -> bytes:
    """A JPEG cut off after its first third: the header reads, the pixels do not."""
    whole = picture("JPEG", (400, 600))
    return whole[: len(whole) // 3]


def bomb_png(side: int = 30_000) -> bytes:
    """A real decompression bomb: a whole, valid 1-bit PNG of ``side`` × ``side`` pixels
    (900 million for the default) in about a hundred kilobytes."""
    row = b"\x00" + b"\x00" * ((side + 7) // 8)
    packer = zlib.compressobj(9)
    parts = [packer.compress(row * 1000) for _ in range(side // 1000)]
    parts.append(packer.compress(row * (side % 1000)))
    parts.append(packer.flush())
    data = b"".join(parts)

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")
    )


def zip_of(files: dict[str, bytes]) -> bytes:
    """A ZIP archive of ``files``."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return out.getvalue()
