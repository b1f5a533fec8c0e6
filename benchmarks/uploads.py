"""What a small ZIP of huge pictures costs the server (issue #24, item 3).

The attack: ten 6000 × 6600 palette PNGs of one colour (39.6 million pixels each) in a
ZIP of a few kilobytes. Two ways of taking it, each in a fresh process so that its peak
memory is its own:

- ``before``: every picture decoded in the server's own process, as the server did
  before the pixel budgets (bounded by bytes only);
- ``now``: the server's path: each picture's pixels read from its header and charged to
  the upload's budget (``upload_megapixels``, 100 million by default) before anything is
  decoded, and those within it decoded in the pool of worker processes.

Printed: CPU seconds and peak memory of the server's process, and of the decoders.

    python -m benchmarks.uploads
"""

from __future__ import annotations

import asyncio
import io
import multiprocessing
import resource
import sys
import time
import zipfile

from benchmarks.machine import describe

SIDE = (6000, 6600)
COUNT = 10


def attack() -> bytes:
    """The ZIP: ten palette PNGs of ``SIDE`` pixels, one colour."""
    from PIL import Image

    png = io.BytesIO()
    Image.new("P", SIDE, 0).save(png, "PNG")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for i in range(COUNT):
            z.writestr(f"p{i}.png", png.getvalue())
    return out.getvalue()


def _usage(who: int) -> tuple[float, float]:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime, r.ru_maxrss / 1024  # seconds, MiB


def before(data: bytes, out: multiprocessing.queues.Queue[object]) -> None:
    from reverie.content.uploads import Fit, card_picture, unpack_zip

    start = time.perf_counter()
    for _, body in unpack_zip(data, max_entries=200, max_entry_bytes=25_000_000):
        assert isinstance(body, bytes)
        card_picture(body, Fit(), max_pixels=40_000_000)
    wall = time.perf_counter() - start
    cpu, peak = _usage(resource.RUSAGE_SELF)
    out.put({"decoded": COUNT, "server_cpu": cpu, "server_peak": peak, "wall": wall,
             "workers_cpu": 0.0, "workers_peak": 0.0})  # fmt: skip


def now(data: bytes, out: multiprocessing.queues.Queue[object]) -> None:
    from reverie.content.uploads import Fit, UploadRefused, decoded_pixels, unpack_zip
    from reverie.web.decoders import DecoderPool
    from reverie.web.settings import Settings

    cfg = Settings()
    pool = DecoderPool(cfg.upload_decoders, cfg.upload_decoder_queue, cfg.upload_decoder_memory_mb)

    async def serve() -> int:
        decoded, spent = 0, 0
        async with pool.upload():
            for _, body in unpack_zip(data, max_entries=200, max_entry_bytes=25_000_000):
                assert isinstance(body, bytes)
                pixels = decoded_pixels(body, max_pixels=cfg.upload_max_pixels)
                if (spent + pixels) / 1_000_000 > cfg.upload_megapixels:
                    continue  # refused: upload_pixels
                spent += pixels
                try:
                    await pool.decode(body, Fit(), max_pixels=cfg.upload_max_pixels, pixels=pixels)
                    decoded += 1
                except UploadRefused:
                    pass
        return decoded

    start = time.perf_counter()
    decoded = asyncio.run(serve())
    wall = time.perf_counter() - start
    executor = pool._executor
    if executor is not None:
        executor.shutdown(wait=True)  # the workers' usage counts once they are waited for
    cpu, peak = _usage(resource.RUSAGE_SELF)
    wcpu, wpeak = _usage(resource.RUSAGE_CHILDREN)
    out.put({"decoded": decoded, "server_cpu": cpu, "server_peak": peak, "wall": wall,
             "workers_cpu": wcpu, "workers_peak": wpeak})  # fmt: skip


def run(mode: str, data: bytes) -> dict[str, float]:
    ctx = multiprocessing.get_context("spawn")
    out: multiprocessing.queues.Queue[object] = ctx.Queue()
    proc = ctx.Process(target=before if mode == "before" else now, args=(data, out))
    proc.start()
    result = out.get()
    proc.join()
    assert isinstance(result, dict)
    return result


def main() -> None:
    data = attack()
    print(describe())
    print(f"attack: a ZIP of {len(data):,} bytes, {COUNT} PNGs of {SIDE[0]} × {SIDE[1]}")
    print("| way | pictures decoded | server CPU s | server peak MiB | decoders' CPU s "
          "| decoders' peak MiB | wall s |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for mode in sys.argv[1:] or ["before", "now"]:
        r = run(mode, data)
        server = f"{r['server_cpu']:.2f} | {r['server_peak']:.0f}"
        workers = f"{r['workers_cpu']:.2f} | {r['workers_peak']:.0f}"
        print(f"| {mode} | {r['decoded']} | {server} | {workers} | {r['wall']:.2f} |")


if __name__ == "__main__":
    main()
