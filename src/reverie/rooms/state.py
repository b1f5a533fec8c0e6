"""A room's state as a pure fold of its events.

:func:`evolve` applies one event and returns the new room, or raises (a
:class:`RoomError` or the rules' ``IllegalAction``) if the event does not fit. The live
service calls it before writing an event, and replay calls it again after a restart,
so accepted events always replay.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Any, Literal

from reverie.content.textfilter import DEFAULT_LEVEL, Level
from reverie.errors import RoomError
from reverie.games import AnyFamily, TeamSpec, family_of
from reverie.rooms import members as team_seats
from reverie.rooms import takeover, team_moves
from reverie.rooms import teams as team_rules
from reverie.rooms.events import (
    DEFAULT_AWAY,
    TIME_FACTORS,
    Acted,
    BotAdded,
    BotLevelSet,
    BotSeat,
    Chatted,
    Closed,
    Created,
    Dealt,
    HostChanged,
    Joined,
    Left,
    Listed,
    OptionsSet,
    Proposed,
    Removed,
    Reordered,
    RoomEvent,
    Started,
    TeamChosen,
    TeamsSet,
    TokenRotated,
    Voted,
    VoteEnded,
    VoteStarted,
)
from reverie.rooms.texts import (
    MAX_CHAT,
    check_filter_level,
    check_name,
)
from reverie.rooms.votes import Vote

__all__ = [
    "PALETTE",
    "Player",
    "RoomState",
    "evolve",
    "hash_token",
]

PALETTE = (
    "#e63946",
    "#f4a261",
    "#e9c46a",
    "#2a9d8f",
    "#457b9d",
    "#8338ec",
    "#ff66c4",
    "#8ac926",
    "#6d4c41",
    "#adb5bd",
    "#1d3557",
    "#ffffff",
)
LANGUAGES = ("en", "ru", "it")
CHAT_KEPT = 50

Status = Literal["lobby", "playing", "over"]


@dataclass(frozen=True, slots=True)
class Player:
    """Someone in a seat: a person (with a seat token) or a bot."""

    name: str
    color: str
    token_hash: str | None
    bot: bool = False
    bot_playing: bool = False
    team: int | None = None  # team games only
    bot_level: str = "easy"  # how well the bot playing this seat plays (BOT_LEVELS)
    # The others who play this seat as a team (rooms/members.py); () for one person.
    members: tuple[team_seats.Member, ...] = ()
    # The person's browser and address, hashed (Created/Joined ``ids``): what a removal
    # bans.
    ids: tuple[str, ...] = ()

    @property
    def controlled_by_bot(self) -> bool:
        """Whether a bot makes this seat's moves (a bot seat or a human's handed over)."""
        return self.bot or self.bot_playing


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One chat message."""

    seat: int
    name: str
    text: str
    at: float
    team: int | None = None  # said to this team only
    own: bool = False  # said to the members of the speaker's seat only (a team seat)


