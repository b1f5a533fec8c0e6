"""A small QR code reader for tests: what a phone's camera would read off the table
screen, written apart from the library that draws the code (segno) so that a test of the
join code does not ask the drawer to check itself.

It reads clean, upright codes of versions 1 to 6 (a room's join address needs 2 or 3):
the modules from a picture's pixels, the format, the mask, the data codewords
(de-interleaved), and the numeric, alphanumeric and byte segments. It does not correct
errors: a code whose data is wrong decodes to the wrong text or fails.
"""

from __future__ import annotations

from collections.abc import Sequence

Matrix = list[list[bool]]

# Per version 1..6 and error level: (error-correction codewords per block, blocks).
_EC = {
    "L": ((7, 1), (10, 1), (15, 1), (20, 1), (26, 1), (18, 2)),
    "M": ((10, 1), (16, 1), (26, 1), (18, 2), (24, 2), (16, 4)),
    "Q": ((13, 1), (22, 1), (18, 2), (26, 2), (18, 4), (24, 4)),
    "H": ((17, 1), (28, 1), (22, 2), (16, 4), (22, 4), (28, 4)),
}
_RAW_CODEWORDS = (26, 44, 70, 100, 134, 172)
_LEVEL_BITS = {"L": 1, "M": 0, "Q": 3, "H": 2}
_ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"


class QRError(ValueError):
    """The picture holds no code this reader can read."""


def modules_from_pixels(dark: Sequence[Sequence[bool]]) -> Matrix:
    """The module matrix of a code drawn upright in ``dark`` (rows of pixels, True where
    dark), with a quiet zone around it."""
    rows = [y for y, row in enumerate(dark) if any(row)]
    cols = [x for x in range(len(dark[0])) if any(row[x] for row in dark)]
    if not rows:
        raise QRError("no dark pixel")
    top, left, right = rows[0], cols[0], cols[-1]
    # The top-left finder's first row is seven dark modules.
    run = 0
    while left + run <= right and dark[top][left + run]:
        run += 1
    unit = run / 7
    size = round((right - left + 1) / unit)
    if size < 21 or (size - 17) % 4:
        raise QRError(f"a {size}-module square is no QR code")
    unit = (right - left + 1) / size
    return [
        [bool(dark[int(top + (r + 0.5) * unit)][int(left + (c + 0.5) * unit)]) for c in range(size)]
        for r in range(size)
    ]


def _format_word(level: str, mask: int) -> int:
    data = _LEVEL_BITS[level] << 3 | mask
    rem = data
    for _ in range(10):
        rem = (rem << 1) ^ ((rem >> 9) * 0x537)
    return ((data << 10) | rem) ^ 0x5412


def _read_format(m: Matrix) -> tuple[str, int]:
    bits = 0
    spots = (
        [(i, 8) for i in range(6)] + [(7, 8), (8, 8), (8, 7)] + [(8, 14 - i) for i in range(9, 15)]
    )
    for i, (r, c) in enumerate(spots):
        bits |= int(m[r][c]) << i
    best = min(
        ((level, mask) for level in _LEVEL_BITS for mask in range(8)),
        key=lambda lm: bin(_format_word(*lm) ^ bits).count("1"),
    )
    if bin(_format_word(*best) ^ bits).count("1") > 3:
        raise QRError("unreadable format information")
    return best


def _is_function(r: int, c: int, size: int, version: int) -> bool:
    if r == 6 or c == 6:  # timing patterns
        return True
    if (r < 9 and c < 9) or (r < 9 and c >= size - 8) or (r >= size - 8 and c < 9):
        return True  # finders, separators, format information, the dark module
    if version >= 2:
        at = 4 * version + 10
        return abs(r - at) <= 2 and abs(c - at) <= 2
    return False


def _masked(mask: int, r: int, c: int) -> bool:
    return [
        (r + c) % 2 == 0,
        r % 2 == 0,
        c % 3 == 0,
        (r + c) % 3 == 0,
        (r // 2 + c // 3) % 2 == 0,
        r * c % 2 + r * c % 3 == 0,
        (r * c % 2 + r * c % 3) % 2 == 0,
        ((r + c) % 2 + r * c % 3) % 2 == 0,
    ][mask]


def _codewords(m: Matrix, version: int, mask: int) -> list[int]:
    size = len(m)
    bits: list[int] = []
    right = size - 1
    while right >= 1:
        if right == 6:
            right = 5
        upward = ((right + 1) & 2) == 0
        for vert in range(size):
            r = size - 1 - vert if upward else vert
            for c in (right, right - 1):
                if not _is_function(r, c, size, version):
                    bits.append(int(m[r][c] ^ _masked(mask, r, c)))
        right -= 2
    return [int("".join(map(str, bits[i : i + 8])), 2) for i in range(0, len(bits) - 7, 8)]


def _data(codewords: list[int], version: int, level: str) -> list[int]:
    ec, blocks = _EC[level][version - 1]
    raw = _RAW_CODEWORDS[version - 1]
    short = blocks - raw % blocks
    short_data = raw // blocks - ec
    sizes = [short_data if b < short else short_data + 1 for b in range(blocks)]
    out: list[list[int]] = [[] for _ in range(blocks)]
    i = 0
    for k in range(max(sizes)):
        for b in range(blocks):
            if k < sizes[b]:
                out[b].append(codewords[i])
                i += 1
    return [w for block in out for w in block]


def _segments(data: list[int]) -> str:
    bits = "".join(f"{w:08b}" for w in data)
    pos = 0

    def take(n: int) -> int:
        nonlocal pos
        if pos + n > len(bits):
            raise QRError("the data ends inside a segment")
        value = int(bits[pos : pos + n], 2)
        pos += n
        return value

    text = ""
    while pos + 4 <= len(bits):
        mode = take(4)
        if mode == 0:
            break
        if mode == 0b0100:  # bytes
            text += bytes(take(8) for _ in range(take(8))).decode("utf-8")
        elif mode == 0b0010:  # alphanumeric
            n = take(9)
            for _ in range(n // 2):
                pair = take(11)
                text += _ALNUM[pair // 45] + _ALNUM[pair % 45]
            if n % 2:
                text += _ALNUM[take(6)]
        elif mode == 0b0001:  # numeric
            n = take(10)
            for _ in range(n // 3):
                text += f"{take(10):03d}"
            if n % 3 == 2:
                text += f"{take(7):02d}"
            elif n % 3 == 1:
                text += str(take(4))
        else:
            raise QRError(f"segment mode {mode:04b} is not read here")
    return text


def decode(m: Matrix) -> str:
    """The text a module matrix (True: dark) holds."""
    size = len(m)
    version = (size - 17) // 4
    if not 1 <= version <= 6 or any(len(row) != size for row in m):
        raise QRError(f"a {size}-module code is not a version 1 to 6 code")
    level, mask = _read_format(m)
    return _segments(_data(_codewords(m, version, mask), version, level))
