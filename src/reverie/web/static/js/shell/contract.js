// The contract between the room page's shell and a game family's module. A family gives
// what only it can say (its status line and its screens) and whatever it does
// differently from the defaults below; `defineFamily` fills in the rest, so a new game
// starts from three members and each family module reads as what sets it apart.
import { familyOptions } from "../families/options.js";
import { game, me, theRoom, theCaps } from "./app.js";
import { seatsLobby } from "./lobby.js";
import { scoresLine } from "./announce.js";

/**
 * @typedef {import("../dom.js").Child} Child
 * @typedef {import("./app.js").StateFrame} StateFrame
 * @typedef {import("./app.js").RoomPlayer} RoomPlayer
 * @typedef {{prefix: string, disabled: boolean, players: {seat: number, name: string}[], lead: Child}} OptionsOpts
 * @typedef {{final: Child, reveal: Child, stage: Child}} MainColumn
 * @typedef {{scores: Child, board: Child, log: Child}} SideColumn
 *
 * @typedef {object} FamilyCore What every family gives.
 * @property {() => string} status the status line while a game is on
 * @property {() => MainColumn} main the main column: the end, the last round or turn, the stage
 * @property {() => SideColumn} side the side column: scores, board (also in the lobby), log
 *
 * @typedef {object} FamilyExtras What a family may give; DEFAULTS says what it is without.
 * @property {(f: StateFrame, prev: StateFrame | null) => void} onState every state, before the page is drawn
 * @property {(f: Record<string, any>) => void} onAck the server took a frame of this page's
 * @property {(f: Record<string, any>) => boolean} onFrame a frame the shell does not know
 *   (the drawing game's strokes); true when the page must be drawn again
 * @property {(f: Record<string, any>) => boolean} onError an `error` frame the shell has not
 *   handled itself; true when the family has dealt with it (no toast then)
 * @property {() => boolean} yourMove whether the game waits for this page's seat
 * @property {() => boolean} mayChat whether this seat may write in the chat now
 * @property {() => Child} chatSilence what a seat that may not chat reads instead of the form
 * @property {() => boolean} teamChat whether this seat is offered lines for its team only
 * @property {() => Child} lobbyPlayers the lobby's list of players
 * @property {(p: RoomPlayer) => Child} lobbyTags the family's own tags by a player's name
 * @property {(opts: OptionsOpts) => Child} optionsFields the lobby's table options
 * @property {(root: ParentNode) => Record<string, any>} readOptions the options of the lobby's form
 * @property {(form: ParentNode, anchor: Element) => Promise<boolean>} beforeStart what must
 *   be done before the host's start is sent; false keeps the lobby open (and the family
 *   says why, by `anchor`)
 * @property {(g: Record<string, any>, was: Record<string, any>) => string[]} announce what a
 *   screen reader is told of a change of the game beyond the status line (a round's
 *   reveal, the points), from the view `was` to `g`
 * @property {(e: KeyboardEvent) => void} onKey a key pressed anywhere on the page
 * @property {(() => Child) | null} table the table screen (`?table`); null: the spectator's page
 *
 * @typedef {FamilyCore & FamilyExtras} Family
 * @typedef {FamilyCore & Partial<FamilyExtras>} FamilyParts
 */

/** @type {FamilyExtras} */
const DEFAULTS = {
  onState: () => {},
  onAck: () => {},
  onFrame: () => false,
  onError: () => false,
  // The rules' views list the seats the game waits for in `waiting_for`.
  yourMove: () => {
    const g = game();
    const mine = me();
    return Boolean(g && mine !== null && g.phase !== "over" && (g.waiting_for || []).includes(mine));
  },
  mayChat: () => true,
  chatSilence: () => null,
  teamChat: () => false,
  lobbyPlayers: () => seatsLobby(),
  lobbyTags: () => null,
  // The table options the home page offers for this client, with the room's values.
  optionsFields: (opts) => familyOptions(theRoom()).optionsFields(theRoom(), theRoom().options, opts),
  readOptions: (root) => familyOptions(theRoom()).readOptions(root, theCaps()),
  beforeStart: async () => true,
  announce: (g, was) => [scoresLine(g, was, false)],
  onKey: () => {},
  table: null,
};

/**
 * A family module: its own members over the defaults.
 * @param {FamilyParts} parts
 * @returns {Family}
 */
export function defineFamily(parts) {
  return { ...DEFAULTS, ...parts };
}

