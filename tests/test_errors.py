"""The three refusal types share one base with a code for programs and a message for people."""

from __future__ import annotations

import subprocess
import sys

import pytest

from reverie.errors import ReverieError, RoomError
from reverie.rules.association import new_game
from reverie.rules.errors import IllegalAction, SetupError


@pytest.mark.parametrize(
    ("err", "code", "message"),
    [
        (
            IllegalAction("wrong_phase", "Voting has not started yet."),
            "wrong_phase",
            "Voting has not started yet.",
        ),
        (RoomError("unknown_room", "No such room."), "unknown_room", "No such room."),
        (SetupError("Too few players."), "bad_setup", "Too few players."),
        (SetupError("Too few players.", code="few_players"), "few_players", "Too few players."),
    ],
)
def test_every_error_is_a_reverie_error(err: ReverieError, code: str, message: str) -> None:
    assert isinstance(err, ReverieError)
    assert isinstance(err, ValueError)  # callers that catch ValueError keep working
    assert (err.code, err.message, str(err)) == (code, message, message)


def test_one_except_catches_a_setup_error_from_the_rules() -> None:
    with pytest.raises(ReverieError) as info:
        new_game("dixit", ["a", "b"], 1, card_count=84)
    assert isinstance(info.value, SetupError)
    assert info.value.code == "bad_setup"
    assert "3 to 6 players" in info.value.message


def test_the_rules_do_not_import_the_rooms() -> None:
    # A fresh interpreter: this test session has imported the rooms already.
    probe = (
        "import sys, reverie.rules.association, reverie.rules.visual, reverie.rules.errors; "
        "print(sorted(m for m in sys.modules if m.startswith('reverie.rooms')))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
