// The table options form, shared by the home page (create) and the lobby (host edits).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { RESTRICTIONS, isGallery, isPictoric } from "./variants.js";

export const DEFAULT_OPTIONS = {
  first_storyteller: "default", restrictions: "board", on_timeout: "random",
  target_score: null, track_length: 40, clue_seconds: null, card_seconds: null, vote_seconds: null,
};
const TIMERS = [null, 30, 45, 60, 90, 120, 180, 300];
let uid = 0;

export function select(name, label, choices, value, { hint = null, disabled = false } = {}) {
  const id = `opt-${name}-${++uid}`;
  const sel = h(
    "select",
    { id, name, disabled, "aria-describedby": hint ? `${id}-hint` : null },
    choices.map(([v, text]) => h("option", { value: v === null ? "" : String(v) }, text)),
  );
  sel.value = value === null || value === undefined ? "" : String(value);
  return h("div", { class: "field" }, h("label", { for: id }, label), sel, hint && h("div", { class: "hint", id: `${id}-hint` }, hint));
}

export function number(name, label, value, { min, max, placeholder = "", hint = null, disabled = false }) {
  const id = `opt-${name}-${++uid}`;
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, label),
    h("input", {
      id, name, type: "number", inputmode: "numeric", min, max, placeholder, disabled,
      value: value === null || value === undefined ? "" : String(value),
      "aria-describedby": hint ? `${id}-hint` : null,
    }),
    hint && h("div", { class: "hint", id: `${id}-hint` }, hint),
  );
}

const secondsText = (v) => (v === null ? t("options.timer_off") : t("options.seconds", { n: v }));

/**
 * variant: an entry of /api/variants; players: [{seat, name}] for "host picks" choices.
 */
export function optionsFields(variant, options, seats, { players = null, disabled = false } = {}) {
  const o = { ...DEFAULT_OPTIONS, ...(options || {}) };
  const name = variant.name;
  const seatChoices = [];
  for (let n = variant.min_players; n <= variant.max_players; n++) seatChoices.push([n, t("options.seats_n", { n })]);
  const fsChoices = [["default", t("options.first.default", { rule: t(`options.first.short.${variant.first_storyteller}`) })]];
  if (!isPictoric(name)) fsChoices.push(["claim", t("options.first.claim")]);
  fsChoices.push(["random", t("options.first.random")], ["dice", t("options.first.dice")]);
  if (players) for (const p of players) fsChoices.push([p.seat, t("options.first.seat", { name: p.name })]);
  else fsChoices.push([0, t("options.first.host")]);
  const restrictionChoices = [
    ["board", t(name.startsWith("imaginarium") ? "options.restrictions.board" : "options.restrictions.none_on_board")],
    ["off", t("options.restrictions.off")],
    ...RESTRICTIONS.map((r) => [r, t("options.restrictions.only", { what: t(`restriction.${r}.short`) })]),
  ];
  const timers = TIMERS.map((v) => [v, secondsText(v)]);
  return h(
    "div",
    { class: "options-grid" },
    select("seats", t("options.seats"), seatChoices, seats ?? variant.max_players, { disabled }),
    select("first_storyteller", t("options.first"), fsChoices, o.first_storyteller, { disabled }),
    select("restrictions", t("options.restrictions"), restrictionChoices, o.restrictions, {
      disabled, hint: t("options.restrictions.hint"),
    }),
    number("target_score", t("options.target"), o.target_score, {
      min: 1, max: 200, placeholder: t("options.target_off"), disabled, hint: t(`options.target.hint.${isPictoric(name) ? "pictoric" : name.startsWith("imaginarium") ? "imaginarium" : "dixit"}`),
    }),
    isPictoric(name) &&
      number("track_length", t("options.track"), o.track_length, { min: 5, max: 200, disabled, hint: t("options.track.hint") }),
    select("clue_seconds", t("options.clue_timer"), timers, o.clue_seconds, { disabled }),
    !isGallery(name) && select("card_seconds", t("options.card_timer"), timers, o.card_seconds, { disabled }),
    select("vote_seconds", t("options.vote_timer"), timers, o.vote_seconds, { disabled }),
    select(
      "on_timeout",
      t("options.on_timeout"),
      [["random", t("options.on_timeout.random")], ["skip", t("options.on_timeout.skip")]],
      o.on_timeout,
      { disabled, hint: t("options.on_timeout.hint") },
    ),
  );
}

/** Read the fields back: {options, seats}. */
export function readOptions(root, variantName) {
  const val = (n) => root.querySelector(`[name="${n}"]`)?.value ?? "";
  const intOrNull = (n) => {
    const v = val(n).trim();
    if (v === "") return null;
    const x = Number.parseInt(v, 10);
    return Number.isFinite(x) ? x : null;
  };
  const fs = val("first_storyteller");
  const options = {
    first_storyteller: /^\d+$/.test(fs) ? Number(fs) : fs || "default",
    restrictions: val("restrictions") || "board",
    on_timeout: val("on_timeout") || "random",
    target_score: intOrNull("target_score"),
    clue_seconds: intOrNull("clue_seconds"),
    vote_seconds: intOrNull("vote_seconds"),
  };
  if (!isGallery(variantName)) options.card_seconds = intOrNull("card_seconds");
  if (isPictoric(variantName)) options.track_length = intOrNull("track_length") ?? 40;
  return { options, seats: intOrNull("seats") };
}
