"""Uploaded pictures are decoded in a few worker processes, never in the server's.

Decoding a picture costs CPU and memory by its pixels, not by its bytes: a few kilobytes
of ZIP can hold ten 40-million-pixel PNGs, seconds of CPU and hundreds of megabytes
each. In the server's own process that stalls every table (the GIL, and the memory of
the whole server). Here each picture goes to a pool of ``workers`` processes
(``spawn``ed, so they share nothing of the server's state), each started at a lower CPU
priority and with an address-space ceiling (``RLIMIT_AS``): a picture that needs more
fails alone, as a refusal, and a worker that dies is replaced. At most ``queue``
uploads wait for a worker; more are refused at once as busy rather than queued without
end. What a picture may cost is budgeted before it gets here (see
:mod:`reverie.web.decks_api`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from collections.abc import AsyncIterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from reverie.content.uploads import Fit, UploadRefused, card_picture

log = logging.getLogger("reverie.decks")

#: Pictures a worker decodes before it is replaced by a fresh one (memory fragments).
TASKS_PER_WORKER = 64
#: The workers' niceness: the server's event loop comes first on a busy machine.
NICE = 10


class Busy(Exception):
    """Every worker is taken and the queue is full: the caller should try later."""


def _worker_start(memory_bytes: int) -> None:
    """Runs first in every worker: its memory ceiling and its lower priority."""
    if memory_bytes > 0:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    with contextlib.suppress(OSError):
        os.nice(NICE)


def _decode(data: bytes, fit: Fit, max_pixels: int) -> tuple[bytes, int]:
    """In a worker: the card picture and the worker's pid (tests check where it ran)."""
    try:
        return card_picture(data, fit, max_pixels=max_pixels), os.getpid()
    except MemoryError:
        raise too_big_to_decode() from None


def too_big_to_decode() -> UploadRefused:
    """The refusal of a picture that needs more memory than a worker has."""
    return UploadRefused("too_big_to_decode", "The picture is too large to decode here.")


class DecoderPool:
    """``workers`` decoding processes, at most ``queue`` uploads waiting for one."""

    def __init__(self, workers: int, queue: int, memory_mb: int) -> None:
        self.workers = max(1, workers)
        self.queue = max(0, queue)
        self.memory_bytes = max(0, memory_mb) * 1024 * 1024
        self._executor: ProcessPoolExecutor | None = None
        self._free: asyncio.Semaphore | None = None
        self._uploads = 0
        #: Pixels handed to the workers so far, and the workers' pids (for tests and
        #: metrics: a budget that works keeps the first low).
        self.pixels = 0
        self.pids: set[int] = set()

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_start,
                initargs=(self.memory_bytes,),
                max_tasks_per_child=TASKS_PER_WORKER,
            )
        return self._executor

    @contextlib.asynccontextmanager
    async def upload(self) -> AsyncIterator[None]:
        """One upload's turn at the pool; raises :class:`Busy` when ``workers`` uploads
        are decoding and ``queue`` more already wait."""
        if self._uploads >= self.workers + self.queue:
            raise Busy
        self._uploads += 1
        try:
            yield
        finally:
            self._uploads -= 1

    async def decode(self, data: bytes, fit: Fit, *, max_pixels: int, pixels: int) -> bytes:
        """The card picture of ``data`` (``pixels`` decoded, as charged), made in a
        worker; raises :class:`UploadRefused`."""
        if self._free is None:
            self._free = asyncio.Semaphore(self.workers)
        async with self._free:
            self.pixels += pixels
            loop = asyncio.get_running_loop()
            try:
                card, pid = await loop.run_in_executor(self._pool(), _decode, data, fit, max_pixels)
            except BrokenProcessPool:
                # A worker died (killed past its memory, most likely): a fresh pool for
                # the next picture, and this one refused.
                log.warning("a picture decoder died; starting new ones")
                self.close()
                raise too_big_to_decode() from None
            self.pids.add(pid)
            return card

    def close(self) -> None:
        """Stop the workers (new ones start on the next picture)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
