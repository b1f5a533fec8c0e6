"""The ``reverie`` command line: ``score``, ``simulate`` and the rest.

Errors a person can cause (bad input, impossible options) end with exit status 2 and one
line on standard error, never a traceback.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from reverie.cli.round_input import RoundInputError, parse_request, score_request
from reverie.logs import LEVELS, parse_level, setup_logging
from reverie.rules.association import VARIANTS, find_variant
from reverie.rules.errors import SetupError
from reverie.simulation import Summary, simulate

if TYPE_CHECKING:  # the rooms' machinery is imported only by the commands that need it
    from reverie.rooms.retention import RetentionStore

T = TypeVar("T")

app = typer.Typer(
    name="reverie",
    help="Reverie: picture-association party games online with friends.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

_err = Console(stderr=True)


#: What ``serve`` says when phones will reach it over plain HTTP at a network address:
#: browsers give these only to a secure context (https://, or localhost), and leave
#: them out without a word on the phone.
HTTPS_NOTE = (
    "Phones reach this server over plain HTTP, so their browsers leave out what needs",
    "HTTPS: keeping the screen awake during a game, installing a room as an app, and",
    'vibration (in some browsers). Serve it over HTTPS for those: README, "Running it for real".',
)


def https_note(host: str) -> tuple[str, ...]:
    """The lines ``serve --host HOST`` prints about HTTPS: none when only this machine
    can open the pages (a loopback address is a secure context, and behind a TLS proxy
    the process listens there), :data:`HTTPS_NOTE` otherwise.

    >>> https_note("127.0.0.1"), len(https_note("0.0.0.0")), len(https_note("192.168.1.4"))
    ((), 3, 3)
    """
    from reverie.web.qr import is_loopback

    return () if is_loopback(host) else HTTPS_NOTE


def _fail(message: str) -> typer.Exit:
    """Print one error line and return the exit to raise (status 2)."""
    print(f"error: {message}", file=sys.stderr)
    return typer.Exit(2)


@app.command()
def score() -> None:
    """Score one round of a physical game: JSON in on stdin, points out on stdout.

    Input: {"variant": "dixit", "storyteller": "A", "table": {"1": "C", "2": "A",
    "3": "B"}, "votes": {"B": 2, "C": 3}, "scores": {"A": 4, "B": 0, "C": 7}}.
    Output: {"A": 3, "B": 4, "C": 0}.
    """
    try:
        data = sys.stdin.buffer.read()
        points = score_request(parse_request(data))
    except RoundInputError as exc:
        raise _fail(str(exc)) from None
    print(json.dumps(points, ensure_ascii=False))


@app.command(name="simulate")
def simulate_command(
    variant: Annotated[
        str, typer.Option(help=f"One of {', '.join(VARIANTS)}, or 'all'.")
    ] = "dixit",
    players: Annotated[int, typer.Option(help="Players per game.", min=1)] = 5,
    games: Annotated[int, typer.Option(help="Games per variant.", min=1)] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed + i.")] = 1,
    timeouts: Annotated[
        float, typer.Option(help="Chance that the clock runs out instead of a move.", min=0, max=1)
    ] = 0.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Play seeded games with random legal players, check every invariant, sum them up.

    Exits with status 1 if any game broke an invariant.
    """
    names = list(VARIANTS) if variant == "all" else [variant]
    try:
        for name in names:
            v = find_variant(name)
            if not v.min_players <= players <= v.max_players:
                raise SetupError(
                    f"{v.title} is played by {v.min_players} to {v.max_players} players, "
                    f"not {players}."
                )
    except SetupError as exc:
        raise _fail(str(exc)) from None
    summaries: list[Summary] = []
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=_err,
        transient=True,
    ) as progress:
        for name in names:
            task = progress.add_task(name, total=games)
            summaries.append(
                simulate(
                    name,
                    players,
                    games,
                    seed,
                    timeout_rate=timeouts,
                    on_game=partial(progress.advance, task),
                )
            )
    if as_json:
        print(json.dumps([s.as_dict() for s in summaries], indent=2))
    else:
        _print_summaries(summaries)
    failures = [f for s in summaries for f in s.failures]
    if failures:
        for s in summaries:
            for seed_, problem in s.failures:
                print(f"error: {s.variant} seed {seed_}: {problem}", file=sys.stderr)
        raise typer.Exit(1)


