// The association family (Dixit, Imaginarium, Pictoric and their variants): what the
// room page's shell asks of a game module. Which variant is played never matters here;
// the capabilities of the room say what to show.
import { h, $ } from "../../dom.js";
import { t } from "../../i18n.js";
import { icon } from "../../icons.js";
import { colorName } from "../../common.js";
import { room, game, me, caps, players, nameOf, send, isHost, rerender, bringIntoView } from "../../shell/app.js";
import { badges } from "../../shell/lobby.js";
import { loadDeck, closeZoom } from "./cards.js";
import { revealView } from "./reveal.js";
import { stageView, choice } from "./stage.js";
import { finalView, scoresView, boardView, logView } from "./panels.js";
import { optionsFields, readOptions } from "./options.js";
import { tableView } from "./table.js";
import { tableMode } from "../../shell/table.js";

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
  const g = game();
  const mine = me();
  const parts = [t("status.turn", { n: g.turn }), t(`phase.${g.phase}`)];
  if (g.storyteller === null) parts.push(t("status.no_storyteller"));
  else parts.push(g.storyteller === mine ? t("status.you_storyteller") : t("status.storyteller", { name: nameOf(g.storyteller) }));
  const waiting = g.waiting_for || [];
  if (waiting.length) parts.push(t("status.waiting", { names: waiting.map((/** @type {number} */ s) => (s === mine ? t("status.you") : nameOf(s))).join(", ") }));
  return parts.join(" · ");
}

function yourMove() {
  const g = game();
  const mine = me();
  return Boolean(g && mine !== null && g.phase !== "over" && (g.waiting_for || []).includes(mine));
}

/**
 * @param {number} i
 * @param {number} delta
 * @param {Element} anchor
 */
function move(i, delta, anchor) {
  const order = players().map((p) => p.seat);
  const j = i + delta;
  if (j < 0 || j >= order.length) return;
  [order[i], order[j]] = [order[j], order[i]];
  send({ type: "order", order }, anchor);
}

/**
 * A small icon button of the host's.
 * @param {string} name
 * @param {string} label
 * @param {(e: MouseEvent) => void} onclick
 * @param {{disabled?: boolean, danger?: boolean}} [opts]
 */
function tool(name, label, onclick, { disabled = false, danger = false } = {}) {
  return h("button", { type: "button", class: ["btn btn-quiet btn-icon", danger && "btn-danger"], disabled, "aria-label": label, title: label, onclick }, icon(name, { size: 18 }));
}

/** The lobby's players in seat order; the host can reorder, hand over, remove. */
function lobbyPlayers() {
  const r = room();
  const host = isHost();
  const mine = me();
  const list = players();
  /** @param {MouseEvent} e */
  const at = (e) => /** @type {Element} */ (e.currentTarget);
  const rows = list.map((p, i) =>
    h(
      "li",
      { class: ["lobby-player", p.seat === mine && "is-you"], "data-seat": p.seat, key: p.seat },
      h("span", { class: "seat-no", "aria-hidden": "true" }, String(i + 1)),
      h("span", { class: "dot big", style: { background: p.color }, title: colorName(p.color) }),
      h("span", { class: "lobby-name" }, h("span", { class: "pname" }, p.name), badges(p)),
      host
        ? h(
            "span",
            { class: "lobby-tools" },
            tool("up", t("lobby.move_up", { name: p.name }), (e) => move(i, -1, at(e)), { disabled: i === 0 }),
            tool("down", t("lobby.move_down", { name: p.name }), (e) => move(i, 1, at(e)), { disabled: i === list.length - 1 }),
            p.seat !== mine && !p.bot ? tool("crown", t("lobby.make_host", { name: p.name }), (e) => send({ type: "make_host", seat: p.seat }, at(e))) : null,
            p.seat !== mine ? tool("kick", t("lobby.kick", { name: p.name }), (e) => send({ type: "kick", seat: p.seat }, at(e)), { danger: true }) : null,
          )
        : null,
    ),
  );
  return [h("h3", {}, t("lobby.players", { n: r.players.length, seats: r.seats })), h("ol", { class: "lobby-list" }, rows)];
}

/** The main column while playing: the end, the round revealed, the stage. */
function main() {
  const r = room();
  const g = game();
  const lr = g?.last_round;
  const over = Boolean(g && (g.phase === "over" || r.status === "over"));
  const showReveal = lr && (over || revealClosed !== lr.turn);
  const closeReveal = () => {
    revealClosed = lr.turn;
    rerender();
    /** @type {HTMLElement | null} */ ($("#stage button, #stage input"))?.focus();
  };
  return {
    final: over ? finalView(g) : null,
    reveal: showReveal ? revealView(lr, players(), { gallery: caps().story_source === "gallery", you: me(), onClose: over ? null : closeReveal }) : null,
    stage: g && r.status !== "lobby" && g.phase !== "over" ? stageView(g, me()) : null,
  };
}

/** The side column: scores, the board (also in the lobby), the log. */
function side() {
  const r = room();
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

/** @type {import("../../shell/family.js").Family} */
export const association = {
  onState,
  onAck,
  onFrame: () => false,
  status,
  yourMove,
  chatMode: () => ({ team: false, silent: false }),
  lobbyPlayers,
  optionsFields: (opts) => optionsFields(room(), room().options, opts),
  readOptions: (root) => readOptions(root, caps()),
  main,
  side,
  onKey: (e) => {
    if (e.key === "Escape") closeZoom();
  },
  table: tableView,
};
