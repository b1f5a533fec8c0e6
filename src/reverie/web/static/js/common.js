// Shared by every page: the site header, the language switch, JSON fetches, toasts.
import { h, render, toElement } from "./dom.js";
import { icon } from "./icons.js";
import { LANGS, LANG_NAMES, initialLang, lang, setLang, t, onLangChange } from "./i18n.js";

export const PALETTE = [
  "#e63946", "#f4a261", "#e9c46a", "#2a9d8f", "#457b9d", "#8338ec",
  "#ff66c4", "#8ac926", "#6d4c41", "#adb5bd", "#1d3557", "#ffffff",
];

export function colorName(c) {
  const i = PALETTE.indexOf(String(c).toLowerCase());
  return i >= 0 ? t(`color.${i}`) : String(c);
}

export class HttpError extends Error {
  /**
   * @param {number} status
   * @param {string | null} code
   * @param {string | null} message
   * @param {Record<string, any>} [params] what the code's translation needs
   */
  constructor(status, code, message, params = {}) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
    this.params = params;
  }
}

async function parse(res) {
  let body;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (!res.ok) {
    const err = body && body.error ? body.error : {};
    throw new HttpError(res.status, err.code || null, err.message || null, err.params || {});
  }
  return body;
}

export async function getJSON(url) {
  return parse(await fetch(url, { headers: { Accept: "application/json" } }));
}

export async function postJSON(url, data) {
  return parse(
    await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(data),
    }),
  );
}

/**
 * A readable message for a server error code (filled from its `params`), else the
 * server's own words.
 * @param {string | null} code
 * @param {string | null} [message]
 * @param {Record<string, any>} [params]
 */
export function errorText(code, message, params = {}) {
  const key = `error.${code}`;
  const p = { ...(params || {}) };
  // A game named by its variant: its title in the reader's language.
  if (typeof p.variant === "string" && t(`variant.${p.variant}.title`) !== `variant.${p.variant}.title`) {
    p.game = t(`variant.${p.variant}.title`);
  }
  const text = t(key, p);
  if (code && text !== key) return text;
  return message || t("error.generic");
}

/**
 * Show a message near `anchor` (inserted after it) or, without one, in the page's toast
 * stack. Errors use role=alert so screen readers announce them.
 * @param {string} text
 * @param {{anchor?: Element | null, kind?: string, ms?: number}} [opts]
 */
export function toast(text, { anchor = null, kind = "error", ms = 6000 } = {}) {
  /** @type {HTMLElement} */
  const el = toElement(h(
    "div",
    { class: ["toast", `toast-${kind}`], role: kind === "error" ? "alert" : "status" },
    icon(kind === "error" ? "warn" : "check", { size: 18 }),
    h("span", { class: "toast-text" }, text),
    h(
      "button",
      { type: "button", class: "toast-close", "aria-label": t("common.close"), onclick: () => el.remove() },
      icon("close", { size: 16 }),
    ),
  ));
  const inDoc = anchor && anchor.isConnected;
  if (inDoc) {
    const box = anchor.closest(".actions") || anchor;
    // One message per place: a newer one replaces the older.
    let next = box.nextElementSibling;
    while (next && next.classList.contains("toast-inline")) {
      const after = next.nextElementSibling;
      next.remove();
      next = after;
    }
    el.classList.add("toast-inline");
    box.after(el);
  } else {
    let stack = document.getElementById("toasts");
    if (!stack) {
      stack = toElement(h("div", { id: "toasts", class: "toasts" }));
      document.body.append(stack);
    }
    stack.append(el);
  }
  if (ms) setTimeout(() => el.remove(), ms);
  return el;
}

function langSelect() {
  return h(
    "select",
    { class: "lang-select", "aria-label": t("common.language"), value: lang(), onchange: (/** @type {Event} */ e) => setLang(/** @type {HTMLSelectElement} */ (e.currentTarget).value) },
    LANGS.map((l) => h("option", { value: l }, LANG_NAMES[l])),
  );
}

/**
 * The site header: logo, links, language. `extra` goes before the language switch.
 * @param {import("./dom.js").Child} [extra]
 */
export function siteHeader(extra = null) {
  /** @param {string} href @param {string} key */
  const link = (href, key) => h("a", { href, "aria-current": location.pathname === href ? "page" : null }, t(key));
  return h(
    "header",
    { class: "site-header" },
    h("a", { class: "brand", href: "/" }, icon("logo", { size: 26 }), h("span", { class: "brand-name" }, "Reverie")),
    h("nav", { class: "site-nav", "aria-label": t("nav.label") }, link("/play", "nav.play"), link("/rules", "nav.rules"), link("/decks", "nav.decks"), link("/credits", "nav.credits")),
    h("div", { class: "header-extra" }, extra),
    langSelect(),
  );
}

/**
 * Load the language, draw the header (#site-header) and run `render` now and on every
 * switch. headerExtra() gives what the header shows before the language switch.
 * @param {() => unknown} renderPage
 * @param {{header?: boolean, headerExtra?: () => import("./dom.js").Child}} [opts]
 */
export async function boot(renderPage, { header = true, headerExtra = () => null } = {}) {
  await setLang(initialLang(), { remember: false });
  const slot = header ? document.getElementById("site-header") : null;
  const drawHeader = () => {
    if (slot) render(siteHeader(headerExtra()), slot);
  };
  drawHeader();
  onLangChange(() => {
    // A message shown in the old language would stay until it fades: it goes now.
    for (const el of document.querySelectorAll(".toast")) el.remove();
    drawHeader();
    renderPage();
  });
  await renderPage();
}

/**
 * Copy `text`; the button says "Copied" for a moment (its label's text node is changed
 * in place, so the renderer still owns it).
 * @param {string} text
 * @param {HTMLElement | null} button
 */
export function copyText(text, button) {
  const done = () => {
    const label = button?.querySelector(".btn-label")?.firstChild;
    if (!button || !(label instanceof Text)) return;
    const old = label.data;
    button.classList.add("copied");
    label.data = t("common.copied");
    setTimeout(() => {
      button.classList.remove("copied");
      if (label.data === t("common.copied")) label.data = old;
    }, 1600);
  };
  if (navigator.clipboard && window.isSecureContext) {
    return navigator.clipboard.writeText(text).then(done, () => fallbackCopy(text, done));
  }
  fallbackCopy(text, done);
  return Promise.resolve();
}

function fallbackCopy(text, done) {
  const ta = document.createElement("textarea");
  ta.className = "visually-hidden";
  ta.readOnly = true;
  ta.value = text;
  document.body.append(ta);
  ta.select();
  try {
    document.execCommand("copy");
  } catch {
    /* nothing more to try */
  }
  ta.remove();
  done();
}

export { h, icon, t };
