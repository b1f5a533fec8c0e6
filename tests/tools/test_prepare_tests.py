"""``make test``'s first step (tools/prepare_tests.py): on a machine without the packages,
a non-root user gets one line naming the ``apt-get install`` and nothing is tried; root
gets them installed, with their services kept from starting."""

from __future__ import annotations

import importlib.util
import io
import os
import pwd
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tools import prepare_tests
from tools.prepare_tests import NEEDS, prepare

ROOT = Path(__file__).resolve().parents[2]
EVERYTHING = (
    "chromium fonts-dejavu-core postgresql redis-server nginx-light openssl systemd nodejs npm"
)
LINE = "make test needs Debian packages that are missing; as root, run: apt-get install -y "


@pytest.fixture
def bare() -> Iterator[Path]:
    """An empty file system and an empty PATH beside it (a folder anyone may read: the
    check runs as another user when the tests run as root)."""
    folder = Path(tempfile.mkdtemp(prefix="reverie-test-bare-"))
    folder.chmod(0o755)
    for name in ("root", "bin"):
        (folder / name).mkdir(mode=0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder)


def probes(root: Path) -> list[Path]:
    """One file for each package the check looks for, under ``root``."""
    paths = [root / "usr/lib/postgresql/15/bin/postgres"]
    return paths + [root / p.lstrip("/") for n in NEEDS for p in n.paths if "*" not in p]


