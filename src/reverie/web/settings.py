"""Server configuration, from the command line or ``REVERIE_*`` environment variables."""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path

from reverie.content.decks import DEFAULT_DECK

_TRUE = ("1", "true", "yes", "on")


@dataclass(frozen=True)
class Settings:
    """Everything the server can be told (docs/security.md lists every limit).

    ``database_url``: ``sqlite:///data/reverie.db`` by default (a file under
    ``data_dir``). ``bus_url``: ``memory://``. ``bot_delay``: seconds a bot "thinks"
    (0 in tests). ``max_frame``: the largest WebSocket frame a client may send, bytes.
    ``rooms_per_minute``: how many rooms one client address may open a minute (bursts
    of as many pass); 0 lifts the limit (load tests). ``away_grace``: seconds a player
    must be gone before a bot may take their seat, or someone else the host role.
    ``log_level``: one of :data:`reverie.logs.LEVELS`. ``access_log``: a line per HTTP
    request and WebSocket.

    Abuse limits: ``max_sockets_per_seat`` open WebSockets per seat token;
    ``max_connections_per_address`` open WebSockets and HTTP requests in progress per
    client address (refused with 429 / close code 1008 past it);
    ``max_http_connections_per_address`` open HTTP connections per address before the
    application sees them (idle keep-alive, half-sent requests; only when clients
    connect directly, not through a trusted proxy); ``request_timeout`` seconds to send
    a whole request, headers and body; ``keep_alive_timeout`` seconds an idle HTTP
    connection stays open; ``hello_timeout`` seconds a new WebSocket has to say hello;
    ``ws_ping_interval``/``ws_ping_timeout`` how often a WebSocket is pinged and how long
    its answer may take; ``room_misses_per_minute`` lookups of unknown room codes per
    address a minute (bursts of as many), after which lookups answer 429;
    ``address_factor`` how many seats' allowance one address gets in all (several
    players behind one home router); ``forwarded_allow_ips``: the reverse proxy's
    address(es) whose ``X-Forwarded-For`` is trusted for the client address (None: no
    proxy, the peer's address counts). A cap, rate or factor of 0 lifts that limit
    (load tests from one address).

    Several processes: ``bus_url`` ``redis://host:6379/0`` keeps them in step (and
    shares the rate limits); ``lease_seconds`` how long a room's lease lasts without
    renewal (a dead process's rooms move on within about that long). ``log_format``:
    ``text`` or ``json`` (one object a line, with process id and room code).
    ``gc_settle_seconds``: how often long-lived objects are frozen out of the garbage
    collector's full passes (0: CPython's defaults; see :mod:`reverie.web.gcpolicy`).
    Players' own decks and words (docs/decks.md): ``deck_max_cards`` pictures and
    ``deck_max_mb`` megabytes of uploads per deck; ``upload_max_file_mb`` per uploaded
    file (a picture or a ZIP, one request); ``upload_max_pixels`` per picture (before
    it is decoded: decompression bombs); ``upload_timeout`` seconds to send one upload
    (instead of ``request_timeout``); decoding is budgeted in millions of pixels
    decoded (read from the headers before decoding): ``upload_megapixels`` per upload,
    ``deck_megapixels`` per deck (pictures taken out again still count) and
    ``upload_megapixels_per_hour`` per address (shared by every process, and kept when
    a deck is deleted); ``upload_decoders`` worker processes decode, each within
    ``upload_decoder_memory_mb`` of address space, and at most ``upload_decoder_queue``
    uploads wait for one (more are refused as busy); ``uploads_mb_per_minute`` megabytes one address
    may upload a minute (bursts of twice as many); ``decks_per_hour`` new decks and
    ``word_lists_per_hour`` new word lists per address (bursts of as many);
    ``deck_draft_hours`` how long an unfinished deck is kept; ``deck_purge_hours`` how
    long the rooms that played a deleted deck must have been quiet before its pictures
    are erased.

    Retention (docs/privacy.md): ``keep_finished_days`` how long a finished room is kept
    after its last move, ``keep_abandoned_days`` a room whose game never finished,
    ``keep_word_lists_days`` a table's own word list after a room last named it (once
    no room in the store names it); 0 keeps them for ever.

    Keeping strangers civil (docs/moderation.md): ``id_salt`` the secret under which
    browsers and addresses are hashed for bans (None: a file ``id_salt`` in the data
    folder, made once; several processes must share it); ``joins_per_minute`` seats one
    address may take a minute (shared by every process); ``votes_per_minute`` votes
    and ballots per seat a minute; ``vote_seconds`` how long a vote to remove someone
    runs; ``vote_cooldown`` seconds after one ends before the next may start.
    Moderation (docs/moderation.md): ``moderation_keep_days`` how long a closed report
    keeps what the reported person wrote (and how long the originals of masked lines
    are kept for reports); ``reports_per_hour`` reports one person may send an hour;
    ``public_tables_per_hour`` public tables one person may open an hour (both shared
    by every process; 0 lifts them); ``close_poll_seconds`` how often a process looks
    for rooms the operator closed.

    Open tables (docs/protocol.md, /play): ``open_empty_seconds`` how long a public
    table stays listed after its last person left; ``play_start_seconds`` how soon a
    table that play now opened starts by itself, bots in its empty seats;
    ``plays_per_minute`` taps of play now per address a minute (shared by every process).
    """

    data_dir: Path = Path("data")
    database_url: str | None = None
    bus_url: str = "memory://"
    bot_delay: float = 1.0
    max_frame: int = 4096
    default_deck: str = DEFAULT_DECK
    rooms_per_minute: float = 10.0
    away_grace: float = 60.0
    log_level: str = "info"
    access_log: bool = False
    max_sockets_per_seat: int = 4
    max_connections_per_address: int = 32
    max_http_connections_per_address: int = 64
    request_timeout: float = 10.0
    keep_alive_timeout: int = 5
    hello_timeout: float = 15.0
    ws_ping_interval: float = 20.0
    ws_ping_timeout: float = 20.0
    room_misses_per_minute: float = 20.0
    address_factor: float = 8.0
    forwarded_allow_ips: str | None = None
    lease_seconds: float = 8.0
    log_format: str = "text"
    gc_settle_seconds: float = 2.0
    deck_max_cards: int = 200
    deck_max_mb: float = 100.0
    upload_max_file_mb: float = 25.0
    upload_max_pixels: int = 40_000_000
    upload_timeout: float = 120.0
    upload_megapixels: float = 100.0
    deck_megapixels: float = 1200.0
    upload_megapixels_per_hour: float = 2400.0
    upload_decoders: int = 2
    upload_decoder_queue: int = 8
    upload_decoder_memory_mb: int = 1024
    uploads_mb_per_minute: float = 100.0
    decks_per_hour: float = 20.0
    word_lists_per_hour: float = 30.0
    deck_draft_hours: float = 24.0
    deck_purge_hours: float = 24.0
    keep_finished_days: float = 30.0
    keep_abandoned_days: float = 7.0
    keep_word_lists_days: float = 7.0
    id_salt: str | None = None
    joins_per_minute: float = 20.0
    votes_per_minute: float = 6.0
    vote_seconds: float = 60.0
    vote_cooldown: float = 120.0
    moderation_keep_days: float = 7.0
    reports_per_hour: float = 10.0
    public_tables_per_hour: float = 6.0
    close_poll_seconds: float = 5.0
    open_empty_seconds: float = 30.0
    play_start_seconds: float = 5.0
    plays_per_minute: float = 10.0

    @property
    def store_url(self) -> str:
        """The event-store URL, defaulting to a SQLite file in the data folder."""
        if self.database_url:
            return self.database_url
        return f"sqlite:///{self.data_dir / 'reverie.db'}"

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        """Settings from ``REVERIE_<FIELD>`` environment variables (``REVERIE_DATA_DIR``,
        ``REVERIE_DATABASE_URL``, ``REVERIE_ROOMS_PER_MINUTE``,
        ``REVERIE_MAX_SOCKETS_PER_SEAT``, ... one per field, upper case); explicit
        overrides win. A value that is not a number where one is needed stops the
        start with a clear ``ValueError``."""
        env = os.environ
        values: dict[str, object] = {}
        for f in dataclasses.fields(cls):
            name = f"REVERIE_{f.name.upper()}"
            if name not in env:
                continue
            raw = env[name]
            default = f.default
            try:
                if isinstance(default, Path):
                    values[f.name] = Path(raw)
                elif isinstance(default, bool):
                    values[f.name] = raw.strip().lower() in _TRUE
                elif isinstance(default, int):
                    values[f.name] = int(raw)
                elif isinstance(default, float):
                    values[f.name] = float(raw)
                else:
                    values[f.name] = raw
            except ValueError:
                raise ValueError(f"{name}={raw!r} is not a number") from None
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)  # type: ignore[arg-type]
