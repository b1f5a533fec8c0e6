// The contract between the room page's shell and a game family's module, and the choice
// of the module by the room's `client` capability (never by the variant's name).
import { association } from "../families/association/index.js";
import { visual } from "../families/visual/index.js";
import { companion } from "../families/companion/index.js";
import { visualCompanion } from "../families/vcompanion/index.js";

/**
 * @typedef {import("../dom.js").Child} Child
 * @typedef {{
 *   onState: (f: import("./app.js").StateFrame, prev: import("./app.js").StateFrame | null) => void,
 *   onAck: (f: Record<string, any>) => void,
 *   onFrame: (f: Record<string, any>) => boolean,
 *   status: () => string,
 *   yourMove: () => boolean,
 *   chatMode: () => {team: boolean, silent: boolean},
 *   lobbyPlayers: () => Child,
 *   optionsFields: (opts: {prefix: string, disabled: boolean, players: {seat: number, name: string}[], lead: Child}) => Child,
 *   readOptions: (root: ParentNode) => Record<string, any>,
 *   main: () => {final: Child, reveal: Child, stage: Child},
 *   side: () => {scores: Child, board: Child, log: Child},
 *   onKey: (e: KeyboardEvent) => void,
 *   table?: () => Child,
 * }} Family
 */

/** @type {Record<string, Family>} */
const FAMILIES = { association, visual, companion, "visual-companion": visualCompanion };

/**
 * @param {import("./app.js").Capabilities | null} caps
 * @returns {Family | null}
 */
export function familyFor(caps) {
  return (caps && FAMILIES[caps.client]) || null;
}