def _print_summaries(summaries: list[Summary]) -> None:
    console = Console()
    table = Table(title="Simulated games")
    for col in ("variant", "players", "games", "turns/game", "points/turn", "storyteller scores"):
        table.add_column(col)
    table.add_column("win rate by seat")
    for s in summaries:
        d = s.as_dict()
        turns = d["turns_per_game"]
        assert isinstance(turns, dict)
        table.add_row(
            s.variant,
            str(s.players),
            str(s.games),
            f"{turns['mean']} ({turns['min']}–{turns['max']})",
            str(d["points_per_turn"]),
            f"{d['storyteller_scores_rate']:.0%}",
            " ".join(f"{w:.0%}" for w in d["win_rate_by_seat"]),  # type: ignore[attr-defined]
        )
    console.print(table)
    bad = sum(len(s.failures) for s in summaries)
    console.print("invariants: all held" if not bad else f"invariants: {bad} broken")


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8000,
    data_dir: Annotated[
        Path | None, typer.Option(help="Folder for the SQLite database (default ./data).")
    ] = None,
    database_url: Annotated[
        str | None, typer.Option(help="Event store URL (default sqlite:///DATA_DIR/reverie.db).")
    ] = None,
    bot_delay: Annotated[
        float | None, typer.Option(help="Seconds a bot thinks before moving.", min=0)
    ] = None,
    log_level: Annotated[
        str | None,
        typer.Option(
            help=f"Least important log lines shown: {', '.join(LEVELS)} "
            "(default info, or REVERIE_LOG_LEVEL)."
        ),
    ] = None,
    access_log: Annotated[
        bool | None,
        typer.Option(
            "--access-log/--no-access-log",
            help="Log every HTTP request and WebSocket (default off, or REVERIE_ACCESS_LOG=1).",
            show_default=False,
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            help="The reverse proxy's address(es), comma-separated: their X-Forwarded-For "
            "names the client (per-address limits need it behind a proxy)."
        ),
    ] = None,
    bus_url: Annotated[
        str | None,
        typer.Option(
            help="redis://HOST:6379/0 to run several processes on one PostgreSQL "
            "database (default memory://: this process alone)."
        ),
    ] = None,
    log_format: Annotated[
        str | None,
        typer.Option(help="text (default) or json: one JSON object a line."),
    ] = None,
) -> None:
    """Start the game server and print its URL."""
    import uvicorn

    from reverie.bus.base import BusUnavailable, check_bus
    from reverie.content.location import ContentDirNotFoundError, content_dir
    from reverie.content.location import source as content_source
    from reverie.rooms.retention import Retention
    from reverie.store import StoreUnavailable, check_store, redact
    from reverie.web.app import create_app
    from reverie.web.server import uvicorn_config
    from reverie.web.settings import Settings

    try:
        settings = Settings.from_env(
            data_dir=data_dir,
            database_url=database_url,
            bot_delay=bot_delay,
            log_level=log_level,
            access_log=access_log,
            forwarded_allow_ips=forwarded_allow_ips,
            bus_url=bus_url,
            log_format=log_format,
        )
        Retention.days(
            settings.keep_finished_days,
            settings.keep_abandoned_days,
            settings.keep_word_lists_days,
        )
        if settings.log_format not in ("text", "json"):
            raise ValueError(f"unknown log format {settings.log_format!r}; use text or json")
        setup_logging(
            settings.log_level,
            access_log=settings.access_log,
            json_lines=settings.log_format == "json",
        )
    except ValueError as exc:
        raise _fail(str(exc)) from None
    try:  # one clear line, not a traceback, when the store or the bus cannot be used
        content = content_dir()
        asyncio.run(check_store(settings.store_url))
        asyncio.run(check_bus(settings.bus_url))
    except (
        ContentDirNotFoundError,
        StoreUnavailable,
        BusUnavailable,
        RuntimeError,
        ValueError,
    ) as exc:
        # Unwrapped: one line, whatever the terminal's width.
        _err.print(f"[red]Cannot start:[/red] {exc}", soft_wrap=True, markup=True)
        raise typer.Exit(1) from None
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    _err.print(f"Reverie is running: [bold]http://{shown}:{port}/[/bold]  (Ctrl+C stops it)")
    if host in ("0.0.0.0", "::"):
        from reverie.web.qr import lan_address

        lan = lan_address()
        if lan:
            _err.print(f"Phones on your network: [bold]http://{lan}:{port}/[/bold]")
        else:
            _err.print("Listening on every address: friends on your network use this machine's IP.")
    for line in https_note(host):
        _err.print(line, soft_wrap=True, markup=False, highlight=False)
    _err.print(f"Event log: {redact(settings.store_url)}")
    # Which decks and word lists this server plays: an operator's own folder, the
    # package's copy, or a checkout's.
    _err.print(f"Content: {content} (from {content_source()})", soft_wrap=True, markup=False)
    if settings.bus_url != "memory://":
        _err.print(f"Bus: {redact(settings.bus_url)}")
    config = uvicorn_config(
        create_app(settings),
        settings,
        host=host,
        port=port,
        # Logging is set up above; uvicorn's default config would give its loggers
        # handlers and a format of their own.
        log_config=None,
        log_level=parse_level(settings.log_level),
        access_log=settings.access_log,
    )
    uvicorn.Server(config).run()


