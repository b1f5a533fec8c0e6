"""Pictures players upload for their own decks: checked, decoded and drawn again.

Nothing of an uploaded file reaches another player as it came: every picture is
decoded by Pillow (JPEG, PNG or WebP, recognised by its content, not its name), turned
upright by its EXIF orientation, converted to sRGB, cropped or padded to the card's
2:3 shape, scaled to :data:`CARD_SIZE` and encoded again as WebP, with no metadata
(EXIF, XMP, ICC, comments). The pixel count is read from the header and bounded
before anything is decoded (a 100 KB PNG can claim 50,000 × 50,000 pixels). A ZIP is
opened here too, every entry read with a bound whatever its header claims.
"""

from __future__ import annotations

import contextlib
import io
import math
import warnings
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageCms, ImageFilter, ImageOps, UnidentifiedImageError

#: The size of a card's picture (the 2:3 shape of the default deck's cards).
CARD_SIZE = (640, 960)
CARD_MIME = "image/webp"
CARD_SUFFIX = ".webp"
#: The formats accepted, by Pillow's name.
FORMATS = ("JPEG", "PNG", "WEBP")
WEBP_QUALITY = 82
#: Entries of a ZIP that are not pictures of the person's: folders' and systems' files.
_JUNK = ("__MACOSX/", ".DS_Store", "Thumbs.db", "desktop.ini")

FitMode = Literal["crop", "pad"]


