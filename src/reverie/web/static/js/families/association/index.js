// The association family (Dixit, Imaginarium, Pictoric and their variants): what the
// room page's shell asks of a game module. Which variant is played never matters here;
// the capabilities of the room say what to show.
import { h, $ } from "../../dom.js";
import { t } from "../../i18n.js";
import { icon } from "../../icons.js";
import { game, me, theRoom, theGame, theCaps, players, nameOf, rerender, bringIntoView } from "../../shell/app.js";
import { defineFamily } from "../../shell/contract.js";
import { loadDeck, closeZoom } from "./cards.js";
import { revealView } from "./reveal.js";
import { stageView, choice } from "./stage.js";
import { finalView, scoresView, boardView, logView } from "./panels.js";
import { tableView } from "./table.js";
import { tableMode } from "../../shell/table.js";
import { scoresLine } from "../../shell/announce.js";

/** The turn of the last round whose results this page has folded away. */
let revealClosed = null;
/** @type {string | null} the deck whose pictures are loaded or loading */
let deckLoaded = null;

/**
 * Every state: a round revealed while we watch opens its results; one from before the
 * page was opened stays folded (the log can open it).
 * @param {import("../../shell/app.js").StateFrame} f
 * @param {import("../../shell/app.js").StateFrame | null} prev
 */
function onState(f, prev) {
  const lr = f.game?.last_round;
  const prevTurn = prev?.game?.last_round?.turn ?? null;
  if (lr && lr.turn !== prevTurn) {
    revealClosed = prev ? null : lr.turn;
    // The table screen stays as it is: its results take the place of the turn.
    if (prev && !tableMode) bringIntoView(f.game?.phase === "over" ? "#final" : "#reveal-panel");
  }
  if (!f.game) revealClosed = null;
  const deck = f.room.deck;
  if (deck && deckLoaded !== deck) {
    deckLoaded = deck;
    loadDeck(deck).then(rerender);
  }
}

/** @param {Record<string, any>} f an `ack` */
function onAck(f) {
  if (["submit", "vote", "clue"].includes(f.request?.frame?.type)) choice.clueDraft = "";
}

function status() {
  const g = theGame();
  const mine = me();
  const parts = [t("status.turn", { n: g.turn }), t(`phase.${g.phase}`)];
  if (g.storyteller === null) parts.push(t("status.no_storyteller"));
  else parts.push(g.storyteller === mine ? t("status.you_storyteller") : t("status.storyteller", { name: nameOf(g.storyteller) }));
  const waiting = g.waiting_for || [];
  if (waiting.length) parts.push(t("status.waiting", { names: waiting.map((/** @type {number} */ s) => (s === mine ? t("status.you") : nameOf(s))).join(", ") }));
  return parts.join(" · ");
}

/**
 * The storyteller's tag by their name, while a game is on.
 * @param {import("../../shell/app.js").RoomPlayer} p
 */
export function storytellerTag(p) {
  const g = game();
  return g && g.phase !== "over" && g.storyteller === p.seat ? h("span", { class: "tag tag-story" }, icon("quill", { size: 14 }), t("players.storyteller")) : null;
}

/**
 * For a screen reader: a round revealed (whose card it was) and the points.
 * @param {Record<string, any>} g
 * @param {Record<string, any>} was
 */
export function announceRound(g, was) {
  const lr = g.last_round;
  let reveal = "";
  if (lr && lr.turn !== was.last_round?.turn) {
    const told = typeof lr.story_position === "number" && lr.storyteller !== null && lr.storyteller !== undefined;
    reveal = told ? t("announce.reveal", { n: lr.turn, name: nameOf(lr.storyteller), position: lr.story_position }) : t("announce.round_over", { n: lr.turn });
  }
  return [reveal, scoresLine(g, was, Boolean(reveal))];
}

/** The main column while playing: the end, the round revealed, the stage. */
function main() {
  const r = theRoom();
  const g = game();
  const lr = g?.last_round;
  const over = g !== null && (g.phase === "over" || r.status === "over");
  const showReveal = lr && (over || revealClosed !== lr.turn);
  const closeReveal = () => {
    revealClosed = lr?.turn ?? null;
    rerender();
    /** @type {HTMLElement | null} */ ($("#stage button, #stage input"))?.focus();
  };
  return {
    final: over ? finalView(g) : null,
    reveal: showReveal ? revealView(lr, players(), { gallery: theCaps().story_source === "gallery", you: me(), onClose: over ? null : closeReveal }) : null,
    stage: g && r.status !== "lobby" && g.phase !== "over" ? stageView(g, me()) : null,
  };
}

/** The side column: scores, the board (also in the lobby), the log. */
function side() {
  const r = theRoom();
  const g = game();
  const showReveal = () => {
    revealClosed = null;
    rerender();
  };
  return {
    scores: g && r.status !== "lobby" ? scoresView(g) : null,
    board: boardView(),
    log: g ? logView(g, { revealClosed: revealClosed === g.last_round?.turn, showReveal }) : null,
  };
}

export const association = defineFamily({
  onState,
  onAck,
  status,
  main,
  side,
  lobbyTags: storytellerTag,
  announce: announceRound,
  onKey: (e) => {
    if (e.key === "Escape") closeZoom();
  },
  table: tableView,
});