@dataclass(frozen=True, slots=True)
class RoomState:
    """Everything about a room that the log records."""

    code: str
    variant: str
    seats: int
    # The family's own option, setup and game structs (see ``reverie.games``); the setup
    # (say, the picture deck) is what the family took for the table when it opened.
    options: Any
    setup: Any
    seed: int
    created_at: float
    players: tuple[Player, ...]
    host: int = 0
    status: Status = "lobby"
    game: Any = None
    games: int = 0
    chat: tuple[ChatLine, ...] = ()
    version: int = 0
    # The version at which the current game phase began: an action aimed at an older
    # phase (say, a vote for the previous round's table) is stale; one sent while other
    # players' moves arrived in the same phase is not.
    phase_version: int = 0
    lang: str = "en"  # the table's language: bots tell their clues in it
    team_count: int = 2  # team games only (set from the family's teams when created)
    # The seat token hash of a host whose role was taken while they were away: they get
    # it back when they return.
    home_host: str | None = None
    # Seconds a player may be gone before a bot plays for them and, for the host, before
    # the role passes to someone at the table (None: the table waits).
    away_seconds: int | None = DEFAULT_AWAY
    # How many times longer than the game's own every game timer runs (TIME_FACTORS).
    time_factor: int = 1
    # What the text filter hides in names, chat, clues and guesses (textfilter.LEVELS).
    text_filter: Level = DEFAULT_LEVEL
    # Listed on the open tables page for strangers to join (False: link only).
    public: bool = False
    # Closed by the site's operator (reverie moderation close): no more events.
    closed: bool = False
    # Team seats' members' choices in the current phase (rooms/team_moves.py).
    proposals: tuple[team_moves.Proposal, ...] = ()
    # The hashed browsers and addresses of the people removed: they may not sit again.
    bans: frozenset[str] = frozenset()
    # The vote to remove someone in progress (public tables), and when the next may start.
    vote: Vote | None = None
    vote_after: float = 0.0
    # People who arrived while a public table played, each to take a bot's seat at the
    # next turn boundary (rooms/takeover.py); they watch meanwhile.
    waiting: tuple[Player, ...] = ()
    # When a table play now opened starts by itself (Created ``starts_at``; None: by hand).
    starts_at: float | None = None

    @property
    def family(self) -> AnyFamily:
        """The family of games this room plays."""
        return family_of(self.variant)

    def phase_key(self) -> tuple[int, int, str] | None:
        """Which game, turn and phase the room is in (None outside a game)."""
        if self.game is None:
            return None
        return (self.games, *self.family.phase_key(self.game))

    def timer(self) -> tuple[str, float] | None:
        """The running game timer's name and length in seconds, the game's own length
        times the table's ``time_factor`` (None: no timer runs)."""
        if self.game is None or self.status != "playing":
            return None
        timer = self.family.timer(self.game)
        return None if timer is None else (timer[0], timer[1] * self.time_factor)

    def team_of(self, seat: int | None) -> int | None:
        """A seat's team (team games; ``None`` for spectators and unassigned seats)."""
        if seat is None or not 0 <= seat < len(self.players):
            return None
        return self.players[seat].team

    def aside(self) -> frozenset[int]:
        """Seats that stay outside the teams: the host's, in a game whose shared device
        is the host's (``TeamSpec.host_aside``)."""
        spec = self.family.teams
        return frozenset({self.host}) if spec is not None and spec.host_aside else frozenset()

    def seat_of(self, token_hash: str) -> int | None:
        """The seat holding this token, if any (a team seat's member's too)."""
        for seat, p in enumerate(self.players):
            if p.token_hash == token_hash:
                return seat
        found = team_seats.member_of(self, token_hash) if self.family_has_members() else None
        return None if found is None else found[0]

    def family_has_members(self) -> bool:
        """Whether some seat has members (a quick test before a slower search)."""
        return any(p.members for p in self.players)


def hash_token(token: str) -> str:
    """What the log keeps of a seat token (never the token itself)."""
    return hashlib.sha256(token.encode()).hexdigest()


#: How well a bot plays, weakest first; a family offers some of them (``bot_levels``).
BOT_LEVELS = ("easy", "normal", "clever")
#: The level of a bot the host adds or that stands in, unless one is asked for.
DEFAULT_BOT_LEVEL = "normal"


def stand_in_level(room: RoomState) -> str:
    """The level of the bot the room seats for a person gone past ``away_seconds``.

    The highest level among the bots already playing at the table: the host chose the
    table's strength (a family with children picks easy bots, and a stand-in that
    outplays them would spoil it). With no bot at the table, the best level the game
    has: the stand-in plays for a person whose score still counts, and who expects
    the seat to be played well until they are back. A game whose bots have no levels
    gets the default (its bots ignore it).
    """
    offered = [level for level in BOT_LEVELS if level in room.family.bot_levels]
    if not offered:
        return DEFAULT_BOT_LEVEL
    chosen = [p.bot_level for p in room.players if p.controlled_by_bot]
    at_table = [level for level in offered if level in chosen]
    return (at_table or offered)[-1]