def fake_apt_get(bin_dir: Path, root: Path, log: Path, *, creates: bool) -> None:
    """An ``apt-get`` that writes down its arguments (and whether a policy-rc.d keeps
    services from starting), and "installs" by making what the check looks for."""
    made = ""
    if creates:
        made = "".join(f"mkdir -p $(dirname {p}); touch {p}\n" for p in probes(root))
    script = bin_dir / "apt-get"
    script.write_text(
        "#!/bin/sh\nPATH=/usr/bin:/bin\n"
        f'echo "$* policy=$(test -x {root}/usr/sbin/policy-rc.d && echo yes)" >> {log}\n'
        f'if [ "$1" = install ]; then\n:\n{made}fi\n',
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def as_someone_else() -> dict[str, object]:
    """Popen options running the check as a user who is not root (``nobody`` when the
    tests run as root), with a Python that user may run."""
    if os.geteuid() != 0:
        return {"executable": sys.executable}
    gid = pwd.getpwnam("nobody").pw_gid
    other = {"user": "nobody", "group": gid, "extra_groups": []}
    for python in (sys.executable, shutil.which("python3", path=os.defpath)):
        try:
            if python and subprocess.run([python, "-c", ""], **other).returncode == 0:  # type: ignore[call-overload]
                return {"executable": python, **other}
        except PermissionError:  # under a folder private to root (a pyenv, a venv)
            continue
    raise AssertionError("no Python that the user nobody may run (for this test)")


def test_a_non_root_user_on_a_bare_machine_gets_one_line_and_nothing_is_installed(
    bare: Path,
) -> None:
    # The module and what it imports, copied where the other user may read them.
    package = bare / "tools"
    package.mkdir(mode=0o755)
    for name in ("__init__.py", "chromium.py", "prepare_tests.py"):
        shutil.copy(ROOT / "tools" / name, package / name)
    log = bare / "apt.log"
    fake_apt_get(bare / "bin", bare / "root", log, creates=True)
    options = as_someone_else()
    python = str(options.pop("executable"))
    done = subprocess.run(
        [python, "-m", "tools.prepare_tests", "--root", str(bare / "root"),
         "--venv", str(bare / "venv")],
        cwd=bare, env={"PATH": str(bare / "bin")}, capture_output=True, text=True,
        **options,  # type: ignore[call-overload]
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.splitlines() == [LINE + EVERYTHING]
    assert not log.exists()  # apt-get was not even tried


def test_root_installs_what_is_missing_with_services_kept_stopped(
    bare: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = bare / "root"
    for present in ("usr/bin/redis-server", "usr/sbin/nginx"):
        (root / present).parent.mkdir(parents=True, exist_ok=True)
        (root / present).touch()
    log = bare / "apt.log"
    fake_apt_get(bare / "bin", root, log, creates=True)
    monkeypatch.setenv("PATH", str(bare / "bin"))
    err = io.StringIO()
    run = prepare_tests._run
    assert prepare(root, bare / "venv-made", True, err, run) == 0
    wanted = "chromium fonts-dejavu-core postgresql openssl systemd nodejs npm"
    assert log.read_text().splitlines() == [
        "update -qq policy=yes",
        f"install -y -qq {wanted} policy=yes",
    ]
    assert err.getvalue() == f"make test: installing {wanted}\n"
    assert not (root / "usr/sbin/policy-rc.d").exists()  # removed after the install
    # Everything is there now: a second run does nothing.
    (bare / "venv-made" / "bin").mkdir(parents=True)
    (bare / "venv-made" / "bin" / "python").touch()
    log.unlink()
    assert prepare(root, bare / "venv-made", True, io.StringIO(), run) == 0
    assert not log.exists()


def test_root_keeps_a_policy_it_found_and_names_what_apt_could_not_install(
    bare: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = bare / "root"
    policy = root / "usr/sbin/policy-rc.d"
    policy.parent.mkdir(parents=True)
    policy.write_text("#!/bin/sh\nexit 101\n")
    policy.chmod(0o755)
    log = bare / "apt.log"
    fake_apt_get(bare / "bin", root, log, creates=False)  # installs nothing
    monkeypatch.setenv("PATH", str(bare / "bin"))
    err = io.StringIO()
    assert prepare(root, bare / "venv", True, err, prepare_tests._run) == 1
    assert err.getvalue().splitlines()[-1] == LINE + EVERYTHING
    assert policy.read_text() == "#!/bin/sh\nexit 101\n"


def test_a_failing_apt_get_is_one_line_too(bare: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = bare / "bin" / "apt-get"
    script.write_text("#!/bin/sh\nexit 100\n")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", str(bare / "bin"))
    err = io.StringIO()
    assert prepare(bare / "root", bare / "venv", True, err, prepare_tests._run) == 1
    assert err.getvalue().splitlines()[-1] == "make test: apt-get update -qq failed (100)"


def test_a_python_without_ensurepip_asks_for_its_venv_package_until_the_venv_exists(
    bare: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    assert prepare_tests.missing(bare / "root", bare / "venv")[-1] == f"python{version}-venv"
    (bare / "venv" / "bin").mkdir(parents=True)
    (bare / "venv" / "bin" / "python").touch()
    assert "venv" not in " ".join(prepare_tests.missing(bare / "root", bare / "venv"))


def test_a_venv_whose_python_this_user_may_not_look_at_counts_as_made(
    bare: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A virtualenv's python links to the interpreter it was made from (a pyenv in root's
    home, say): the link is there even when its target cannot be read or is gone, and the
    check asks for nothing then, rather than a venv package or a traceback."""
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    (bare / "venv" / "bin").mkdir(parents=True)
    (bare / "venv" / "bin" / "python").symlink_to(bare / "elsewhere" / "python3")
    assert "venv" not in " ".join(prepare_tests.missing(bare / "root", bare / "venv"))


def test_a_node_too_old_for_eslint_is_named_once_the_packages_are_there(
    bare: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for path in probes(bare / "root"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    node = bare / "bin" / "node"
    node.write_text("#!/bin/sh\necho v18.20.4\n")  # Debian 12's own nodejs
    node.chmod(0o755)
    monkeypatch.setenv("PATH", str(bare / "bin"))
    err = io.StringIO()
    assert prepare(bare / "root", bare / "venv", False, err) == 1
    assert err.getvalue() == (
        "make test needs Node.js 20.19+, 22.13+ or 24+ for ESLint (found v18.20.4): "
        "Debian 13's nodejs, or NodeSource's packages on Debian 12\n"
    )
    node.write_text("#!/bin/sh\necho v20.19.2\n")
    assert prepare(bare / "root", bare / "venv", False, io.StringIO()) == 0
