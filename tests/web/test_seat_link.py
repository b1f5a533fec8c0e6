"""A seat link can be replaced: the old one stops opening the seat."""

from __future__ import annotations

import pytest
from websockets.exceptions import ConnectionClosed

from .harness import Client, ServerThread, create_room, join


def test_a_new_link_retires_the_old_one(server: ServerThread) -> None:
    code, token = create_room(server.base, "dixit", 4)
    host = Client(server.base, code, token)
    ann = join(server.base, code, "Ann", "#2a9d8f")
    old = ann.token
    phone = Client(server.base, code, old)  # the same seat on a second device
    phone.until(lambda f: f["type"] == "welcome")
    assert ann.request({"type": "new_link"})["type"] == "ack"
    welcome = next(f for f in reversed(ann.frames) if f["type"] == "welcome")
    assert welcome["seat"] == 1 and welcome["token"] != old and ann.token == welcome["token"]
    # The other device is told, then closed: it does not quietly watch as a spectator.
    error = phone.until(lambda f: f["type"] == "error")
    assert error["code"] == "link_replaced"
    with pytest.raises(ConnectionClosed) as closed:
        phone.until(lambda f: False, timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4001
    # The old link opens no seat; the new one opens Ann's.
    stale = Client(server.base, code, old)
    state = stale.until(lambda f: f["type"] == "state")
    assert state["room"]["you"] is None and stale.seat is None
    fresh = Client(server.base, code, ann.token)
    assert fresh.until(lambda f: f["type"] == "welcome")["seat"] == 1
    # Watchers have no link to replace.
    assert stale.request({"type": "new_link"})["code"] == "not_seated"
    for c in (host, ann, stale, fresh):
        c.close()