def check_level(level: str) -> str:
    """``level`` if it is a bot level, else a clear error.

    >>> check_level("clever")
    'clever'
    """
    if level not in BOT_LEVELS:
        raise RoomError("bad_message", f"A bot's level is one of: {', '.join(BOT_LEVELS)}.")
    return level


def check_color(room: RoomState | None, color: str, *, seat: int | None = None) -> str:
    """A piece colour from the palette that nobody else at the table uses."""
    if color not in PALETTE:
        raise RoomError("bad_color", "Choose one of the piece colours offered.")
    if room is not None and any(p.color == color for s, p in enumerate(room.players) if s != seat):
        raise RoomError("color_taken", "Someone already plays that colour.")
    return color


def _family(variant: str) -> AnyFamily:
    try:
        return family_of(variant)
    except LookupError as exc:
        raise RoomError("bad_options", str(exc)) from None


def _check_seats(variant: str, seats: int, taken: int) -> None:
    v = _family(variant).variant(variant)
    if not v.min_players <= seats <= v.max_players:
        raise RoomError(
            "bad_options",
            f"{v.title} is played by {v.min_players} to {v.max_players} players.",
        )
    if seats < taken:
        raise RoomError("bad_options", f"{taken} players are already seated.")


def game_seed(room_seed: int, game_number: int) -> int:
    """The seed of the n-th game in a room, from the room's secret seed."""
    digest = hashlib.blake2b(f"{room_seed}:{game_number}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") >> 1


def evolve(room: RoomState | None, event: RoomEvent) -> RoomState:
    """The room after ``event``; raises if the event does not fit the room."""
    if isinstance(event, Created):
        return _created(event)
    if room is None:
        raise RoomError("unknown_room", "This room does not exist.")
    if room.closed:
        raise RoomError("room_closed", "The site's operator closed this room.")
    if isinstance(event, Closed):  # whatever phase: it leaves every list, nothing moves
        return replace(room, closed=True, public=False, version=room.version + 1)
    new = _apply(room, event)
    actor = room.family.actor(event.action) if isinstance(event, Acted) else None
    new = team_moves.after_move(room, new, actor)
    new = takeover.at_boundary(room, new)
    version = room.version + 1
    phase_version = version if new.phase_key() != room.phase_key() else room.phase_version
    return replace(new, version=version, phase_version=phase_version)


def _created(e: Created) -> RoomState:
    family = _family(e.variant)
    _check_seats(e.variant, e.seats, 1)
    lang = e.lang if e.lang in LANGUAGES else "en"
    options = family.parse_options(e.options, lang)
    player = Player(check_name(e.name), check_color(None, e.color), e.token_hash, ids=e.ids)
    room = RoomState(
        code=e.code,
        variant=e.variant,
        seats=e.seats,
        options=options,
        setup=family.parse_setup(e.setup or {}),
        seed=e.seed,
        created_at=e.at,
        players=(player,),
        version=1,
        lang=lang,
        team_count=family.teams.min_teams if family.teams else 2,
        away_seconds=_check_away(e.away_seconds),
        time_factor=_check_factor(e.time_factor),
        text_filter=check_filter_level(e.text_filter),
        public=e.public,
        starts_at=e.starts_at,
    )
    _check_public_filter(room)
    family.check_setup(room, room.seats)  # fail early, in the lobby
    return room


def _check_public_filter(room: RoomState) -> None:
    # Strangers meet at a public table: what they write is filtered at least mildly.
    if room.public and room.text_filter == "off":
        raise RoomError(
            "public_filter", "A public table keeps the text filter on (mild or strict)."
        )


MIN_AWAY, MAX_AWAY = 5, 3600


def _check_factor(factor: int) -> int:
    if factor not in TIME_FACTORS:
        choices = ", ".join(f"x{f}" for f in TIME_FACTORS)
        raise RoomError("bad_options", f"Timers run at {choices} their length.")
    return factor


