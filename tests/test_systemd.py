"""The systemd units in deploy/systemd/: ``systemd-analyze verify`` accepts the template
unit without a warning, the command it runs starts a server that drains and exits
cleanly on the signal systemd stops it with, and the environment file names exactly the
settings the app reads, each with its default where it shows one."""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from reverie.web.settings import Settings
from tests.web.harness import Client, create_room

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "deploy" / "systemd" / "reverie@.service"
ENV_EXAMPLE = ROOT / "deploy" / "systemd" / "reverie.env.example"
SRC = ROOT / "src" / "reverie"

#: An active (``NAME=value``) or commented (``# NAME=value``) setting.
SETTING = re.compile(r"^(#\s*)?(REVERIE_[A-Z0-9_]+)=(.*)$")


def unit_keys(text: str) -> dict[str, list[str]]:
    """``Key`` → its values, in order, over every section (comments left out)."""
    keys: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";", "[")):
            continue
        key, _, value = line.partition("=")
        keys.setdefault(key.strip(), []).append(value.strip())
    return keys


def verify(unit_text: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """``systemd-analyze verify`` of ``reverie@8001.service`` made from ``unit_text``, in
    a root of its own: the system's units, this unit, and a stand-in at the ExecStart path
    (the virtualenv the README installs into is not on the machine running the tests;
    verify checks that the command is there and executable)."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.fail("systemd-analyze is missing: apt-get install -y systemd")
    system = next(p for p in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system")))
    root = folder / "root"
    shutil.copytree(system, root / "usr" / "lib" / "systemd" / "system", symlinks=True)
    (root / "etc" / "systemd" / "system").mkdir(parents=True)
    (root / "etc" / "systemd" / "system" / UNIT.name).write_text(unit_text, encoding="utf-8")
    exe = unit_keys(unit_text)["ExecStart"][0].split()[0]
    stand_in = root / exe.lstrip("/")
    stand_in.parent.mkdir(parents=True)
    stand_in.write_text("#!/bin/sh\n", encoding="utf-8")
    stand_in.chmod(0o755)
    return subprocess.run(
        [analyze, "verify", f"--root={root}", "reverie@8001.service"],
        capture_output=True,
        text=True,
    )


def test_systemd_analyze_verify_accepts_the_unit(tmp_path: Path) -> None:
    text = UNIT.read_text(encoding="utf-8")
    done = verify(text, tmp_path / "shipped")
    assert done.returncode == 0 and done.stdout + done.stderr == "", done.stdout + done.stderr
    # The control: a misspelt key and a bad value are reported (the unit was read).
    bad = text.replace("ProtectSystem=", "ProtectSytem=").replace(
        "Restart=on-failure", "Restart=sometimes"
    )
    done = verify(bad, tmp_path / "control")
    assert "ProtectSytem" in done.stderr and "sometimes" in done.stderr, done.stderr


def test_the_unit_is_a_hardened_template_per_port() -> None:
    keys = unit_keys(UNIT.read_text(encoding="utf-8"))
    command = keys["ExecStart"][0].split()
    assert command[1] == "serve" and "--port" in command
    assert command[command.index("--port") + 1] == "%i"  # reverie@8001: port 8001
    # nginx on this machine is the only client, and the one trusted for the address.
    assert command[command.index("--host") + 1] == "127.0.0.1"
    assert command[command.index("--forwarded-allow-ips") + 1] == "127.0.0.1"
    assert keys["EnvironmentFile"] == ["/etc/reverie/reverie.env"]
    assert keys["Restart"] == ["on-failure"]
    assert keys["User"] != ["root"] and keys["User"] == keys["Group"]
    assert keys["NoNewPrivileges"] == ["yes"] and keys["ProtectSystem"] == ["strict"]
    # The one folder the process may write is the data folder it is told to use.
    assert keys["Environment"] == [f"REVERIE_DATA_DIR=/var/lib/{keys['StateDirectory'][0]}"]
    assert keys["KillSignal"] == ["SIGTERM"]
    # The README installs the command where the unit runs it.
    venv = str(Path(command[0]).parent.parent)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"python3 -m venv {venv}" in readme
    assert "deploy/systemd/reverie@.service" in readme


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_the_units_command_serves_and_drains_on_the_stop_signal(tmp_path: Path) -> None:
    """What systemd does with ``reverie@PORT``: ExecStart with the port, the unit's
    environment (SQLite in a temporary folder instead of the example's PostgreSQL and
    Redis), then KillSignal on stop: the open socket is closed with 1012 and the process
    exits cleanly within TimeoutStopSec (the unit then stops as "inactive", not
    "failed")."""
    keys = unit_keys(UNIT.read_text(encoding="utf-8"))
    port = _free_port()
    command = keys["ExecStart"][0].replace("%i", str(port)).split()
    reverie = Path(sys.executable).with_name("reverie")
    env = {k: v for k, v in os.environ.items() if not k.startswith("REVERIE_")}
    env |= dict(e.split("=", 1) for e in keys["Environment"])
    env |= {"REVERIE_DATA_DIR": str(tmp_path), "REVERIE_BOT_ENCODER": "0"}
    proc = subprocess.Popen(
        [str(reverie), *command[1:]],
        env=env,
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60  # a bound on the start, not a speed test
        while True:
            try:
                if httpx.get(f"{base}/healthz").status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, "serve did not start"
            time.sleep(0.05)
        code, token = create_room(base, "dixit", 3)
        player = Client(base, code, token)
        player.until(lambda f: f["type"] == "welcome")
        assert (tmp_path / "reverie.db").exists()  # the data folder the unit names
        proc.send_signal(getattr(signal, keys["KillSignal"][0]))
        with pytest.raises(ConnectionClosed) as closed:
            player.until(lambda f: False, timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        # uvicorn, done draining, ends by the signal it was sent; systemd counts an exit
        # by SIGTERM (or status 0) as clean (systemd.service, SuccessExitStatus=).
        status = proc.wait(timeout=float(keys["TimeoutStopSec"][0]))
        assert status in (0, -signal.SIGTERM), proc.stderr.read() if proc.stderr else status
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def _example() -> dict[str, tuple[bool, str]]:
    """Each setting of the example: (commented, value)."""
    found: dict[str, tuple[bool, str]] = {}
    for line in ENV_EXAMPLE.read_text(encoding="utf-8").splitlines():
        m = SETTING.match(line)
        if m:
            assert m.group(2) not in found, f"{m.group(2)} is listed twice"
            found[m.group(2)] = (m.group(1) is not None, m.group(3))
    return found


def read_by_the_app() -> set[str]:
    """Every REVERIE_* name the app reads: one per :class:`Settings` field (from_env), and
    those the source names itself (the content folder, the bots' encoder, ...)."""
    names = {f"REVERIE_{f.name.upper()}" for f in dataclasses.fields(Settings)}
    for path in SRC.rglob("*.py"):
        names |= set(re.findall(r"\bREVERIE_[A-Z0-9_]*[A-Z0-9]", path.read_text("utf-8")))
    return names


def test_the_environment_file_names_every_setting_the_app_reads() -> None:
    example = _example()
    assert set(example) == read_by_the_app()
    # Several processes: the example's active lines are the README's PostgreSQL and Redis.
    active = {name: value for name, (commented, value) in example.items() if not commented}
    assert set(active) == {"REVERIE_DATABASE_URL", "REVERIE_BUS_URL"}
    assert active["REVERIE_DATABASE_URL"].startswith("postgresql://")
    assert active["REVERIE_BUS_URL"].startswith("redis://")


def test_a_commented_setting_shows_its_default(monkeypatch: pytest.MonkeyPatch) -> None:
    example = _example()
    defaults = Settings()
    # The data folder is the unit's; a setting with no default shows an example value.
    shown = {
        f.name: example[f"REVERIE_{f.name.upper()}"][1]
        for f in dataclasses.fields(Settings)
        if f.default is not None
        and f.name != "data_dir"
        and example[f"REVERIE_{f.name.upper()}"][0]  # commented
    }
    assert len(shown) > 30
    for name, value in shown.items():
        monkeypatch.setenv(f"REVERIE_{name.upper()}", value)
    told = Settings.from_env()
    assert {n: getattr(told, n) for n in shown} == {n: getattr(defaults, n) for n in shown}
    assert example["REVERIE_BOT_ENCODER"][1] == "1"  # bots read with the encoder
