// A companion room on the table screen: the board, the scores, whose turn it is and the
// clue restriction, the dice, the last round revealed, and the QR code to join. Built
// from the spectator's view only: no position or vote before the reveal.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { icon } from "../../icons.js";
import { theRoom, game, caps, players, nameOf, tableLang } from "../../shell/app.js";
import { joinPanel } from "../../shell/table.js";
import { boardSVG } from "../association/board.js";
import { chip } from "../association/reveal.js";
import { roundView } from "./reveal.js";
import { restrictionNote, lastUndone, undoneText } from "./stage.js";

/** @param {Record<string, any>} g */
function phaseLine(g) {
  const st = g.storyteller;
  switch (g.phase) {
    case "dice":
      return t("companion.table.dice");
    case "clue":
      return st === null ? t("companion.table.claim") : t("companion.table.tells", { name: nameOf(st) });
    case "count":
      return t(g.gallery ? "companion.table.gallery" : "companion.table.lay", { name: nameOf(st) });
    case "secret":
      return t("companion.table.secret");
    default:
      return t("status.over");
  }
}

/** @param {Record<string, any>} g */
function diceView(g) {
  const rows = g.first_rolls || [];
  if (!rows.length) return null;
  return h(
    "div",
    { class: "panel dice-panel", id: "dice-panel" },
    h("h2", {}, icon("dice", { size: 24 }), " ", t("companion.dice.title")),
    h(
      "ol",
      { class: "dice-rows" },
      rows.map((/** @type {number[]} */ row, /** @type {number} */ i) =>
        h("li", { key: i, "data-row": i }, row.map((v, seat) => (v ? h("span", { class: "die-roll", key: seat, "data-seat": seat }, chip(players().find((p) => p.seat === seat) || null), h("strong", { class: "die" }, String(v))) : null))),
      ),
    ),
    g.phase === "dice" && rows.length > 1 ? h("p", { class: "notice" }, t("companion.dice.tie", { names: (g.contenders || []).map(nameOf).join(", ") })) : null,
  );
}

/** @param {Record<string, any>} g */
function nowView(g) {
  const waiting = g.waiting_for || [];
  const secret = g.phase === "secret";
  const undone = lastUndone(g);
  return h(
    "div",
    { class: "panel table-now", id: "table-now" },
    h("p", { class: "table-turn muted" }, t("status.turn", { n: g.turn })),
    h("h1", { class: "table-phase", id: "table-phase" }, phaseLine(g)),
    g.clue ? h("p", { class: "table-clue" }, h("q", { lang: tableLang() }, g.clue)) : null,
    restrictionNote(g),
    secret
      ? h("p", { class: "table-progress", id: "table-progress", "data-placed": (g.placed || []).length, "data-voted": (g.voted || []).length }, t("companion.secret.progress", { placed: (g.placed || []).length, placers: g.gallery ? 1 : g.players.length, voted: (g.voted || []).length, voters: g.players.length - 1 }))
      : null,
    secret && g.clashes && (g.placed || []).length < (g.gallery ? 1 : g.players.length) ? h("p", { class: "notice", id: "table-recheck", "data-clashes": g.clashes }, t("companion.secret.recheck")) : null,
    waiting.length && g.phase !== "over" ? h("p", { class: "muted", id: "table-waiting" }, t("status.waiting", { names: waiting.map(nameOf).join(", ") })) : null,
    undone ? h("p", { class: "muted small", id: "table-undone" }, undoneText(undone)) : null,
  );
}

function scoreList() {
  const list = players().slice().sort((a, b) => b.score - a.score);
  return h("ol", { class: "table-scores" }, list.map((p) => h("li", { key: p.seat, "data-seat": p.seat }, chip(p), h("strong", {}, String(p.score)))));
}

/** The whole table screen. */
export function tableView() {
  const r = theRoom();
  const g = game();
  const board = caps()?.board;
  const boardPanel = board ? h("div", { class: "panel board table-board" }, h("h2", {}, t(`board.title.${board.name}`)), boardSVG(board, players(), g?.options || r.options), scoreList()) : null;
  if (!g || r.status === "lobby") {
    return h("div", { class: "table-screen-grid lobby" }, joinPanel({ big: true }), h("div", { class: "panel" }, h("h2", {}, t("companion.table.waiting_start")), h("ul", { class: "table-scores" }, r.players.map((p) => h("li", { key: p.seat }, chip(p))))), boardPanel);
  }
  const over = g.phase === "over";
  const winners = over ? h("div", { class: "panel final big", id: "table-final" }, h("h1", {}, icon("trophy", { size: 32 }), " ", t("final.won", { names: (g.winners || []).map(nameOf).join(", "), n: (g.winners || []).length }))) : null;
  return h(
    "div",
    { class: "table-screen-grid" },
    h("div", { class: "table-col" }, winners || nowView(g), g.phase === "dice" || !g.rounds_played ? diceView(g) : null, g.last_round ? roundView(g.last_round, players(), { gallery: g.gallery, big: true }) : null),
    h("div", { class: "table-col" }, boardPanel, joinPanel()),
  );
}
