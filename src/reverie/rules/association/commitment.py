"""The storyteller's locked pick, provable after the reveal.

Before voting opens the server publishes ``sha256("reverie:<card>:<salt>")``. The salt
is revealed with the result, so anyone can recompute the hash and see that the card
shown as the storyteller's is the one locked before the vote.
"""

from __future__ import annotations

import hashlib


def commit(card: int, salt: str) -> str:
    """The public commitment to ``card`` under a secret ``salt``."""
    return hashlib.sha256(f"reverie:{card}:{salt}".encode()).hexdigest()


def verify(commitment: str, card: int, salt: str) -> bool:
    """Whether a revealed card and salt match the commitment published earlier.

    >>> verify(commit(17, "abc"), 17, "abc"), verify(commit(17, "abc"), 18, "abc")
    (True, False)
    """
    return commit(card, salt) == commitment
