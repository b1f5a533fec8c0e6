"""``reverie decks`` and ``reverie words``: the operator's view of what players made.

``list`` shows players' decks (their size, when made and last played, whether approved
for public tables) and tables' own word lists (likewise); ``delete`` removes one now,
asking first unless ``--yes``: a deck's pictures are erased (its row stays as a
tombstone, so its id is never handed out again), a word list is deleted whole. Deleting
what a running room plays is refused (``reverie.rooms.retention.rooms_running``): close
that room first or wait for its game to end. Both work beside running servers, on
SQLite too (the store is opened as ``reverie rooms`` opens it), on the event store of
``--database-url`` / ``REVERIE_DATABASE_URL`` as for ``reverie serve``; a deletion is
written to the moderation log with ``--by``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Protocol, TypeVar

import msgspec
import typer
from rich.console import Console
from rich.table import Table

from reverie.cli.moderation import _BY, _DATA_DIR, _DATABASE_URL, _fail, _when, _who
from reverie.store import EventStore
from reverie.store.decks import DeckFacts, DeckStore, WordListFacts
from reverie.store.moderation import ApprovalKind

if TYPE_CHECKING:
    from reverie.store.moderation import SqlModeration

T = TypeVar("T")
F = TypeVar("F", DeckFacts, WordListFacts)

decks_app = typer.Typer(
    help="Players' decks in the event store: list them, delete one.", no_args_is_help=True
)
words_app = typer.Typer(
    help="Tables' own word lists in the event store: list them, delete one.",
    no_args_is_help=True,
)

_out = Console(width=140)
_YES = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")]


class ContentStore(DeckStore, EventStore, Protocol):
    """The event store with players' decks and word lists (both shipped stores)."""


@dataclass(frozen=True, slots=True)
class Stores:
    """What a command works on: the event store, and the moderation store (approvals,
    the action log)."""

    content: ContentStore
    moderation: SqlModeration


def _run(
    data_dir: Path | None, database_url: str | None, body: Callable[[Stores], Awaitable[T]]
) -> T:
    """Run ``body`` on the server's stores, opened beside any running server and closed
    on one event loop; one line and status 2 when they cannot be used."""
    from reverie.store import StoreUnavailable, open_store
    from reverie.store.moderation import open_moderation
    from reverie.web.settings import Settings

    try:
        url = Settings.from_env(data_dir=data_dir, database_url=database_url).store_url
    except ValueError as exc:
        raise _fail(str(exc)) from None

    async def run() -> T:
        store = open_store(url, beside_server=True)
        moderation = open_moderation(url)
        try:
            await store.open()
            await moderation.open()
            if not isinstance(store, DeckStore):
                raise RuntimeError("this event store keeps no players' decks")
            return await body(Stores(store, moderation))
        finally:
            await moderation.close()
            await store.close()

    try:
        return asyncio.run(run())
    except (StoreUnavailable, RuntimeError) as exc:
        raise _fail(str(exc)) from None


def _size(size: int) -> str:
    """Bytes for a person: ``812 B``, ``45.1 kB``, ``3.2 MB``."""
    if size < 1000:
        return f"{size} B"
    if size < 1_000_000:
        return f"{size / 1000:.1f} kB"
    return f"{size / 1_000_000:.1f} MB"


def _rooms(rooms: tuple[str, ...]) -> str:
    shown = " ".join(rooms[:4])
    return f"{shown} (+{len(rooms) - 4})" if len(rooms) > 4 else shown or "-"


async def _approved(stores: Stores, kind: ApprovalKind) -> set[str]:
    return {a.item for a in await stores.moderation.approvals() if a.kind == kind}


async def _running(stores: Stores, rooms: tuple[str, ...]) -> list[str]:
    from reverie.rooms.retention import rooms_running

    return await rooms_running(stores.content, rooms, time.time())


def _refuse_running(what: str, running: list[str]) -> typer.Exit:
    return _fail(
        f"{what} is played by {len(running)} running room(s): {' '.join(running)}. "
        "Wait for their games to end, or close them first "
        "(reverie moderation close CODE; or reverie rooms delete CODE)."
    )


# ------------------------------------------------------------------ decks


@decks_app.command(name="list")
def decks_list(
    every: Annotated[
        bool, typer.Option("--all", help="Also the tombstones of erased decks.")
    ] = False,
    data_dir: _DATA_DIR = None,
    database_url: _DATABASE_URL = None,
) -> None:
    """Players' decks, oldest first: state, pictures, size, when made and last played,
    the rooms in the store that played it, whether approved for public tables."""

    async def read(stores: Stores) -> tuple[list[DeckFacts], set[str]]:
        return await stores.content.stored_decks(purged=every), await _approved(stores, "deck")

    decks, approved = _run(data_dir, database_url, read)
    table = Table(title=f"{len(decks)} deck(s)")
    for column in ("id", "title", "state", "pictures", "size", "created", "last played"):
        table.add_column(column)
    table.add_column("rooms")
    table.add_column("approved")
    for d in decks:
        table.add_row(
            d.id, d.title or "-", d.state, str(d.cards), _size(d.size), _when(d.created_at),
            _when(d.last_write), _rooms(d.rooms), "yes" if d.id in approved else "no",
        )  # fmt: skip
    _out.print(table)