def _check_away(seconds: int | None) -> int | None:
    if seconds is not None and not MIN_AWAY <= seconds <= MAX_AWAY:
        raise RoomError(
            "bad_options",
            f"A bot stands in after {MIN_AWAY} to {MAX_AWAY} seconds away, or never.",
        )
    return seconds


def _team_game(room: RoomState) -> TeamSpec:
    spec = room.family.teams
    if spec is None:
        raise RoomError("bad_message", "This game is not played in teams.")
    return spec


def _in_lobby(room: RoomState) -> None:
    if room.status != "lobby":
        raise RoomError("not_in_lobby", "The game has already started.")


def _seat(room: RoomState, seat: int) -> Player:
    if not 0 <= seat < len(room.players):
        raise RoomError("unknown_seat", "There is no such seat.")
    return room.players[seat]


def _apply(room: RoomState, e: RoomEvent) -> RoomState:
    family = room.family
    if isinstance(e, Acted):
        ended = room.status == "over" and not (
            room.game is not None and family.acts_after_end(room.game, e.action)
        )
        if room.game is None or room.status == "lobby" or ended:
            raise RoomError("wrong_phase", "No game is being played.")
        if not family.accepts(e.action):
            raise RoomError("bad_message", "That move is not part of this game.")
        game = family.apply(room.game, e.action)
        status: Status = "over" if family.is_over(game) else "playing"
        return replace(room, game=game, status=status)
    if isinstance(e, Chatted):
        player = _seat(room, e.seat)
        text = " ".join(e.text.split())
        if not text or len(text) > MAX_CHAT:
            raise RoomError("bad_message", f"Chat lines are 1 to {MAX_CHAT} characters.")
        if e.team is not None and e.team != player.team:
            raise RoomError("bad_team", "You can only talk to your own team.")
        if e.own and not player.members:
            raise RoomError("bad_team", "Only a team seat has a chat of its own.")
        name = team_seats.name_of(player, e.member)
        line = ChatLine(e.seat, name, text, e.at, e.team, e.own)
        return replace(room, chat=(*room.chat, line)[-CHAT_KEPT:])
    if isinstance(e, Joined) and e.seat is not None:
        return team_seats.join_seat(room, e.seat, check_name(e.name), e.token_hash, e.ids)
    if isinstance(e, Joined) and room.status != "lobby":
        # Mid-game at a public table: queued for a bot's seat at the next turn's start.
        person = Player(check_name(e.name), e.color, e.token_hash, ids=e.ids)
        return takeover.queue(room, person)
    if isinstance(e, Joined):
        if len(room.players) >= room.seats:
            raise RoomError("room_full", "Every seat is taken; you can watch.")
        player = Player(check_name(e.name), check_color(room, e.color), e.token_hash, ids=e.ids)
        return replace(room, players=(*room.players, player))
    if isinstance(e, BotAdded):
        _in_lobby(room)
        if not family.bots_allowed:
            raise RoomError("no_bots", "Bots cannot play this game: it is for people.")
        if len(room.players) >= room.seats:
            raise RoomError("room_full", "Every seat is taken.")
        name, color, level = check_name(e.name), check_color(room, e.color), check_level(e.level)
        bot = Player(name, color, None, bot=True, bot_level=level)
        return replace(room, players=(*room.players, bot))
    if isinstance(e, Left) and e.waiting is not None:
        return takeover.unqueue(room, e.waiting)
    if isinstance(e, Left) and e.member is not None:
        gone = team_seats.token_at(_seat(room, e.seat), e.member)
        left = team_seats.leave_seat(room, e.seat, e.member)
        vote = room.vote
        if vote is not None and vote.member is not None and vote.target == gone:
            # A vote about this member has nothing left to decide (one from before
            # votes named members, about a seat's first person, replays as played).
            left = replace(left, vote=None)
        return team_seats.balanced(left) if e.balance and room.status == "lobby" else left
    if isinstance(e, Left):
        _in_lobby(room)
        _seat(room, e.seat)
        players = room.players[: e.seat] + room.players[e.seat + 1 :]
        if not any(not p.bot for p in players):
            raise RoomError("bad_message", "The last person cannot leave; close the room.")
        host = room.host
        if e.seat == host:
            host = next(s for s, p in enumerate(players) if not p.bot)
        elif e.seat < host:
            host -= 1
        vote = _without_target(room.vote, room.players[e.seat])
        left = replace(room, players=players, host=host, vote=vote)
        return team_seats.balanced(left) if e.balance else left
    if isinstance(e, Reordered):
        _in_lobby(room)
        if sorted(e.order) != list(range(len(room.players))):
            raise RoomError("bad_message", "The new order must list every seat once.")
        players = tuple(room.players[s] for s in e.order)
        return replace(room, players=players, host=e.order.index(room.host))
    if isinstance(e, HostChanged):
        if _seat(room, e.seat).bot:
            raise RoomError("bad_message", "A bot cannot be the host.")
        home = None
        if e.takeover:  # the first host taken from keeps the claim
            home = room.home_host or room.players[room.host].token_hash
        return replace(room, host=e.seat, home_host=home)
    if isinstance(e, OptionsSet):
        _in_lobby(room)
        _check_seats(room.variant, e.seats, len(room.players))
        new = replace(
            room,
            options=family.parse_options(e.options, room.lang),
            seats=e.seats,
            away_seconds=_check_away(e.away_seconds),
            time_factor=_check_factor(e.time_factor),
            text_filter=check_filter_level(e.text_filter),
        )
        _check_public_filter(new)
        family.check_setup(new, e.seats)
        return new
    if isinstance(e, Listed):
        if room.status == "over":
            raise RoomError("wrong_phase", "The game is over: start a rematch first.")
        # Listing a table whose filter is off turns it on: the host chose strangers.
        words: Level = "mild" if e.public and room.text_filter == "off" else room.text_filter
        return replace(room, public=e.public, text_filter=words)
    if isinstance(e, TeamChosen):
        _in_lobby(room)
        _team_game(room)
        player = _seat(room, e.seat)
        if e.team is not None and not 0 <= e.team < room.team_count:
            raise RoomError("bad_team", f"Choose a team from 1 to {room.team_count}.")
        if e.team is not None and e.seat in room.aside():
            raise RoomError("bad_team", "The host's device is the table's: it plays in no team.")
        seated = list(room.players)
        seated[e.seat] = replace(player, team=e.team)
        return replace(room, players=tuple(seated))
    if isinstance(e, TeamsSet):
        _in_lobby(room)
        spec = _team_game(room)
        if not spec.min_teams <= e.count <= spec.max_teams:
            raise RoomError("bad_team", f"Play with {spec.min_teams} to {spec.max_teams} teams.")
        if len(e.teams) != len(room.players):
            raise RoomError("bad_message", "The teams must list every seat.")
        aside = room.aside()
        teams = tuple(
            None if s in aside else t for s, t in enumerate(team_rules.trimmed(e.teams, e.count))
        )
        players = tuple(replace(p, team=t) for p, t in zip(room.players, teams, strict=True))
        return replace(room, players=players, team_count=e.count)
    if isinstance(e, Started):
        if room.status == "playing":
            raise RoomError("not_in_lobby", "The game has already started.")
        v = family.variant(room.variant)
        if len(room.players) < v.min_players:
            raise RoomError(
                "not_enough_players", f"{v.title} needs at least {v.min_players} players."
            )
        starting = room.players
        if family.teams is not None:
            filled = team_rules.filled([p.team for p in starting], room.team_count, room.aside())
            starting = tuple(replace(p, team=t) for p, t in zip(starting, filled, strict=True))
        game = family.new_game(
            room,
            [p.name for p in starting],
            [p.team for p in starting],
            game_seed(room.seed, room.games),
            e.content,
        )
        # Team lines stay with the team they were said to: teams change between games.
        public_chat = tuple(c for c in room.chat if c.team is None)
        return replace(
            room,
            players=starting,
            game=game,
            status="playing",
            games=room.games + 1,
            chat=public_chat,
        )
    if isinstance(e, BotSeat):
        player = _seat(room, e.seat)
        if player.bot:
            raise RoomError("bad_message", "That seat is a bot already.")
        seated = list(room.players)
        level = check_level(e.level) if e.on else player.bot_level
        seated[e.seat] = replace(player, bot_playing=e.on, bot_level=level)
        return replace(room, players=tuple(seated))
    if isinstance(e, BotLevelSet):
        player = _seat(room, e.seat)
        if not player.controlled_by_bot:
            raise RoomError("bad_message", "No bot plays that seat.")
        if check_level(e.level) not in family.bot_levels:
            raise RoomError("bad_message", "This game's bots have no such level.")
        seated = list(room.players)
        seated[e.seat] = replace(player, bot_level=e.level)
        return replace(room, players=tuple(seated))
    if isinstance(e, TokenRotated):
        player = _seat(room, e.seat)
        if player.token_hash is None:
            raise RoomError("bad_message", "A bot has no link.")
        seated = list(room.players)
        seated[e.seat] = team_seats.rotate(player, e.member, e.token_hash)
        old = team_seats.token_at(player, e.member)
        home = e.token_hash if room.home_host == old else room.home_host
        return replace(room, players=tuple(seated), home_host=home)
    if isinstance(e, Proposed):
        return team_moves.apply_proposed(room, e)
    if isinstance(e, Dealt):
        _in_lobby(room)
        return team_seats.deal(room, e.groups)
    if isinstance(e, Removed):
        player = _seat(room, e.seat)
        if player.bot or player.token_hash is None:
            raise RoomError("bad_message", "A bot is not removed; the host takes its seat away.")
        return _removed(room, e.seat, e.member, balance=e.balance)
    if isinstance(e, VoteStarted):
        return _vote_started(room, e)
    if isinstance(e, Voted):
        return _voted(room, e)
    if isinstance(e, VoteEnded):
        vote = room.vote
        if vote is None or vote.running(e.at):
            raise RoomError("bad_message", "No vote has run out.")
        return replace(room, vote=None, vote_after=vote.deadline + vote.cooldown)
    raise RoomError("bad_message", "Unknown event.")


