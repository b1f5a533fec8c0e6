// The drawing game's own words: a host pastes entries per category, the server checks
// and keeps them (POST /api/words) and the table's options name the list by its id.
// The words stay in the host's page: the room's frames carry only the id.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { getJSON } from "../../common.js";

const CATEGORIES = ["objects", "actions", "places", "luck", "proverbs"];
/** @type {Record<string, Record<string, number>>} counts of the lists seen, by id */
const counts = {};

/**
 * @param {string} id
 * @param {() => void} redraw
 */
function countsOf(id, redraw) {
  if (!id || counts[id]) return counts[id] || null;
  counts[id] = {};
  getJSON(`/api/words/${encodeURIComponent(id)}`).then((res) => {
    counts[id] = res.counts || {};
    redraw();
  }, () => {
    counts[id] = { missing: 1 };
    redraw();
  });
  return null;
}

/** @param {Record<string, number>} c */
function summary(c) {
  if (c.missing) return t("words.missing");
  return CATEGORIES.filter((k) => c[k]).map((k) => `${t(`vcat.${k}`)}: ${c[k]}`).join(" · ");
}

/**
 * A problem the server found in one category.
 * @param {{category: string, code: string, params?: Record<string, any>}} p
 */
function problemText(p) {
  const where = CATEGORIES.includes(p.category) ? `${t(`vcat.${p.category}`)}: ` : "";
  const key = `words.problem.${p.code}`;
  const text = t(key, p.params || {});
  return where + (text === key ? t("error.generic") : text);
}

/**
 * Send one box's typed words to be kept (what "Use these words" does); true once they
 * are kept (or nothing is typed), false when the server refused them (its reasons are
 * shown in the box).
 * @param {HTMLElement} root the box (`.own-words`)
 * @param {string} language
 */
async function keep(root, language) {
  const box = root.id;
  const out = /** @type {HTMLElement} */ (root.querySelector(".words-problems"));
  /** @type {Record<string, string>} */
  const categories = {};
  for (const k of CATEGORIES) {
    const area = /** @type {HTMLTextAreaElement} */ (root.querySelector(`textarea[data-category=${k}]`));
    if (area && area.value.trim()) categories[k] = area.value;
  }
  out.replaceChildren();
  if (!Object.keys(categories).length) {
    delete root.dataset.unsaved;
    return true;
  }
  const lang = /** @type {HTMLSelectElement} */ (root.closest("form")?.querySelector("[name=language]"))?.value || language;
  try {
    const answer = await fetch("/api/words", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ language: lang, categories }),
    });
    const res = await answer.json().catch(() => ({}));
    // A refusal lists each category's problem: shown one a line.
    if (!answer.ok) throw Object.assign(new Error("refused"), res.error || {});
    counts[res.id] = res.counts;
    const hidden = /** @type {HTMLInputElement} */ (root.querySelector("input[name=words]"));
    hidden.value = res.id;
    /** @type {HTMLElement} */ (root.querySelector(`#${box}-summary`)).textContent = summary(res.counts);
    delete root.dataset.unsaved;
    // The lobby sends its options on a change in its form.
    hidden.dispatchEvent(new Event("change", { bubbles: true }));
    return true;
  } catch (e) {
    const err = /** @type {any} */ (e);
    const li = (/** @type {string} */ text) => Object.assign(document.createElement("li"), { textContent: text });
    out.append(li(err.code === "bad_words" ? t("words.refused") : t("error.generic")));
    for (const p of err.problems || []) out.append(li(problemText(p)));
    const editor = /** @type {HTMLDetailsElement | null} */ (root.querySelector("details.words-editor"));
    if (editor) editor.open = true;
    return false;
  }
}

/**
 * Words typed in a form's boxes but not kept yet are sent now: a room created (or a
 * game started) right after typing plays them, never silently drops them. True when
 * nothing is left unkept; false when the server refused them (reasons in the box).
 * @param {ParentNode} form
 * @param {string} language
 */
export async function keepTypedWords(form, language) {
  for (const root of /** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll(".own-words[data-unsaved]"))) {
    if (!(await keep(root, language))) return false;
  }
  return true;
}

/**
 * The fields: the list in use (a hidden `words` field), how it is played, and (for
 * whoever may change the options) an editor.
 * @param {{words?: string | null, word_mode?: string}} o
 * @param {{prefix: string, disabled: boolean, language: string}} opts
 */
export function wordsFields(o, { prefix, disabled, language }) {
  const id = o.words || "";
  const box = `${prefix}-words`;
  /** @param {Event} ev */
  const container = (ev) => /** @type {HTMLElement} */ (/** @type {HTMLElement} */ (ev.currentTarget).closest(".own-words"));
  const redraw = () => {
    const el = document.getElementById(`${box}-summary`);
    if (el && id && counts[id]) el.textContent = summary(counts[id]);
  };
  const c = id ? countsOf(id, redraw) : null;
  /** @param {Event} ev */
  const save = async (ev) => {
    const button = /** @type {HTMLButtonElement} */ (ev.currentTarget);
    button.disabled = true;
    try {
      await keep(container(ev), language);
    } finally {
      button.disabled = false;
    }
  };
  /** @param {Event} ev */
  const clear = (ev) => {
    const hidden = /** @type {HTMLInputElement} */ (container(ev).querySelector("input[name=words]"));
    hidden.value = "";
    /** @type {HTMLElement} */ (container(ev).querySelector(`#${box}-summary`)).textContent = t("words.none");
    hidden.dispatchEvent(new Event("change", { bubbles: true }));
  };
  return h(
    "fieldset",
    { class: "own-words field", id: box },
    h("legend", {}, t("words.heading")),
    h("input", { type: "hidden", name: "words", value: id }),
    h("p", { class: "small", id: `${box}-summary`, role: "status" }, id ? (c ? summary(c) : "…") : t("words.none")),
    h(
      "label",
      { class: "small" },
      t("words.mode"), " ",
      h(
        "select",
        { name: "word_mode", disabled, value: o.word_mode || "beside" },
        h("option", { value: "beside" }, t("words.mode.beside")),
        h("option", { value: "instead" }, t("words.mode.instead")),
      ),
    ),
    disabled ? null : h(
      "details",
      { class: "words-editor" },
      h("summary", {}, t("words.edit")),
      h("p", { class: "small muted" }, t("words.hint")),
      CATEGORIES.map((k) => h(
        "label",
        { class: "field", key: k },
        h("span", { class: "small" }, t(`vcat.${k}`)),
        h("textarea", {
          rows: 4, "data-category": k, spellcheck: "true",
          // Typing is not an option change: the list is sent with the button below,
          // or when the room is created or the game started (keepTypedWords).
          onchange: (/** @type {Event} */ ev) => ev.stopPropagation(),
          oninput: (/** @type {Event} */ ev) => { container(ev).dataset.unsaved = "1"; },
        }),
      )),
      h("ul", { class: "words-problems small warn", role: "alert" }),
      h(
        "div",
        { class: "actions" },
        h("button", { type: "button", class: "btn btn-small words-save", onclick: save }, t("words.save")),
        id ? h("button", { type: "button", class: "btn btn-quiet btn-small words-clear", onclick: clear }, t("words.clear")) : null,
      ),
    ),
  );
}
