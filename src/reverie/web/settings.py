"""Server configuration, from the command line or ``REVERIE_*`` environment variables."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

_TRUE = ("1", "true", "yes", "on")


@dataclass(frozen=True)
class Settings:
    """Everything the server can be told.

    ``database_url``: ``sqlite:///data/reverie.db`` by default (a file under
    ``data_dir``). ``bus_url``: ``memory://``. ``bot_delay``: seconds a bot "thinks"
    (0 in tests). ``max_frame``: the largest WebSocket frame a client may send, bytes.
    ``rooms_per_minute``: how many rooms one client address may open a minute (bursts
    of as many pass); 0 lifts the limit (load tests). ``away_grace``: seconds a player
    must be gone before a bot may take their seat, or someone else the host role.
    ``log_level``: one of :data:`reverie.logs.LEVELS`. ``access_log``: a line per HTTP
    request and WebSocket.
    """

    data_dir: Path = Path("data")
    database_url: str | None = None
    bus_url: str = "memory://"
    bot_delay: float = 1.0
    max_frame: int = 4096
    default_deck: str = "default"
    rooms_per_minute: float = 10.0
    away_grace: float = 60.0
    log_level: str = "info"
    access_log: bool = False

    @property
    def store_url(self) -> str:
        """The event-store URL, defaulting to a SQLite file in the data folder."""
        if self.database_url:
            return self.database_url
        return f"sqlite:///{self.data_dir / 'reverie.db'}"

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        """Settings from ``REVERIE_DATA_DIR``, ``REVERIE_DATABASE_URL``,
        ``REVERIE_BUS_URL``, ``REVERIE_BOT_DELAY``, ``REVERIE_ROOMS_PER_MINUTE``,
        ``REVERIE_AWAY_GRACE``, ``REVERIE_LOG_LEVEL`` and ``REVERIE_ACCESS_LOG``
        (1/true/yes/on);
        explicit overrides win."""
        env = os.environ
        values: dict[str, object] = {}
        if "REVERIE_DATA_DIR" in env:
            values["data_dir"] = Path(env["REVERIE_DATA_DIR"])
        if "REVERIE_DATABASE_URL" in env:
            values["database_url"] = env["REVERIE_DATABASE_URL"]
        if "REVERIE_BUS_URL" in env:
            values["bus_url"] = env["REVERIE_BUS_URL"]
        if "REVERIE_BOT_DELAY" in env:
            values["bot_delay"] = float(env["REVERIE_BOT_DELAY"])
        if "REVERIE_ROOMS_PER_MINUTE" in env:
            values["rooms_per_minute"] = float(env["REVERIE_ROOMS_PER_MINUTE"])
        if "REVERIE_AWAY_GRACE" in env:
            values["away_grace"] = float(env["REVERIE_AWAY_GRACE"])
        if "REVERIE_LOG_LEVEL" in env:
            values["log_level"] = env["REVERIE_LOG_LEVEL"]
        if "REVERIE_ACCESS_LOG" in env:
            values["access_log"] = env["REVERIE_ACCESS_LOG"].strip().lower() in _TRUE
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)  # type: ignore[arg-type]
