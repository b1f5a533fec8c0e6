"""Uploaded pictures become clean card pictures, or a clear refusal."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from reverie.content.uploads import (
    CARD_SIZE,
    Fit,
    UploadRefused,
    card_picture,
    crop_box,
    is_zip,
    unpack_zip,
)
from tests.pictures import SECRET, bomb_png, damaged_jpeg, exif_jpeg, picture, zip_of

MAX_PIXELS = 40_000_000


def decoded(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "WEBP"])
def test_each_accepted_format_becomes_a_card_sized_webp(fmt: str) -> None:
    out = card_picture(picture(fmt, (800, 500)), Fit(), max_pixels=MAX_PIXELS)
    img = decoded(out)
    assert (img.format, img.size, img.mode) == ("WEBP", CARD_SIZE, "RGB")


def test_metadata_is_stripped_and_the_picture_turned_upright() -> None:
    raw = exif_jpeg()
    assert SECRET.encode() in raw
    out = card_picture(raw, Fit(mode="pad"), max_pixels=MAX_PIXELS)
    assert SECRET.encode() not in out
    img = decoded(out)
    assert not img.getexif() and "exif" not in img.info and "icc_profile" not in img.info
    assert not {"xmp", "comment"} & set(img.info)
    # Upright it is 200 × 300, exactly the card's shape: padding adds no band, so the
    # corners are the picture's red, not the darkened blur a landscape picture gets.
    r, g, b = img.convert("RGB").getpixel((2, 2))  # type: ignore[misc]
    assert r > 180 and g < 60 and b < 60


def test_a_landscape_picture_is_padded_on_a_darker_blur() -> None:
    out = card_picture(picture("PNG", (900, 300), "#eee"), Fit(mode="pad"), max_pixels=MAX_PIXELS)
    img = decoded(out).convert("RGB")
    top = img.getpixel((CARD_SIZE[0] // 2, 5))
    middle = img.getpixel((5, CARD_SIZE[1] // 2 - 60))
    assert isinstance(top, tuple) and isinstance(middle, tuple)
    assert sum(top) < sum(middle)  # the band is darker than the picture


def test_crop_follows_the_chosen_point() -> None:
    img = Image.new("RGB", (1200, 600), "#00f")
    img.paste(Image.new("RGB", (600, 600), "#f00"), (600, 0))  # right half red
    raw = io.BytesIO()
    img.save(raw, "PNG")
    left = decoded(card_picture(raw.getvalue(), Fit(x=0.0), max_pixels=MAX_PIXELS))
    right = decoded(card_picture(raw.getvalue(), Fit(x=1.0, zoom=2), max_pixels=MAX_PIXELS))
    lp, rp = left.getpixel((320, 480)), right.getpixel((320, 480))
    assert isinstance(lp, tuple) and isinstance(rp, tuple)
    assert lp[2] > 200 and rp[0] > 200


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (picture("GIF"), "not_a_picture"),
        (b"<svg xmlns='http://www.w3.org/2000/svg'/>", "not_a_picture"),
        (b"just some text, named cat.jpg", "not_a_picture"),
        (b"", "not_a_picture"),
        (damaged_jpeg(), "damaged"),
        (bomb_png(), "too_many_pixels"),
    ],
    ids=["gif", "svg", "text", "empty", "damaged", "bomb"],
)
def test_refusals_name_their_reason(data: bytes, code: str) -> None:
    with pytest.raises(UploadRefused) as refused:
        card_picture(data, Fit(), max_pixels=MAX_PIXELS)
    assert refused.value.code == code and refused.value.message


def test_the_bomb_is_refused_before_it_is_inflated() -> None:
    """A bomb's pixels fit the bound when the bound is raised: then it is decoded (and
    the same file passes), which shows the refusal above came from the bound."""
    small_bomb = bomb_png(side=4000)  # 16 million pixels
    with pytest.raises(UploadRefused, match="million pixels"):
        card_picture(small_bomb, Fit(), max_pixels=10_000_000)
    assert decoded(card_picture(small_bomb, Fit(), max_pixels=20_000_000)).size == CARD_SIZE


def test_fit_values_are_bounded() -> None:
    for bad in ({"x": 1.5}, {"y": -0.1}, {"zoom": 0.5}, {"zoom": float("nan")}):
        with pytest.raises(ValueError):
            Fit(**bad)  # type: ignore[arg-type]


def test_a_zip_gives_each_file_or_its_refusal() -> None:
    archive = zip_of(
        {
            "deck/one.png": picture("PNG"),
            "deck/two.jpg": picture("JPEG"),
            "__MACOSX/deck/._one.png": b"junk",
            "deck/.DS_Store": b"junk",
            "deck/big.png": b"x" * 5000,
        }
    )
    assert is_zip(archive) and not is_zip(picture("PNG"))
    entries = dict(unpack_zip(archive, max_entries=10, max_entry_bytes=4000))
    assert set(entries) == {"deck/one.png", "deck/two.jpg", "deck/big.png"}
    assert entries["deck/one.png"] == picture("PNG")
    big = entries["deck/big.png"]
    assert isinstance(big, UploadRefused) and big.code == "file_too_large"
    capped = unpack_zip(archive, max_entries=1, max_entry_bytes=4000)
    assert [type(e) for _, e in capped] == [bytes, UploadRefused, UploadRefused]
    assert [e.code for _, e in capped if isinstance(e, UploadRefused)] == [
        "too_many_pictures", "too_many_pictures"]  # fmt: skip


def test_a_zip_that_lies_about_its_sizes_is_read_only_to_the_bound() -> None:
    archive = bytearray(zip_of({"a.png": b"\x00" * 100_000}))
    # Make both headers claim 10 bytes: reading must still stop at the bound.
    for sig, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = archive.find(sig)
        archive[at + offset : at + offset + 4] = (10).to_bytes(4, "little")
    (name, entry), = unpack_zip(bytes(archive), max_entries=5, max_entry_bytes=1000)  # fmt: skip
    assert name == "a.png" and isinstance(entry, UploadRefused)
    assert entry.code in ("file_too_large", "damaged")


@pytest.mark.parametrize("lying", [False, True], ids=["honest", "lying-headers"])
def test_a_zip_bomb_is_inflated_only_to_the_decks_bound(lying: bool) -> None:
    """Forty entries of 2 MB of zeros (each under the per-file bound) in a ZIP of a few
    kilobytes: with a 5 MB bound in all, two entries are inflated and the rest refused
    unread. Headers that understate the sizes get no further: reading stops at the
    claimed size and the entry is damaged."""
    archive = bytearray(zip_of({f"p{i:02d}.png": b"\x00" * 2_000_000 for i in range(40)}))
    assert len(archive) < 200_000
    if lying:  # every header claims 10 bytes: only the reads' bounds hold
        for sig, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
            at = archive.find(sig)
            while at >= 0:
                archive[at + offset : at + offset + 4] = (10).to_bytes(4, "little")
                at = archive.find(sig, at + 4)
    entries = unpack_zip(
        bytes(archive), max_entries=200, max_entry_bytes=3_000_000, max_total_bytes=5_000_000
    )
    assert len(entries) == 40
    bodies = [e for _, e in entries if isinstance(e, bytes)]
    refused = [e for _, e in entries if isinstance(e, UploadRefused)]
    if lying:
        assert not bodies and {e.code for e in refused} == {"damaged"}
        return
    assert len(bodies) == 2 and sum(map(len, bodies)) <= 5_000_000
    assert len(refused) == 38 and {e.code for e in refused} == {"deck_too_large"}
    assert refused[0].params == {"mb": 5}


def test_bad_and_empty_zips_are_refused() -> None:
    with pytest.raises(UploadRefused) as bad:
        unpack_zip(b"PK\x03\x04 not really", max_entries=5, max_entry_bytes=1000)
    assert bad.value.code == "bad_zip"
    with pytest.raises(UploadRefused) as empty:
        unpack_zip(zip_of({"__MACOSX/x": b"1"}), max_entries=5, max_entry_bytes=1000)
    assert empty.value.code == "empty_zip"


@given(
    width=st.integers(1, 6000),
    height=st.integers(1, 6000),
    x=st.floats(0, 1),
    y=st.floats(0, 1),
    zoom=st.floats(1, 4),
)
@settings(max_examples=500, deadline=None)
def test_the_crop_box_is_whole_pixels_inside_every_picture(
    width: int, height: int, x: float, y: float, zoom: float
) -> None:
    left, top, right, bottom = box = crop_box(width, height, Fit(x=x, y=y, zoom=zoom))
    assert all(isinstance(v, int) for v in box)
    assert 0 <= left < right <= width and 0 <= top < bottom <= height
    fw, fh = right - left, bottom - top
    cw, ch = CARD_SIZE
    # The card's shape, to the rounding of a pixel on each side (and of the zoom).
    assert abs(fw * ch - fh * cw) <= 3 * max(cw, ch) or min(width, height) < 3
    # Unzoomed, the largest frame: it spans the picture's whole width or height.
    left, top, right, bottom = crop_box(width, height, Fit(x=x, y=y))
    assert right - left == width or bottom - top == height


@pytest.mark.parametrize(
    "size",
    # Screenshots and photos; the first three once failed with "box offset can't be
    # negative" (a float frame a hair taller than the picture).
    [(1200, 800), (1280, 800), (2560, 1600), (1920, 1080), (800, 1200), (1, 1), (3, 5000)],
    ids=lambda s: f"{s[0]}x{s[1]}",
)
@pytest.mark.parametrize("where", [0.0, 0.5, 1.0])
def test_landscape_and_portrait_pictures_of_common_sizes_become_cards(
    size: tuple[int, int], where: float
) -> None:
    data = picture("PNG", size)
    card = card_picture(data, Fit(x=where, y=where), max_pixels=MAX_PIXELS)
    assert decoded(card).size == CARD_SIZE
