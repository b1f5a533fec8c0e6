"""The package as an operator installs it: a wheel built from the sources, installed with
its dependencies into a new virtualenv outside the checkout, serves a game from there.

Slow by nature (the dependencies come from the package index: a minute or two), so one
test does it all: build, inspect the wheel, install, serve, play a round, load pictures.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import httpx
import pytest

from tests.web.harness import Client, create_room, free_port, join, play

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


def _sources(dest: Path) -> None:
    """Copy the checkout's files (committed or not, less what git ignores) to ``dest``:
    the build then leaves nothing in the checkout and sees no stale build folder."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT, check=True, capture_output=True,
    ).stdout.decode()  # fmt: skip
    for rel in filter(None, listed.split("\0")):
        src = ROOT / rel
        if src.is_file():  # a file deleted but not yet committed is listed too
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


def _run(*args: str | Path, cwd: Path) -> None:
    done = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, f"{args} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"


def _wait_healthy(base: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 120  # a bound on a start (parallel workers), not a speed test
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server stopped:\n{log.read_text(errors='replace')}")
        try:
            if httpx.get(f"{base}/healthz", timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"the server did not start:\n{log.read_text(errors='replace')}")


def test_a_wheel_installed_elsewhere_serves_a_game(tmp_path: Path) -> None:
    sources, dist, elsewhere = tmp_path / "src", tmp_path / "dist", tmp_path / "elsewhere"
    for folder in (sources, dist, elsewhere):
        folder.mkdir()
    _sources(sources)
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", dist, sources, cwd=tmp_path)
    (wheel,) = dist.glob("reverie-*.whl")

    names = set(zipfile.ZipFile(wheel).namelist())
    content = ROOT / "content"
    shipped = {
        p.relative_to(content).as_posix() for p in content.rglob("*") if p.is_file()
    }  # every deck file and word list, licences and credits included
    in_wheel = {
        n.removeprefix("reverie/content/data/")
        for n in names
        if n.startswith("reverie/content/data/")
    }
    assert shipped <= in_wheel, sorted(shipped - in_wheel)[:5]
    assert "reverie/web/static/index.html" in names
    assert "reverie/web/static/vendor/preact/preact.js" in names
    # Build tools, tests and benchmarks stay in the repository.
    assert not [n for n in names if n.split("/")[0] in ("tools", "tests", "benchmarks")]

    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", venv, cwd=tmp_path)
    _run(venv / "bin" / "python", "-m", "pip", "install", "--quiet", wheel, cwd=tmp_path)

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("REVERIE_")}
    env |= {"REVERIE_BOT_DELAY": "0", "REVERIE_BOT_ENCODER": "0", "PYTHONPATH": ""}
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        # From a folder that is no checkout: the package must carry all it serves.
        proc = subprocess.Popen(
            [venv / "bin" / "reverie", "serve", "--port", str(port), "--data-dir", "data"],
            cwd=elsewhere, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        _wait_healthy(base, proc, log)
        said = log.read_text(errors="replace")
        site = next((venv / "lib").glob("python3*/site-packages"))
        assert f"Content: {site / 'reverie' / 'content' / 'data'} (from the package)" in said

        # A round of Dixit over sockets: the deck's cards are dealt and scored.
        code, token = create_room(base, "dixit", 3)
        host = Client(base, code, token)
        guest = join(base, code, "Guest", "#2a9d8f")
        try:
            assert host.request({"type": "add_bot"})["type"] == "ack"
            assert host.request({"type": "start"})["type"] == "ack"
            state = play([host, guest], seed=1, until=lambda s: s["game"]["rounds_played"] >= 1)
            assert state["game"]["rounds_played"] >= 1
        finally:
            host.close()
            guest.close()

        # The pictures come from the package, byte for byte.
        deck = httpx.get(f"{base}/api/decks/reverie2/images").json()
        for image in deck["images"][:3]:
            r = httpx.get(f"{base}/decks/reverie2/{image}", headers={"accept-encoding": "identity"})
            assert r.status_code == 200, image
            assert r.content == (content / "decks" / "reverie2" / image).read_bytes()
        page = httpx.get(f"{base}/")
        assert page.status_code == 200 and "<html" in page.text
        assert httpx.get(f"{base}/api/credits").json()["sources"]
        # The drawing game's word lists are there too (read as a game's start reads them).
        words = "from reverie.content.words import load_words as w; print(len(w('en', 'objects')))"
        count = subprocess.run(
            [venv / "bin" / "python", "-c", words],
            cwd=elsewhere, env=env, capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        assert int(count) > 100
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
