"""How uvicorn serves the app: the options the CLI and the tests share."""

from __future__ import annotations

from typing import Any

import uvicorn

from reverie.web.settings import Settings


def uvicorn_config(app: Any, settings: Settings, **options: Any) -> uvicorn.Config:
    """The uvicorn configuration Reverie runs with (the CLI and the tests share it);
    ``options`` adds or overrides (host, port, log level)."""
    proxied = settings.forwarded_allow_ips is not None
    base: dict[str, Any] = {
        "ws_max_size": 64 * 1024,
        # Frames are a few KiB; compressing them costs more CPU and memory per socket
        # (zlib state) than the bandwidth is worth.
        "ws_per_message_deflate": False,
        # Only a trusted proxy's X-Forwarded-For names the client: anyone else could
        # claim any address and dodge every per-address limit.
        "proxy_headers": proxied,
        "forwarded_allow_ips": settings.forwarded_allow_ips if proxied else None,
    }
    return uvicorn.Config(app, **{**base, **options})
