"""What ``make test`` needs from the system, installed or named before anything runs.

The tests start their own PostgreSQL and Redis (``tests/services.py``), nginx (the
several-process tests) and Chromium (the browser tests), and ``make jscheck`` runs
Node.js: they need the programs, never a running service. Run as root where apt-get is,
this installs the Debian packages that are missing, without starting their services
(a ``policy-rc.d`` refuses them for the time of the install: the tests start their own,
and a fresh machine is not left running a database or a web server). Anyone else gets
one line naming the ``apt-get install`` to run, and ``make test`` stops there, rather
than failing a few hundred tests one by one.

Standard library only: it runs before the virtualenv exists (and says when Python
cannot make one).

    python3 -m tools.prepare_tests            # what make test runs first
    python3 -m tools.prepare_tests --root D   # look in D instead of / (for the tests)
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from tools.chromium import CHROMIUM


@dataclass(frozen=True)
class Need:
    """A Debian package and how to tell it is there."""

    package: str
    paths: tuple[str, ...] = ()  # any of these, under the root (globs allowed)
    commands: tuple[str, ...] = ()  # or any of these on PATH

    def present(self, root: Path) -> bool:
        """Whether one of the paths exists under ``root`` or a command is on PATH."""
        relative = (p.lstrip("/") for p in self.paths)
        if any(next(root.glob(p), None) is not None for p in relative):
            return True
        return any(shutil.which(c) is not None for c in self.commands)


NEEDS = (
    # The browser tests launch this very file (tools/chromium.py; REVERIE_CHROMIUM moves it).
    Need("chromium", paths=(CHROMIUM,)),
    # The screenshots and the deck's contact sheets are drawn in DejaVu.
    Need("fonts-dejavu-core", paths=("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",)),
    # initdb and postgres from Debian's layout (tests/services.py: postgres_bin).
    Need("postgresql", paths=("/usr/lib/postgresql/*/bin/postgres",)),
    Need("redis-server", paths=("/usr/bin/redis-server",), commands=("redis-server",)),
    Need("nginx-light", paths=("/usr/sbin/nginx",), commands=("nginx",)),
    # The HTTPS tests make their certificate with openssl (tests/scale/cluster.py), and
    # tests/test_systemd.py checks the units with systemd-analyze.
    Need("openssl", paths=("/usr/bin/openssl",), commands=("openssl",)),
    Need("systemd", paths=("/usr/bin/systemd-analyze",), commands=("systemd-analyze",)),
    # ESLint and TypeScript check the browser code (make jscheck: npm ci, then node).
    Need("nodejs", paths=("/usr/bin/node",), commands=("node",)),
    Need("npm", paths=("/usr/bin/npm",), commands=("npm",)),
)


def venv_need(venv: Path) -> Need | None:
    """Debian's Python makes no virtualenv without its ``pythonX.Y-venv`` package
    (ensurepip is left out); only needed while ``venv`` does not exist yet."""
    # lexists: a virtualenv's python is a link to the interpreter it was made from, which
    # another user may not be allowed to look at (a stat would raise, not answer).
    if os.path.lexists(venv / "bin" / "python") or importlib.util.find_spec("ensurepip"):
        return None
    return Need(f"python{sys.version_info.major}.{sys.version_info.minor}-venv")


def eslint_runs_on(version: str) -> bool:
    """Whether ESLint (pinned in package.json: 10, for node ^20.19, ^22.13 or >= 24) runs
    on a ``node --version`` such as ``v20.19.2``; an unreadable one is let through.

    >>> [eslint_runs_on(v) for v in ("v18.20.4", "v20.19.2", "v21.7.0", "v22.12.0", "v24.1.0")]
    [False, True, False, False, True]
    """
    try:
        major, minor = (int(p) for p in version.strip().lstrip("v").split(".")[:2])
    except ValueError:
        return True
    return (major == 20 and minor >= 19) or (major == 22 and minor >= 13) or major >= 24


def node_version() -> str | None:
    """``node --version`` of the node on PATH (None without one)."""
    node = shutil.which("node")
    if node is None:
        return None
    try:
        return subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return None


def missing(root: Path, venv: Path) -> list[str]:
    """The packages to install, in a fixed order."""
    needs = [n for n in NEEDS if not n.present(root)]
    extra = venv_need(venv)
    return [n.package for n in needs] + ([extra.package] if extra else [])


def install(packages: list[str], root: Path, run: Callable[[list[str]], None]) -> None:
    """``apt-get install`` the packages with their services kept stopped (Debian's
    ``policy-rc.d`` convention, honoured by invoke-rc.d and deb-systemd-invoke)."""
    policy = root / "usr" / "sbin" / "policy-rc.d"
    ours = not policy.exists()  # a policy already there (a container's) is left alone
    if ours:
        policy.parent.mkdir(parents=True, exist_ok=True)
        policy.write_text("#!/bin/sh\n# make test: no service starts\nexit 101\n")
        policy.chmod(0o755)
    try:
        run(["apt-get", "update", "-qq"])
        run(["apt-get", "install", "-y", "-qq", *packages])
    finally:
        if ours:
            policy.unlink(missing_ok=True)


def _run(cmd: list[str]) -> None:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL)


def prepare(
    root: Path,
    venv: Path,
    is_root: bool,
    err: TextIO,
    run: Callable[[list[str]], None] = _run,
) -> int:
    """Install what is missing (as root, with apt-get), or name it in one line on
    ``err``; the exit status for make."""
    packages = missing(root, venv)
    if packages and is_root and shutil.which("apt-get"):
        print(f"make test: installing {' '.join(packages)}", file=err)
        try:
            install(packages, root, run)
        except subprocess.CalledProcessError as exc:
            print(f"make test: {' '.join(exc.cmd)} failed ({exc.returncode})", file=err)
            return 1
        packages = missing(root, venv)
    if packages:
        print(
            f"make test needs Debian packages that are missing; as root, run: "
            f"apt-get install -y {' '.join(packages)}",
            file=err,
        )
        return 1
    # Debian 12's own nodejs is 18: there, Node.js comes from NodeSource (or Debian 13).
    node = node_version()
    if node is not None and not eslint_runs_on(node):
        print(
            f"make test needs Node.js 20.19+, 22.13+ or 24+ for ESLint (found {node}): "
            "Debian 13's nodejs, or NodeSource's packages on Debian 12",
            file=err,
        )
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    """Command line: exit status 0 when everything is there (or was installed)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("/"), help="file system to look in")
    parser.add_argument("--venv", type=Path, default=Path(".venv"), help="the virtualenv")
    args = parser.parse_args(argv)
    return prepare(args.root, args.venv, os.geteuid() == 0, sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