@decks_app.command(name="delete")
def decks_delete(
    deck_id: Annotated[str, typer.Argument(help="The deck's id (u-…).")],
    yes: _YES = False,
    reason: Annotated[str, typer.Option(help="Why, for the moderation log.")] = "",
    by: _BY = None,
    data_dir: _DATA_DIR = None,
    database_url: _DATABASE_URL = None,
) -> None:
    """Delete a player's deck now: its pictures and captions are erased (the rooms that
    played it show no pictures of it any more) and no room may choose it again. Refused
    while a running room plays it."""
    wanted = deck_id.strip()

    async def look(stores: Stores) -> tuple[DeckFacts | None, list[str]]:
        found = _find(await stores.content.stored_decks(purged=True), wanted)
        return found, await _running(stores, found.rooms) if found else []

    found, running = _run(data_dir, database_url, look)
    if found is None:
        raise _fail(f"no deck {wanted}")
    if found.state == "purged":
        raise _fail(f"deck {wanted} was deleted already: its pictures are gone")
    if running:
        raise _refuse_running(f"deck {wanted}", running)
    if not yes:
        title = f" “{found.title}”" if found.title else ""
        typer.confirm(
            f"Delete deck {wanted}{title} ({found.cards} picture(s), {_size(found.size)}, "
            f"played by {len(found.rooms)} room(s) in the store)?",
            abort=True,
        )
    who = _who(by)

    async def delete(stores: Stores) -> list[str] | bool:
        again = _find(await stores.content.stored_decks(), wanted)
        running = await _running(stores, again.rooms) if again else []
        if running:  # a room opened with it while the operator read the question
            return running
        erased = await stores.content.erase_deck(wanted, time.time())
        if erased:
            await _forget(stores, "deck", wanted, who, reason)
        return erased

    outcome = _run(data_dir, database_url, delete)
    if isinstance(outcome, list):
        raise _refuse_running(f"deck {wanted}", outcome)
    if not outcome:
        raise _fail(f"deck {wanted} was deleted meanwhile")
    typer.echo(f"deck {wanted} deleted: {found.cards} picture(s) erased")


def _find(items: list[F], item_id: str) -> F | None:
    return next((i for i in items if i.id == item_id), None)


async def _forget(stores: Stores, kind: ApprovalKind, item: str, who: str, reason: str) -> None:
    """Withdraw its approval (if any) and log the deletion."""
    now = time.time()
    await stores.moderation.withdraw(kind, item, who, now)
    await stores.moderation.log_action(who, "delete", f"{kind} {item}", reason, now)


# ------------------------------------------------------------------ word lists


class _Stored(msgspec.Struct):
    language: str = ""
    lists: dict[str, list[str]] = {}


def _described(payload: bytes | None) -> tuple[str, int]:
    """A stored list's language and how many entries it has."""
    if payload is None:
        return "-", 0
    try:
        words = msgspec.json.decode(payload, type=_Stored)
    except msgspec.MsgspecError:
        return "?", 0
    return words.language, sum(len(v) for v in words.lists.values())


@words_app.command(name="list")
def words_list(data_dir: _DATA_DIR = None, database_url: _DATABASE_URL = None) -> None:
    """Tables' own word lists, oldest first: language, entries, size, when made and last
    named by a room, the rooms in the store that name it, whether approved for public
    tables."""

    async def read(
        stores: Stores,
    ) -> tuple[list[tuple[WordListFacts, tuple[str, int]]], set[str]]:
        lists = await stores.content.stored_word_lists()
        shown = [(w, _described(await stores.content.load_words(w.id))) for w in lists]
        return shown, await _approved(stores, "words")

    lists, approved = _run(data_dir, database_url, read)
    table = Table(title=f"{len(lists)} word list(s)")
    for column in ("id", "language", "entries", "size", "created", "last used", "rooms"):
        table.add_column(column)
    table.add_column("approved")
    for w, (language, entries) in lists:
        last = max(w.used_at, w.last_write or 0.0)
        table.add_row(
            w.id, language, str(entries), _size(w.size), _when(w.created_at), _when(last),
            _rooms(w.rooms), "yes" if w.id in approved else "no",
        )  # fmt: skip
    _out.print(table)


@words_app.command(name="delete")
def words_delete(
    list_id: Annotated[str, typer.Argument(help="The word list's id (w-…).")],
    yes: _YES = False,
    reason: Annotated[str, typer.Option(help="Why, for the moderation log.")] = "",
    by: _BY = None,
    data_dir: _DATA_DIR = None,
    database_url: _DATABASE_URL = None,
) -> None:
    """Delete a table's word list now, whole. Refused while a running room names it
    (a finished room that names it can no longer start another game with it)."""
    wanted = list_id.strip()

    async def look(stores: Stores) -> tuple[WordListFacts | None, list[str]]:
        found = _find(await stores.content.stored_word_lists(), wanted)
        return found, await _running(stores, found.rooms) if found else []

    found, running = _run(data_dir, database_url, look)
    if found is None:
        raise _fail(f"no word list {wanted}")
    if running:
        raise _refuse_running(f"word list {wanted}", running)
    if not yes:
        typer.confirm(
            f"Delete word list {wanted} ({_size(found.size)}, named by {len(found.rooms)} "
            "room(s) in the store)?",
            abort=True,
        )
    who = _who(by)

    async def delete(stores: Stores) -> list[str] | bool:
        again = _find(await stores.content.stored_word_lists(), wanted)
        running = await _running(stores, again.rooms) if again else []
        if running:
            return running
        gone = await stores.content.delete_word_lists([wanted])
        if gone:
            await _forget(stores, "words", wanted, who, reason)
        return bool(gone)

    outcome = _run(data_dir, database_url, delete)
    if isinstance(outcome, list):
        raise _refuse_running(f"word list {wanted}", outcome)
    if not outcome:
        raise _fail(f"word list {wanted} was deleted meanwhile")
    typer.echo(f"word list {wanted} deleted")
