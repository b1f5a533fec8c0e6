"""The canvas keeps exactly the picture a client builds from every operation sent.

A client (static/js/canvas.js) keeps a list of strokes and fills: ``[0 …]`` starts a
stroke, ``[1 …]`` extends the open one, ``[4 …]`` adds a fill, ``[2]`` removes the last
item, ``[3]`` empties the list. The server keeps compacted operations for late joiners;
replaying them must give the same items as the live stream did, for any sequence the
server accepts, and a refused frame must leave the canvas as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reverie.errors import RoomError
from reverie.games.visual.canvas import (
    CANVAS,
    FILL_COST,
    MAX_CANVAS_FILLS,
    MAX_CANVAS_OPS,
    Canvas,
    DrawCmd,
    check_ops,
)


@dataclass
class Item:
    """A stroke (``kind`` "stroke", ``style`` colour and size) or a fill, as a client keeps it."""

    kind: str
    style: tuple[int, ...]
    points: list[int] = field(default_factory=list)


def client_items(ops: Sequence[Sequence[int]]) -> list[Item]:
    """What a client shows after these operations (a model of canvas.js)."""
    items: list[Item] = []
    open_stroke: Item | None = None
    for op in ops:
        kind = op[0]
        if kind == 0:
            open_stroke = Item("stroke", tuple(op[1:3]), list(op[3:]))
            items.append(open_stroke)
        elif kind == 1 and open_stroke is not None:
            open_stroke.points += op[1:]
        elif kind == 2:
            if items:
                items.pop()
            open_stroke = None
        elif kind == 3:
            items, open_stroke = [], None
        elif kind == 4:
            items.append(Item("fill", (op[1],), list(op[2:])))
            open_stroke = None
    return items


point = st.tuples(st.integers(0, 800), st.integers(0, 600))
points = st.lists(point, min_size=1, max_size=5).map(lambda ps: [n for p in ps for n in p])
op = st.one_of(
    st.builds(lambda c, s, p: [0, c, s, *p], st.integers(0, 15), st.integers(0, 2), points),
    points.map(lambda p: [1, *p]),
    st.just([2]),
    st.just([3]),
    st.builds(lambda c, p: [4, c, *p], st.integers(0, 15), point),
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(op, min_size=1, max_size=6), max_size=12))
def test_replay_equals_the_live_picture(frames: list[list[list[int]]]) -> None:
    canvas = Canvas()
    live: list[list[int]] = []
    for frame in frames:
        before = (list(canvas.ops), canvas.numbers, canvas.open)
        try:
            canvas.apply(frame)
        except RoomError as exc:
            assert exc.code == "bad_stroke"
            assert (canvas.ops, canvas.numbers, canvas.open) == before
            continue
        live += frame
    assert client_items(canvas.ops) == client_items(live)
    assert canvas.numbers == sum(len(o) for o in canvas.ops)


def test_a_stroke_cannot_go_on_after_undo_clear_or_fill() -> None:
    for closing in ([2], [3], [4, 1, 5, 5]):
        canvas = Canvas()
        canvas.apply([[0, 1, 1, 10, 10], [0, 2, 1, 20, 20]])
        canvas.apply([closing])
        with pytest.raises(RoomError, match="no stroke to continue"):
            canvas.apply([[1, 30, 30]])
    canvas = Canvas()
    with pytest.raises(RoomError):
        canvas.apply([[1, 30, 30]])


def test_undo_removes_a_whole_stroke_and_clear_everything() -> None:
    canvas = Canvas()
    canvas.apply([[0, 1, 1, 10, 10], [1, 20, 20], [4, 3, 5, 5], [0, 2, 0, 1, 1], [1, 2, 2]])
    canvas.apply([[2]])
    assert canvas.ops == [(0, 1, 1, 10, 10), (1, 20, 20), (4, 3, 5, 5)]
    canvas.apply([[2], [2]])
    assert canvas.ops == [] and canvas.numbers == 0
    canvas.apply([[2]])  # nothing left to undo: no error, nothing changes
    canvas.apply([[0, 1, 1, 1, 1], [3]])
    assert canvas.ops == []


def test_a_full_canvas_refuses_more_and_keeps_what_it_has() -> None:
    canvas = Canvas()
    for _ in range(MAX_CANVAS_OPS // 64):
        canvas.apply([[0, 1, 0, 5, 5]] * 64)
    kept = list(canvas.ops)
    with pytest.raises(RoomError) as err:
        canvas.apply([[0, 1, 0, 5, 5]] * 64)
    assert err.value.code == "canvas_full" and canvas.ops == kept
    canvas.apply([[3]])  # a clear makes room again
    canvas.apply([[0, 1, 0, 5, 5]])


@pytest.mark.parametrize(
    "ops",
    [
        [],
        [[]],
        [[5]],
        [[0, 16, 0, 1, 1]],
        [[0, -1, 0, 1, 1]],
        [[0, 1, 3, 1, 1]],
        [[0, 1, 1, 801, 1]],
        [[0, 1, 1, 1, 601]],
        [[0, 1, 1, -1, 1]],
        [[0, 1, 1, 1]],
        [[1]],
        [[1, 5]],
        [[2, 1]],
        [[3, 0]],
        [[4, 1, 5]],
        [[4, 16, 5, 5]],
        [[0, 1, 1, *([1, 1] * 201)]],
        [[0, 1, 1, 1, 1]] * 65,
        [[1, *([1, 1] * 200)]] * 2,  # 802 numbers in one frame
    ],
)
def test_malformed_operations_are_refused(ops: list[list[int]]) -> None:
    with pytest.raises(RoomError) as err:
        check_ops(ops)
    assert err.value.code == "bad_stroke"


def test_fills_are_limited_per_frame_and_per_canvas() -> None:
    canvas = Canvas()
    with pytest.raises(RoomError) as err:
        canvas.apply([[4, 1, 5, 5]] * 3)
    assert err.value.code == "bad_stroke" and canvas.ops == []
    for _ in range(MAX_CANVAS_FILLS // 2):
        canvas.apply([[4, 1, 5, 5]] * 2)
    with pytest.raises(RoomError) as err:
        canvas.apply([[4, 2, 9, 9]])
    assert err.value.code == "canvas_full" and canvas.fills == MAX_CANVAS_FILLS == 30
    canvas.apply([[2]])  # undoing a fill makes room for one
    canvas.apply([[4, 2, 9, 9]])
    assert canvas.fills == MAX_CANVAS_FILLS


def test_fills_and_undos_cost_more_of_the_drawers_allowance() -> None:
    """Each fill and undo makes every viewer repaint: they spend more of the allowance
    than a stroke, so fill + undo floods run out of tokens long before strokes do."""
    stroke = DrawCmd(ops=((0, 1, 1, 5, 5, 6, 6),))
    fills = DrawCmd(ops=((4, 1, 5, 5), (4, 2, 9, 9)))
    undo = DrawCmd(ops=((2,),))
    assert (CANVAS.cost(stroke), CANVAS.cost(fills), CANVAS.cost(undo)) == (1, 7, 2)
    assert FILL_COST == 3
