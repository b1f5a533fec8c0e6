// Form fields shared by the table options of every game (home page and lobby).
import { h } from "./dom.js";
import { t } from "./i18n.js";

/**
 * @typedef {{prefix: string, disabled?: boolean}} FieldOpts
 * @typedef {[string | number | null, string]} Choice
 */

/**
 * @param {string} name
 * @param {string} label
 * @param {Choice[]} choices
 * @param {unknown} value
 * @param {FieldOpts & {hint?: string | null}} opts
 */
export function select(name, label, choices, value, { prefix, hint = null, disabled = false }) {
  const id = `${prefix}-${name}`;
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, label),
    h(
      "select",
      { id, name, disabled, "aria-describedby": hint ? `${id}-hint` : null, value: value === null || value === undefined ? "" : String(value) },
      choices.map(([v, text]) => h("option", { value: v === null ? "" : String(v) }, text)),
    ),
    hint && h("div", { class: "hint", id: `${id}-hint` }, hint),
  );
}

/**
 * @param {string} name
 * @param {string} label
 * @param {unknown} value
 * @param {FieldOpts & {min: number, max: number, placeholder?: string, hint?: string | null}} opts
 */
export function number(name, label, value, { prefix, min, max, placeholder = "", hint = null, disabled = false }) {
  const id = `${prefix}-${name}`;
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

/**
 * The number of seats, from the game's player counts.
 * @param {{min_players: number, max_players: number}} v
 * @param {number} seats
 * @param {FieldOpts} opts
 */
export function seatsField(v, seats, opts) {
  /** @type {Choice[]} */
  const choices = [];
  for (let n = v.min_players; n <= v.max_players; n++) choices.push([n, t("options.seats_n", { n })]);
  return select("seats", t("options.seats"), choices, seats, opts);
}

/**
 * The fields' values by name.
 * @param {ParentNode} root
 */
export function reader(root) {
  /** @param {string} n */
  const val = (n) => /** @type {HTMLInputElement | null} */ (root.querySelector(`[name="${n}"]`))?.value ?? "";
  /** @param {string} n @returns {number | null} */
  const int = (n) => {
    const v = val(n).trim();
    if (v === "") return null;
    const x = Number.parseInt(v, 10);
    return Number.isFinite(x) ? x : null;
  };
  return { val, int };
}
