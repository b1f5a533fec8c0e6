"""The headless Chromium the browser tests and the deck contact sheets launch."""

from __future__ import annotations

import os

# Debian's Chromium (Playwright cannot download browsers here); override for other systems.
CHROMIUM = os.environ.get("REVERIE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
