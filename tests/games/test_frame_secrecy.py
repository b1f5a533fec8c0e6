"""One secrecy property over every frame that leaves a connection, for every registered
game (the toy included): a new game is checked by being registered.

A room of each family is opened in this process (the real service, its writer and bus,
and :class:`reverie.web.ws.Connection` objects over a recording socket): several seats,
a second tab of the host's seat, a spectator and, where the family's table takes team
seats, a second member of one seat. Hypothesis draws a seed; the seed plays random legal
moves (the family's own ``random_action``), says chat lines, team lines, a team seat's
own lines and a team seat's pointed moves, each carrying a unique word, and once
replaces the host's link. Every frame each connection receives is then checked:

- a ``state`` frame's game part is the view its seat would get of *any* game that
  differs only in what the seat may not know (the family's ``scramble``): nothing of
  another seat's hand or secret choice reaches it, through the view or past it;
- a said word reaches only those it was said to (the table, a team, a team seat's
  members), in whatever frame (chat, state, error);
- a seat link reaches only the sockets that use it; when the host replaces its link,
  its second tab (and no other socket) is told ``link_replaced``.

- a side channel's frame (drawn by the channel's own ``sample``: a stroke, a signal)
  reaches only the seats its audience admits, never its sender.

A side channel's replay to a late joiner (the whole canvas) is cut by the channel's
``replay``; its audience tests are the channels' own (tests/web/test_visual.py,
tests/web/test_toy_game.py).

The property has teeth: a toy whose view shows every secret fails it, and so does a
filter that lets every frame (or every bus message) through.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reverie import games
from reverie.bus.base import MemoryBus
from reverie.content.decks import list_decks
from reverie.content.library import Library
from reverie.games import AnyFamily, Audience
from reverie.rooms.deliveries import Delivery, SideFrame
from reverie.rooms.events import Acted
from reverie.rooms.service import LiveRoom, RoomService
from reverie.rooms.state import PALETTE, RoomState, hash_token
from reverie.rooms.team_moves import seat_view
from reverie.rooms.visibility import Visibility
from reverie.rules.errors import IllegalAction
from reverie.store import open_store
from reverie.web.ws import Connection
from tests.aio import run_async
from tests.games.test_secrecy import LeakyPebbles
from tests.games.toy import PEBBLES
from tests.web.harness import room_history

#: Random steps of one example (moves, chat lines, pointed moves).
STEPS = 30


class RecordingSocket:
    """A socket that keeps every text frame sent on it."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int = 1000) -> None:
        pass


@dataclass
class Said:
    """A unique word said by ``seat`` to an audience: ``to`` is "all", "team" (the
    speaker's team, ``team``) or "own" (the members of team seat ``seat``)."""

    word: str
    seat: int
    to: str
    team: int | None


@dataclass
class Table:
    service: RoomService
    live: LiveRoom
    conns: list[Connection] = field(default_factory=list)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    said: list[Said] = field(default_factory=list)
    #: Each connection's seat once the game started (a revoked tab's seat stays).
    seated: list[int | None] = field(default_factory=list)
    #: The seat links (hashed) each connection has used.
    links: dict[int, set[str]] = field(default_factory=dict)
    #: The second tab of the host's seat, told ``link_replaced`` after a new link.
    tab: Connection | None = None
    replaced: bool = False
    #: Each side channel's frame as the bus carried it: its audience and sender.
    side: dict[str, list[tuple[Audience, int | None]]] = field(default_factory=dict)


def sent(conn: Connection) -> list[str]:
    """The frames ``conn`` sent, as text."""
    return cast(RecordingSocket, conn.ws).sent


async def _settle() -> None:
    for _ in range(8):
        await asyncio.sleep(0)


async def _open(table: Table, token: str | None) -> Connection:
    """A connection as ``room_socket`` opens one after its hello."""
    svc, live = table.service, table.live
    conn = Connection(RecordingSocket(), svc, live, 4096)  # type: ignore[arg-type]
    if token is not None:
        conn.token_hash = hash_token(token)
    svc.bus.subscribe(live.state.code, conn.on_bus)
    conn.counted, conn.is_counted = conn.token_hash, True
    await svc.connect(live, conn.counted)
    if token is not None:
        conn.send(conn.welcome(token))
    for frame in conn.visibility.opening_frames():
        conn.send(frame)
    conn.dirty = True
    conn.wake.set()
    table.conns.append(conn)
    _note_link(table, conn)
    table.tasks.append(asyncio.create_task(conn.writer()))
    return conn


def _note_link(table: Table, conn: Connection) -> None:
    if conn.token_hash is not None:
        table.links.setdefault(id(conn), set()).add(conn.token_hash)


async def _say(conn: Connection, frame: dict[str, Any], table: Table | None = None) -> None:
    await conn.handle(json.dumps(frame))
    await _settle()
    if table is not None:
        _note_link(table, conn)


