"""Team seats: one seat of the game played by several people, each with a link of
their own (issue #27; the rule book's "the players may split into teams, and each team
plays each turn as one player").

A seat's first person is its player (``Player.name``, ``Player.token_hash``); the
others who joined the seat are its ``members`` (:class:`Member`). Member number 0 is
the first person, ``k`` is ``members[k - 1]``. Every member's connection resolves to
the seat (``RoomState.seat_of``), so the seat's view, its hand and its secret choices,
reach every member and nobody else, through the very filter a solo seat's do.

Whether a table takes team seats is the family's table option (``team_seats``:
``"off"``, ``"one"``: a member's confirm moves the seat, ``"agree"``: a second member
must agree; :meth:`reverie.games.GameFamily.team_seats`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from reverie.errors import RoomError
from reverie.rooms.fold_checks import player_at

if TYPE_CHECKING:
    from reverie.rooms.events import TokenRotated
    from reverie.rooms.state import Player, RoomState

#: How many people may share one seat.
MAX_MEMBERS = 6
MODES = ("off", "one", "agree")


@dataclass(frozen=True, slots=True)
class Member:
    """A person who plays a team seat beside its first person."""

    name: str
    token_hash: str
    # Their browser and address, hashed (Joined ``ids``): what a removal of the seat bans.
    ids: tuple[str, ...] = ()


def people(player: Player) -> list[tuple[str, str | None]]:
    """The seat's people as (name, token hash), its first person first (a bot's seat:
    the bot, with no token)."""
    return [(player.name, player.token_hash), *((m.name, m.token_hash) for m in player.members)]


def tokens(player: Player) -> list[str]:
    """The seat tokens of everyone who plays the seat."""
    return [t for _, t in people(player) if t is not None]


def mode(room: RoomState) -> str:
    """The table's ``team_seats`` option ("off" for a game that has none)."""
    return room.family.team_seats(room.options)


def member_of(room: RoomState, token_hash: str) -> tuple[int, int] | None:
    """The seat and member number a token opens, if any."""
    for seat, player in enumerate(room.players):
        if player.token_hash == token_hash:
            return seat, 0
        for k, m in enumerate(player.members, start=1):
            if m.token_hash == token_hash:
                return seat, k
    return None


def name_of(player: Player, member: int) -> str:
    """The name of a seat's member (the seat's name for member 0 or one out of range)."""
    if 1 <= member <= len(player.members):
        return player.members[member - 1].name
    return player.name


def join_seat(
    room: RoomState, seat: int, name: str, token_hash: str, ids: tuple[str, ...] = ()
) -> RoomState:
    """``room`` with a person joined to ``seat`` as one more member (``ids``: theirs,
    hashed)."""
    if mode(room) == "off":
        raise RoomError("no_team_seats", "This table plays one person to a seat.")
    if room.status == "over":
        raise RoomError("wrong_phase", "The game is over: start a rematch first.")
    if not 0 <= seat < len(room.players):
        raise RoomError("unknown_seat", "There is no such seat.")
    player = room.players[seat]
    if player.bot:
        raise RoomError("bad_message", "A bot's seat takes no members.")
    if len(player.members) + 1 >= MAX_MEMBERS:
        raise RoomError("seat_full", f"A team seat is played by at most {MAX_MEMBERS} people.")
    seated = list(room.players)
    seated[seat] = replace(player, members=(*player.members, Member(name, token_hash, ids)))
    return replace(room, players=tuple(seated))


def leave_seat(room: RoomState, seat: int, member: int) -> RoomState:
    """``room`` with one member of a team seat gone; the seat stays (its first person
    gone, the next member becomes its first, keeping the seat's colour)."""
    player = room.players[seat]
    if not 0 <= member <= len(player.members) or not player.members:
        raise RoomError("unknown_seat", "There is no such member.")
    if member == 0:
        first, *rest = player.members
        new = replace(
            player,
            name=first.name,
            token_hash=first.token_hash,
            ids=first.ids,
            members=tuple(rest),
        )
    else:
        rest = list(player.members)
        del rest[member - 1]
        new = replace(player, members=tuple(rest))
    seated = list(room.players)
    seated[seat] = new
    home = room.home_host
    if home is not None and home not in tokens(new) and home in tokens(player):
        home = None  # the member who held the host role's claim has gone
    # Choices are kept by member number: the leaver's go, the members after them move up.
    proposals = tuple(
        replace(p, member=p.member - 1) if p.seat == seat and p.member > member else p
        for p in room.proposals
        if (p.seat, p.member) != (seat, member)
    )
    return replace(room, players=tuple(seated), home_host=home, proposals=proposals)


def balanced(room: RoomState) -> RoomState:
    """``room`` with its people's seats made even again after someone left the lobby:
    while one seat has two people more than another, the person who joined the largest
    seat last moves to the smallest (the first of either on ties). A seat's first person
    never moves, so every seat keeps its name and colour, and the host its seat."""
    if mode(room) == "off":
        return room
    seated = list(room.players)
    while True:
        sizes = [(1 + len(p.members), s) for s, p in enumerate(seated) if not p.bot]
        if not sizes:
            return room
        low, to = min(sizes)
        high, frm = max(sizes, key=lambda size: (size[0], -size[1]))
        if high - low < 2:
            return replace(room, players=tuple(seated))
        *kept, moving = seated[frm].members
        seated[frm] = replace(seated[frm], members=tuple(kept))
        seated[to] = replace(seated[to], members=(*seated[to].members, moving))