def _store_url(data_dir: Path | None, database_url: str | None) -> str:
    """The event store's URL as ``reverie serve`` would find it (options, then
    ``REVERIE_*`` variables, then ``./data/reverie.db``)."""
    from reverie.web.settings import Settings

    try:
        return Settings.from_env(data_dir=data_dir, database_url=database_url).store_url
    except ValueError as exc:
        raise _fail(str(exc)) from None


_DATA_DIR = Annotated[Path | None, typer.Option(help="The server's data folder (default ./data).")]
_DATABASE_URL = Annotated[
    str | None,
    typer.Option(help="Event store URL (default sqlite:///DATA_DIR/reverie.db)."),
]


@app.command()
def backup(
    path: Annotated[Path, typer.Argument(help="File to write the copy to.")],
    data_dir: _DATA_DIR = None,
    database_url: _DATABASE_URL = None,
    overwrite: Annotated[bool, typer.Option(help="Replace PATH if it exists.")] = False,
) -> None:
    """Copy the SQLite event store to PATH, consistently, while the server runs.

    For PostgreSQL, prints the pg_dump command to run instead (and exits with status 1).
    """
    from reverie.store.backup import BackupError, backup_sqlite, pg_dump_command
    from reverie.store.base import is_postgres, redact, sqlite_path

    url = _store_url(data_dir, database_url)
    if is_postgres(url):
        print(
            f"The event store is PostgreSQL ({redact(url)}): back it up with pg_dump "
            "(the password in PGPASSWORD or ~/.pgpass):",
            file=sys.stderr,
        )
        print(pg_dump_command(url, path))
        raise typer.Exit(1)
    source = sqlite_path(url)
    if source == ":memory:":
        raise _fail("an in-memory store has nothing to back up")
    try:
        report = backup_sqlite(source, path, overwrite=overwrite)
    except BackupError as exc:
        raise _fail(str(exc)) from None
    print(
        f"Backed up {source} to {report.path}: {report.rooms} room(s), {report.events} "
        f"event(s), schema version {report.schema_version}, {report.size:,} bytes."
    )


rooms_app = typer.Typer(
    help="Delete rooms from the event store (docs/privacy.md).", no_args_is_help=True
)
app.add_typer(rooms_app, name="rooms")


def _with_store(url: str, body: Callable[[RetentionStore], Awaitable[T]]) -> T:
    """Run ``body`` on the store of ``url``, opened and closed on one event loop, beside
    the servers that may be using it (a SQLite file too: WAL and a busy timeout); exit
    with one line if the store cannot be used."""
    from reverie.store import RoomDeletion, StoreUnavailable, open_store

    async def run() -> T:
        store = open_store(url, beside_server=True)
        try:
            await store.open()
            assert isinstance(store, RoomDeletion)
            return await body(store)
        finally:
            await store.close()

    try:
        return asyncio.run(run())
    except (StoreUnavailable, RuntimeError) as exc:
        raise _fail(str(exc)) from None


