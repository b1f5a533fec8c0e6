// The table's "more time" setting (WCAG 2.2.1, timing adjustable): every game timer
// runs 1, 2 or 4 times its length, for players who need more time. The host sets it in
// the lobby's options; everyone sees it there, and a note under the players says it when
// the table took more time.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { select } from "../fields.js";

/** The factors the server accepts (reverie.rooms.events.TIME_FACTORS). */
export const TIME_FACTORS = [1, 2, 4];

/** @param {number} f */
const factorText = (f) => (f === 1 ? t("time.normal") : t("time.longer", { n: f }));

/**
 * The select of the table's `time_factor`.
 * @param {number | undefined} value
 * @param {{prefix: string, disabled?: boolean}} opts
 */
export function timeField(value, { prefix, disabled = false }) {
  /** @type {import("../fields.js").Choice[]} */
  const choices = TIME_FACTORS.map((f) => [f, factorText(f)]);
  return select("time_factor", t("time.label"), choices, value ?? 1, { prefix, disabled, hint: t("time.hint") });
}

/**
 * The value of the field in `root` (1 when there is none).
 * @param {ParentNode} root
 * @returns {number}
 */
export function readTime(root) {
  const el = /** @type {HTMLSelectElement | null} */ (root.querySelector("[name=time_factor]"));
  const n = el ? Number.parseInt(el.value, 10) : 1;
  return TIME_FACTORS.includes(n) ? n : 1;
}

/**
 * The lobby's line for a table that lengthened its timers (none at the game's pace).
 * @param {number | undefined} factor
 */
export function timeNote(factor) {
  if (!factor || factor === 1) return null;
  return h("p", { class: "time-note", id: "time-note" }, icon("clock", { size: 18 }), " ", t("time.note", { n: factor }));
}
