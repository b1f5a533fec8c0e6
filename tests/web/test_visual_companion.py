"""The Visual Game on paper over real sockets: the host's device is the table's (no
team), it chooses, says who guessed, lets the sand timer run out and moves after a
proverb; the word goes to its drawers' sockets only, never to the device, the other
phones or the table screen."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx

from reverie.rules.visual import CATEGORIES
from tests.web.harness import Client, ServerThread, create_room, game_is, join, room_history

NAMES = ["Ann", "Bob", "Cy", "Dee"]
COLORS = ["#f4a261", "#e9c46a", "#2a9d8f", "#457b9d"]


def strings(value: Any) -> Iterator[str]:
    """Every string value in a frame (keys aside)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def turn_is(number: int, phase: str) -> Any:
    """A predicate: a state frame of turn ``number`` in ``phase``."""
    return lambda f: game_is(phase=phase)(f) and f["game"]["turn"]["number"] == number


class Table:
    """A visual-companion room: the host's device, four phones in two teams, and a
    table screen (a spectator)."""

    def __init__(self, server: ServerThread, **options: object) -> None:
        self.server = server
        self.code, token = create_room(server.base, "visual-companion", 5, **options)
        self.device = Client(server.base, self.code, token)
        self.phones = [
            join(server.base, self.code, n, c) for n, c in zip(NAMES, COLORS, strict=True)
        ]
        self.screen = Client(server.base, self.code)
        for phone, team in zip(self.phones, [0, 0, 1, 1], strict=True):
            assert phone.request({"type": "team", "team": team})["type"] == "ack"

    @property
    def everyone(self) -> list[Client]:
        return [self.device, *self.phones, self.screen]

    def phone(self, seat: int) -> Client:
        return self.phones[seat - 1]

    def game(self) -> Any:
        """The room's game as its log has it (secrets included: the test's eyes only)."""
        return room_history(self.server.data_dir / "reverie.db", self.code)[-1].game

    def close(self) -> None:
        for c in self.everyone:
            c.close()


def test_the_host_device_stays_out_of_the_teams(server: ServerThread) -> None:
    t = Table(server)
    refused = t.device.request({"type": "team", "team": 0})
    assert refused["code"] == "bad_team"
    assert t.device.request({"type": "balance"})["type"] == "ack"
    room = t.device.until(lambda f: f["type"] == "state" and f["room"]["players"])["room"]
    teams = [p["team"] for p in room["players"]]
    assert teams[0] is None and sorted(teams[1:]) == [0, 0, 1, 1]
    assert room["capabilities"]["teams"]["host_aside"] is True
    t.close()


