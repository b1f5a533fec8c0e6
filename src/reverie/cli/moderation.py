"""``reverie moderation``: the operator's side of keeping public tables civil.

Reports (list, show with what was kept, close), closing a room, banning a browser or an
address for a time, approving a player's deck or word list for public tables, and the
log of every moderation action. It works on the moderation store of the server's event
store (``--database-url`` / ``REVERIE_DATABASE_URL`` as for ``reverie serve``): SQLite's
``moderation.db`` beside the rooms' file (open beside a running server), or the
PostgreSQL database. Every change is written to the action log with ``--by``.
"""

from __future__ import annotations

import asyncio
import getpass
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Literal, TypeVar

import typer
from rich.console import Console
from rich.table import Table

from reverie.store.moderation import ApprovalKind, BanKind, ReportState, SqlModeration

T = TypeVar("T")

app = typer.Typer(
    help="Moderate public tables: reports, closing rooms, bans, approvals, the log.",
    no_args_is_help=True,
)
reports_app = typer.Typer(help="Reports players sent.", no_args_is_help=True)
app.add_typer(reports_app, name="reports")

_out = Console(width=120)

_DATA_DIR = Annotated[Path | None, typer.Option(help="The server's data folder (default ./data).")]
_DATABASE_URL = Annotated[
    str | None,
    typer.Option(help="Event store URL, as the server's (default sqlite:///DATA_DIR/reverie.db)."),
]
_BY = Annotated[
    str | None, typer.Option(help="Who does this, for the action log (default: your login).")
]


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def _who(by: str | None) -> str:
    if by:
        return by
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "operator"


def _when(at: float | None) -> str:
    if at is None:
        return "-"
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _run(
    data_dir: Path | None, database_url: str | None, body: Callable[[SqlModeration], Awaitable[T]]
) -> T:
    """Run ``body`` on the moderation store of the server's event store, opened and
    closed on one event loop; one line and status 2 when it cannot be used."""
    from reverie.store import StoreUnavailable
    from reverie.store.moderation import open_moderation
    from reverie.web.settings import Settings

    try:
        url = Settings.from_env(data_dir=data_dir, database_url=database_url).store_url
    except ValueError as exc:
        raise _fail(str(exc)) from None

    async def run() -> T:
        store = open_moderation(url)
        try:
            await store.open()
            return await body(store)
        finally:
            await store.close()

    try:
        return asyncio.run(run())
    except (StoreUnavailable, RuntimeError) as exc:
        raise _fail(str(exc)) from None


@reports_app.command(name="list")
def reports_list(
    closed: Annotated[bool, typer.Option("--closed", help="Closed reports instead.")] = False,
    every: Annotated[bool, typer.Option("--all", help="Open and closed.")] = False,
    data_dir: _DATA_DIR = None,
    database_url: _DATABASE_URL = None,
) -> None:
    """Reports, oldest first (open ones unless told otherwise)."""
    state: ReportState | None = None if every else ("closed" if closed else "open")
    reports = _run(data_dir, database_url, lambda s: s.reports(state))
    table = Table(title=f"{len(reports)} report(s)")
    for column in ("id", "when", "room", "about", "reason", "says", "kept", "state"):
        table.add_column(column)
    for r in reports:
        about = r.target_name if r.target == "player" else "(the table)"
        table.add_row(
            str(r.id), _when(r.created_at), r.room, about, r.reason, r.text[:40],
            str(len(r.kept)), r.state,
        )  # fmt: skip
    _out.print(table)


@reports_app.command(name="show")
def reports_show(
    report_id: Annotated[int, typer.Argument(help="The report's id.")],
    data_dir: _DATA_DIR = None,
    database_url: _DATABASE_URL = None,
) -> None:
    """One report with everything the reported person wrote in that room, as written."""
    report = _run(data_dir, database_url, lambda s: s.report(report_id))
    if report is None:
        raise _fail(f"no report #{report_id}")
    about = f"player {report.target_name}" if report.target == "player" else "the whole table"
    _out.print(f"[bold]Report #{report.id}[/bold] ({report.state}) in room {report.room}")
    _out.print(f"about: {about}; reason: {report.reason}; sent {_when(report.created_at)}")
    _out.print(f"by: {report.reporter}")
    if report.text:
        _out.print(f"says: {report.text}", markup=False)
    if report.state == "closed":
        _out.print(f"closed {_when(report.closed_at)} by {report.closed_by}")
    table = Table(title="what they wrote")
    table.add_column("kind")
    table.add_column("when")
    table.add_column("text")
    for line in report.kept:
        table.add_row(line.kind, _when(line.at) if line.at else "", line.text)
    _out.print(table if report.kept else "nothing kept")


@reports_app.command(name="close")
def reports_close(
    report_id: Annotated[int, typer.Argument(help="The report's id.")],
    by: _BY = None,
    data_dir: _DATA_DIR = None,
    database_url: _DATABASE_URL = None,
) -> None:
    """Close a report (what it kept goes REVERIE_MODERATION_KEEP_DAYS later)."""
    who = _who(by)
    if not _run(data_dir, database_url, lambda s: s.close_report(report_id, who, time.time())):
        raise _fail(f"no open report #{report_id}")
    typer.echo(f"report #{report_id} closed")