def _options(family: AnyFamily) -> dict[str, Any]:
    """Team seats where the family's table takes them."""
    try:
        parsed = family.parse_options({"team_seats": "one"}, "en")
    except (msgspec.ValidationError, ValueError, TypeError):
        return {}
    return {"team_seats": "one"} if family.team_seats(parsed) != "off" else {}


async def _table(family: AnyFamily, variant: str, db: Path) -> Table:
    decks = {d.name: d for d in list_decks()}
    service = RoomService(open_store(f"sqlite:///{db}"), MemoryBus(), Library(decks))
    info = family.variant(variant)
    seats = max(info.min_players, min(4, info.max_players))
    if family.teams is not None:
        seats = max(seats, family.teams.min_teams * family.teams.min_size)
    options = _options(family)
    live, token = await service.create_room(
        name="Host", color=PALETTE[0], variant=variant, seats=seats, options=options
    )
    table = Table(service, live)
    deliver = service.bus.deliver

    def recorded(code: str, message: Delivery) -> None:
        if isinstance(message, SideFrame):
            seen = (message.audience, message.sender)
            table.side.setdefault(message.frame, []).append(seen)
        deliver(code, message)

    service.bus.deliver = recorded  # type: ignore[method-assign,assignment]
    host = await _open(table, token)
    table.tab = await _open(table, token)  # the host's seat in a second tab
    for s in range(1, seats):
        conn = await _open(table, None)
        await _say(conn, {"type": "join", "name": f"P{s}", "color": PALETTE[s]}, table)
        assert conn.seat == s, [json.loads(f) for f in sent(conn)][-3:]
    if options:  # a second member of seat 1
        conn = await _open(table, None)
        await _say(conn, {"type": "join", "name": "Mate", "color": "", "seat": 1}, table)
        assert conn.seat == 1
    await _open(table, None)  # a spectator
    await _say(host, {"type": "start", "id": 1})
    assert live.state.game is not None, [json.loads(f) for f in sent(host)][-3:]
    table.seated = [c.seat for c in table.conns]
    return table


async def _step(table: Table, rng: random.Random, n: int) -> bool:
    """One random step; False when the game is over."""
    live = table.live
    room = live.state
    family = room.family
    assert room.game is not None
    seated = [c for c in table.conns if c.seat is not None]
    pick = rng.random()
    if pick < 0.25:
        conn = rng.choice(seated)
        seat = conn.seat
        assert seat is not None
        team = room.team_of(seat)
        shared = bool(room.players[seat].members)
        to = rng.choice(["all", "team", "own"] if shared else ["all", "team"])
        word = f"word{n}x{rng.randrange(10**6)}"
        before = len(room.chat)
        await _say(conn, {"type": "chat", "text": word, "team": to == "team", "own": to == "own"})
        if len(live.state.chat) > before:
            table.said.append(Said(word, seat, to, team))
        return True
    if pick < 0.3 and not table.replaced:  # the host replaces its link: the tab is told
        table.replaced = True
        await _say(table.conns[0], {"type": "new_link", "id": n}, table)
        return True
    if pick < 0.55 and family.channels:  # a side channel's frame (a stroke, a signal)
        channel = rng.choice(family.channels)
        for conn in rng.sample(seated, len(seated)):  # a seat that may send one now
            assert conn.seat is not None
            cmd = channel.sample(room.game, conn.seat, rng)
            if cmd is not None:
                await _say(conn, msgspec.to_builtins(cmd))
                return True
    if pick < 0.65:
        members = [c for c in seated if c.seat is not None and room.players[c.seat].members]
        if members:
            conn = rng.choice(members)
            word = f"point{n}x{rng.randrange(10**6)}"
            await _say(conn, {"type": "point", "move": {"type": "clue", "text": word}})
            if word in json.dumps(seat_proposals(live.state, conn.seat)):
                table.said.append(Said(word, conn.seat or 0, "own", None))
            return True
    for _ in range(50):  # the rules may refuse a random draw: draw again
        game = live.state.game
        if game is None or family.is_over(game):
            return False
        action = family.random_action(game, rng)
        if action is None:
            return False
        try:
            family.apply(game, action)
        except IllegalAction:
            continue
        await _act(table, Acted(action))
        return True
    raise AssertionError("fifty random moves in a row were refused")


async def _act(table: Table, event: Acted[Any]) -> None:
    """Write a move as a bot's is written (rooms/runners.py)."""
    async with table.live.lock:
        await table.service.writer.commit(table.live, lambda _room: event)
    await _settle()


def seat_proposals(room: RoomState, seat: int | None) -> object:
    """What a team seat's members point at now (their ``you.proposals``)."""
    return None if seat is None else seat_view(room, seat)


