"""The shipped nginx config over HTTPS (deploy/nginx/reverie.conf, with a certificate the
test makes as certbot would give it): plain HTTP is sent to HTTPS, a game is played over
``wss://`` through it, the app sees the pages as https (the join address a table screen
shows), browsers are told to stay on HTTPS, and TLS 1.1 is refused."""

from __future__ import annotations

import socket
import ssl
import warnings
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.scale.cluster import Certificate, Nginx, TlsSite
from tests.web.harness import Client, create_room_over, join, play

pytestmark = pytest.mark.slow

HOST = "reverie.test"


@pytest.fixture
def site(tmp_path: Path) -> Iterator[TlsSite]:
    s = TlsSite(tmp_path, HOST)
    try:
        yield s
    finally:
        s.stop()


def test_plain_http_is_sent_to_https(site: TlsSite) -> None:
    for path in ("/", "/r/ABCDE?table", "/api/rooms"):
        r = httpx.get(f"{site.nginx.http_base}{path}", headers={"host": HOST})
        assert r.status_code == 301
        # (The test's nginx keeps its own port in the address; the shipped one none.)
        assert r.headers["location"] == f"https://{HOST}:{site.nginx.port}{path}"
        assert "strict-transport-security" not in r.headers  # meaningless over http
    # Followed, it lands on the page over HTTPS, which tells the browser to stay there.
    with httpx.Client(verify=site.tls) as http:
        r = http.get(f"{site.nginx.base}/", headers={"host": HOST})
    assert r.status_code == 200
    hsts = r.headers["strict-transport-security"]
    assert int(hsts.removeprefix("max-age=")) >= 365 * 86400
    assert r.http_version in ("HTTP/1.1", "HTTP/2")


def test_a_game_is_played_over_wss(site: TlsSite) -> None:
    base = site.nginx.base
    code, token = create_room_over(base, "dixit", 3, site.tls, {})
    host = Client(base, code, token, tls=site.tls)
    assert isinstance(host.ws.socket, ssl.SSLSocket)  # wss://, not ws://
    host.until(lambda f: f["type"] == "welcome")
    guest = join(base, code, "Ann", "#2a9d8f", tls=site.tls)
    assert host.request({"type": "add_bot"})["type"] == "ack"
    assert host.request({"type": "start"})["type"] == "ack"
    final = play([host, guest], seed=3)
    assert final["game"]["phase"] == "over"
    # The process behind nginx knows the page is https (X-Forwarded-Proto from the
    # proxy it trusts): a table screen offers phones the https:// address.
    r = httpx.get(f"{base}/api/rooms/{code}/join", headers={"host": HOST}, verify=site.tls)
    assert r.json()["url"] == f"https://{HOST}/r/{code}"
    for c in (host, guest):
        c.close()


def _handshake(port: int, context: ssl.SSLContext) -> str:
    """The protocol a handshake with 127.0.0.1:``port`` agreed on (raises if refused)."""
    with (
        socket.create_connection(("127.0.0.1", port), timeout=10) as raw,
        context.wrap_socket(raw, server_hostname=HOST) as tls,
    ):
        version = tls.version()
        assert version is not None
        return version


def _only(cert: Certificate, version: ssl.TLSVersion) -> ssl.SSLContext:
    """A client that speaks ``version`` only, with every cipher it has (old ones too)."""
    context = cert.context()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # TLS 1.1: on purpose
        context.minimum_version = version
        context.maximum_version = version
    context.set_ciphers("ALL:@SECLEVEL=0")
    return context


def test_tls_1_1_is_refused_and_1_2_and_1_3_are_spoken(site: TlsSite, tmp_path: Path) -> None:
    port = site.nginx.port
    assert _handshake(port, _only(site.cert, ssl.TLSVersion.TLSv1_3)) == "TLSv1.3"
    assert _handshake(port, _only(site.cert, ssl.TLSVersion.TLSv1_2)) == "TLSv1.2"
    with pytest.raises(ssl.SSLError):
        _handshake(port, _only(site.cert, ssl.TLSVersion.TLSv1_1))
    # A TLS 1.2 client offering only a cipher without forward secrecy is refused too.
    old = _only(site.cert, ssl.TLSVersion.TLSv1_2)
    old.set_ciphers("AES128-GCM-SHA256:@SECLEVEL=0")
    with pytest.raises(ssl.SSLError):
        _handshake(port, old)

    # The control: the same client and the same nginx, told to allow TLS 1.1, do speak
    # it, so the refusal above is the config's and not this machine's OpenSSL's.
    def allow_1_1(site_text: str) -> str:
        shipped = "    ssl_protocols TLSv1.2 TLSv1.3;\n"
        assert shipped in site_text
        return site_text.replace(shipped, "    ssl_protocols TLSv1.1 TLSv1.2 TLSv1.3;\n").replace(
            "    ssl_ciphers ", "    ssl_ciphers ALL:@SECLEVEL=0;\n    #"
        )

    folder = tmp_path / "control"
    folder.mkdir()
    lax = Nginx(folder, [site.process.port], tls=site.cert, edit=allow_1_1).start()
    try:
        assert _handshake(lax.port, _only(site.cert, ssl.TLSVersion.TLSv1_1)) == "TLSv1.1"
    finally:
        lax.stop()
