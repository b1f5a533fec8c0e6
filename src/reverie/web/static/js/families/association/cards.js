// Card pictures, the hand and the zoom dialog.
import { h, render } from "../../dom.js";
import { t } from "../../i18n.js";
import { icon } from "../../icons.js";
import { getJSON } from "../../common.js";

/**
 * @typedef {{position?: number, selected?: boolean, disabled?: boolean, note?: string | null,
 *   onChoose?: ((card: number, position?: number) => void) | null, chooseLabel?: string,
 *   mine?: boolean, story?: boolean, dim?: boolean, below?: import("../../dom.js").Child}} TileOpts
 */

let deckName = "default";
/** @type {string[]} */
let images = [];

/** @param {string} name */
export async function loadDeck(name) {
  deckName = name || "default";
  try {
    const res = await getJSON(`/api/decks/${encodeURIComponent(deckName)}/images`);
    images = Array.isArray(res.images) ? res.images : [];
  } catch {
    images = [];
  }
  return images;
}

/** @param {number} card */
export function cardURL(card) {
  const file = images[card];
  if (!file) return null;
  return `/decks/${encodeURIComponent(deckName)}/${String(file).split("/").map(encodeURIComponent).join("/")}`;
}

/**
 * A crisp card picture (portrait 2:3).
 * @param {number} card
 * @param {{alt?: string | null, lazy?: boolean}} [opts]
 */
export function cardImage(card, { alt = null, lazy = false } = {}) {
  const url = cardURL(card);
  const label = alt ?? t("card.alt", { n: card + 1 });
  if (!url) return h("div", { class: "card-img card-missing", role: "img", "aria-label": label }, icon("logo", { size: 40 }));
  return h("img", {
    class: "card-img", src: url, width: 400, height: 600, alt: label, draggable: "false",
    loading: lazy ? "lazy" : "eager", decoding: "async",
  });
}

/**
 * One card tile: a button that opens the zoom dialog.
 * @param {number} card
 * @param {TileOpts} [opts]
 */
export function cardTile(card, opts = {}) {
  const label = opts.position ? t("card.position", { n: opts.position }) : t("card.alt", { n: card + 1 });
  const btn = h(
    "button",
    {
      key: card,
      type: "button",
      class: ["card-tile", opts.selected && "selected", opts.mine && "mine", opts.story && "story", opts.dim && "dim"],
      "data-card": card,
      "data-position": opts.position || null,
      "aria-pressed": opts.onChoose ? String(Boolean(opts.selected)) : null,
      "aria-label": [label, opts.note].filter(Boolean).join(". "),
      onclick: () => openZoom(card, opts),
    },
    cardImage(card, { alt: "" }),
    opts.position ? h("span", { class: "card-pos", "aria-hidden": "true" }, String(opts.position)) : null,
    opts.selected ? h("span", { class: "card-check", "aria-hidden": "true" }, icon("check", { size: 18 })) : null,
    // The space keeps the number and the note two words of the visible text, as the
    // accessible name has them (WCAG 2.5.3, label in name).
    opts.note ? [" ", h("span", { class: "card-note", "aria-hidden": "true" }, opts.note)] : null,
  );
  return h("div", { class: "card-cell", key: `${card}:${opts.position ?? ""}` }, btn, opts.below || null);
}

/**
 * A row of cards: wraps on a desktop, scrolls sideways on a phone.
 * @param {import("../../dom.js").Child[]} tiles
 * @param {{cls?: string, label?: string | null}} [opts]
 */
export function cardRow(tiles, { cls = "", label = null } = {}) {
  return h("div", { class: ["card-row", cls], role: label ? "group" : null, "aria-label": label }, tiles);
}

/** @type {Element | null} */
let lastFocus = null;

/**
 * @param {number} card
 * @param {TileOpts} [opts]
 */
export function openZoom(card, opts = {}) {
  const dlg = /** @type {HTMLDialogElement | null} */ (document.getElementById("zoom"));
  if (!dlg) return;
  wireZoom(dlg);
  lastFocus = document.activeElement;
  const title = opts.position ? t("card.position", { n: opts.position }) : t("card.zoom_title");
  const onChoose = opts.onChoose;
  const choose = onChoose && !opts.disabled
    ? h(
        "button",
        {
          type: "button", class: "btn", id: "zoom-choose",
          onclick: () => {
            closeZoom();
            onChoose(card, opts.position);
          },
        },
        icon("check", { size: 18 }),
        opts.chooseLabel || t("card.choose"),
      )
    : null;
  render(
    h(
      "div",
      { class: "zoom-inner" },
      h("h2", { class: "visually-hidden", id: "zoom-title" }, title),
      h("div", { class: "zoom-card" }, cardImage(card, { alt: title })),
      h(
        "div",
        { class: "zoom-bar" },
        opts.note ? h("p", { class: "zoom-note" }, opts.note) : null,
        h(
          "div",
          { class: "actions" },
          choose,
          h("button", { type: "button", class: "btn btn-quiet", id: "zoom-close", onclick: closeZoom }, icon("close", { size: 18 }), t("common.close")),
        ),
      ),
    ),
    dlg,
  );
  dlg.setAttribute("aria-labelledby", "zoom-title");
  if (!dlg.open) dlg.showModal();
  /** @type {HTMLElement} */ (dlg.querySelector("#zoom-choose") || dlg.querySelector("#zoom-close")).focus();
}

export function closeZoom() {
  const dlg = /** @type {HTMLDialogElement} */ (document.getElementById("zoom"));
  if (dlg && dlg.open) dlg.close();
}

/** The dialog's own listeners, added the first time it opens. */
let wired = false;

/** @param {HTMLDialogElement} dlg */
function wireZoom(dlg) {
  if (wired) return;
  wired = true;
  dlg.addEventListener("close", () => {
    if (lastFocus instanceof HTMLElement && lastFocus.isConnected) lastFocus.focus();
  });
  // A click on the backdrop closes it.
  dlg.addEventListener("click", (e) => {
    if (e.target === dlg) closeZoom();
  });
}