def _without_target(vote: Vote | None, player: Player) -> Vote | None:
    # A vote about someone who is gone (left, removed; a team seat's member with the
    # seat) has nothing left to decide.
    return None if vote is not None and vote.target in team_seats.tokens(player) else vote


def _removed(
    room: RoomState, seat: int, member: int | None = None, *, balance: bool = False
) -> RoomState:
    """The room without ``seat``'s person (``member``: that member of a team seat;
    None: everyone who plays the seat), whose browser and address are banned. A team
    seat plays on with its other members; a seat whose last person goes leaves the
    lobby, and in a game (or after it, for a rematch) a bot plays it on, with its hand
    and score, as a stand-in does. The host role passes on as when a host leaves; a
    vote about them ends. ``balance``: in the lobby, team seats are made even again."""
    player = room.players[seat]
    if member is not None and player.members:
        # One member of a team seat: only they go, as a member who leaves does.
        if not 0 <= member <= len(player.members):
            raise RoomError("unknown_seat", "There is no such member.")
        gone = player.ids if member == 0 else player.members[member - 1].ids
        target = team_seats.token_at(player, member)
        vote = None if room.vote is not None and room.vote.target == target else room.vote
        left = replace(
            team_seats.leave_seat(room, seat, member),
            bans=room.bans | {i for i in gone if i},
            vote=vote,
        )
        return team_seats.balanced(left) if balance and room.status == "lobby" else left
    if member not in (None, 0):
        raise RoomError("unknown_seat", "There is no such member.")
    removed = _removed_seat(room, seat)
    return team_seats.balanced(removed) if balance and room.status == "lobby" else removed


