// The visual family (the team drawing game): what the room page's shell asks of a game
// module. Teams, the canvas, the board and the categories come from the capabilities.
import { h } from "../../dom.js";
import { t, lang } from "../../i18n.js";
import { icon } from "../../icons.js";
import { badges } from "../../shell/lobby.js";
import { confirmRemoval } from "../../shell/people.js";
import { toast } from "../../common.js";
import { defineFamily } from "../../shell/contract.js";
import { scoresLine } from "../../shell/announce.js";
import { room, game, me, theRoom, theGame, isHost, send, nameOf, myTeam } from "./ctx.js";
import { teamName, teamsLobby } from "./teams.js";
import { keepTypedWords } from "./words.js";
import { onStateSketches, onDrawFrame, onCanvasFrame } from "./sketches.js";
import { stageView, onKey, DRAWING } from "./stage.js";
import { moveTarget } from "./decide.js";
import { scoresView, boardView, lastTurnView, logView, finalView, noteTurn } from "./panels.js";

/** @param {Event} e */
const target = (e) => /** @type {Element} */ (e.currentTarget);

const iDraw = (/** @type {Record<string, any>} */ g) =>
  me() !== null && (g.turn?.drawers || []).includes(me()) && (DRAWING.has(g.phase) || ["move", "bonus", "lose"].includes(g.phase));

function status() {
  const g = theGame();
  const turn = g.turn || {};
  const parts = [t("status.turn", { n: turn.number }), t("vstatus.team_plays", { team: teamName(turn.team) }), t(`vphase.${g.phase}`)];
  if (turn.proverb && DRAWING.has(g.phase)) parts.push(t("vstatus.proverb"));
  if (g.phase === "choose" || (DRAWING.has(g.phase) && !turn.proverb)) {
    parts.push(turn.drawer === me() ? t("vstatus.you_draw") : t("vstatus.drawer", { name: nameOf(turn.drawer) }));
  } else if (DRAWING.has(g.phase) && iDraw(g)) {
    parts.push(t("vstatus.you_draw"));
  } else if (g.phase === "move" || g.phase === "bonus") {
    parts.push(t("vstatus.deciding", { team: teamName(turn.solved_by) }));
  } else if (g.phase === "lose") {
    parts.push(t("vstatus.deciding", { team: teamName(turn.team) }));
  }
  return parts.join(" · ");
}

/** A drawer keeps silent while they draw: the guessers read only the drawing. */
function mayChat() {
  const g = game();
  return !(g && room()?.status === "playing" && DRAWING.has(g.phase) && (g.turn?.drawers || []).includes(me()));
}

/** What a drawer reads in place of the chat's form. */
export const chatSilence = () => [icon("pencil", { size: 16 }), " ", t("chat.drawer_silent")];

/** A seat in a team may write to its team alone. */
function teamChat() {
  const team = myTeam();
  return team !== null && team !== undefined;
}

/** When the last "canvas full" was told (it is said once in a while, not for every stroke). */
let canvasFullAt = 0;

/**
 * Strokes go without an id (`ref`): a stroke caught by the end of the drawing time is of
 * no interest, and a full canvas is told once in five seconds.
 * @param {Record<string, any>} f an `error`
 */
function onError(f) {
  if (f.ref !== null && f.ref !== undefined) return false;
  if (["wrong_phase", "not_drawer", "bad_stroke"].includes(f.code)) return true;
  if (f.code === "canvas_full") {
    if (Date.now() - canvasFullAt < 5000) return true;
    canvasFullAt = Date.now();
  }
  return false;
}

/**
 * Words typed in the options' own-words box are kept (sent as an options change) before
 * the start; refused words keep the lobby open with their reasons.
 * @param {ParentNode} form
 * @param {Element} anchor
 */
export async function keepWordsFirst(form, anchor) {
  if (await keepTypedWords(form, lang())) return true;
  toast(t("words.not_kept"), { anchor });
  return false;
}

/**
 * The host's buttons on a team member in the lobby.
 * @param {import("../../shell/app.js").RoomPlayer} p
 */
