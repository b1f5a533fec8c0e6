"""The typed messages between processes: each kind survives encoding and the trip as
JSON (the bus's wire), and what cannot be read is refused with a clear error."""

from __future__ import annotations

import typing
from typing import Any

import msgspec
import pytest

from reverie.rooms import messages
from reverie.rooms.messages import (
    BadMessage,
    Event,
    Gone,
    Head,
    Message,
    PresenceGone,
    PresenceSaid,
    Resync,
    Side,
    Who,
    decode_message,
    encode_message,
)

EXAMPLES: list[Message] = [
    Event(v=7, at=12.5, e='{"type":"chatted","text":"hi"}'),
    Head(v=3),
    PresenceSaid(tokens={"t1": 2, "t2": 0}, spectators=4),
    PresenceSaid(),
    PresenceGone(pid="P2"),
    Who(),
    Side(log="canvas:(1, 2)", ch="canvas", x='{"seat":0}', n=5),
    Resync(),
    Gone(pid="P3"),
]


def test_the_examples_cover_every_kind() -> None:
    assert {type(m) for m in EXAMPLES} == set(typing.get_args(Message))


@pytest.mark.parametrize("message", EXAMPLES, ids=lambda m: type(m).__name__)
def test_every_message_round_trips_through_json(message: Message) -> None:
    data = encode_message(message)
    assert data["k"] == message.__struct_config__.tag
    wire = msgspec.json.decode(msgspec.json.encode(data))
    assert decode_message(wire) == message


def test_the_bus_adds_the_sender_and_a_shares_position() -> None:
    data = {**encode_message(Side(log="l", ch="canvas", x="e")), "pid": "A", "n": 9}
    assert decode_message(data) == Side(log="l", ch="canvas", x="e", n=9, pid="A")
    # What the bus adds is not sent by the service (the bus sets it).
    assert "pid" not in encode_message(Head(v=1)) and "n" not in encode_message(
        Side(log="l", ch="c", x="e")
    )


def test_fields_a_newer_process_adds_are_ignored() -> None:
    assert decode_message({"k": "head", "v": 2, "later": True}) == Head(v=2)


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"k": "ev", "v": "seven", "at": 1.0, "e": "{}"}, "Expected `int`, got `str` - at `$.v`"),
        ({"k": "ev", "v": 7, "at": 1.0}, "missing required field `e`"),
        ({"k": "teleport"}, "Invalid value 'teleport' - at `$.k`"),
        ({"v": 3}, "Object missing required field `k`"),
        ({"k": "presence", "tokens": {"t": "many"}}, "Expected `int`, got `str`"),
    ],
)
def test_a_message_that_cannot_be_read_says_why(data: dict[str, Any], said: str) -> None:
    with pytest.raises(BadMessage) as caught:
        decode_message(data)
    text = str(caught.value)
    assert text.startswith(f"message {data.get('k')!r} from another process not understood")
    assert said in text
    assert isinstance(caught.value, ValueError)


def test_the_module_lists_every_kind() -> None:
    assert {t.__name__ for t in typing.get_args(Message)} <= set(messages.__all__)
