"""A drawer's fills and undos stay cheap for everyone who watches the canvas.

A drawer who sends many flood fills and then undoes them one by one used to freeze the
viewers' pages: every undo repainted the picture from the start, every fill again. The
canvas now repaints from its nearest checkpoint. The drawer's frames come from a second
connection of the drawer's seat opened in the drawer's page (as a script would send
them); the viewers' canvases count their work (data-fills-painted, data-fills-replayed
…), and the test checks the counts, never the time taken, and that the live picture is
pixel for pixel the one a late joiner builds from the server's copy.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.conftest import DESKTOP, Open
from tests.browser.test_visual import Table, balanced_table, drawer_of_choose, no_errors, shots
from tests.browser.ui import wait_phase

#: Opens a second connection of this page's seat and keeps it in window.__raw.
OPEN_RAW = """async ([code, token]) => {
    const ws = new WebSocket(`ws://${location.host}/ws/${code}`);
    const raw = { ws, next: 1, waiting: new Map(), errors: [] };
    window.__raw = raw;
    await new Promise((ok, fail) => {
        ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token, lang: "en" }));
        ws.onerror = fail;
        ws.onmessage = (ev) => {
            const f = JSON.parse(ev.data);
            if (f.type === "welcome") ok(null);
            if ((f.type === "ack" || f.type === "error") && f.ref != null) {
                raw.waiting.get(f.ref)?.(f);
                raw.waiting.delete(f.ref);
            } else if (f.type === "error") raw.errors.push(f.code);
        };
    });
}"""

#: Sends one draw frame and waits for its answer; "ok" or the error's code. A frame
#: refused for its rate is sent again a little later.
SEND = """async (ops) => {
    const raw = window.__raw;
    for (let attempt = 0; attempt < 50; attempt += 1) {
        const id = raw.next++;
        const answer = new Promise((ok) => raw.waiting.set(id, ok));
        raw.ws.send(JSON.stringify({ type: "draw", ops, id }));
        const f = await answer;
        if (f.type === "ack") return "ok";
        if (f.code !== "rate_limited") return f.code;
        await new Promise((ok) => setTimeout(ok, 400));
    }
    return "rate_limited";
}"""

#: An FNV-1a hash of a canvas's pixels.
PIXELS = """seat => {
    const c = document.querySelector(`.vcanvas[data-seat='${seat}'] canvas`);
    const d = new Uint32Array(c.getContext("2d").getImageData(0, 0, c.width, c.height).data.buffer);
    let h = 2166136261;
    for (let i = 0; i < d.length; i += 1) h = Math.imul(h ^ d[i], 16777619);
    return h >>> 0;
}"""

COUNTERS = ("fillsPainted", "fillsReplayed", "opsReplayed", "repaints", "checkpoints")


def canvas(page: Page, seat: str) -> Any:
    return page.locator(f".vcanvas[data-seat='{seat}'] canvas")


def counters(page: Page, seat: str) -> dict[str, int]:
    data: dict[str, str] = canvas(page, seat).evaluate("c => ({...c.dataset})")
    return {k: int(data[k]) for k in COUNTERS}


def items_are(page: Page, seat: str, n: int) -> None:
    expect(canvas(page, seat)).to_have_attribute("data-items", str(n))


def seat_four(open_player: Open) -> tuple[Table, str]:
    """Four players in two teams in a drawing room with a long drawing time."""
    return balanced_table(open_player, draw_seconds=900)


def test_fills_and_undos_repaint_from_checkpoints(open_player: Open) -> None:
    table, invite = seat_four(open_player)
    table.everyone[0].page.click("#start")
    drawer = drawer_of_choose(table)
    drawer.page.click("#choose-objects")
    for p in table.everyone:
        wait_phase(p.page, "draw")
    seat = drawer.page.locator(".vcanvas").first.get_attribute("data-seat") or ""
    team = table.team_of(drawer)
    mate = next(p for p in table.teams[team] if p is not drawer)
    viewers = [p for p in table.everyone if p is not drawer]
    code = invite.rstrip("/").split("/")[-1]
    token = drawer.page.evaluate(f"localStorage.getItem('reverie:token:{code}')")
    drawer.page.evaluate(OPEN_RAW, [code, token])

    def send(ops: list[list[int]]) -> str:
        answer: str = drawer.page.evaluate(SEND, ops)
        return answer

    # Seven lines cut the picture into eight columns; then up to 100 fills, each in its
    # column (in a colour the column does not have yet), and a small stroke every tenth.
    items = 0
    for x in range(100, 800, 100):
        assert send([[0, 1, 1, x, 0, x, 600]]) == "ok"
        items += 1
    fills = 0
    for i in range(100):
        col = i % 8
        answer = send([[4, 2 + ((i // 8) + col) % 13, col * 100 + 50, 300]])
        if answer == "canvas_full":  # the server's limit on fills may be lower
            break
        assert answer == "ok", answer
        fills += 1
        items += 1
        if i % 10 == 9:
            assert send([[0, 4, 0, col * 100 + 20, 100, col * 100 + 60, 200]]) == "ok"
            items += 1
    assert fills >= 30, f"only {fills} fills were taken"
    for p in viewers:
        items_are(p.page, seat, items)
    before = counters(mate.page, seat)
    assert before["fillsPainted"] == fills
    assert before["fillsReplayed"] == 0
    assert 1 < before["checkpoints"] <= 32

    # Undo, one frame at a time: each undo repaints a few fills at most, from the
    # nearest checkpoint (replaying from the start would repaint up to `fills`).
    undos = min(60, items - 10)
    per_undo = []
    last = before
    for _ in range(undos):
        assert send([[2]]) == "ok"
        items -= 1
        items_are(mate.page, seat, items)
        now = counters(mate.page, seat)
        assert now["repaints"] == last["repaints"] + 1
        per_undo.append(now["fillsReplayed"] - last["fillsReplayed"])
        last = now
    assert max(per_undo) <= 4, per_undo
    assert sum(per_undo) <= undos, per_undo

    # The attack: a fill and its undo in every frame. The fill is painted once and the
    # undo repaints no fill at all.
    for k in range(20):
        assert send([[4, 3 + k % 5, 450, 300], [2]]) == "ok"
    items_are(mate.page, seat, items)
    mate.page.wait_for_function(
        "([seat, n]) => Number(document.querySelector("
        "`.vcanvas[data-seat='${seat}'] canvas`).dataset.fillsPainted) === n",
        arg=[seat, last["fillsPainted"] + 20],
    )
    after = counters(mate.page, seat)
    assert after["fillsReplayed"] == last["fillsReplayed"], (last, after)
    assert after["repaints"] == last["repaints"] + 20

    # What everyone sees is, pixel for pixel, what a late joiner paints from the
    # server's copy of the drawing (no undo in it).
    late = open_player("late", DESKTOP)
    late.page.goto(invite)
    late.page.click("#gate-watch")
    items_are(late.page, seat, items)
    expected = late.page.evaluate(PIXELS, seat)
    assert counters(late.page, seat)["fillsReplayed"] == 0
    for p in table.everyone:
        items_are(p.page, seat, items)
        assert p.page.evaluate(PIXELS, seat) == expected, p.label
    shots(mate.page, "visual-fills-undone")
    no_errors([*table.everyone, late])
