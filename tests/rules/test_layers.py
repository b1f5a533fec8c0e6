"""The rules are the bottom layer: importing them loads no content, room, web or store code."""

from __future__ import annotations

import subprocess
import sys


def test_rules_import_nothing_above_them() -> None:
    code = (
        "import sys, reverie.rules.association, reverie.rules.visual, reverie.rules.companion\n"
        "above = ('reverie.content', 'reverie.rooms', 'reverie.web', 'reverie.store', 'tools')\n"
        "print(sorted(m for m in sys.modules if m.startswith(above)))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "[]"
