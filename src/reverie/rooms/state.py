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
from reverie.games import AnyFamily, family_of
from reverie.rooms import bot_levels, lobby, removal, takeover, team_moves
from reverie.rooms import members as team_seats
from reverie.rooms import teams as team_rules
from reverie.rooms.bot_levels import check_level
from reverie.rooms.events import (
    DEFAULT_AWAY,
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
from reverie.rooms.fold_checks import family_checked, in_lobby, player_at
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


def check_color(room: RoomState | None, color: str, *, seat: int | None = None) -> str:
    """A piece colour from the palette that nobody else at the table uses."""
    if color not in PALETTE:
        raise RoomError("bad_color", "Choose one of the piece colours offered.")
    if room is not None and any(p.color == color for s, p in enumerate(room.players) if s != seat):
        raise RoomError("color_taken", "Someone already plays that colour.")
    return color


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
    family = family_checked(e.variant)
    lobby.check_seats(e.variant, e.seats, 1)
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
        away_seconds=lobby.check_away(e.away_seconds),
        time_factor=lobby.check_factor(e.time_factor),
        text_filter=check_filter_level(e.text_filter),
        public=e.public,
        starts_at=e.starts_at,
    )
    lobby.check_public_filter(room)
    family.check_setup(room, room.seats)  # fail early, in the lobby
    return room


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
        player = player_at(room, e.seat)
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
        in_lobby(room)
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
        gone = team_seats.token_at(player_at(room, e.seat), e.member)
        left = team_seats.leave_seat(room, e.seat, e.member)
        vote = room.vote
        if vote is not None and vote.member is not None and vote.target == gone:
            # A vote about this member has nothing left to decide (one from before
            # votes named members, about a seat's first person, replays as played).
            left = replace(left, vote=None)
        return team_seats.balanced(left) if e.balance and room.status == "lobby" else left
    if isinstance(e, Left):
        return lobby.left(room, e)
    if isinstance(e, Reordered):
        return lobby.reordered(room, e)
    if isinstance(e, HostChanged):
        if player_at(room, e.seat).bot:
            raise RoomError("bad_message", "A bot cannot be the host.")
        home = None
        if e.takeover:  # the first host taken from keeps the claim
            home = room.home_host or room.players[room.host].token_hash
        return replace(room, host=e.seat, home_host=home)
    if isinstance(e, OptionsSet):
        return lobby.options_set(room, e)
    if isinstance(e, Listed):
        if room.status == "over":
            raise RoomError("wrong_phase", "The game is over: start a rematch first.")
        # Listing a table whose filter is off turns it on: the host chose strangers.
        words: Level = "mild" if e.public and room.text_filter == "off" else room.text_filter
        return replace(room, public=e.public, text_filter=words)
    if isinstance(e, TeamChosen):
        return lobby.team_chosen(room, e)
    if isinstance(e, TeamsSet):
        return lobby.teams_set(room, e)
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
        return bot_levels.bot_seat(room, e)
    if isinstance(e, BotLevelSet):
        return bot_levels.bot_level_set(room, e)
    if isinstance(e, TokenRotated):
        return team_seats.rotated(room, e)
    if isinstance(e, Proposed):
        return team_moves.apply_proposed(room, e)
    if isinstance(e, Dealt):
        in_lobby(room)
        return team_seats.deal(room, e.groups)
    if isinstance(e, Removed):
        return removal.removed(room, e)
    if isinstance(e, VoteStarted):
        return removal.vote_started(room, e)
    if isinstance(e, Voted):
        return removal.voted(room, e)
    if isinstance(e, VoteEnded):
        return removal.vote_ended(room, e)
    raise RoomError("bad_message", "Unknown event.")