def _removed_seat(room: RoomState, seat: int) -> RoomState:
    """The room without ``seat`` and everyone who plays it, all of them banned."""
    player = room.players[seat]
    # The seat goes with everyone who plays it (a team seat's members too).
    everyone = [*player.ids, *(i for m in player.members for i in m.ids)]
    bans = room.bans | {i for i in everyone if i}
    vote = _without_target(room.vote, player)
    home = None if room.home_host in team_seats.tokens(player) else room.home_host
    if room.status == "lobby":
        players = room.players[:seat] + room.players[seat + 1 :]
        host = room.host - 1 if seat < room.host else room.host
    else:
        bot = replace(
            player,
            token_hash=None,
            bot=True,
            bot_playing=False,
            bot_level=stand_in_level(room),
            ids=(),
            members=(),
        )
        players = (*room.players[:seat], bot, *room.players[seat + 1 :])
        host = room.host
    if seat == room.host:
        people = [s for s, p in enumerate(players) if not p.bot]
        if not people:
            raise RoomError("bad_message", "The last person cannot be removed; close the room.")
        # The next person after the removed seat, as a leaving host's role passes on.
        host = min(people, key=lambda s: (s < seat, s))
    return replace(room, players=players, host=host, bans=frozenset(bans), vote=vote,
                   home_host=home)  # fmt: skip


