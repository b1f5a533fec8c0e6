// Companion games (`client: "companion"`): an association variant played with a real box.
// The phones hold the turn, the secret positions and votes, the scores and the board;
// the table screen shows the board and the last round to everyone.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { icon } from "../../icons.js";
import { game, me, theRoom, theGame, theCaps, players, nameOf, send, action, isHost, bringIntoView } from "../../shell/app.js";
import { defineFamily } from "../../shell/contract.js";
import { seatsLobby } from "../../shell/lobby.js";
import { storytellerTag, announceRound } from "../association/index.js";
import { scoresView, boardView, logView } from "../association/panels.js";
import { chip } from "../association/reveal.js";
import { roundView } from "./reveal.js";
import { stageView } from "./stage.js";
import { tableView } from "./table.js";
import { tableLink } from "../../shell/table.js";

/** @param {import("../../shell/app.js").StateFrame} f @param {import("../../shell/app.js").StateFrame | null} prev */
function onState(f, prev) {
  const turn = f.game?.last_round?.turn ?? null;
  if (prev && turn !== null && turn !== (prev.game?.last_round?.turn ?? null)) {
    bringIntoView(f.game?.phase === "over" ? "#final" : "#reveal");
  }
}

function status() {
  const g = theGame();
  const mine = me();
  const parts = [t("status.turn", { n: g.turn }), t(`companion.phase.${g.phase}`)];
  if (g.phase !== "dice") {
    if (g.storyteller === null) parts.push(t("status.no_storyteller"));
    else parts.push(g.storyteller === mine ? t("status.you_storyteller") : t("status.storyteller", { name: nameOf(g.storyteller) }));
  }
  return parts.join(" · ");
}

/** @param {Record<string, any>} g */
function finalView(g) {
  const list = players().slice().sort((a, b) => b.score - a.score);
  const winners = g.winners || [];
  return h(
    "div",
    { class: "panel final" },
    h("h2", {}, icon("trophy", { size: 26 }), " ", t("final.title")),
    h("p", { class: "final-winners" }, t("final.won", { names: winners.map(nameOf).join(", "), n: winners.length })),
    h("p", { class: "muted small" }, t("final.rounds", { n: g.rounds_played })),
    h("ol", { class: "final-list" }, list.map((p) => h("li", { class: ["final-row", winners.includes(p.seat) && "winner"], key: p.seat, "data-seat": p.seat }, chip(p), h("span", { class: "final-score" }, t("board.points", { n: p.score }))))),
    g.can_undo ? h("div", { class: "actions" }, h("button", { type: "button", class: "btn btn-quiet", id: "undo", onclick: (/** @type {MouseEvent} */ e) => { if (confirm(t("companion.undo.confirm", { n: g.last_round.turn }))) action({ type: "undo" }, /** @type {Element} */ (e.currentTarget)); } }, icon("undo", { size: 18 }), t("companion.undo.button"))) : null,
    isHost()
      ? h("div", { class: "actions" }, h("button", { type: "button", class: "btn", id: "rematch", onclick: (/** @type {MouseEvent} */ e) => send({ type: "rematch" }, /** @type {Element} */ (e.currentTarget)) }, t("final.rematch")))
      : h("p", { class: "muted" }, t("final.wait_rematch")),
  );
}

function main() {
  const r = theRoom();
  const g = game();
  const over = g !== null && (g.phase === "over" || r.status === "over");
  return {
    final: over ? finalView(g) : null,
    reveal: g?.last_round ? roundView(g.last_round, players(), { gallery: g.gallery }) : null,
    stage: g && r.status !== "lobby" && !over ? stageView(g, me()) : null,
  };
}

function side() {
  const r = theRoom();
  const g = game();
  return {
    scores: g && r.status !== "lobby" ? scoresView(g) : null,
    board: boardView(),
    log: g && (g.first_rolls || []).length ? logView({ ...g, last_round: null }, { revealClosed: false, showReveal: () => {} }) : null,
  };
}

/** The lobby: the players, and the way to open the table screen. */
function lobbyPlayers() {
  return [seatsLobby(), h("p", { class: "small muted table-link-note" }, t("companion.lobby.box", { game: t(`variant.${theCaps().companion_of}.title`) }), " ", tableLink())];
}

export const companion = defineFamily({
  onState,
  status,
  lobbyPlayers,
  lobbyTags: storytellerTag,
  announce: announceRound,
  main,
  side,
  table: tableView,
});