def check_frames(table: Table, states: dict[int, RoomState], rng: random.Random) -> int:
    """Check every frame every connection received; returns how many were checked."""
    checked = 0
    frames = [[json.loads(text) for text in sent(conn)] for conn in table.conns]
    tokens = {f["token"] for got in frames for f in got if f["type"] == "welcome"}
    for conn, got, seated in zip(table.conns, frames, table.seated, strict=True):
        links = table.links.get(id(conn), set())
        for text, frame in zip(sent(conn), got, strict=True):
            for token in tokens:  # a seat link reaches the sockets that use it only
                assert token not in text or hash_token(token) in links, frame
            if frame["type"] == "state":
                room = states[frame["version"]]
                you = frame["room"]["you"]
                seat = None if you is None else you["seat"]
                if room.game is None:
                    assert frame["game"] is None
                else:
                    family = room.family
                    for _ in range(2):
                        other = family.scramble(room.game, seat, rng)
                        shown = msgspec.json.decode(msgspec.json.encode(
                            family.views(other, [seat])[seat]))  # fmt: skip
                        assert frame["game"] == shown, (room.variant, seat, frame["game"], shown)
                checked += 1
            for audience, sender in table.side.get(text, []):
                team = table.live.state.team_of(seated)
                assert sender != id(conn) and audience.admits(seated, team), (seated, frame)
            for said in table.said:
                if said.word not in text:
                    continue
                room = states[frame["version"]] if "version" in frame else table.live.state
                seat = seated
                if said.to == "team":
                    allowed = seat is not None and room.team_of(seat) == said.team
                elif said.to == "own":
                    allowed = seat == said.seat
                else:
                    allowed = True
                assert allowed, (said, seat, frame)
    if table.replaced:  # the other tab of the replaced link was told, and nothing after
        assert table.tab is not None
        assert frames[1][-1]["code"] == "link_replaced", frames[1][-3:]
    told = [i for i, got in enumerate(frames) for f in got if f.get("code") == "link_replaced"]
    assert told == ([1] if table.replaced else []), told
    return checked


async def _play(family: AnyFamily, variant: str, seed: int, db: Path) -> tuple[Table, int]:
    table = await _table(family, variant, db)
    rng = random.Random(seed)
    steps = 0
    try:
        for n in range(STEPS):
            if not await _step(table, rng, n):
                break
            steps += 1
    finally:
        for conn in table.conns:
            conn.closed = True
            conn.wake.set()
        await _settle()
        for task in table.tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await table.service.close()
    return table, steps


def check_secrecy(family: AnyFamily, variant: str, seed: int) -> int:
    """Play one random game of ``variant`` and check every frame; returns how many
    state frames were checked."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "r.db"
        result: list[Table] = []

        async def main() -> None:
            table, _ = await _play(family, variant, seed, db)
            result.append(table)

        run_async(main())
        table = result[0]
        history = room_history(db, table.live.state.code)
        states = {room.version: room for room in history if room is not None}
    return check_frames(table, states, random.Random(seed))


def _variants() -> list[tuple[AnyFamily, str]]:
    return [(f, n) for f in [*games.families(), PEBBLES] for n in f.variant_names()]


@pytest.fixture
def toy_registered() -> Iterator[None]:
    games.register(PEBBLES)
    try:
        yield
    finally:
        games.unregister(PEBBLES)


@pytest.mark.usefixtures("toy_registered")
@pytest.mark.parametrize(("family", "variant"), _variants(), ids=[n for _, n in _variants()])
@settings(
    max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**20))
def test_no_frame_shows_what_its_connection_may_not_know(
    family: AnyFamily, variant: str, seed: int
) -> None:
    assert check_secrecy(family, variant, seed) > 10


def test_every_registered_family_is_checked() -> None:
    """The parametrisation is the registry's: a new family is in it by being registered."""
    assert {f.name for f, _ in _variants()} == {f.name for f in games.families()} | {"pebbles"}


def test_a_view_that_shows_a_secret_fails_the_property() -> None:
    leaky = LeakyPebbles()
    games.register(leaky)
    try:
        with pytest.raises(AssertionError, match="pebbles"):
            check_secrecy(leaky, "pebbles", 1)
    finally:
        games.unregister(leaky)


@pytest.mark.usefixtures("toy_registered")
@pytest.mark.parametrize("variant", ["imaginarium", "visual", "pebbles"])
@pytest.mark.parametrize("gate", ["admits", "passes"])
def test_a_filter_that_lets_everything_through_fails_the_property(
    variant: str, gate: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A team's line (the drawing game) or a team seat's own line and pointed moves (the
    association games) reaching everyone is caught, and so are a signal reaching seats
    beside no sender (the toy) and a replaced link told to every socket."""
    monkeypatch.setattr(Visibility, gate, lambda self, _: True)
    with pytest.raises(AssertionError):
        for seed in range(1, 9):
            check_secrecy(games.family_of(variant), variant, seed)