@app.command(name="close")
def close_room(
    code: Annotated[str, typer.Argument(help="The room's code.")],
    reason: Annotated[str, typer.Option(help="Why, for the log.")] = "",
    by: _BY = None,
    data_dir: _DATA_DIR = None,
    database_url: _DATABASE_URL = None,
) -> None:
    """Close a room: its players are told and it takes no more moves; it leaves every
    list. The running servers do it within REVERIE_CLOSE_POLL_SECONDS."""
    room = code.strip().upper()
    who = _who(by)
    _run(data_dir, database_url, lambda s: s.close_room(room, reason, who, time.time()))
    typer.echo(f"room {room} will be closed")


def _until(days: float, hours: float) -> float:
    seconds = days * 86400 + hours * 3600
    if seconds <= 0:
        raise _fail("say for how long: --days or --hours")
    return time.time() + seconds


@app.command()
def ban(
    kind: Annotated[Literal["browser", "address"], typer.Argument(help="browser or address.")],
    value: Annotated[str, typer.Argument(help="The id as a report shows it (b:… or a:…).")],
    days: Annotated[float, typer.Option(help="For how many days.")] = 0.0,
    hours: Annotated[float, typer.Option(help="For how many hours (added to --days).")] = 0.0,
    reason: Annotated[str, typer.Option(help="Why, for the log.")] = "",
    by: _BY = None,
    data_dir: _DATA_DIR = None,
    database_url: _DATABASE_URL = None,
) -> None:
    """Ban a browser or an address from joining and opening tables, for a time."""
    until = _until(days, hours)
    who = _who(by)
    ban_kind: BanKind = kind
    _run(
        data_dir,
        database_url,
        lambda s: s.ban(ban_kind, value, until, reason, who, time.time()),
    )
    typer.echo(f"{kind} {value} banned until {_when(until)}")


@app.command()
def unban(
    kind: Annotated[Literal["browser", "address"], typer.Argument(help="browser or address.")],
    value: Annotated[str, typer.Argument(help="The banned id.")],
    by: _BY = None,
    data_dir: _DATA_DIR = None,
    database_url: _DATABASE_URL = None,
) -> None:
    """Lift a ban."""
    who = _who(by)
    ban_kind: BanKind = kind
    if not _run(data_dir, database_url, lambda s: s.unban(ban_kind, value, who, time.time())):
        raise _fail(f"{kind} {value} is not banned")
    typer.echo(f"{kind} {value} unbanned")


@app.command()
def bans(data_dir: _DATA_DIR = None, database_url: _DATABASE_URL = None) -> None:
    """The bans that hold now."""
    held = _run(data_dir, database_url, lambda s: s.bans(time.time()))
    table = Table(title=f"{len(held)} ban(s)")
    for column in ("kind", "id", "until", "reason", "by"):
        table.add_column(column)
    for b in held:
        table.add_row(b.kind, b.value, _when(b.until), b.reason, b.by)
    _out.print(table)


@app.command()
def approve(
    kind: Annotated[Literal["deck", "words"], typer.Argument(help="deck or words.")],
    item: Annotated[str, typer.Argument(help="The deck's id (u-…) or word list's (w-…).")],
    by: _BY = None,
    data_dir: _DATA_DIR = None,
    database_url: _DATABASE_URL = None,
) -> None:
    """Allow a player's deck or word list at public tables."""
    who = _who(by)
    approval: ApprovalKind = kind
    _run(data_dir, database_url, lambda s: s.approve(approval, item, who, time.time()))
    typer.echo(f"{kind} {item} approved for public tables")


@app.command()
def withdraw(
    kind: Annotated[Literal["deck", "words"], typer.Argument(help="deck or words.")],
    item: Annotated[str, typer.Argument(help="The approved id.")],
    by: _BY = None,
    data_dir: _DATA_DIR = None,
    database_url: _DATABASE_URL = None,
) -> None:
    """Withdraw an approval (tables that play it go on; new public ones may not)."""
    who = _who(by)
    approval: ApprovalKind = kind
    if not _run(data_dir, database_url, lambda s: s.withdraw(approval, item, who, time.time())):
        raise _fail(f"{kind} {item} was not approved")
    typer.echo(f"{kind} {item} withdrawn")


@app.command()
def approvals(data_dir: _DATA_DIR = None, database_url: _DATABASE_URL = None) -> None:
    """Every approved deck and word list."""
    held = _run(data_dir, database_url, lambda s: s.approvals())
    table = Table(title=f"{len(held)} approval(s)")
    for column in ("kind", "id", "by", "when"):
        table.add_column(column)
    for a in held:
        table.add_row(a.kind, a.item, a.by, _when(a.at))
    _out.print(table)


@app.command(name="log")
def action_log(
    limit: Annotated[int, typer.Option(help="How many lines.")] = 50,
    data_dir: _DATA_DIR = None,
    database_url: _DATABASE_URL = None,
) -> None:
    """The moderation log, newest first: who did what, when."""
    lines = _run(data_dir, database_url, lambda s: s.actions(limit))
    table = Table(title="moderation log")
    for column in ("when", "by", "action", "on", "detail"):
        table.add_column(column)
    for a in lines:
        table.add_row(_when(a.at), a.by, a.action, a.target, a.detail)
    _out.print(table)
