// The table's text filter (reverie.content.textfilter): what it hides in names, chat,
// clues and guesses, shown to others as asterisks. The host sets it in the lobby's
// options; everyone sees it there.
import { t } from "../i18n.js";
import { select } from "../fields.js";

/** The levels the server accepts (reverie.content.textfilter.LEVELS). */
export const FILTER_LEVELS = ["off", "mild", "strict"];

/**
 * The select of the table's `text_filter`.
 * @param {string | undefined} value
 * @param {{prefix: string, disabled?: boolean}} opts
 */
export function filterField(value, { prefix, disabled = false }) {
  /** @type {import("../fields.js").Choice[]} */
  const choices = FILTER_LEVELS.map((level) => [level, t(`textfilter.${level}`)]);
  return select("text_filter", t("textfilter.label"), choices, value ?? "mild", { prefix, disabled, hint: t("textfilter.hint") });
}

/**
 * The value of the field in `root` ("mild" when there is none).
 * @param {ParentNode} root
 * @returns {string}
 */
export function readFilter(root) {
  const el = /** @type {HTMLSelectElement | null} */ (root.querySelector("[name=text_filter]"));
  return el && FILTER_LEVELS.includes(el.value) ? el.value : "mild";
}
