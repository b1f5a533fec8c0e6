"""JSON nested thousands of levels deep gets a clear refusal, never a traceback or a
dropped socket."""

from __future__ import annotations

import json

import httpx

from .harness import Client, ServerThread, create_room


def nested(levels: int) -> str:
    return "[" * levels + "]" * levels


def test_deep_json_over_http_is_a_bad_request(server: ServerThread) -> None:
    body = (
        '{"name": "Ann", "color": "#e63946", "variant": "dixit", "seats": 4, '
        f'"options": {{"x": {nested(3000)}}}}}'
    )
    r = httpx.post(f"{server.base}/api/rooms", content=body.encode())
    assert r.status_code == 400
    error = r.json()["error"]
    assert error["code"] == "bad_request" and "nested deeper than 32" in error["message"]
    # Shallow nesting is fine (it is only refused as an option the game does not know).
    shallow = body.replace(nested(3000), nested(5))
    assert httpx.post(f"{server.base}/api/rooms", content=shallow.encode()).status_code == 400
    assert httpx.get(f"{server.base}/healthz").status_code == 200


def test_deep_json_over_the_socket_is_a_bad_message_and_the_socket_stays(
    server: ServerThread,
) -> None:
    code, token = create_room(server.base, "dixit", 3)
    host = Client(server.base, code, token)
    host.until(lambda f: f["type"] == "state")
    host.send_raw(json.dumps({"type": "options", "seats": 3, "options": {}})[:-1] + ', "x": '
                  + nested(1900) + "}")  # fmt: skip
    error = host.until(lambda f: f["type"] == "error")
    assert error["code"] == "bad_message" and "nested deeper than 32" in error["message"]
    assert host.request({"type": "chat", "text": "still here"})["type"] == "ack"


def test_a_deep_hello_is_refused_with_an_error_frame(server: ServerThread) -> None:
    from websockets.sync.client import connect

    code, _ = create_room(server.base, "dixit", 3)
    with connect(server.base.replace("http", "ws") + f"/ws/{code}") as ws:
        ws.send('{"type": "hello", "token": ' + nested(1900) + "}")
        assert json.loads(ws.recv(timeout=10))["code"] == "bad_message"
