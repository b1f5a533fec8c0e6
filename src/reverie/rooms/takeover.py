"""A person who arrives at a running public table is seated at the next turn boundary
(issue #26: play now at a running table): in a bot's seat, with that seat's hand and
score, or, in a game without bots (the drawing game), as one more player of the
smaller team.

A ``Joined`` without a seat while a public table plays puts the person in the room's
queue (``RoomState.waiting``): they watch, holding a seat link that opens no seat yet.
The event that ends the turn (an ``Acted`` after which the game's turn number differs)
seats everyone queued: each in the bot's seat :func:`takeable_bots` names first (in a
team game, one of the team with the fewest people), whose colour, team, hand and score
stay; or, where the family :attr:`~reverie.games.base.GameFamily.joins_mid_game`, in a
new last seat of the team its :meth:`~reverie.games.base.GameFamily.add_player` picks
(the smaller one), sharing that team's score. A game decided by then
(:func:`decided`) or over seats nobody: the queue empties and they watch on.

All of it is part of the fold (:func:`reverie.rooms.state.evolve`), so every process
seats the same people at the same event, and a log from before the queue (which never
held a ``Joined`` without a seat mid-game: it was refused) folds as it did.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from reverie.errors import RoomError

if TYPE_CHECKING:
    from reverie.rooms.state import Player, RoomState

#: A game this far along (GameFamily.progress) is decided: nobody new is seated in it.
DECIDED = 0.75


def decided(room: RoomState) -> bool:
    """Whether the game is over or so near its end that a newcomer would only watch it
    finish (the family's :meth:`~reverie.games.base.GameFamily.progress`)."""
    if room.status == "over":
        return True
    if room.status != "playing" or room.game is None:
        return False
    return room.family.progress(room.game) >= DECIDED


def takeable_bots(room: RoomState) -> list[int]:
    """The bots' seats a person arriving mid-game may take (a bot's own seat, not a
    person's that a bot stands in for), best first: in a team game the seat of the team
    with the fewest people, so teams stay even."""
    if room.status != "playing" or decided(room):
        return []
    bots = [s for s, p in enumerate(room.players) if p.bot]
    if room.family.teams is None:
        return bots

    def people_in(team: int | None) -> int:
        return sum(1 for p in room.players if not p.bot and p.team == team)

    return sorted(bots, key=lambda s: (people_in(room.players[s].team), s))


def places(room: RoomState) -> int:
    """How many people arriving now could be seated at the next turn: the bots' seats,
    or (a family whose newcomers join as players) the seats left below its most."""
    if room.status != "playing" or decided(room):
        return 0
    family = room.family
    if family.joins_mid_game:
        return max(0, family.variant(room.variant).max_players - len(room.players))
    return len(takeable_bots(room))


def open_places(room: RoomState) -> int:
    """How many more people may queue now (a public table's game, not decided; the
    people queued already have theirs)."""
    if not room.public:
        return 0
    return max(0, places(room) - len(room.waiting))


def queue(room: RoomState, person: Player) -> RoomState:
    """``room`` with ``person`` queued for a seat at the next turn boundary (a ``Joined``
    without a seat while the game runs)."""
    if room.status != "playing" or not room.public:
        # A private table (or one between games) seats people in its lobby only, as ever.
        raise RoomError("not_in_lobby", "The game has already started.")
    if any(p.token_hash == person.token_hash for p in room.waiting):
        raise RoomError("bad_message", "You are waiting for a seat already.")
    if open_places(room) <= 0:
        raise RoomError("table_full", "That table has no free seat now.")
    return replace(room, waiting=(*room.waiting, person))


def unqueue(room: RoomState, token_hash: str) -> RoomState:
    """``room`` without the queued person holding ``token_hash`` (they chose to watch)."""
    if not waiting_for(room, token_hash):
        raise RoomError("not_seated", "You are not waiting for a seat here.")
    return replace(room, waiting=tuple(p for p in room.waiting if p.token_hash != token_hash))


def at_boundary(before: RoomState, after: RoomState) -> RoomState:
    """``after`` (the room once an event is folded) with the queue seated if that event
    ended a turn; emptied if the game is over or decided by then."""
    if not after.waiting:
        return after
    if after.status != "playing" or decided(after):
        return replace(after, waiting=())
    if _turn(after) == _turn(before):
        return after
    room = after
    for person in after.waiting:
        if room.family.joins_mid_game:
            room = add_seat(room, person)
            continue
        seats = takeable_bots(room)
        if not seats:  # cannot happen (the queue counts them), kept for safety: they watch
            break
        room = take_seat(room, seats[0], person)
    return replace(room, waiting=())


def take_seat(room: RoomState, seat: int, person: Player) -> RoomState:
    """``room`` with ``person`` playing the bot's ``seat``: its colour, team, hand and
    score stay the seat's."""
    bot = room.players[seat]
    player = replace(
        bot,
        name=person.name,
        token_hash=person.token_hash,
        ids=person.ids,
        bot=False,
        bot_playing=False,
    )
    return replace(room, players=(*room.players[:seat], player, *room.players[seat + 1 :]))


def add_seat(room: RoomState, person: Player) -> RoomState:
    """``room`` with ``person`` playing a new last seat, in the team the game puts them
    in (the drawing game's smaller team, whose score they share), with the colour they
    chose if nobody has it, else the first free one."""
    from reverie.rooms.state import PALETTE  # the fold's palette (state imports us)

    if len(room.players) >= room.family.variant(room.variant).max_players:
        return room  # cannot happen (the queue counts the places), kept for safety
    game, team = room.family.add_player(room.game, person.name)
    taken = {p.color for p in room.players}
    free = [c for c in PALETTE if c not in taken]
    color = person.color if person.color in free else (free or [PALETTE[0]])[0]
    player = replace(person, color=color, team=team)
    players = (*room.players, player)
    return replace(room, players=players, game=game, seats=max(room.seats, len(players)))


def waiting_for(room: RoomState, token_hash: str | None) -> bool:
    """Whether ``token_hash`` is a person's queued for a seat."""
    return token_hash is not None and any(p.token_hash == token_hash for p in room.waiting)


def _turn(room: RoomState) -> tuple[int, int] | None:
    key = room.phase_key()
    return None if key is None else (key[0], key[1])
