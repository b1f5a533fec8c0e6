// The drawing game's table options (reverie.rules.visual.Options), for the home page's
// create form and the lobby.
import { h } from "../../dom.js";
import { t, lang, LANG_NAMES, LANGS } from "../../i18n.js";
import { select, number, reader } from "../../fields.js";
import { wordsFields } from "./words.js";

export const VISUAL_DEFAULTS = {
  language: null, choose_seconds: 20, think_seconds: 5, draw_seconds: 60,
  move_seconds: 30, bonus_seconds: 30, lose_seconds: 30, overshoot: "bounce",
  blank_share: 0.15, turn_limit: null, words: null, word_mode: "beside",
};

/** What the home page proposes to a new table: the defaults. */
export const proposed = {};

/** The number of seats a new table starts with. @param {{max_players: number}} v */
export const defaultSeats = (v) => Math.min(v.max_players, 8);

/**
 * Choices, with the current value added when it is not among them (set another way).
 * @param {number[]} values
 * @param {number | null | undefined} current
 * @param {(v: number) => string} text
 * @returns {import("../../fields.js").Choice[]}
 */
function withValue(values, current, text) {
  const list = values.slice();
  if (current !== null && current !== undefined && !list.includes(current)) list.push(current);
  list.sort((a, b) => a - b);
  return list.map((v) => [v, text(v)]);
}

/** @param {number} v */
const secs = (v) => t("options.seconds", { n: v });

/**
 * The fields of the options this variant offers (its `options` capability).
 * @param {{capabilities: import("../../shell/app.js").Capabilities}} v
 * @param {Record<string, any> | null} options
 * @param {{prefix: string, lead?: import("../../dom.js").Child, disabled?: boolean}} opts
 */
export function optionsFields(v, options, { prefix, lead = null, disabled = false }) {
  const o = { ...VISUAL_DEFAULTS, ...(options || {}) };
  const on = new Set(v.capabilities.options);
  const f = { prefix, disabled };
  /** @param {number} x */
  const share = (x) => {
    if (x === 0) return t("options.visual.blank.none");
    if (x >= 1) return t("options.visual.blank.all");
    return t("options.visual.blank.share", { n: Math.round(x * 100) });
  };
  return h(
    "div",
    { class: "options-grid" },
    lead,
    on.has("language") && select("language", t("options.visual.language"), LANGS.map((l) => [l, LANG_NAMES[l]]), o.language || lang(), {
      ...f, hint: t("options.visual.language.hint"),
    }),
    // No "off" (docs/rules.md): the hint says so where a table looks for it.
    on.has("draw_seconds") && select("draw_seconds", t("options.visual.draw"), withValue([30, 45, 60, 90, 120, 180], o.draw_seconds, secs), o.draw_seconds, {
      ...f, hint: t("options.visual.timers_on"),
    }),
    on.has("think_seconds") && select("think_seconds", t("options.visual.think"), withValue([0, 3, 5, 10, 15], o.think_seconds, secs), o.think_seconds, f),
    on.has("choose_seconds") && select("choose_seconds", t("options.visual.choose"), withValue([10, 20, 30, 60], o.choose_seconds, secs), o.choose_seconds, f),
    on.has("move_seconds") && select("decide_seconds", t("options.visual.decide"), withValue([15, 30, 60], o.move_seconds, secs), o.move_seconds, {
      ...f, hint: t("options.visual.decide.hint"),
    }),
    on.has("overshoot") && select(
      "overshoot",
      t("options.visual.overshoot"),
      [["bounce", t("options.visual.overshoot.bounce")], ["stay", t("options.visual.overshoot.stay")]],
      o.overshoot,
      f,
    ),
    on.has("blank_share") && select("blank_share", t("options.visual.blank"), withValue([0, 0.1, 0.15, 0.3, 1], o.blank_share, share), o.blank_share, {
      ...f, hint: t("options.visual.blank.hint"),
    }),
    on.has("turn_limit") && number("turn_limit", t("options.visual.turn_limit"), o.turn_limit, {
      min: 1, max: 500, placeholder: t("options.target_off"), ...f, hint: t("options.visual.turn_limit.hint"),
    }),
    on.has("words") && wordsFields(o, { prefix, disabled, language: o.language || lang() }),
  );
}

/**
 * Read the fields back (the options this variant offers).
 * @param {ParentNode} root
 * @param {import("../../shell/app.js").Capabilities} caps
 */
export function readOptions(root, caps) {
  const { val, int: intOrNull } = reader(root);
  /** @param {string} n @param {number | null} fallback */
  const int = (n, fallback) => intOrNull(n) ?? fallback;
  const decide = int("decide_seconds", VISUAL_DEFAULTS.move_seconds);
  const share = Number.parseFloat(val("blank_share"));
  const limit = val("turn_limit").trim();
  const options = {
    language: val("language") || lang(),
    choose_seconds: int("choose_seconds", VISUAL_DEFAULTS.choose_seconds),
    think_seconds: int("think_seconds", VISUAL_DEFAULTS.think_seconds),
    draw_seconds: int("draw_seconds", VISUAL_DEFAULTS.draw_seconds),
    move_seconds: decide,
    bonus_seconds: decide,
    lose_seconds: decide,
    overshoot: val("overshoot") === "stay" ? "stay" : "bounce",
    blank_share: Number.isFinite(share) ? share : VISUAL_DEFAULTS.blank_share,
    turn_limit: limit === "" ? null : int("turn_limit", null),
    words: val("words") || null,
    word_mode: val("word_mode") === "instead" ? "instead" : "beside",
  };
  /** @type {Record<string, any>} */
  const offered = {};
  for (const [k, x] of Object.entries(options)) if (caps.options.includes(k)) offered[k] = x;
  return offered;
}
