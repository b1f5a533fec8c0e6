"""A room loaded in a server process: its state and runtime parts (presence, timers,
bots, side channels, messages from other processes)."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from reverie.rooms.members import tokens
from reverie.rooms.messages import Message
from reverie.rooms.state import RoomState


@dataclass
class Presence:
    """Open sockets of a room in one process: per seat token, and spectators."""

    tokens: dict[str, int] = field(default_factory=dict)
    spectators: int = 0


@dataclass
class PresenceBatch:
    """The presence changes of a room in one turn of the event loop (sockets opening or
    closing, news from other processes), followed up once for all of them: a process
    shutting down closes hundreds of sockets at once, and each one's own fresh views
    and broadcasts would be wasted work for everyone but the last."""

    #: Whether the game was paused, and who was present, before the first change.
    was_paused: bool
    before: set[str]
    #: Set once the follow-up is done (every change's caller waits for it).
    done: asyncio.Future[None]
    #: Whether the other processes must hear of the change (a socket here moved).
    tell_others: bool = False
    changes: int = 0
    task: asyncio.Task[None] | None = None


@dataclass
class LiveRoom:
    """A room loaded in this process, with its runtime parts (connections, timers, bots)."""

    state: RoomState
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: dict[str, int] = field(default_factory=dict)  # token hash → open sockets
    # The sockets other server processes hold, by process id (what they last said).
    remote: dict[str, Presence] = field(default_factory=dict)
    # When each seat token's last connection closed, in any process (a token never seen
    # since the room was loaded counts from ``loaded_at``).
    gone_since: dict[str, float] = field(default_factory=dict)
    loaded_at: float = 0.0
    spectators: int = 0
    # Whether this process holds the room's lease, and so runs its timers, bots and
    # stand-ins (always, with one process).
    leased: bool = False
    # Whether a damaged event was met in its log (the room is closed: see
    # History.quarantine).
    damaged: bool = False
    deadline: float | None = None
    deadline_key: tuple[int, int, str, str] | None = None
    timer: asyncio.TimerHandle | None = None
    # When the current game phase began, from the log's event times: a phase's deadline
    # is this plus its timer, so a restart or another process keeps the same deadline.
    phase_started: float = 0.0
    # Failed writes of a timeout or a bot's move in a row (for the retry's backoff).
    failures: int = 0
    snapshot_version: int = 0  # the version of the room's latest snapshot
    # The next look at who has been gone long enough for a stand-in.
    absence_timer: asyncio.TimerHandle | None = None
    bot_tasks: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    # Frames of the current version and presence, built once for every seat watching.
    presence: int = 0
    frame_key: tuple[int, int] = (-1, -1)
    frames: dict[int | None, bytes] = field(default_factory=dict)
    last_active: float = 0.0
    # The game's side channels (the drawing game's canvas), by channel name: memory
    # only, each with the key (say, the turn) its state belongs to, and how many entries
    # of the channel's shared log it holds (several processes).
    channel_keys: dict[str, Hashable] = field(default_factory=dict)
    channel_states: dict[str, Any] = field(default_factory=dict)
    channel_counts: dict[str, int] = field(default_factory=dict)
    # Each channel's shared-log name, with the key it was made for.
    channel_logs: dict[str, tuple[Hashable, str]] = field(default_factory=dict)
    # Messages from other processes, handled in order by one task at a time.
    inbox: deque[Message] = field(default_factory=deque)
    inbox_task: asyncio.Task[None] | None = None
    # A message about this room could not be sent to the other processes.
    unsent: bool = False
    # Presence changes not followed up yet (see Attendance.update).
    presence_batch: PresenceBatch | None = None

    def sockets(self, token_hash: str) -> int:
        """Open sockets of a seat token in every process."""
        n = self.connections.get(token_hash, 0)
        for presence in self.remote.values():
            n += presence.tokens.get(token_hash, 0)
        return n

    @property
    def all_spectators(self) -> int:
        """Spectators watching in every process."""
        return self.spectators + sum(p.spectators for p in self.remote.values())

    @property
    def connected(self) -> set[int]:
        """Seats with at least one open connection (in any process); a team seat's of
        any of its members."""
        return {
            s
            for s, p in enumerate(self.state.players)
            if any(self.sockets(t) > 0 for t in tokens(p))
        }

    def present_tokens(self) -> set[str]:
        """Seat tokens with an open socket somewhere."""
        tokens = {t for t, n in self.connections.items() if n > 0}
        for presence in self.remote.values():
            tokens.update(t for t, n in presence.tokens.items() if n > 0)
        return tokens
