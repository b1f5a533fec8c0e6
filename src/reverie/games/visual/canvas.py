"""The drawing of a turn: validated canvas operations, kept for late joiners.

A ``draw`` frame carries a list of operations (docs/protocol.md, "The canvas"); every
number is an integer so a frame is small and cheap to check:

* ``[0, colour, size, x, y, ...]`` starts a stroke, ``[1, x, y, ...]`` continues it,
* ``[2]`` undoes the last stroke or fill, ``[3]`` clears, ``[4, colour, x, y]`` fills.

:class:`Canvas` keeps the operations that make up the picture now: an undo removes the
stroke it undoes, a clear forgets everything, so replaying :attr:`Canvas.ops` in order
gives the same picture as every operation ever sent. Canvases live in memory only.

:class:`CanvasChannel` is the drawing game's side channel: it takes a drawer's ``draw``
frames, and says who sees which canvas (everyone in a usual turn; in a proverb round
each team only its own drawer's, and spectators none).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

from reverie.errors import RoomError
from reverie.games.base import (
    EVERYONE,
    Admits,
    Audience,
    Limit,
    SideChannel,
    SideCommand,
    team_only,
)
from reverie.rules.visual import GameState, Phase

WIDTH = 800
HEIGHT = 600
COLORS = 16
SIZES = 3
MAX_OPS_PER_FRAME = 64
MAX_NUMBERS_PER_FRAME = 512
MAX_POINTS_PER_OP = 200
MAX_CANVAS_OPS = 4_000
MAX_CANVAS_NUMBERS = 100_000
# A fill costs every viewer a pass over the whole bitmap (and again on each undo).
MAX_FILLS_PER_FRAME = 2
MAX_CANVAS_FILLS = 30
#: What a frame spends of the drawer's allowance besides the frame itself: each fill
#: and each undo or clear makes every viewer repaint, so a drawer cannot send them as
#: fast as strokes.
FILL_COST = 3.0
UNDO_COST = 1.0

START, CONTINUE, UNDO, CLEAR, FILL = 0, 1, 2, 3, 4


def _bad(why: str) -> RoomError:
    return RoomError("bad_stroke", f"Bad drawing data: {why}.")


def _check_points(numbers: Sequence[int]) -> None:
    if not numbers or len(numbers) % 2:
        raise _bad("points come as x, y pairs")
    if len(numbers) > 2 * MAX_POINTS_PER_OP:
        raise _bad(f"at most {MAX_POINTS_PER_OP} points per operation")
    xs, ys = numbers[0::2], numbers[1::2]
    if min(xs) < 0 or max(xs) > WIDTH or min(ys) < 0 or max(ys) > HEIGHT:
        raise _bad(f"points lie within {WIDTH} × {HEIGHT}")


def check_ops(ops: Sequence[Sequence[int]]) -> int:
    """Raise ``bad_stroke`` unless every operation is well formed; returns the numbers.

    >>> check_ops([[0, 1, 2, 10, 10, 20, 20], [1, 30, 30], [2], [4, 5, 400, 300]])
    15
    >>> check_ops([[0, 99, 0, 1, 1]])
    Traceback (most recent call last):
    reverie.errors.RoomError: Bad drawing data: colour 0 to 15.
    """
    if not ops:
        raise _bad("no operations")
    if len(ops) > MAX_OPS_PER_FRAME:
        raise _bad(f"at most {MAX_OPS_PER_FRAME} operations per message")
    total = 0
    for op in ops:
        if not op:
            raise _bad("empty operation")
        total += len(op)
        kind = op[0]
        if kind == START:
            if len(op) < 5:
                raise _bad("a stroke starts with colour, size and a point")
            if not 0 <= op[1] < COLORS:
                raise _bad(f"colour 0 to {COLORS - 1}")
            if not 0 <= op[2] < SIZES:
                raise _bad(f"size 0 to {SIZES - 1}")
            _check_points(op[3:])
        elif kind == CONTINUE:
            _check_points(op[1:])
        elif kind in (UNDO, CLEAR):
            if len(op) != 1:
                raise _bad("undo and clear take no arguments")
        elif kind == FILL:
            if len(op) != 4 or not 0 <= op[1] < COLORS:
                raise _bad(f"a fill is [4, colour 0 to {COLORS - 1}, x, y]")
            _check_points(op[2:])
        else:
            raise _bad(f"unknown operation {kind}")
    if total > MAX_NUMBERS_PER_FRAME:
        raise _bad(f"at most {MAX_NUMBERS_PER_FRAME} numbers per message")
    if sum(op[0] == FILL for op in ops) > MAX_FILLS_PER_FRAME:
        raise _bad(f"at most {MAX_FILLS_PER_FRAME} fills per message")
    return total


class Canvas:
    """One drawer's picture in the current turn.

    ``open`` says whether a stroke is in progress: ``[1, ...]`` may only continue a stroke
    that nothing (an undo, a clear, a fill) has closed since, as on the clients.
    """

    __slots__ = ("fills", "numbers", "open", "ops")

    def __init__(self) -> None:
        # Tuples of ints: the garbage collector stops tracking them, so thousands of
        # strokes in memory do not lengthen its pauses.
        self.ops: list[tuple[int, ...]] = []
        self.numbers = 0
        self.open = False
        self.fills = 0

    def apply(self, ops: Sequence[Sequence[int]]) -> None:
        """Add checked operations; all or nothing (``bad_stroke``, ``canvas_full``)."""
        added = check_ops(ops)
        if all(op[0] in (START, FILL, CONTINUE) for op in ops):
            # The usual case (nothing removed): no copy of the whole picture.
            fills = self.fills + sum(op[0] == FILL for op in ops)
            _check_room(len(self.ops) + len(ops), self.numbers + added, fills)
            self.open = self._still_open(ops, self.open)
            self.ops.extend(tuple(op) for op in ops)
            self.numbers, self.fills = self.numbers + added, fills
            return
        kept, numbers, is_open = list(self.ops), self.numbers, self.open
        for op in ops:
            kind = op[0]
            if kind == UNDO:
                # Back to the start of the last stroke or fill (nothing to undo: no-op).
                while kept and kept[-1][0] == CONTINUE:
                    numbers -= len(kept.pop())
                if kept:
                    numbers -= len(kept.pop())
            elif kind == CLEAR:
                kept, numbers = [], 0
            else:
                is_open = self._still_open((op,), is_open)
                kept.append(tuple(op))
                numbers += len(op)
                continue
            is_open = False
        fills = sum(op[0] == FILL for op in kept)
        _check_room(len(kept), numbers, fills)
        self.ops, self.numbers, self.open, self.fills = kept, numbers, is_open, fills

    @staticmethod
    def _still_open(ops: Sequence[Sequence[int]], is_open: bool) -> bool:
        for op in ops:
            if op[0] == CONTINUE and not is_open:
                raise _bad("no stroke to continue")
            is_open = op[0] in (START, CONTINUE)
        return is_open


def _check_room(ops: int, numbers: int, fills: int = 0) -> None:
    if fills > MAX_CANVAS_FILLS:
        raise RoomError("canvas_full", f"At most {MAX_CANVAS_FILLS} fills: undo or clear to go on.")
    if ops > MAX_CANVAS_OPS or numbers > MAX_CANVAS_NUMBERS:
        raise RoomError("canvas_full", "The drawing is full: undo or clear to go on.")


class DrawCmd(SideCommand, frozen=True, tag="draw"):
    """Drawer: canvas operations (see the module's docstring); never logged."""

    ops: tuple[tuple[int, ...], ...] = ()


#: The drawings of the turn in progress, by drawer seat.
Canvases = dict[int, Canvas]


class CanvasChannel(SideChannel[GameState, Canvases]):
    """The canvases of a turn: strokes in, strokes out to whoever may see them."""

    name = "canvas"
    command = DrawCmd
    # Drawing streams many small frames: an allowance of their own, larger than the
    # general one.
    limit = Limit(rate=30, burst=60)
    harmless = frozenset({"wrong_phase", "canvas_full", "not_drawer"})
    resync = frozenset({"bad_stroke", "canvas_full"})

    def cost(self, cmd: SideCommand) -> float:
        assert isinstance(cmd, DrawCmd)
        fills = sum(1 for op in cmd.ops if op and op[0] == FILL)
        undos = sum(1 for op in cmd.ops if op and op[0] in (UNDO, CLEAR))
        return 1.0 + FILL_COST * fills + UNDO_COST * undos

    def key(self, game: GameState, games: int) -> Hashable:
        return (games, game.turn.number)

    def new_state(self) -> Canvases:
        return {}

    @staticmethod
    def audience(game: GameState, drawer: int) -> Audience:
        """Who sees ``drawer``'s canvas: everyone, except in a proverb round, where only
        the drawer's team does (a player watching from a second tab as a spectator must
        not see the other teams' drawings)."""
        if not game.turn.proverb:
            return EVERYONE
        team = game.team_of(drawer)
        return team_only(team) if team is not None else Audience(seats=frozenset())

    def accept(
        self, game: GameState, games: int, state: Canvases, seat: int, cmd: SideCommand
    ) -> tuple[dict[str, Any], Audience]:
        assert isinstance(cmd, DrawCmd)
        if game.phase is not Phase.DRAW:
            if game.phase is Phase.OVER:
                raise RoomError("wrong_phase", "There is nothing to draw on now.")
            raise RoomError("wrong_phase", "You can draw once the drawing time has started.")
        if seat not in game.turn.drawers:
            raise RoomError("not_drawer", "Only this turn's drawer draws.")
        state.setdefault(seat, Canvas()).apply(cmd.ops)
        turn = game.turn.number
        frame: dict[str, Any] = {
            "type": "draw",
            "game": games,
            "turn": turn,
            "seat": seat,
            "ops": cmd.ops,
        }
        return frame, self.audience(game, seat)

    def replay(
        self, game: GameState, games: int, state: Canvases, admits: Admits
    ) -> dict[str, Any] | None:
        turn = game.turn
        if game.phase is Phase.OVER:
            return None
        drawers = turn.drawers if turn.proverb else (turn.drawer,)
        visible = [d for d in drawers if admits(self.audience(game, d))]
        return {
            "type": "canvas",
            "game": games,
            "turn": turn.number,
            # Empty canvases too, so a client that kept an older picture starts over.
            "canvases": {str(d): state[d].ops if d in state else [] for d in visible},
        }

    def sample(self, game: GameState, seat: int, rng: random.Random) -> SideCommand | None:
        if game.phase is not Phase.DRAW or seat not in game.turn.drawers:
            return None
        points = [rng.randrange(WIDTH) if i % 2 == 0 else rng.randrange(HEIGHT) for i in range(4)]
        return DrawCmd(ops=((START, rng.randrange(COLORS), rng.randrange(SIZES), *points),))


CANVAS = CanvasChannel()
