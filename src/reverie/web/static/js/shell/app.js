// The room page's state: the latest `state` frame, the chat, the connection and what this
// page alone remembers (choices not yet sent). The shell and the family modules read it
// through these functions and call rerender() after changing it: the whole screen is
// drawn again from here, and the renderer changes only what differs.
import { normaliseCode } from "../store.js";
import { lang } from "../i18n.js";

/**
 * @typedef {{name: string, length: number, loops: boolean, specials?: Record<string, string>}} Board
 * @typedef {{min: number, max: number, min_size: number, colors: string[], host_aside?: boolean}} Teams
 * @typedef {{width: number, height: number, colors: number, sizes: number}} Canvas
 * @typedef {{name: string, points: number, choosable: boolean}} Category
 * @typedef {{
 *   client: string, story_source: string | null, first_storyteller: string | null,
 *   board: Board | null, teams: Teams | null, canvas: Canvas | null, bots: boolean,
 *   restrictions: string[], categories: Category[] | null, options: string[],
 *   companion_of?: string, table_screen?: boolean, bot_levels?: string[], deck?: boolean,
 * }} Capabilities
 * @typedef {{seat: number, name: string, color: string, host: boolean, bot: boolean,
 *   bot_playing: boolean, bot_level?: string | null, connected: boolean, team?: number | null,
 *   members?: {name: string, connected: boolean}[]}} RoomPlayer
 * (`members`: a team seat's people, its first person first; empty for one person)
 * @typedef {{
 *   code: string, variant: string, family: string, title: string, lang?: string, status: string,
 *   deck: string, seats: number, min_players: number, max_players: number,
 *   capabilities: Capabilities, options: Record<string, any>, players: RoomPlayer[],
 *   spectators: number, you: {seat: number, host: boolean, proposals?: Proposal[]} | null,
 *   deadline: number | null, server_time: number, team_count?: number, team_colors?: string[],
 *   away_seconds?: number | null, time_factor?: number, text_filter?: string, public?: boolean, paused?: boolean,
 *   vote?: Vote | null, closed?: boolean, waiting?: number, places?: number, queued?: boolean,
 * }} Room
 * (`waiting`: people queued for a seat at the next turn; `places`: how many more
 * may queue; `queued`: this reader is one of them)
 * @typedef {{target: number, by: number, yes: number, no: number, voters: number, needed: number,
 *   deadline: number, voter?: boolean, ballot?: string | null, member?: number | null,
 *   open?: number[]}} Vote
 * (`vote`: the running vote to remove `target`, `member`: that member of a team seat;
 * `voter` and `ballot` are the reader's own; a team seat's `open`: its members who may
 * still vote)
 * @typedef {{member: number, name: string, move: Record<string, any>, firm: boolean}} Proposal
 * (a team seat's member's current choice: pointed at, or `firm`, confirmed and waiting)
 * @typedef {{type: "state", version: number, room: Room, game: Record<string, any> | null}} StateFrame
 * @typedef {{seat: number, name: string, text: string, at: number, team?: number | boolean | null, own?: boolean,
 *   note?: string, params?: Record<string, string>}} ChatLine
 * (`note`: a line of the table's own, this page's i18n key, told in the reader's language)
 */

export const code = normaliseCode(location.pathname.split("/").filter(Boolean).pop());

export const app = {
  /** @type {string | null} */
  token: null,
  /** Which member of a team seat this page is (0: its first person, or a seat's only one). */
  member: 0,
  /** @type {StateFrame | null} */
  state: null,
  /** @type {ChatLine[]} */
  chat: [],
  chatReset: true,
  /** @type {import("../socket.js").RoomSocket | null} */
  socket: null,
  conn: "connecting",
  missing: false,
  /** This page's seat link was replaced on another device: the socket is closed for good. */
  replaced: false,
  /** The site's operator closed the room (room_closed, close code 4410): nothing reconnects. */
  closed: false,
  /** The server's clock minus ours, in ms. */
  skew: 0,
  ui: {
    watching: false,
    /** @type {string | null} */
    joinName: null,
    /** @type {string | null} */
    joinColor: null,
    teamChat: false,
    /** @type {string | null} a seat link's token, opened where this browser holds another seat: keep or use? */
    linkToken: null,
  },
};

/** @returns {Room | null} */
export const room = () => app.state?.room || null;
/** @returns {Record<string, any> | null} */
export const game = () => app.state?.game || null;
/** @returns {number | null} */
export const me = () => room()?.you?.seat ?? null;
export const isHost = () => Boolean(room()?.you?.host);
/** @returns {Capabilities | null} */
export const caps = () => room()?.capabilities || null;

/**
 * The room, for code that runs only once a state has come (a family's views and
 * handlers: the shell calls them only then). Says so if that is ever not the case,
 * where the mistake is, rather than failing on a null some calls later.
 * @returns {Room}
 */
export function theRoom() {
  const r = room();
  if (!r) throw new Error("no room yet: the shell calls this only after the first state");
  return r;
}