class UploadRefused(ValueError):
    """A file that cannot become a card: ``code`` names the reason for the client's
    translations, ``params`` fills its message."""

    def __init__(self, code: str, message: str, **params: int | str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params

    def __reduce__(self) -> tuple[object, ...]:
        # Decoded in another process: the refusal comes back by pickle, whole.
        return (_refusal, (self.code, self.message, self.params))


def _refusal(code: str, message: str, params: dict[str, int | str]) -> UploadRefused:
    return UploadRefused(code, message, **params)


@dataclass(frozen=True, slots=True)
class Fit:
    """How a picture becomes card-shaped. ``crop``: the largest 2:3 frame, divided by
    ``zoom`` (1–4), placed at ``(x, y)``: fractions of the room left around it (0: at
    the left or top edge, 1: at the right or bottom; CSS ``object-position``). ``pad``:
    the whole picture, on a blurred, darkened copy of
    itself where it does not fill the card."""

    mode: FitMode = "crop"
    x: float = 0.5
    y: float = 0.5
    zoom: float = 1.0

    def __post_init__(self) -> None:
        for name in ("x", "y", "zoom"):
            if not math.isfinite(getattr(self, name)):
                raise ValueError(f"{name} must be a number")
        if not (0.0 <= self.x <= 1.0 and 0.0 <= self.y <= 1.0 and 1.0 <= self.zoom <= 4.0):
            raise ValueError("x and y are fractions from 0 to 1; zoom is from 1 to 4")


def is_zip(data: bytes) -> bool:
    """Whether ``data`` looks like a ZIP archive (by its signature)."""
    return data[:4] in (b"PK\x03\x04", b"PK\x05\x06")


def decoded_pixels(data: bytes, *, max_pixels: int) -> int:
    """How many pixels decoding ``data`` makes, read from its header alone (nothing is
    decoded: a JPEG at the reduced scale :func:`card_picture` decodes it at); raises
    :class:`UploadRefused` as :func:`card_picture` would for a file that is not a
    picture, is damaged or has more than ``max_pixels`` pixels.

    >>> decoded_pixels(b"GIF89a", max_pixels=100)
    Traceback (most recent call last):
    ...
    reverie.content.uploads.UploadRefused: Not a JPEG, PNG or WebP picture.
    """
    with _opened(data, max_pixels) as img:
        return int(img.size[0] * img.size[1])


@contextlib.contextmanager
def _opened(data: bytes, max_pixels: int) -> Iterator[Image.Image]:
    """The picture in ``data``, opened and not yet decoded, its size checked against
    ``max_pixels`` and a JPEG set to decode at the smallest scale that covers the card;
    raises :class:`UploadRefused` for anything else."""
    with warnings.catch_warnings():
        # Pillow's own bomb guard warns below twice its limit: ours is stricter, and
        # checked before decoding; the warning must not reach the log per upload.
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            img = Image.open(io.BytesIO(data), formats=FORMATS)
        except UnidentifiedImageError:
            raise UploadRefused("not_a_picture", "Not a JPEG, PNG or WebP picture.") from None
        except Image.DecompressionBombError:
            raise _too_many_pixels(max_pixels) from None
        except (OSError, SyntaxError, ValueError):
            raise UploadRefused("damaged", "The picture is damaged.") from None
        with img:
            width, height = img.size
            if width * height > max_pixels:
                raise _too_many_pixels(max_pixels)
            if width < 1 or height < 1:
                raise UploadRefused("damaged", "The picture is damaged.")
            # JPEG decodes at 1/2, 1/4 or 1/8 scale when that still covers the card.
            img.draft("RGB", (CARD_SIZE[0] * 2, CARD_SIZE[1] * 2))
            yield img


def card_picture(data: bytes, fit: Fit, *, max_pixels: int) -> bytes:
    """The card picture (WebP, :data:`CARD_SIZE`, no metadata) made from an uploaded
    file; raises :class:`UploadRefused` for anything else."""
    with _opened(data, max_pixels) as img:
        try:
            img.load()
            upright = ImageOps.exif_transpose(img) or img
            rgb = _srgb(upright)
        except Image.DecompressionBombError:
            raise _too_many_pixels(max_pixels) from None
        except (OSError, SyntaxError, ValueError, EOFError):
            raise UploadRefused("damaged", "The picture is damaged.") from None
    card = _fitted(rgb, fit)
    # A fresh image holds no ``info`` of the upload: nothing of its metadata is written.
    clean = Image.new("RGB", card.size)
    clean.paste(card)
    out = io.BytesIO()
    clean.save(out, "WEBP", quality=WEBP_QUALITY, method=4)
    return out.getvalue()


def _too_many_pixels(max_pixels: int) -> UploadRefused:
    return UploadRefused(
        "too_many_pixels",
        f"The picture has more than {max_pixels // 1_000_000} million pixels.",
        megapixels=max_pixels // 1_000_000,
    )


def _srgb(img: Image.Image) -> Image.Image:
    """The picture in RGB, its colour profile (if any) applied; transparency on white."""
    profile = img.info.get("icc_profile")
    if img.mode in ("RGBA", "LA", "PA") or (img.mode == "P" and "transparency" in img.info):
        rgba = img.convert("RGBA")
        base = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        img = Image.alpha_composite(base, rgba)
    rgb = img.convert("RGB")
    if profile:
        try:
            src = ImageCms.ImageCmsProfile(io.BytesIO(profile))
            converted = ImageCms.profileToProfile(rgb, src, ImageCms.createProfile("sRGB"))
            if converted is not None:
                rgb = converted.convert("RGB")
        except (ImageCms.PyCMSError, OSError, ValueError):
            pass  # a broken profile: the pixels as they are
    return rgb


def _fitted(img: Image.Image, fit: Fit) -> Image.Image:
    w, h = img.size
    cw, ch = CARD_SIZE
    if fit.mode == "pad":
        scale = min(cw / w, ch / h)
        inner = img.resize(
            (max(1, round(w * scale)), max(1, round(h * scale))), Image.Resampling.LANCZOS
        )
        back = ImageOps.fit(img, CARD_SIZE, Image.Resampling.BILINEAR)
        back = back.filter(ImageFilter.GaussianBlur(24)).point(lambda v: int(v * 0.55))
        back.paste(inner, ((cw - inner.width) // 2, (ch - inner.height) // 2))
        return back
    return img.resize(CARD_SIZE, Image.Resampling.LANCZOS, box=crop_box(w, h, fit))


def crop_box(width: int, height: int, fit: Fit) -> tuple[int, int, int, int]:
    """The part of a ``width`` × ``height`` picture that becomes the card in ``crop``
    mode: the largest frame of the card's shape inside it, divided by ``fit.zoom`` and
    placed at ``(fit.x, fit.y)`` (CSS's object-position: 0 at the left or top edge, 1 at
    the right or bottom, so the upload page's preview is exact).

    Whole pixels, worked out in integers, and always inside the picture: float
    arithmetic once made the frame of a 1200 × 800 picture a hair taller than the
    picture itself, and Pillow refused the negative offset.

    >>> crop_box(1200, 800, Fit())
    (334, 0, 867, 800)
    >>> crop_box(1, 1, Fit(zoom=4))
    (0, 0, 1, 1)
    """
    cw, ch = CARD_SIZE
    if width * ch <= height * cw:  # narrower than a card: the whole width
        fw, fh = width, min(height, (width * ch + cw // 2) // cw)
    else:  # wider: the whole height
        fw, fh = min(width, (height * cw + ch // 2) // ch), height
    fw = min(fw, max(1, round(fw / fit.zoom)))
    fh = min(fh, max(1, round(fh / fit.zoom)))
    left = min(width - fw, round(fit.x * (width - fw)))
    top = min(height - fh, round(fit.y * (height - fh)))
    return (left, top, left + fw, top + fh)


def unpack_zip(
    data: bytes, *, max_entries: int, max_entry_bytes: int, max_total_bytes: int | None = None
) -> list[tuple[str, bytes | UploadRefused]]:
    """The files of a ZIP archive, each with its bytes or why it is refused (folders
    and system files skipped); raises :class:`UploadRefused` when the archive itself
    cannot be read or holds no file.

    ``max_total_bytes`` bounds what all entries together inflate to (a few hundred
    kilobytes of ZIP can hold gigabytes of zeros, each entry under the per-file bound):
    entries past it are refused as ``deck_too_large`` without being inflated."""
    total_limit = max_entries * max_entry_bytes if max_total_bytes is None else max_total_bytes
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError):
        raise UploadRefused("bad_zip", "The ZIP archive cannot be read.") from None
    out: list[tuple[str, bytes | UploadRefused]] = []
    total = 0
    with archive:
        entries = [i for i in archive.infolist() if not i.is_dir() and not _junk(i.filename)]
        for n, info in enumerate(entries):
            name = info.filename
            if n >= max_entries:
                out.append((name, too_many_pictures(max_entries)))
                continue
            if info.flag_bits & 0x1:
                out.append((name, UploadRefused("encrypted", "The file is locked by a password.")))
                continue
            if info.file_size > max_entry_bytes:
                out.append((name, file_too_large(max_entry_bytes)))
                continue
            room = total_limit - total
            if room <= 0 or info.file_size > room:
                out.append((name, deck_too_large(total_limit)))
                continue
            bound = min(max_entry_bytes, room)
            try:
                with archive.open(info) as f:
                    # Read one byte past the bound: a header that lies about the size
                    # cannot make us inflate more than that.
                    body = f.read(bound + 1)
            except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError):
                out.append((name, UploadRefused("damaged", "The file is damaged.")))
                continue
            total += len(body)
            if len(body) > max_entry_bytes:
                out.append((name, file_too_large(max_entry_bytes)))
                continue
            if len(body) > bound:
                out.append((name, deck_too_large(total_limit)))
                continue
            out.append((name, body))
    if not out:
        raise UploadRefused("empty_zip", "The ZIP archive holds no pictures.")
    return out


def _junk(name: str) -> bool:
    base = name.rsplit("/", 1)[-1]
    return base.startswith(".") or any(j in name for j in _JUNK)


def file_too_large(limit: int) -> UploadRefused:
    """The refusal of a file past ``limit`` bytes."""
    mb = max(1, limit // 1_000_000)
    return UploadRefused("file_too_large", f"The file is larger than {mb} MB.", mb=mb)


def deck_too_large(limit: int) -> UploadRefused:
    """The refusal of pictures past ``limit`` bytes for one deck."""
    mb = max(1, limit // 1_000_000)
    return UploadRefused("deck_too_large", f"A deck takes at most {mb} MB.", mb=mb)


def too_many_pictures(limit: int) -> UploadRefused:
    """The refusal of a picture past a deck's ``limit`` of cards."""
    return UploadRefused("too_many_pictures", f"A deck holds at most {limit} pictures.", max=limit)
