"""The build's one step that pyproject.toml cannot say: the game content ships inside.

The decks and word lists live in the repository's top-level ``content/`` folder (the deck
generator in tools/ writes there). A wheel carries a copy as ``reverie/content/data``,
where :mod:`reverie.content.location` finds it, so an installed ``reverie`` serves every
game from any folder. An editable install copies nothing: it reads the checkout's folder.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

CONTENT = Path(__file__).resolve().parent / "content"


class BuildWithContent(build_py):
    """``build_py`` that also copies ``content/`` into the built package."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib) / "reverie" / "content" / "data"
        shutil.rmtree(target, ignore_errors=True)  # a card removed since the last build
        shutil.copytree(CONTENT, target)


setup(cmdclass={"build_py": BuildWithContent})