def test_a_turn_guessed_and_one_whose_sand_timer_runs_out(server: ServerThread) -> None:
    # No blanks: a blank under "objects" would make the first turn a proverb round, in
    # which the other team's drawer may say it guessed too.
    # Five seconds of sand: enough for the taps below on a loaded machine, short enough
    # to wait out in the second turn.
    t = Table(server, think_seconds=0, draw_seconds=5, blank_share=0.0)
    assert t.device.request({"type": "start"})["type"] == "ack"
    first = t.device.until(game_is(phase="choose"))
    g = first["game"]
    assert g["aside"] == [0] and g["you"]["role"] == "table"
    assert first["room"]["deadline"] is None  # the table chooses at its own pace
    team, drawer = g["turn"]["team"], g["turn"]["drawer"]
    token = g["squares"][3]  # objects: 3 squares, from 1 to 4

    # The device chooses for the drawer; the word reaches the drawer's phone only.
    assert t.device.request({"type": "choose", "category": "objects"})["type"] == "ack"
    drawing = t.phone(drawer).until(game_is(phase="draw"))
    word = drawing["game"]["subject"]
    assert word and drawing["room"]["deadline"] is not None  # the sand timer runs
    # A phone of the other team may not say it guessed; the device says it for the team.
    other = next(
        s for s in range(1, 5) if s != drawer and drawing["game"]["players"][s]["team"] != team
    )
    assert t.phone(other).request({"type": "guessed", "team": 1 - team})["code"] in {
        "not_drawer",
        "not_your_turn",
    }
    assert t.device.request({"type": "guessed", "team": team})["type"] == "ack"
    after = t.screen.until(turn_is(2, "choose"))["game"]
    assert after["teams"][team]["square"] == 4
    assert [k["id"] for k in after["teams"][team]["tokens"]] == ([token["id"]] if token else [])
    assert after["last_turn"]["solved_by"] == team and after["last_turn"]["subject"] is None
    mine = t.phone(drawer).until(turn_is(2, "choose"))["game"]
    assert mine["last_turn"]["subject"] == word  # only the drawer's phone keeps the word

    # The next team's sand timer runs out: its turn fails, no square moves.
    second = after["turn"]
    assert second["team"] == 1 - team
    assert t.device.request({"type": "choose", "category": "luck"})["type"] == "ack"
    word2 = t.phone(second["drawer"]).until(game_is(phase="draw"))["game"]["subject"]
    # Nobody taps: the room's deadline ends the drawing.
    third = t.screen.until(turn_is(3, "choose"), timeout=20)
    assert third["game"]["last_turn"]["solved_by"] is None
    assert third["game"]["teams"][1 - team]["square"] == 1

    # The words went to their drawers' sockets and nowhere else.
    for seat, client in enumerate(t.everyone):
        seen: set[str] = set()
        for f in client.frames:
            seen.update(strings(f))
        if seat == drawer:
            assert word in seen
        if seat == second["drawer"]:
            assert word2 in seen
        if seat != drawer:
            assert word not in seen, seat
        if seat != second["drawer"]:
            assert word2 not in seen, seat
    t.close()


def test_a_proverb_round_moved_from_the_device(server: ServerThread) -> None:
    t = Table(server, think_seconds=0, draw_seconds=60, blank_share=1.0)
    assert t.device.request({"type": "start"})["type"] == "ack"
    g = t.device.until(game_is(phase="choose"))["game"]
    # Which sector of the next card is blank is a secret: the test reads the log.
    state = t.game()
    blank = state.cards[state.deck[0]].blank
    assert t.device.request({"type": "choose", "category": CATEGORIES[blank]})["type"] == "ack"
    drawers = t.device.until(game_is(phase="draw"))["game"]["turn"]["drawers"]
    assert len(drawers) == 2
    proverbs = {t.phone(s).until(game_is(phase="draw"))["game"]["subject"] for s in drawers}
    assert len(proverbs) == 1 and None not in proverbs
    # The team whose turn it is not guesses first; the device moves it 5 forward.
    guesser = 1 - g["turn"]["team"]
    assert t.device.request({"type": "guessed", "team": guesser})["type"] == "ack"
    moving = t.device.until(game_is(phase="move"))
    assert moving["room"]["deadline"] is None  # the table decides at its own pace
    reply = t.device.request({"type": "move", "steps": 5, "direction": "forward"})
    assert reply["type"] == "ack"
    done = t.screen.until(lambda f: turn_is(1, "bonus")(f) or turn_is(2, "choose")(f))["game"]
    assert done["teams"][guesser]["square"] == 6
    if done["phase"] == "bonus":
        assert t.device.request({"type": "keep"})["type"] == "ack"
        done = t.screen.until(turn_is(2, "choose"))["game"]
    assert done["turn"]["team"] == guesser  # the team that guessed plays next
    (proverb,) = proverbs
    for seat, client in enumerate(t.everyone):
        if seat not in drawers:
            assert not any(proverb in s for f in client.frames for s in strings(f)), seat
    t.close()


def test_the_variant_is_listed_as_a_companion_with_a_table_screen(server: ServerThread) -> None:
    variants = httpx.get(f"{server.base}/api/variants").json()["variants"]
    (v,) = [x for x in variants if x["name"] == "visual-companion"]
    caps = v["capabilities"]
    assert caps["client"] == "visual-companion" and caps["companion_of"] == "visual"
    assert caps["table_screen"] and caps["canvas"] is None and not caps["bots"]
    assert v["min_players"] == 5
    assert "choose_seconds" not in caps["options"] and "draw_seconds" in caps["options"]
