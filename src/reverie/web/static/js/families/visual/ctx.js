// What the drawing game's screens share: the room page's state (shell/app.js) and small
// look-ups over it.
import { room, game, me, theCaps } from "../../shell/app.js";
import { teamColor } from "./teams.js";

export { room, game, me, caps, theRoom, theGame, theCaps, isHost, send, action, sendRaw, rerender, nameOf, tableLang } from "../../shell/app.js";

/** @param {number} seat */
export function player(seat) {
  return room()?.players.find((p) => p.seat === seat) || null;
}

/** @param {number} seat */
export function seatColor(seat) {
  return player(seat)?.color || "#888";
}

/** @param {number | null} team */
export function colorOf(team) {
  return teamColor(room(), team);
}

/** My team: from the game view while playing, else from the room. */
export function myTeam() {
  const g = game();
  if (g?.you && g.you.team !== undefined) return g.you.team;
  const mine = me();
  const p = mine === null ? null : player(mine);
  return p ? (p.team ?? null) : null;
}

/**
 * The drawing game's board, canvas and teams: capabilities every room of this family
 * has (null only in another family's). The error names the one missing.
 * @template {"board" | "canvas" | "teams"} K
 * @param {K} name
 * @returns {NonNullable<import("../../shell/app.js").Capabilities[K]>}
 */
export function theCap(name) {
  const value = theCaps()[name];
  if (value === null || value === undefined) throw new Error(`the room has no ${name}: not a drawing game`);
  return value;
}
