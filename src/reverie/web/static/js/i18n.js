// Dictionaries in /static/i18n/{lang}.json; t(key, params) with {placeholders} and plural
// forms ({"one": …, "few": …, "many": …, "other": …}, chosen by params.n).

/** @type {string[]} */
export const LANGS = ["en", "ru", "it"];
export const LANG_NAMES = { en: "English", ru: "Русский", it: "Italiano" };
const KEY = "reverie:lang";

let dict = {};
let fallback = {};
let current = "en";
const listeners = [];
/** Dictionaries fetched so far, by language (the screen's, English, a table's). */
const loaded = {};
/** Fetches under way for `translator`, by language. */
const pending = {};

export function initialLang() {
  let saved = null;
  try {
    saved = localStorage.getItem(KEY);
  } catch {
    /* private mode */
  }
  if (saved && LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const short = String(l).slice(0, 2).toLowerCase();
    if (LANGS.includes(short)) return short;
  }
  return "en";
}

export function lang() {
  return current;
}

/**
 * A dictionary's address: the versioned one the page's import map names (the server
 * writes it, web/assets.py), which the browser keeps cached for good; the plain one where
 * there is no map or no import.meta.resolve.
 * @param {string} l
 */
function dictUrl(l) {
  const plain = `/static/i18n/${l}.json`;
  try {
    return import.meta.resolve(plain);
  } catch {
    return plain;
  }
}

async function fetchDict(l) {
  const res = await fetch(dictUrl(l));
  if (!res.ok) throw new Error(`i18n ${l}: ${res.status}`);
  return res.json();
}

export async function setLang(l, { remember = true } = {}) {
  if (!LANGS.includes(l)) l = "en";
  const [d, f] = await Promise.all([
    fetchDict(l),
    l === "en" ? Promise.resolve(null) : fetchDict("en").catch(() => ({})),
  ]);
  dict = d;
  fallback = f || d;
  current = l;
  loaded[l] = d;
  loaded.en = fallback;
  document.documentElement.lang = l;
  if (remember) {
    try {
      localStorage.setItem(KEY, l);
    } catch {
      /* ignore */
    }
  }
  translatePage();
  for (const fn of listeners) fn(l);
}

export function onLangChange(fn) {
  listeners.push(fn);
}

export function has(key) {
  return key in dict || key in fallback;
}

/**
 * A key in one dictionary (else English), its plural form chosen by `l`'s rules.
 * @param {Record<string, any>} d @param {Record<string, any>} fb @param {string} l
 * @param {string} key @param {Record<string, any>} params
 */
function translate(d, fb, l, key, params) {
  let v = key in d ? d[key] : fb[key];
  if (v === undefined) return key;
  if (typeof v === "object" && v !== null) {
    const n = Number(params.n ?? 0);
    const form = new Intl.PluralRules(l).select(n);
    v = v[form] ?? v.other ?? Object.values(v)[0];
  }
  return String(v).replace(/\{(\w+)\}/g, (m, name) =>
    params[name] !== undefined ? String(params[name]) : m,
  );
}

export function t(key, params = {}) {
  return translate(dict, fallback, current, key, params);
}

/** A `t`: a key and its parameters to the text, in one language. @typedef {(key: string, params?: Record<string, any>) => string} Translate */

/**
 * A `t` in language `l` rather than the screen's, for a text that keeps a language of
 * its own (the end screen's story is told in the table's). Until `l`'s dictionary has
 * come, this is the screen's `t`; `onLoad` is called once it is there.
 * @param {string | null | undefined} l
 * @param {() => void} onLoad
 * @returns {Translate}
 */
export function translator(l, onLoad) {
  if (!l || l === current || !LANGS.includes(l)) return t;
  const d = loaded[l];
  if (d) return (key, params = {}) => translate(d, loaded.en || fallback, l, key, params);
  if (!pending[l]) {
    pending[l] = Promise.all([fetchDict(l), loaded.en ? null : fetchDict("en")])
      .then(([x, en]) => {
        loaded[l] = x;
        if (en) loaded.en = en;
        onLoad();
      })
      .catch(() => {
        delete pending[l]; // the screen's language meanwhile; a later render tries again
      });
  }
  return t;
}

/** Fill [data-i18n] text and [data-i18n-attr="attr:key;attr:key"] attributes. */
export function translatePage(root = document) {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n]"))) el.textContent = t(el.dataset.i18n);
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n-attr]"))) {
    for (const pair of (el.dataset.i18nAttr || "").split(";")) {
      const [attr, key] = pair.split(":");
      if (attr && key) el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
  const title = /** @type {HTMLMetaElement | null} */ (document.querySelector("meta[name='i18n-title']"));
  if (title) document.title = `${t(title.content)} · Reverie`;
}
