"""The ``state`` frame a connection receives: room facts plus the rules' view of the game.

The game part is built only by the rules' ``views`` for the connection's seat (the one
redaction point, reached through the room's game family); the room part holds nothing
secret (no tokens, no seed, no words).
"""

from __future__ import annotations

from typing import Any

import msgspec

from reverie.rooms.live import LiveRoom
from reverie.rooms.members import facts, member_of, people
from reverie.rooms.state import RoomState
from reverie.rooms.takeover import open_places
from reverie.rooms.team_moves import seat_view

_ENCODER = msgspec.json.Encoder()

#: The key of the frame a person queued for a bot's seat receives (a spectator's, which
#: says ``queued``: rooms/takeover.py); never a seat number.
QUEUED = -1


def room_info(
    room: RoomState,
    seat: int | None,
    *,
    connected: set[int],
    spectators: int,
    deadline: float | None,
    now: float,
    present: set[str] | frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """The public facts of a room, with ``you`` for the given seat (``present``: the
    seat tokens with a socket open, to tell which members of a team seat are here)."""
    family = room.family
    v = family.variant(room.variant)
    o = room.options
    # The options a host set, every field (the game view repeats the ones play needs).
    info: dict[str, Any] = {
        "code": room.code,
        "variant": room.variant,
        "family": family.name,
        "title": v.title,
        # The table's language: bots' clues, the drawing game's words (the client marks
        # such texts with it, whatever language its own screen is in).
        "lang": room.lang,
        "status": room.status,
        # What the family took for the table that a client shows (the picture deck).
        **family.setup_facts(room),
        "seats": room.seats,
        "min_players": v.min_players,
        "max_players": v.max_players,
        "capabilities": v.capabilities,
        "options": msgspec.structs.asdict(o),
        "players": [
            {
                "seat": s,
                "name": p.name,
                "color": p.color,
                "host": s == room.host,
                "bot": p.bot,
                "bot_playing": p.bot_playing,
                "bot_level": p.bot_level if p.controlled_by_bot else None,
                "connected": p.bot or s in connected,
                "team": p.team,
                # A team seat's other members: names and presence, nothing of its secrets.
                "members": facts(p, set(present)),
            }
            for s, p in enumerate(room.players)
        ],
        "spectators": spectators,
        # Every person gone: the game waits (bots and the clock) until someone is back.
        "paused": room.status == "playing"
        and any(p.token_hash for p in room.players)
        and not any(s in connected for s, p in enumerate(room.players) if p.token_hash)
        and not any(p.token_hash in present for p in room.waiting),
        "away_seconds": room.away_seconds,
        "time_factor": room.time_factor,
        "text_filter": room.text_filter,
        "public": room.public,
        # The site's operator closed the room: the page says so and stops.
        "closed": room.closed,
        # The vote to remove someone in progress: whom, the counts, the deadline; never
        # who voted how (a seat's own ballot is in its own frame only).
        "vote": vote_info(room, None, now),
        # What the deck allows (seats, rounds), told before the start.
        "deck_fit": family.deck_fit(room, room.seats),
        # People queued for a seat at the next turn (rooms/takeover.py), and how many
        # more may queue now (a public table's game, not decided).
        "waiting": len(room.waiting),
        "places": open_places(room),
        # This reader is one of those queued (their own frame only).
        "queued": False,
        "you": None if seat is None else {"seat": seat, "host": seat == room.host},
        "deadline": None if deadline is None else int(deadline * 1000),
        "server_time": int(now * 1000),
    }
    if seat is not None and info["vote"] is not None:
        info["vote"] = vote_info(room, seat, now)
    if family.teams is not None:
        info["team_count"] = room.team_count
        info["team_colors"] = list(family.teams.colors)
    return info


def vote_info(room: RoomState, seat: int | None, now: float) -> dict[str, Any] | None:
    """The running vote as a client sees it from ``seat`` (None: as anyone does), or
    None when no vote runs (one past its deadline is over, written down yet or not)."""
    vote = room.vote
    if vote is None or not vote.running(now):
        return None
    found = member_of(room, vote.target)
    info: dict[str, Any] = {
        "target": None if found is None else found[0],
        # The member of a team seat it is about (its place in the seat's ``members``);
        # None: a seat's only person.
        "member": found[1] if found is not None and room.players[found[0]].members else None,
        "by": room.seat_of(vote.by),
        "yes": len(vote.yes),
        "no": len(vote.no),
        "voters": len(vote.voters),
        "needed": vote.needed,
        "deadline": int(vote.deadline * 1000),
    }
    if seat is not None and 0 <= seat < len(room.players) and room.players[seat].members:
        # A team seat's frame reaches every member, the one a vote is about too: it
        # tells which members may still vote (each votes on their own), not how any did.
        seat_tokens = [t for _, t in people(room.players[seat])]
        cast = vote.yes | vote.no
        info["voter"] = any(t in vote.voters for t in seat_tokens)
        info["ballot"] = None
        info["open"] = [k for k, t in enumerate(seat_tokens) if t in vote.voters and t not in cast]
    elif seat is not None:
        token = room.players[seat].token_hash if 0 <= seat < len(room.players) else None
        info["voter"] = token is not None and token in vote.voters
        info["ballot"] = "yes" if token in vote.yes else "no" if token in vote.no else None
    return info


def state_frames(
    room: RoomState,
    seats: set[int | None],
    *,
    connected: set[int],
    spectators: int,
    deadline: float | None,
    now: float,
    present: set[str] | frozenset[str] = frozenset(),
) -> dict[int | None, dict[str, Any]]:
    """The ``state`` frame of each seat in ``seats`` (None: spectators; :data:`QUEUED`:
    a person queued for a bot's seat, who sees what spectators do), built together:
    the public parts of the room and of the game view are computed once per change. A
    team seat's frame (which all its members receive) also holds its members' current
    choices (``you.proposals``), which no other frame does."""
    viewers = {None if s == QUEUED else s for s in seats}
    games = room.family.views(room.game, viewers) if room.game is not None else {}
    public = room_info(
        room,
        None,
        connected=connected,
        spectators=spectators,
        deadline=deadline,
        now=now,
        present=present,
    )
    frames = {}
    for seat in seats:
        info = dict(public)
        if seat == QUEUED:
            info["queued"] = True
        elif seat is not None:
            info["you"] = {"seat": seat, "host": seat == room.host}
            if 0 <= seat < len(room.players) and room.players[seat].members:
                info["you"]["proposals"] = seat_view(room, seat)
            if info["vote"] is not None:
                info["vote"] = vote_info(room, seat, now)
        frames[seat] = {
            "type": "state",
            "version": room.version,
            "room": info,
            "game": games.get(None if seat == QUEUED else seat),
        }
    return frames


def state_json(live: LiveRoom, seat: int | None, now: float) -> bytes:
    """The encoded ``state`` frame for ``seat`` (or :data:`QUEUED`): built, with those of
    every seat watching, once per room version and presence change, and kept in
    ``live.frames`` (a change sends the same frame to many sockets)."""
    key = (live.state.version, live.presence)
    if live.frame_key != key or seat not in live.frames:
        if live.frame_key != key:
            live.frames = {}
            live.frame_key = key
        connected = live.connected
        watching: set[int | None] = set(connected)
        if live.spectators:
            watching.add(None)
        wanted = watching | {seat}
        wanted -= live.frames.keys()
        built = state_frames(
            live.state,
            wanted,
            connected=connected,
            spectators=live.all_spectators,
            deadline=live.deadline,
            now=now,
            present=live.present_tokens(),
        )
        for s, frame in built.items():
            live.frames[s] = _ENCODER.encode(frame)
    return live.frames[seat]
