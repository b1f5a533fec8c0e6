"""A minimal WebSocket client for the load generators: they share the cores with the
servers they measure, so each frame must cost them as little as possible."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import struct
import time
from collections.abc import Callable
from typing import Any, cast


class RawSocket(asyncio.Protocol):
    """A minimal WebSocket client: masked text frames out, unmasked frames in.

    ``on_text(payload, at)`` gets every text frame with the time its chunk arrived;
    pings are answered. Enough for a benchmark, not for anything else.
    """

    def __init__(self, on_text: Callable[[bytes, float], None]) -> None:
        self.on_text = on_text
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.upgraded = asyncio.get_running_loop().create_future()
        self.sent_bytes = 0
        self.received_bytes = 0

    @classmethod
    async def open(
        cls, host: str, port: int, path: str, on_text: Callable[[bytes, float], None]
    ) -> RawSocket:
        loop = asyncio.get_running_loop()
        _, proto = await loop.create_connection(lambda: cls(on_text), host, port)
        key = base64.b64encode(os.urandom(16)).decode()
        assert proto.transport is not None
        proto.transport.write(
            (
                f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        await proto.upgraded
        return proto

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports are not asyncio.Transport subclasses, but behave as one.
        self.transport = cast(asyncio.Transport, transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.upgraded.done():
            self.upgraded.set_exception(ConnectionError("closed during the handshake"))

    def _frame(self, opcode: int, payload: bytes) -> bytes:
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 65536:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        key = (mask * (n // 4 + 1))[:n]  # XOR with the repeated mask, as one big integer
        masked = int.from_bytes(payload, "little") ^ int.from_bytes(key, "little")
        return head + mask + masked.to_bytes(n, "little")

    def send(self, frame: dict[str, Any]) -> None:
        payload = json.dumps(frame, separators=(",", ":")).encode()
        data = self._frame(0x1, payload)
        self.sent_bytes += len(payload)
        assert self.transport is not None
        self.transport.write(data)

    def data_received(self, data: bytes) -> None:
        at = time.perf_counter()
        self.buffer += data
        buf = self.buffer
        if not self.upgraded.done():
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            status = bytes(buf[:end]).split(b"\r\n", 1)[0]
            del buf[: end + 4]
            if b" 101 " not in status:
                self.upgraded.set_exception(ConnectionError(status.decode()))
                return
            self.upgraded.set_result(None)
        pos = 0
        while len(buf) - pos >= 2:
            opcode = buf[pos] & 0x0F
            n = buf[pos + 1] & 0x7F
            head = 2
            if n == 126:
                if len(buf) - pos < 4:
                    break
                n = struct.unpack_from("!H", buf, pos + 2)[0]
                head = 4
            elif n == 127:
                if len(buf) - pos < 10:
                    break
                n = struct.unpack_from("!Q", buf, pos + 2)[0]
                head = 10
            if len(buf) - pos < head + n:
                break
            payload = bytes(buf[pos + head : pos + head + n])
            pos += head + n
            self.received_bytes += n
            if opcode == 0x1:
                self.on_text(payload, at)
            elif opcode == 0x9 and self.transport is not None:  # ping → pong
                self.transport.write(self._frame(0xA, payload))
        del buf[:pos]

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()