export function memberTools(p) {
  if (p.seat === me()) return null;
  /** @param {string} name @param {string} label @param {Record<string, any>} frame @param {boolean} [danger] */
  const tool = (name, label, frame, danger = false) =>
    h("button", { type: "button", class: ["btn btn-quiet btn-icon", danger && "btn-danger"], "aria-label": label, title: label, onclick: (/** @type {Event} */ e) => {
      // A removal asks first: the person removed may not take a seat here again.
      if (frame.type !== "kick" || confirmRemoval(p)) send(frame, target(e));
    } }, icon(name, { size: 18 }));
  return h(
    "span",
    { class: "lobby-tools" },
    p.bot ? null : tool("crown", t("lobby.make_host", { name: p.name }), { type: "make_host", seat: p.seat }),
    tool("kick", t("lobby.kick", { name: p.name }), { type: "kick", seat: p.seat }, true),
  );
}

function main() {
  const r = theRoom();
  const g = game();
  return {
    final: g && (g.phase === "over" || r.status === "over") ? finalView(g) : null,
    reveal: lastTurnView(),
    stage: g && r.status === "playing" && g.phase !== "over" && g.turn ? stageView(g) : null,
  };
}

function side() {
  const r = theRoom();
  const g = game();
  const playing = g !== null && r.status !== "lobby";
  return {
    scores: playing ? scoresView(g) : null,
    board: playing ? boardView(g, moveTarget()) : null,
    log: g ? logView() : null,
  };
}

/** The turn and phase whose canvas was last brought into view. */
let shownDrawing = "";

/**
 * On a phone, a turn's drawing begins with the stage at the top of the screen, under
 * the status bar: the word, the canvas, the tools and the guesses together. So does
 * the drawer's on a laptop, whose canvas is sized to fill the screen below the bar.
 * @param {Record<string, any> | null} g
 */
function bringDrawingIntoView(g) {
  if (!g || !DRAWING.has(g.phase) || !g.turn) return;
  const key = `${g.turn.number}`;
  if (shownDrawing === key) return;
  shownDrawing = key;
  if (!window.matchMedia("(max-width: 640px)").matches && g.you?.role !== "drawer") return;
  requestAnimationFrame(() => {
    if (document.activeElement?.id === "chat-input") return;
    document.querySelector("#stage .vstage")?.scrollIntoView({ block: "start" });
  });
}

/**
 * For a screen reader: a turn ended (whose drawing, which team), and each team's square.
 * @param {Record<string, any>} g
 * @param {Record<string, any>} was
 */
export function announceTurn(g, was) {
  const lt = g.last_turn;
  const reveal = lt && lt.number !== was.last_turn?.number ? t("vlast.title", { n: lt.number, name: nameOf(lt.drawer), team: teamName(lt.team) }) : "";
  const revealed = Boolean(reveal);
  const squares = new Map((was.teams || []).map((/** @type {any} */ tm) => [tm.team, tm.square]));
  const teams = (g.teams || []).filter((/** @type {any} */ tm) => typeof tm.square === "number");
  const moved = teams.length && (revealed || teams.some((/** @type {any} */ tm) => squares.has(tm.team) && squares.get(tm.team) !== tm.square));
  const points = moved ? t("announce.points", { list: teams.map((/** @type {any} */ tm) => t("vboard.team_at", { team: teamName(tm.team), n: tm.square })).join(", ") }) : "";
  return [reveal, scoresLine(g, was, revealed) || points];
}

// The rules' views list the seats the drawing game waits for in `waiting`.
const yourMove = () => {
  const g = game();
  const mine = me();
  return Boolean(g && mine !== null && g.phase !== "over" && (g.waiting || []).includes(mine));
};

export const visual = defineFamily({
  onState: (f) => {
    onStateSketches(f.game);
    noteTurn(f.game);
    bringDrawingIntoView(f.game);
  },
  onFrame: (f) => (f.type === "draw" ? onDrawFrame(f) : f.type === "canvas" ? onCanvasFrame(f) : false),
  onError,
  status,
  yourMove,
  mayChat,
  chatSilence,
  teamChat,
  lobbyPlayers: () => teamsLobby({ room: theRoom(), me: me(), isHost: isHost(), send, badges, hostTools: memberTools }),
  beforeStart: keepWordsFirst,
  announce: announceTurn,
  main,
  side,
  onKey,
});
