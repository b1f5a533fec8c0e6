"""A drawing game dealt from the table's own words."""

from __future__ import annotations

import httpx

from reverie.store import open_store
from reverie.store.decks import DeckStore
from tests.aio import run_async

from .harness import ServerThread, sync
from .test_visual import choose, latest_room, table

OWN = ["пирог", "самовар", "балалайка", "валенок", "матрёшка",
       "гармонь", "пряник", "лапоть", "сарафан", "бублик"]  # fmt: skip


def test_a_drawing_game_deals_the_tables_own_words(server: ServerThread) -> None:
    base = server.base
    r = httpx.post(f"{base}/api/words", json={"language": "ru", "categories": {"objects": "x"}})
    assert r.status_code == 400
    problem = r.json()["error"]["problems"][0]
    assert (problem["category"], problem["code"]) == ("objects", "too_few_words")
    text = "\n".join([*OWN, "Пирог", "  самовар "])  # repeats are dropped
    r = httpx.post(f"{base}/api/words", json={"language": "ru", "categories": {"objects": text}})
    assert r.status_code == 201, r.text
    list_id = r.json()["id"]
    assert r.json()["counts"] == {"objects": 10}
    # Anyone with the id sees how many words, never the words.
    summary = httpx.get(f"{base}/api/words/{list_id}")
    assert summary.json()["counts"] == {"objects": 10} and "пирог" not in summary.text
    assert httpx.get(f"{base}/api/words/w-{'a' * 26}").status_code == 404
    code, clients = table(server, words=list_id, word_mode="instead", language="ru")
    frames = [f for c in clients for f in c.frames if f["type"] == "state"]
    assert all("пирог" not in str(f) for f in frames)  # the words never travel in frames
    drawer, word = choose(clients, "objects")
    assert word in OWN
    mate = next(c for c in clients if c is not drawer and c.seat is not None
                and c.seat % 2 == drawer.seat % 2)  # type: ignore[operator]  # fmt: skip
    assert mate.request({"type": "guess", "text": word.upper()})["type"] == "ack"
    last = sync(clients)["game"]["last_turn"]
    assert last["subject"] == word and last["solved_by"] == drawer.seat % 2  # type: ignore[operator]
    # Every card of the game has one of the table's words for its object, and the
    # other categories come from the default lists.
    cards = latest_room(server, code).game.cards
    assert len(cards) == len(OWN)
    assert {c.subjects[0] for c in cards} == set(OWN)
    assert all(c.subjects[1] not in OWN for c in cards)
    for c in clients:
        c.close()


def test_an_unknown_word_list_is_refused_when_the_room_is_opened_or_set(
    server: ServerThread,
) -> None:
    """Issue #24: a room naming a list that does not exist was accepted, and then
    answered "still being loaded; start again" at every start, for ever."""
    missing = f"w-{'b' * 26}"
    body = {"name": "Host", "color": "#e63946", "variant": "visual", "seats": 4}
    r = httpx.post(f"{server.base}/api/rooms", json={**body, "options": {"words": missing}})
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "unknown_words"
    # Nor may the host name it in the lobby afterwards.
    _code, clients = table(server, start=False)
    reply = clients[0].request({"type": "options", "options": {"words": missing}})
    assert reply["type"] == "error" and reply["code"] == "unknown_words"
    for c in clients:
        c.close()


def test_the_rooms_that_name_a_list_are_recorded(server: ServerThread) -> None:
    """Retention keeps a list while a room names it, whether the room opened with it
    or the host chose it in the lobby."""
    ids = []
    for _ in range(2):
        text = "\n".join(OWN)
        r = httpx.post(f"{server.base}/api/words",
                       json={"language": "ru", "categories": {"objects": text}})  # fmt: skip
        ids.append(r.json()["id"])
    opened, clients = table(server, start=False, words=ids[0], language="ru")
    chosen, others = table(server, start=False)
    reply = others[0].request({"type": "options", "options": {"words": ids[1]}})
    assert reply["type"] == "ack", reply

    async def named() -> dict[str, tuple[str, ...]]:
        store = open_store(f"sqlite:///{server.data_dir / 'reverie.db'}", beside_server=True)
        try:
            assert isinstance(store, DeckStore)
            return {w.id: w.rooms for w in await store.stored_word_lists()}
        finally:
            await store.close()

    assert run_async(named()) == {ids[0]: (opened,), ids[1]: (chosen,)}
    for c in [*clients, *others]:
        c.close()