def _vote_started(room: RoomState, e: VoteStarted) -> RoomState:
    if not room.public:
        raise RoomError("not_public", "Votes are for public tables.")
    target = team_seats.token_at(_seat(room, e.target), e.member or 0)
    starter = team_seats.token_at(_seat(room, e.by), e.by_member)
    if target is None or starter is None or starter not in e.voters or target in e.voters:
        raise RoomError("bad_message", "That vote does not fit the table.")
    after = room.vote_after
    if room.vote is not None:
        if room.vote.running(e.at):
            raise RoomError("vote_running", "One vote at a time: a vote is already running.")
        # One that ran out with nobody to say so (its process stopped) ended then.
        after = max(after, room.vote.deadline + room.vote.cooldown)
    if e.at < after:
        raise RoomError("vote_cooldown", "A vote ended a moment ago; wait a little.")
    vote = Vote(
        target=target,
        by=starter,
        voters=e.voters,
        yes=frozenset({starter}),
        no=frozenset(),
        started=e.at,
        deadline=e.at + e.seconds,
        cooldown=e.cooldown,
        member=e.member,
        balance=e.balance,
    )
    return _decided(replace(room, vote=vote, vote_after=after), vote, e.at)


def _voted(room: RoomState, e: Voted) -> RoomState:
    vote = room.vote
    voter = team_seats.token_at(_seat(room, e.seat), e.member)
    if vote is None or not vote.running(e.at):
        raise RoomError("no_vote", "No vote is running.")
    if voter is None or voter not in vote.voters or voter in vote.yes | vote.no:
        raise RoomError("bad_message", "That ballot does not fit the vote.")
    yes, no = (vote.yes | {voter}, vote.no) if e.yes else (vote.yes, vote.no | {voter})
    vote = replace(vote, yes=yes, no=no)
    return _decided(replace(room, vote=vote), vote, e.at)


def _decided(room: RoomState, vote: Vote, at: float) -> RoomState:
    """The room once ``vote`` took a ballot: removed by a majority, ended once none is
    possible, else still voting."""
    outcome = vote.outcome()
    if outcome is None:
        return room
    ended = replace(room, vote=None, vote_after=at + vote.cooldown)
    if outcome == "failed":
        return ended
    found = team_seats.member_of(room, vote.target)
    if found is None:  # gone meanwhile (a Left clears the vote; kept for safety)
        return ended
    seat, member = found
    # A team seat's member goes alone (a vote from before that aimed at a team seat's
    # first person took the whole seat, and replays so).
    alone = member if vote.member is not None else None
    return replace(_removed(ended, seat, alone, balance=vote.balance), vote=None)