@rooms_app.command(name="prune")
def rooms_prune(
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Only say which rooms would be deleted.")
    ] = False,
    data_dir: _DATA_DIR = None,
    database_url: _DATABASE_URL = None,
) -> None:
    """Delete the rooms the retention settings say are due (REVERIE_KEEP_FINISHED_DAYS,
    default 30; REVERIE_KEEP_ABANDONED_DAYS, default 7) and the word lists no room names
    any more (REVERIE_KEEP_WORD_LISTS_DAYS, default 7), as a server does every hour.
    Works while the server runs, on SQLite too."""
    import time

    from reverie.rooms.retention import Pruned, Pruner, Retention
    from reverie.store.decks import DeckStore
    from reverie.web.settings import Settings

    try:
        settings = Settings.from_env(data_dir=data_dir, database_url=database_url)
        policy = Retention.days(
            settings.keep_finished_days,
            settings.keep_abandoned_days,
            settings.keep_word_lists_days,
        )
    except ValueError as exc:
        raise _fail(str(exc)) from None

    async def prune(store: RetentionStore) -> tuple[Pruned, int]:
        now = time.time()
        pruned = await Pruner(store, policy).prune(now, dry_run=dry_run)
        purged = 0
        if not dry_run and isinstance(store, DeckStore):  # pictures nobody plays now
            purged = await store.purge_decks(
                now - settings.deck_draft_hours * 3600,
                now - settings.deck_purge_hours * 3600,
                now,
            )
        return pruned, purged

    pruned, purged = _with_store(settings.store_url, prune)
    verb = "would be deleted" if dry_run else "deleted"
    for what, items in (
        ("finished room(s)", pruned.finished),
        ("abandoned room(s)", pruned.abandoned),
        ("unused word list(s)", pruned.word_lists),
    ):
        print(f"{len(items)} {what} {verb}: {' '.join(items) or '-'}")
    if purged:
        print(f"{purged} deck(s) purged")


@rooms_app.command(name="delete")
def rooms_delete(
    codes: Annotated[list[str], typer.Argument(help="Room codes.")],
    data_dir: _DATA_DIR = None,
    database_url: _DATABASE_URL = None,
) -> None:
    """Delete these rooms now, whatever their state: their log (names, chat, clues,
    moves) and snapshot. Works while the server runs, on SQLite too. Exits with status 1
    if a code named no room."""
    from reverie.rooms.service import normalise_code

    wanted = [normalise_code(c) for c in codes]

    async def delete(store: RetentionStore) -> list[str]:
        return await store.delete_rooms(wanted)

    gone = _with_store(_store_url(data_dir, database_url), delete)
    for code in wanted:
        print(f"{code}: deleted" if code in gone else f"{code}: no such room")
    if len(set(gone)) < len(set(wanted)):
        raise typer.Exit(1)


deck_app = typer.Typer(
    help="Build the built-in picture decks (from a repository checkout).",
    no_args_is_help=True,
)
app.add_typer(deck_app, name="deck")


@deck_app.command(
    name="build",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
)
def deck_build(ctx: typer.Context) -> None:
    """Rebuild the default deck (options as for ``python -m tools.deckgen build``, e.g.
    ``--edition 1`` for the first edition, ``--art DIR`` to re-extract the art)."""
    # The generator is a build tool that lives in the checkout, not in the installed
    # package: import it only here, so the server never loads it. A console script's
    # path does not hold the working directory, so the checkout is added by hand.
    if (Path.cwd() / "tools" / "deckgen").is_dir() and str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    try:
        from tools.deckgen.cli import app as deckgen
    except ImportError:
        raise _fail(
            "the deck generator (tools/deckgen) is not importable: run this from the "
            "repository root of a checkout"
        ) from None
    deckgen(["build", *ctx.args], standalone_mode=True)


def _moderation() -> None:
    from reverie.cli.content import decks_app, words_app
    from reverie.cli.moderation import app as moderation_app

    app.add_typer(moderation_app, name="moderation")
    app.add_typer(decks_app, name="decks")
    app.add_typer(words_app, name="words")


_moderation()


def main() -> None:
    """Entry point of the ``reverie`` command."""
    app()
