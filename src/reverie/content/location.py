"""Where the game content (decks, card pictures, word lists) is read from.

Three places, the first that exists wins:

1. ``$REVERIE_CONTENT_DIR``, when set (it must then be a folder): an operator's own
   content, or a test's;
2. the package's own copy, ``reverie/content/data``: a wheel carries the repository's
   ``content/`` folder there (``setup.py`` copies it at build time), so an installed
   ``reverie`` serves every game from any working directory;
3. the ``content/`` folder of the checkout this module lives in, for an editable install
   (``pip install -e .``), where the package has no copy and the deck generator writes
   the checkout's folder.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

__all__ = ["CONTENT_DIR_ENV", "PACKAGED", "ContentDirNotFoundError", "content_dir", "source"]

CONTENT_DIR_ENV: Final = "REVERIE_CONTENT_DIR"
#: The copy of ``content/`` a built package carries (absent in a checkout).
PACKAGED: Final = Path(__file__).resolve().with_name("data")


class ContentDirNotFoundError(FileNotFoundError):
    """No content folder could be located."""


def _is_content(path: Path) -> bool:
    # The decks folder marks a content folder: this package is itself called "content"
    # and must never be taken for the data.
    return (path / "decks").is_dir()


def content_dir() -> Path:
    """The folder holding ``decks/`` and ``words/`` (see the module's docstring).

    Raises:
        ContentDirNotFoundError: ``$REVERIE_CONTENT_DIR`` names no folder, or it is unset
            and neither the package nor a checkout holds the content.
    """
    override = os.environ.get(CONTENT_DIR_ENV)
    if override:
        path = Path(override)
        if not path.is_dir():
            raise ContentDirNotFoundError(f"{CONTENT_DIR_ENV}={override!r} is not a directory")
        return path
    if _is_content(PACKAGED):
        return PACKAGED
    for parent in PACKAGED.parents:
        if _is_content(parent / "content"):
            return parent / "content"
    raise ContentDirNotFoundError(
        f"no content folder in the package ({PACKAGED}) nor in a checkout above it; "
        f"set {CONTENT_DIR_ENV} to the folder holding decks/ and words/"
    )


def source() -> str:
    """Where :func:`content_dir` found the content, in words, for the start-up line.

    >>> source() in ("REVERIE_CONTENT_DIR", "the package", "the checkout")
    True
    """
    if os.environ.get(CONTENT_DIR_ENV):
        return CONTENT_DIR_ENV
    return "the package" if _is_content(PACKAGED) else "the checkout"
