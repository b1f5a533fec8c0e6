"""The web layer: HTTP pages and API, the WebSocket, limits; static client in ``static/``."""
