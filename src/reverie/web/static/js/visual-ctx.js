// What the drawing game's screens share: the room page's controller (set once by
// room.js) and small look-ups over the latest state.
import { teamColor } from "./teams.js";

let ctx = null;

/**
 * c: {room(), game(), me(), send(frame, anchor), action(frame, anchor), sendRaw(frame),
 *     section(id, sig, build), render(), isHost()}
 */
export function setContext(c) {
  ctx = c;
}

export const room = () => ctx?.room() || null;
export const game = () => ctx?.game() || null;
export const me = () => (ctx ? ctx.me() : null);
export const isHost = () => Boolean(ctx?.isHost());
export const send = (frame, anchor = null) => ctx?.send(frame, anchor);
export const action = (frame, anchor = null) => ctx?.action(frame, anchor);
export const sendRaw = (frame) => Boolean(ctx?.sendRaw(frame));
export const section = (id, sig, build) => ctx?.section(id, sig, build);
export const rerender = () => ctx?.render();

export function player(seat) {
  return room()?.players.find((p) => p.seat === seat) || null;
}

export function nameOf(seat) {
  const p = player(seat) || game()?.players?.find((x) => x.seat === seat);
  return p ? p.name : `#${Number(seat) + 1}`;
}

export function seatColor(seat) {
  return player(seat)?.color || "#888";
}

export function colorOf(team) {
  return teamColor(room(), team);
}

/** My team: from the game view while playing, else from the room. */
export function myTeam() {
  const g = game();
  if (g?.you && g.you.team !== undefined) return g.you.team;
  const p = player(me());
  return p ? (p.team ?? null) : null;
}

export function isVisualRoom(r = room()) {
  return r?.family === "visual" || r?.variant === "visual";
}