def rotate(player: Player, member: int, token_hash: str) -> Player:
    """The seat with one member's link replaced."""
    if member == 0:
        return replace(player, token_hash=token_hash)
    if not 1 <= member <= len(player.members):
        raise RoomError("unknown_seat", "There is no such member.")
    rest = list(player.members)
    rest[member - 1] = replace(rest[member - 1], token_hash=token_hash)
    return replace(player, members=tuple(rest))


def rotated(room: RoomState, e: TokenRotated) -> RoomState:
    """The room once a seat's person (``e.member`` of a team seat) has a new link; a host
    away keeps their claim to the role under the new one."""
    player = player_at(room, e.seat)
    if player.token_hash is None:
        raise RoomError("bad_message", "A bot has no link.")
    seated = list(room.players)
    seated[e.seat] = rotate(player, e.member, e.token_hash)
    old = token_at(player, e.member)
    home = e.token_hash if room.home_host == old else room.home_host
    return replace(room, players=tuple(seated), home_host=home)


def token_at(player: Player, member: int) -> str | None:
    """The token of a seat's member."""
    if 1 <= member <= len(player.members):
        return player.members[member - 1].token_hash
    return player.token_hash


def facts(player: Player, connected: set[str]) -> list[dict[str, object]]:
    """What everyone may read of a team seat's people, its first person first: names
    and who is here (no token, nothing of the seat's secrets); [] for a solo seat."""
    if not player.members:
        return []
    return [{"name": name, "connected": t in connected} for name, t in people(player)]


def smallest_seat(room: RoomState) -> int | None:
    """The people's seat with the fewest people (the first on ties), where a person
    who finds every seat taken joins, so teams stay even as people come (None: the
    table takes no team seats, or every seat is a bot's or full)."""
    if mode(room) == "off":
        return None
    open_seats = [
        (len(p.members), s)
        for s, p in enumerate(room.players)
        if not p.bot and len(p.members) + 1 < MAX_MEMBERS
    ]
    return min(open_seats)[1] if open_seats else None


def dealt(room: RoomState, count: int, rng: random.Random) -> tuple[tuple[str, ...], ...]:
    """Everyone at the table (not the bots) dealt at random into ``count`` team seats
    whose sizes differ by at most one, as groups of seat tokens."""
    everyone = [t for p in room.players if not p.bot for t in tokens(p)]
    if not 1 <= count <= len(everyone):
        raise RoomError("bad_team", f"Deal the {len(everyone)} people into 1 to that many seats.")
    rng.shuffle(everyone)
    return tuple(tuple(everyone[i::count]) for i in range(count))


def deal(room: RoomState, groups: tuple[tuple[str, ...], ...]) -> RoomState:
    """``room`` with its people seated in ``groups`` (each group one seat, its first
    person first; the bots keep seats of their own after them); the host role stays
    with the host seat's first person."""
    if mode(room) == "off":
        raise RoomError("no_team_seats", "This table plays one person to a seat.")
    found = {t: (name, seat) for seat, p in enumerate(room.players) for name, t in people(p) if t}
    # Each person's browser and address, hashed, move with them (what a removal bans).
    ids_of = {p.token_hash: p.ids for p in room.players if p.token_hash}
    ids_of.update({m.token_hash: m.ids for p in room.players for m in p.members})
    dealt_tokens = [t for group in groups for t in group]
    if sorted(dealt_tokens) != sorted(found) or not all(groups):
        raise RoomError("bad_message", "A deal seats everyone at the table once.")
    bots = [p for p in room.players if p.bot]
    if len(groups) + len(bots) > room.seats:
        raise RoomError("room_full", f"The table has {room.seats} seats.")
    used: set[str] = {p.color for p in bots}
    seated: list[Player] = []
    # The host role follows the host seat's first person (its members may be dealt
    # into other seats).
    host_token = room.players[room.host].token_hash
    host = 0
    for group in groups:
        first, *rest = group
        name, old_seat = found[first]
        old = room.players[old_seat]
        color = old.color if old.token_hash == first and old.color not in used else None
        if color is None:
            free = [c for c in _palette() if c not in used]
            kept = [c for c in free if c not in _holders(room)]
            color = (kept or free)[0]
        used.add(color)
        if host_token in group:
            host = len(seated)
        members = tuple(Member(found[t][0], t, ids_of.get(t, ())) for t in rest)
        seated.append(
            replace(
                old,
                name=name,
                color=color,
                token_hash=first,
                members=members,
                ids=ids_of.get(first, ()),
            )
        )
    return replace(room, players=(*seated, *bots), host=host, home_host=None)


def _holders(room: RoomState) -> set[str]:
    """The colours the seats hold now (a new seat takes one nobody else holds)."""
    return {p.color for p in room.players}


def _palette() -> tuple[str, ...]:
    from reverie.rooms.state import PALETTE  # the fold's palette (state imports us)

    return PALETTE
