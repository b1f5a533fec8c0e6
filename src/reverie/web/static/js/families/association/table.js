// An online association game (Dixit, Imaginarium, Pictoric …) on the table screen
// (`/r/CODE?table`, a TV or a laptop everyone sees): the board and the scores, big; what
// is on the table now (the clue, the cards face down as they come, then face up for the
// vote); the round's results when they are revealed; then the next turn, by itself. Built
// from the spectator's view only: no hand, no card's owner before the reveal.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { icon } from "../../icons.js";
import { theRoom, game, caps, players, nameOf, tableLang, rerender } from "../../shell/app.js";
import { joinPanel } from "../../shell/table.js";
import { boardSVG } from "./board.js";
import { cardImage, cardRow } from "./cards.js";
import { chip, revealView } from "./reveal.js";
import { restrictionTag } from "./stage.js";
import { heard } from "../../shell/people.js";

/** How long a round's results stay at least, when the next clue comes at once (a bot's). */
const HOLD_MS = 10_000;

/** The round whose results are on the screen, and since when. */
let shown = { turn: /** @type {number | null} */ (null), at: 0 };
/** @type {ReturnType<typeof setTimeout> | null} */
let holdTimer = null;

/**
 * Whether the last round's results are the screen's main view: while the next
 * storyteller thinks of a clue, and at least HOLD_MS after they came; then the new
 * turn takes their place with nobody pressing anything.
 * @param {Record<string, any>} g
 */
function resultsShown(g) {
  const lr = g.last_round;
  if (!lr) return false;
  if (shown.turn !== lr.turn) shown = { turn: lr.turn, at: Date.now() };
  if (g.phase === "clue") return true;
  const left = HOLD_MS - (Date.now() - shown.at);
  if (left <= 0) return false;
  if (!holdTimer) {
    holdTimer = setTimeout(() => {
      holdTimer = null;
      rerender();
    }, left + 50);
  }
  return true;
}

/** What the table does now, in one line. @param {Record<string, any>} g */
function phaseLine(g) {
  const st = g.storyteller;
  if (g.phase === "clue") return st === null ? t("stage.claim_title") : t("stage.other_tells", { name: nameOf(st) });
  if (g.phase === "submit") return t("stage.wait_cards");
  return t("stage.voting");
}

/** The next turn, above the results: its storyteller thinking, or the clue already told. @param {Record<string, any>} g */
function nextLine(g) {
  if (g.phase === "clue" || !g.clue) return phaseLine(g);
  return [t("stage.clue_by", { name: nameOf(g.storyteller) }), " ", h("q", { class: "table-next-clue", lang: tableLang() }, g.clue)];
}

/** A card lying face down (its picture is secret until the vote). */
const cardBack = (/** @type {number} */ i) =>
  h("div", { class: "card-cell", key: `back-${i}` }, h("div", { class: "card-back", role: "img", "aria-label": t("table.card_down") }, icon("logo", { size: 44 })));

/** The cards on the table now. @param {Record<string, any>} g */
function tableCards(g) {
  const gallery = caps()?.story_source === "gallery";
  if (g.phase === "vote" || (gallery && (g.table || []).length)) {
    const cards = (g.table || []).map((/** @type {{card: number, position: number}} */ c) =>
      h("div", { class: "card-cell", key: `${c.card}:${c.position}` }, h("div", { class: "card-face", "data-position": c.position }, cardImage(c.card, { alt: t("card.position", { n: c.position }) }), h("span", { class: "card-pos", "aria-hidden": "true" }, String(c.position)))),
    );
    return cardRow(cards, { cls: "table-cards face-up", label: t("stage.table") });
  }
  if (g.phase === "submit") {
    // The storyteller's card and each card added so far, face down.
    const down = 1 + (g.played || []).length;
    return cardRow(Array.from({ length: down }, (_, i) => cardBack(i)), { cls: "table-cards face-down", label: t("stage.table") });
  }
  return null;
}

/** The panel of the turn being played. @param {Record<string, any>} g */
function nowView(g) {
  const waiting = g.waiting_for || [];
  const played = (g.played || []).length;
  const voted = (g.voted || []).length;
  return h(
    "section",
    { class: "panel table-now", id: "table-now", "data-phase": g.phase, "data-turn": g.turn, "aria-labelledby": "table-phase" },
    h("p", { class: "table-turn muted" }, t("status.turn", { n: g.turn })),
    h("h1", { class: "table-phase", id: "table-phase" }, phaseLine(g)),
    g.clue ? h("p", { class: "table-clue", id: "table-clue" }, heard(g.storyteller, `clue:${g.turn}`, h("q", { lang: tableLang() }, g.clue)), g.restriction ? [" ", restrictionTag(g.restriction)] : null) : null,
    g.phase === "submit" ? h("p", { class: "table-progress", id: "table-progress" }, t("stage.others_playing", { n: played, total: played + waiting.length })) : null,
    g.phase === "vote" ? h("p", { class: "table-progress", id: "table-progress" }, t("stage.votes_in", { n: voted, total: voted + waiting.length })) : null,
    tableCards(g),
    waiting.length ? h("p", { class: "muted", id: "table-waiting" }, t("status.waiting", { names: waiting.map(nameOf).join(", ") })) : null,
  );
}

/** The players by score. */
function scoreList() {
  const list = players().slice().sort((a, b) => b.score - a.score);
  return h("ol", { class: "table-scores", id: "table-scores" }, list.map((p) => h("li", { key: p.seat, "data-seat": p.seat }, chip(p), h("strong", {}, String(p.score)))));
}

/** The whole table screen of an online association game. */
export function tableView() {
  const r = theRoom();
  const g = game();
  const board = caps()?.board;
  const boardPanel = h(
    "section",
    { class: "panel board table-board", id: "table-board", "aria-labelledby": "table-board-title" },
    h("h2", { id: "table-board-title" }, board ? t(`board.title.${board.name}`) : t("players.title")),
    board ? boardSVG(board, players(), g?.options || r.options) : null,
    scoreList(),
  );
  if (!g || r.status === "lobby") {
    return h("div", { class: "table-screen-grid lobby" }, joinPanel({ big: true }), h("div", { class: "table-col" }, boardPanel));
  }
  const gallery = caps()?.story_source === "gallery";
  const over = g.phase === "over" || r.status === "over";
  let main;
  if (over) {
    const winners = g.winners || [];
    main = [
      h("section", { class: "panel final big", id: "table-final" }, h("h1", {}, icon("trophy", { size: 32 }), " ", winners.length ? t("final.won", { names: winners.map(nameOf).join(", "), n: winners.length }) : t("final.no_winner"))),
      g.last_round ? revealView(g.last_round, players(), { gallery, folded: true }) : null,
    ];
  } else if (resultsShown(g)) {
    main = [
      h("p", { class: "table-next", id: "table-next" }, h("strong", {}, t("table.next")), " ", nextLine(g)),
      revealView(g.last_round, players(), { gallery, folded: true }),
    ];
  } else {
    main = nowView(g);
  }
  return h("div", { class: "table-screen-grid assoc" }, h("div", { class: "table-col" }, main), h("div", { class: "table-col" }, boardPanel, joinPanel()));
}
