// The association games' table options: the fields a variant offers are the ones its
// capabilities list (`options`, `restrictions`, `story_source`, `board`).
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { select, number, reader } from "../../fields.js";

export const DEFAULT_OPTIONS = {
  first_storyteller: "default", restrictions: "board", on_timeout: "random",
  target_score: null, track_length: 40, clue_seconds: null, card_seconds: null, vote_seconds: null,
  team_seats: "off",
};
const TIMERS = [null, 30, 45, 60, 90, 120, 180, 300];
/** What the home page proposes to a new table: a clock on every phase (the table may turn it off). */
export const proposed = { clue_seconds: 120, card_seconds: 60, vote_seconds: 60 };

/** @param {number | null} v */
const secondsText = (v) => (v === null ? t("options.timer_off") : t("options.seconds", { n: v }));

/** @param {import("../../shell/app.js").Board | null} board */
const hasSpecials = (board) => Boolean(board && Object.keys(board.specials || {}).length);

/**
 * Which end-of-game hint fits the board: a track with an end, special squares, a loop.
 * @param {import("../../shell/app.js").Board | null} board
 */
export function targetHint(board) {
  if (board && !board.loops) return "options.target.hint.pictoric";
  return hasSpecials(board) ? "options.target.hint.imaginarium" : "options.target.hint.dixit";
}

/**
 * The team seats choices: with the box (a companion game) the team sits together at
 * the table, and any member enters for it (the server takes "agree" as "one").
 * @param {boolean} box
 * @returns {import("../../fields.js").Choice[]}
 */
function teamChoices(box) {
  if (box) return [["off", t("options.team_seats.off")], ["one", t("options.team_seats.box")]];
  return [["off", t("options.team_seats.off")], ["one", t("options.team_seats.one")], ["agree", t("options.team_seats.agree")]];
}

/** The number of seats a new table starts with. @param {{max_players: number}} v */
export const defaultSeats = (v) => Math.min(v.max_players, 6);

/**
 * v: a variant (or the room) with its capabilities; players: [{seat, name}] for "host
 * picks" choices, else "I start".
 * @param {{min_players: number, max_players: number, capabilities: import("../../shell/app.js").Capabilities}} v
 * @param {Record<string, any> | null} options
 * @param {{prefix: string, lead?: import("../../dom.js").Child, players?: {seat: number, name: string}[] | null, disabled?: boolean}} opts
 */
export function optionsFields(v, options, { prefix, lead = null, players = null, disabled = false }) {
  const o = { ...DEFAULT_OPTIONS, ...(options || {}) };
  const caps = v.capabilities;
  const box = Boolean(caps.companion_of);
  const offered = new Set(caps.options);
  const f = { prefix, disabled };
  /** @type {import("../../fields.js").Choice[]} */
  const fsChoices = [["default", t("options.first.default", { rule: t(`options.first.short.${caps.first_storyteller}`) })]];
  // Only a storyteller who tells from the hand can claim the first turn.
  if (caps.story_source === "hand") fsChoices.push(["claim", t("options.first.claim")]);
  fsChoices.push(["random", t("options.first.random")], ["dice", t("options.first.dice")]);
  if (players) for (const p of players) fsChoices.push([p.seat, t("options.first.seat", { name: p.name })]);
  else fsChoices.push([0, t("options.first.host")]);
  // A board with special squares asks for their clues ("board") unless turned off; on a
  // board without any, "board" is the free clue and "off" would say the same again.
  const specials = hasSpecials(caps.board);
  /** @type {import("../../fields.js").Choice[]} */
  const restrictionChoices = [["board", t(specials ? "options.restrictions.board" : "options.restrictions.free")]];
  if (specials || o.restrictions === "off") restrictionChoices.push(["off", t("options.restrictions.off")]);
  for (const r of caps.restrictions) restrictionChoices.push([r, t("options.restrictions.only", { what: t(`restriction.${r}.short`) })]);
  /** @type {import("../../fields.js").Choice[]} */
  const timers = TIMERS.map((x) => [x, secondsText(x)]);
  /** @param {string} name @param {string} label */
  const timer = (name, label) => offered.has(name) && select(name, t(label), timers, o[name], f);
  return h(
    "div",
    { class: "options-grid" },
    lead,
    offered.has("first_storyteller") && select("first_storyteller", t("options.first"), fsChoices, o.first_storyteller, f),
    offered.has("restrictions") && caps.restrictions.length > 0 &&
      select("restrictions", t("options.restrictions"), restrictionChoices, o.restrictions, { ...f, hint: t(specials ? "options.restrictions.hint" : "options.restrictions.hint_free") }),
    offered.has("target_score") &&
      number("target_score", t("options.target"), o.target_score, { ...f, min: 1, max: 200, placeholder: t("options.target_off"), hint: t(targetHint(caps.board)) }),
    offered.has("track_length") && number("track_length", t("options.track"), o.track_length, { ...f, min: 5, max: 200, hint: t("options.track.hint") }),
    timer("clue_seconds", "options.clue_timer"),
    timer("card_seconds", "options.card_timer"),
    timer("vote_seconds", "options.vote_timer"),
    offered.has("team_seats") &&
      select("team_seats", t("options.team_seats"), teamChoices(box), box && o.team_seats === "agree" ? "one" : o.team_seats, {
        ...f, hint: t(box ? "options.team_seats.hint_box" : "options.team_seats.hint"),
      }),
    offered.has("on_timeout") &&
      select("on_timeout", t("options.on_timeout"), [["random", t("options.on_timeout.random")], ["skip", t("options.on_timeout.skip")]], o.on_timeout, {
        ...f, hint: t("options.on_timeout.hint"),
      }),
  );
}

/**
 * Read the fields back: the options this variant offers.
 * @param {ParentNode} root
 * @param {import("../../shell/app.js").Capabilities} caps
 */
export function readOptions(root, caps) {
  const { val, int } = reader(root);
  const offered = new Set(caps.options);
  const fs = val("first_storyteller");
  /** @type {Record<string, any>} */
  const options = {
    first_storyteller: /^\d+$/.test(fs) ? Number(fs) : fs || "default",
    restrictions: val("restrictions") || "board",
    on_timeout: val("on_timeout") || "random",
    target_score: int("target_score"),
  };
  for (const name of ["clue_seconds", "card_seconds", "vote_seconds"]) if (offered.has(name)) options[name] = int(name);
  if (offered.has("track_length")) options.track_length = int("track_length") ?? 40;
  if (offered.has("team_seats")) options.team_seats = val("team_seats") || "off";
  return options;
}