/**
 * The game, for code that runs only while one is on (a family's stage, status, panels).
 * @returns {Record<string, any>}
 */
export function theGame() {
  const g = game();
  if (!g) throw new Error("no game yet: this view is drawn only while a game is on");
  return g;
}

/** @returns {Capabilities} the room's capabilities (see theRoom) */
export const theCaps = () => theRoom().capabilities;

/** @type {(caps: Capabilities) => import("./contract.js").Family | null} */
let chooser = () => null;

/**
 * How the page finds the family module of a room (by `capabilities.client`): given by
 * the page (room.js) from the families' registry, so that no module of the shell names
 * a game.
 * @param {(caps: Capabilities) => import("./contract.js").Family | null} fn
 */
export function setFamilyChooser(fn) {
  chooser = fn;
}

/**
 * The family module that plays this room; null before the first state.
 * @returns {import("./contract.js").Family | null}
 */
export function family() {
  const c = caps();
  return c ? chooser(c) : null;
}

/**
 * The table's language: its words' (the drawing game's `language` option), else the
 * room's (its creator's screen language), else the screen's. It marks what the table
 * wrote or was dealt (clues, the drawing game's words and proverbs) with a `lang`
 * attribute: such texts are never translated, and a screen reader reads them in their
 * own language whatever language the interface is in; the end screen's story is told in
 * it. Always a language, even the screen's own: a `lang` attribute dropped on a later
 * render would be left behind by Preact as `lang=""` ("unknown language"), not removed.
 * @returns {string}
 */
export function tableLang() {
  const r = room();
  return r?.options?.language || r?.lang || lang();
}

/**
 * A seat's name as the table reads it: a team seat's members' names together (the end
 * screen, the story and the status name the team and its members), else the player's.
 * @param {{name: string, members?: {name: string}[]}} p
 */
export function teamName(p) {
  return p.members && p.members.length ? p.members.map((m) => m.name).join(" & ") : p.name;
}

/**
 * Whether a seat is played by a team (several people, each on their own device).
 * @param {number | null} seat
 */
export function isTeamSeat(seat) {
  const p = seat === null ? null : room()?.players.find((x) => x.seat === seat);
  return Boolean(p?.members?.length);
}

/** The room's players merged with the game's scores and squares, by seat. */
export function players() {
  const r = room();
  if (!r) return [];
  const g = game();
  return r.players
    .slice()
    .sort((a, b) => a.seat - b.seat)
    .map((p) => {
      const gp = g?.players?.find((/** @type {any} */ x) => x.seat === p.seat);
      return { ...p, name: teamName(p), score: gp ? gp.score : 0, square: gp ? gp.square : 1, hand_size: gp ? gp.hand_size : null };
    });
}

/** @param {number} seat */
export function nameOf(seat) {
  const p = room()?.players.find((x) => x.seat === seat) || game()?.players?.find((/** @type {any} */ x) => x.seat === seat);
  return p ? teamName(p) : `#${Number(seat) + 1}`;
}

/**
 * Send a frame; its error, if any, shows next to `anchor`.
 * @param {Record<string, any>} frame
 * @param {Element | null} [anchor]
 */
export function send(frame, anchor = null) {
  return app.socket ? app.socket.send(frame, { anchor }) : null;
}

/**
 * A game action, stamped with the state version it was chosen on.
 * @param {Record<string, any>} frame
 * @param {Element | null} [anchor]
 */
export function action(frame, anchor = null) {
  return send({ ...frame, version: app.state?.version }, anchor);
}

/** @param {Record<string, any>} frame */
export const sendRaw = (frame) => Boolean(app.socket?.sendRaw(frame));

let renderer = () => {};

/** @param {() => void} fn */
export function setRenderer(fn) {
  renderer = fn;
}

/** Draw the page again from the state. */
export const rerender = () => renderer();

/**
 * The clock of the room's deadline: {secs, text} or null.
 * @returns {{left: number, secs: number, text: string} | null}
 */
export function timeLeft() {
  const r = room();
  if (!r || !r.deadline || r.status !== "playing") return null;
  const left = Math.max(0, r.deadline - (Date.now() + app.skew));
  const secs = Math.ceil(left / 1000);
  return { left, secs, text: `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}` };
}

/** Whether a family scrolls a panel into view after this render (the shell's own scroll gives way). */
let claimed = false;

/**
 * After the page is drawn, scroll a panel that has just appeared (a round's results, the
 * end) to the top of the screen, under the status bar: it must not open far above where
 * the player is looking. Not while they type in the chat.
 * @param {string} selector
 */
export function bringIntoView(selector) {
  claimed = true;
  requestAnimationFrame(() => {
    claimed = false;
    if (document.activeElement?.id === "chat-input") return;
    document.querySelector(selector)?.scrollIntoView({ block: "start" });
  });
}

/** Whether a panel is on its way into view (see bringIntoView). */
export const scrollClaimed = () => claimed;
