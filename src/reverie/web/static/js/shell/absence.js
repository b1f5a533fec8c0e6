// Players and hosts who are gone: the table's "a bot stands in after N seconds away"
// setting (lobby and home page), the banner of a player whose seat a bot plays, the
// "Take over as host" offer when the host has gone, the notice of a paused table, and
// what the status line says about seats played by bots and a paused table.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { select } from "../fields.js";
import { app, room, me, players, send } from "./app.js";

/** The choices of `away_seconds`: null is "never". */
export const AWAY_CHOICES = [30, 60, 120, 300, 600, null];
export const DEFAULT_AWAY = 60;

/** @param {number} v seconds */
const duration = (v) => (v % 60 === 0 ? t("away.minutes", { n: v / 60 }) : t("options.seconds", { n: v }));

/** @param {number | null} v */
export function awayText(v) {
  return v === null || v === undefined ? t("away.never") : t("away.after", { time: duration(v) });
}

/**
 * The select of the table's `away_seconds`.
 * @param {number | null | undefined} value
 * @param {{prefix: string, disabled?: boolean}} opts
 */
export function awayField(value, { prefix, disabled = false }) {
  const v = value === undefined ? DEFAULT_AWAY : value;
  const values = AWAY_CHOICES.slice();
  if (v !== null && !values.includes(v)) values.splice(values.length - 1, 0, v);
  /** @type {import("../fields.js").Choice[]} */
  const choices = values.map((x) => [x, awayText(x)]);
  return select("away_seconds", t("away.label"), choices, v, { prefix, disabled, hint: t("away.hint") });
}

/**
 * The value of the field in `root`: seconds, or null for never.
 * @param {ParentNode} root
 * @returns {number | null}
 */
export function readAway(root) {
  const el = /** @type {HTMLSelectElement | null} */ (root.querySelector("[name=away_seconds]"));
  if (!el || el.value === "") return null;
  const n = Number.parseInt(el.value, 10);
  return Number.isFinite(n) ? n : DEFAULT_AWAY;
}

/** @param {Event} e */
const target = (e) => /** @type {Element} */ (e.currentTarget);

/** A bot plays my seat: a clear banner and the button that takes it back. */
function reclaimView() {
  const r = room();
  const p = players().find((x) => x.seat === me());
  if (!p?.bot_playing || r?.status !== "playing") return null;
  return h(
    "div",
    { class: "panel reclaim", role: "alert", id: "bot-banner", key: "reclaim" },
    h("p", {}, icon("bot", { size: 22 }), " ", h("span", {}, h("strong", {}, t("away.bot_plays_you")), " ", t("away.bot_plays_you_hint"))),
    h("button", { type: "button", class: "btn", id: "reclaim", onclick: (/** @type {Event} */ e) => send({ type: "reclaim" }, target(e)) }, t("seat.reclaim")),
  );
}

/** The host has no open connection: a seated player may take the role. */
function hostGoneView() {
  const r = room();
  const mine = me();
  if (!r || mine === null || r.you?.host || r.status === "over") return null;
  const host = r.players.find((p) => p.host);
  if (!host || host.connected || host.bot) return null;
  return h(
    "div",
    { class: "panel host-gone", role: "status", id: "host-gone", key: "host-gone" },
    h("p", {}, icon("crown", { size: 20 }), " ", t("away.host_gone", { name: host.name })),
    h("button", { type: "button", class: "btn btn-quiet", id: "take-host", onclick: (/** @type {Event} */ e) => send({ type: "make_host", seat: mine }, target(e)) },
      icon("crown", { size: 18 }), t("away.take_host")),
  );
}

/** Every person has gone: whoever looks in learns why nothing moves. The status line
 * says it too, but on a phone its one line is cut before the end. */
function pausedView() {
  const r = room();
  if (!r?.paused || r.status !== "playing") return null;
  return h(
    "div",
    { class: "panel host-gone", role: "status", id: "paused", key: "paused" },
    h("p", {}, icon("hourglass", { size: 20 }), " ", t("away.paused_notice")),
  );
}

/** What the notice section shows: the banner of my seat, the host's absence, a pause. */
export function noticesView() {
  const parts = [reclaimView(), hostGoneView(), pausedView()].filter(Boolean);
  return parts.length ? parts : null;
}

/**
 * A readable refusal of "take over as host": the host is not gone long enough yet.
 * @param {Record<string, any>} f an `error` frame
 * @returns {string | null}
 */
export function absenceError(f) {
  if (f.request?.frame?.type === "make_host" && f.code === "not_host" && f.request.frame.seat === me()) {
    const secs = room()?.away_seconds;
    return secs ? t("away.take_host_wait", { time: duration(secs) }) : t("away.take_host_never");
  }
  if (f.request?.frame?.type === "bot_seat" && f.code === "player_present") {
    const secs = room()?.away_seconds;
    return secs ? t("away.bot_seat_wait", { time: duration(secs) }) : null;
  }
  return null;
}

/** What the status line adds about gone players: a paused table, seats bots play. */
export function absenceStatus() {
  const r = room();
  if (!r || r.status !== "playing") return "";
  if (r.paused) return t("away.paused");
  const bots = r.players.filter((p) => !p.bot && p.bot_playing && p.seat !== me()).map((p) => p.name);
  return bots.length ? t("away.status_bots", { names: bots.join(", "), n: bots.length }) : "";
}

/**
 * @param {string} key an i18n key
 * @param {Record<string, string>} params
 */
function note(key, params) {
  app.chat.push({ seat: -1, name: "", text: "", at: Date.now() + app.skew, note: key, params });
}

/**
 * What changed about gone people between two states of a game, said in the chat's
 * running log: a bot now stands in for someone away, they are back in their seat, the
 * host role passed on. (The
 * status line and the players' tags say how things stand; this says when they changed.)
 * @param {import("./app.js").StateFrame | null} prev
 * @param {import("./app.js").StateFrame} next
 */
export function announceAbsence(prev, next) {
  const a = prev?.room;
  const b = next.room;
  if (!a || a.status !== "playing" || b.status !== "playing" || a.players.length !== b.players.length) return;
  b.players.forEach((p, i) => {
    const before = a.players[i];
    if (p.bot || before.name !== p.name || p.seat === me()) return;
    if (p.bot_playing && !before.bot_playing && !p.connected) note("away.note_stand_in", { name: p.name });
    // The stand-in ends when they take their seat back: said too, or the log would leave
    // them away for good.
    if (!p.bot_playing && before.bot_playing && p.connected) note("away.note_back", { name: p.name });
  });
  const host = b.players.findIndex((p) => p.host);
  const was = a.players.findIndex((p) => p.host);
  if (host >= 0 && was >= 0 && host !== was) note("away.note_host", { name: b.players[host].name });
}
