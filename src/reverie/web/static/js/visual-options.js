// The drawing game's table options (reverie.rules.visual.Options), for the home page's
// create form and the lobby.
import { h } from "./dom.js";
import { t, lang, LANG_NAMES, LANGS } from "./i18n.js";
import { select, number } from "./options.js";

export const VISUAL_DEFAULTS = {
  language: null, choose_seconds: 20, think_seconds: 5, draw_seconds: 60,
  move_seconds: 30, bonus_seconds: 30, lose_seconds: 30, overshoot: "bounce",
  blank_share: 0.15, turn_limit: null,
};

export const isVisual = (variant) => variant?.family === "visual" || variant?.name === "visual";

/** Choices, with the current value added when it is not among them (set another way). */
function withValue(values, current, text) {
  const list = values.slice();
  if (current !== null && current !== undefined && !list.includes(current)) list.push(current);
  list.sort((a, b) => a - b);
  return list.map((v) => [v, text(v)]);
}

const secs = (v) => t("options.seconds", { n: v });

export function visualOptionsFields(variant, options, seats, { disabled = false } = {}) {
  const o = { ...VISUAL_DEFAULTS, ...(options || {}) };
  const seatChoices = [];
  for (let n = variant.min_players; n <= variant.max_players; n++) seatChoices.push([n, t("options.seats_n", { n })]);
  const share = (v) => {
    if (v === 0) return t("options.visual.blank.none");
    if (v >= 1) return t("options.visual.blank.all");
    return t("options.visual.blank.share", { n: Math.round(v * 100) });
  };
  return h(
    "div",
    { class: "options-grid" },
    select("seats", t("options.seats"), seatChoices, seats ?? Math.min(variant.max_players, 8), { disabled }),
    select("language", t("options.visual.language"), LANGS.map((l) => [l, LANG_NAMES[l]]), o.language || lang(), {
      disabled, hint: t("options.visual.language.hint"),
    }),
    select("draw_seconds", t("options.visual.draw"), withValue([30, 45, 60, 90, 120, 180], o.draw_seconds, secs), o.draw_seconds, { disabled }),
    select("think_seconds", t("options.visual.think"), withValue([0, 3, 5, 10, 15], o.think_seconds, secs), o.think_seconds, { disabled }),
    select("choose_seconds", t("options.visual.choose"), withValue([10, 20, 30, 60], o.choose_seconds, secs), o.choose_seconds, { disabled }),
    select("decide_seconds", t("options.visual.decide"), withValue([15, 30, 60], o.move_seconds, secs), o.move_seconds, {
      disabled, hint: t("options.visual.decide.hint"),
    }),
    select(
      "overshoot",
      t("options.visual.overshoot"),
      [["bounce", t("options.visual.overshoot.bounce")], ["stay", t("options.visual.overshoot.stay")]],
      o.overshoot,
      { disabled },
    ),
    select("blank_share", t("options.visual.blank"), withValue([0, 0.1, 0.15, 0.3, 1], o.blank_share, share), o.blank_share, {
      disabled, hint: t("options.visual.blank.hint"),
    }),
    number("turn_limit", t("options.visual.turn_limit"), o.turn_limit, {
      min: 1, max: 500, placeholder: t("options.target_off"), disabled, hint: t("options.visual.turn_limit.hint"),
    }),
  );
}

/** Read the fields back: {options, seats}. */
export function readVisualOptions(root) {
  const val = (n) => root.querySelector(`[name="${n}"]`)?.value ?? "";
  const int = (n, fallback) => {
    const x = Number.parseInt(val(n), 10);
    return Number.isFinite(x) ? x : fallback;
  };
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
  };
  const seats = Number.parseInt(val("seats"), 10);
  return { options, seats: Number.isFinite(seats) ? seats : null };
}
