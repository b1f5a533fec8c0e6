// A host's own deck: pictures (or ZIPs of them) chosen, framed to the card's shape,
// sent one by one (the server decodes and redraws each, and says why it refuses one),
// captioned, named and published whole. The owner's secret stays in this browser.
import { h, render, $ } from "./dom.js";
import { t } from "./i18n.js";
import { boot, toast, errorText, copyText } from "./common.js";

const OWNER_HEADER = "x-deck-owner";
const MINE_KEY = "reverie:mydecks";
const TYPES = ["image/jpeg", "image/png", "image/webp"];
const ZIP_TYPES = ["application/zip", "application/x-zip-compressed"];
const EXTENSIONS = /\.(jpe?g|png|webp|zip)$/i;

/**
 * @typedef {{key: number, file: File, name: string, zip: boolean, url: string | null,
 *   fit: "crop" | "pad", x: number, y: number, zoom: number}} Pending
 * @typedef {{card: string, image: string, name: string, caption: string}} Accepted
 * @typedef {{name: string, code: string, message: string, params?: Record<string, any>}} Refused
 * @typedef {{id: string, owner: string, title: string, state: string}} Mine
 */

const state = {
  /** @type {string | null} */ deck: null,
  /** @type {string | null} */ owner: null,
  /** @type {Record<string, number> | null} */ limits: null,
  /** @type {Pending[]} */ pending: [],
  /** @type {Accepted[]} */ cards: [],
  /** @type {Refused[]} */ refused: [],
  title: "",
  /** @type {string | null} */ progress: null,
  busy: false,
  /** @type {any} */ published: null,
};
let nextKey = 1;

/** @returns {Mine[]} */
function mine() {
  try {
    const list = JSON.parse(localStorage.getItem(MINE_KEY) || "[]");
    return Array.isArray(list) ? list.filter((d) => d && typeof d.id === "string") : [];
  } catch {
    return [];
  }
}

/** @param {Mine[]} list */
function saveMine(list) {
  try {
    localStorage.setItem(MINE_KEY, JSON.stringify(list));
  } catch {
    /* private mode: the deck lives, this browser forgets it owns it */
  }
}

/**
 * The draft deck being made: its id and its owner token. There is one from the first
 * picture on, and only then are pictures sent, removed or published.
 */
function draft() {
  if (!state.deck || !state.owner) throw new Error("no draft deck yet");
  return { deck: state.deck, owner: state.owner };
}

/** @param {Mine} entry */
function remember(entry) {
  saveMine([entry, ...mine().filter((d) => d.id !== entry.id)]);
}

/**
 * @param {string} url
 * @param {RequestInit} init
 */
async function call(url, init = {}) {
  let res;
  try {
    res = await fetch(url, init);
  } catch {
    const e = /** @type {any} */ (new Error(""));
    Object.assign(e, { code: "network", params: {}, status: 0 });
    throw e;
  }
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    // The app and the shipped nginx answer JSON with a code; anything else in the way
    // (another proxy's HTML page, a crash) is named by its status.
    const err = (body && body.error) || {};
    const e = /** @type {any} */ (new Error(err.message || ""));
    e.code = err.code || codeOfStatus(res.status);
    e.params = { status: res.status, ...(err.params || {}) };
    e.status = res.status;
    throw e;
  }
  return body;
}

/** @param {number} status */
function codeOfStatus(status) {
  if (status === 413) return "too_large";
  if (status === 429) return "rate_limited";
  if (status === 502 || status === 503 || status === 504) return "unavailable";
  return "server_error";
}

/**
 * Why a file was refused, in the reader's language: the code's own sentence, or a
 * general error's, or (a code this page does not know) the server's reason as detail.
 * @param {Refused} r
 */
function refusalText(r) {
  const params = r.params || {};
  const key = `mydeck.refused.${r.code}`;
  const text = t(key, params);
  if (text !== key) return text;
  const general = t(`error.${r.code}`, params);
  if (general !== `error.${r.code}`) return general;
  if (r.message) return t("mydeck.refused.other", { reason: r.message });
  return t("mydeck.refused.server_error", { status: params.status || "?" });
}

/** @param {File} file */
function isZip(file) {
  return ZIP_TYPES.includes(file.type) || /\.zip$/i.test(file.name);
}

/** @param {FileList | File[]} files */
function addFiles(files) {
  for (const file of Array.from(files)) {
    const zip = isZip(file);
    const known = zip || TYPES.includes(file.type) || EXTENSIONS.test(file.name);
    if (!known) {
      state.refused.push({ name: file.name, code: "not_a_picture", message: "" });
      continue;
    }
    state.pending.push({
      key: nextKey++, file, name: file.name, zip,
      url: zip ? null : URL.createObjectURL(file), fit: "crop", x: 0.5, y: 0.5, zoom: 1,
    });
  }
  draw();
}

/** @param {Pending} p */
function dropPending(p) {
  if (p.url) URL.revokeObjectURL(p.url);
  state.pending = state.pending.filter((x) => x !== p);
}

/**
 * Where a pointer on the frame puts the picture (as CSS object-position: 0 shows the
 * left or top edge, 1 the right or bottom).
 * @param {Pending} p
 * @param {PointerEvent} ev
 */
function aim(p, ev) {
  const box = /** @type {HTMLElement} */ (ev.currentTarget).getBoundingClientRect();
  p.x = Math.min(1, Math.max(0, (ev.clientX - box.left) / box.width));
  p.y = Math.min(1, Math.max(0, (ev.clientY - box.top) / box.height));
  draw();
}

/** @param {Pending} p */
function framed(p) {
  if (p.zip) return h("div", { class: "frame zip" }, "ZIP", h("span", { class: "small" }, t("mydeck.zip_hint")));
  const pos = `${Math.round(p.x * 100)}% ${Math.round(p.y * 100)}%`;
  const crop = p.fit === "crop";
  return h(
    "div",
    {
      class: "frame",
      role: "img",
      "aria-label": t("mydeck.frame_label", { name: p.name }),
      onpointerdown: crop ? (/** @type {PointerEvent} */ ev) => {
        /** @type {HTMLElement} */ (ev.currentTarget).setPointerCapture(ev.pointerId);
        aim(p, ev);
      } : null,
      onpointermove: crop ? (/** @type {PointerEvent} */ ev) => {
        if (ev.buttons) aim(p, ev);
      } : null,
    },
    crop ? null : h("img", { class: "blur", src: p.url, alt: "", draggable: "false" }),
    h("img", {
      class: "pic", src: p.url, alt: "", draggable: "false",
      style: crop
        ? { objectFit: "cover", objectPosition: pos, transform: `scale(${p.zoom})`, transformOrigin: pos }
        : { objectFit: "contain" },
    }),
  );
}

/** @param {Pending} p */
function pendingTile(p) {
  return h(
    "div",
    { class: "tile pending", key: p.key, "data-name": p.name },
    framed(p),
    h("span", { class: "fname", title: p.name }, p.name),
    p.zip ? null : h(
      "select",
      {
        "aria-label": t("mydeck.fit"), class: "fit", value: p.fit,
        onchange: (/** @type {Event} */ ev) => {
          p.fit = /** @type {HTMLSelectElement} */ (ev.target).value === "pad" ? "pad" : "crop";
          draw();
        },
      },
      h("option", { value: "crop" }, t("mydeck.fit_crop")),
      h("option", { value: "pad" }, t("mydeck.fit_pad")),
    ),
    !p.zip && p.fit === "crop" ? h("input", {
      type: "range", min: 1, max: 4, step: 0.1, value: p.zoom, "aria-label": t("mydeck.zoom"),
      oninput: (/** @type {Event} */ ev) => {
        p.zoom = Number(/** @type {HTMLInputElement} */ (ev.target).value) || 1;
        draw();
      },
    }) : null,
    h("button", { type: "button", class: "btn btn-quiet btn-small", onclick: () => { dropPending(p); draw(); } }, t("mydeck.remove")),
  );
}

/** @param {Accepted} c */
function cardTile(c) {
  return h(
    "div",
    { class: "tile card", key: c.card, "data-card": c.card },
    h("div", { class: "frame" }, h("img", { src: c.image, alt: c.caption || c.name, width: 320, height: 480, loading: "lazy" })),
    h("span", { class: "fname", title: c.name }, c.name),
    h("input", {
      class: "caption", maxlength: 200, value: c.caption, placeholder: t("mydeck.caption"), "aria-label": t("mydeck.caption_for", { name: c.name }),
      disabled: Boolean(state.published),
      oninput: (/** @type {Event} */ ev) => { c.caption = /** @type {HTMLInputElement} */ (ev.target).value; },
    }),
    state.published ? null : h("button", { type: "button", class: "btn btn-quiet btn-small", onclick: () => removeCard(c) }, t("mydeck.remove")),
  );
}

async function ensureDraft() {
  if (state.deck) return;
  const res = await call("/api/decks", { method: "POST" });
  state.deck = res.deck;
  state.owner = res.owner;
  state.limits = res.limits;
  remember({ id: res.deck, owner: res.owner, title: state.title || "", state: "draft" });
}

/** @param {Pending} p */
async function send(p) {
  const limits = state.limits || {};
  const mb = Math.max(1, Math.floor((limits.file_bytes || 25e6) / 1e6));
  if (limits.file_bytes && p.file.size > limits.file_bytes) {
    state.refused.push({ name: p.name, code: "file_too_large", message: "", params: { mb } });
    return;
  }
  const q = new URLSearchParams({ name: p.name, fit: p.fit, x: String(p.x), y: String(p.y), zoom: String(p.zoom) });
  try {
    const res = await call(`/api/decks/${state.deck}/pictures?${q}`, {
      method: "POST", body: p.file, headers: { [OWNER_HEADER]: draft().owner, "Content-Type": "application/octet-stream" },
    });
    for (const r of res.results) {
      if (r.ok) state.cards.push({ card: r.card, image: r.image, name: r.name, caption: "" });
      else state.refused.push(r);
    }
  } catch (caught) {
    const e = /** @type {any} */ (caught);
    // A bare 413 from a proxy in the way: the file was too large for it.
    const code = e.code === "too_large" ? "file_too_large" : e.code || "server_error";
    state.refused.push({ name: p.name, code, message: e.message, params: { mb, ...e.params } });
  }
}

async function uploadAll() {
  if (state.busy || !state.pending.length) return;
  state.busy = true;
  try {
    await ensureDraft();
    const todo = state.pending.slice();
    for (const [i, p] of todo.entries()) {
      state.progress = t("mydeck.progress", { n: i + 1, total: todo.length });
      draw();
      await send(p);
      dropPending(p);
    }
  } catch (caught) {
    const e = /** @type {any} */ (caught);
    toast(errorText(e.code, e.message), { anchor: $("#upload") });
  } finally {
    state.busy = false;
    state.progress = null;
    draw();
  }
}

/** @param {Accepted} c */
async function removeCard(c) {
  try {
    await call(`/api/decks/${state.deck}/pictures/${c.card}`, { method: "DELETE", headers: { [OWNER_HEADER]: draft().owner } });
    state.cards = state.cards.filter((x) => x !== c);
    draw();
  } catch (caught) {
    const e = /** @type {any} */ (caught);
    toast(errorText(e.code, e.message));
  }
}

async function publish() {
  const title = /** @type {HTMLInputElement} */ ($("#deck-title")).value.trim();
  state.title = title;
  const button = $("#publish");
  if (!title) {
    toast(t("mydeck.need_title"), { anchor: button });
    $("#deck-title").focus();
    return;
  }
  state.busy = true;
  draw();
  try {
    /** @type {Record<string, string>} */
    const captions = {};
    for (const c of state.cards) if (c.caption.trim()) captions[c.card] = c.caption;
    state.published = await call(`/api/decks/${state.deck}/publish`, {
      method: "POST", body: JSON.stringify({ title, captions }),
      headers: { [OWNER_HEADER]: draft().owner, "Content-Type": "application/json" },
    });
    remember({ id: draft().deck, owner: draft().owner, title, state: "ready" });
  } catch (caught) {
    const e = /** @type {any} */ (caught);
    toast(errorText(e.code, e.message), { anchor: button });
  } finally {
    state.busy = false;
    draw();
  }
}

/** @param {Mine} d */
async function deleteDeck(d) {
  if (!confirm(t("mydeck.delete_confirm", { title: d.title || d.id }))) return;
  try {
    await call(`/api/decks/${d.id}`, { method: "DELETE", headers: { [OWNER_HEADER]: d.owner } });
  } catch (caught) {
    const e = /** @type {any} */ (caught);
    if (e.status !== 404) {
      toast(errorText(e.code, e.message));
      return;
    }
  }
  saveMine(mine().filter((x) => x.id !== d.id));
  if (d.id === state.deck) {
    Object.assign(state, { deck: null, owner: null, cards: [], published: null });
  }
  toast(t("mydeck.deleted"), { kind: "info" });
  draw();
}

function donePanel() {
  const link = `${location.origin}/decks?deck=${state.deck}`;
  return h(
    "section",
    { class: "panel", id: "done", "aria-labelledby": "done-h" },
    h("h2", { id: "done-h" }, t("mydeck.done", { title: state.title })),
    h("p", {}, t("mydeck.done_hint")),
    h("p", { class: "share" }, h("a", { href: link, id: "share-link" }, link)),
    h(
      "div",
      { class: "actions" },
      h("a", { class: "btn", id: "play-deck", href: `/?deck=${state.deck}` }, t("mydeck.play")),
      h("button", { type: "button", class: "btn btn-quiet", onclick: (/** @type {Event} */ ev) => copyText(link, /** @type {HTMLElement} */ (ev.currentTarget)) }, t("mydeck.copy")),
    ),
  );
}

function editor() {
  const count = state.cards.length;
  const max = state.limits ? state.limits.cards : 200;
  return [
    h(
      "section",
      { class: "panel", "aria-labelledby": "pick-h" },
      h("h2", { id: "pick-h" }, t("mydeck.pick")),
      h(
        "div",
        { class: "field" },
        h("label", { for: "deck-title" }, t("mydeck.name")),
        h("input", {
          id: "deck-title", maxlength: 60, value: state.title, placeholder: t("mydeck.name_placeholder"),
          disabled: Boolean(state.published),
          oninput: (/** @type {Event} */ ev) => { state.title = /** @type {HTMLInputElement} */ (ev.target).value; },
        }),
      ),
      state.published ? null : h(
        "div",
        {
          class: "drop",
          ondragover: (/** @type {DragEvent} */ ev) => { ev.preventDefault(); },
          ondrop: (/** @type {DragEvent} */ ev) => {
            ev.preventDefault();
            if (ev.dataTransfer) addFiles(ev.dataTransfer.files);
          },
        },
        h("label", { for: "files", class: "btn btn-quiet" }, t("mydeck.choose")),
        h("input", {
          id: "files", type: "file", multiple: true, class: "visually-hidden",
          accept: "image/jpeg,image/png,image/webp,.zip,application/zip",
          onchange: (/** @type {Event} */ ev) => {
            const input = /** @type {HTMLInputElement} */ (ev.target);
            if (input.files) addFiles(input.files);
            input.value = "";
          },
        }),
        h("p", { class: "small muted" }, t("mydeck.formats", { cards: max, mb: state.limits ? Math.round(state.limits.deck_bytes / 1e6) : 100 })),
      ),
      state.pending.length ? h("p", { class: "small muted" }, t("mydeck.frame_hint")) : null,
      h("div", { class: "tiles", id: "pending" }, state.pending.map(pendingTile)),
      state.pending.length ? h(
        "div",
        { class: "actions" },
        h("button", { type: "button", class: "btn", id: "upload", disabled: state.busy, onclick: uploadAll }, t("mydeck.upload", { n: state.pending.length })),
      ) : null,
      state.progress ? h("p", { role: "status", id: "progress" }, state.progress) : null,
      state.refused.length ? h(
        "div",
        { role: "alert" },
        h("h3", {}, t("mydeck.refused_heading", { n: state.refused.length })),
        h("ul", { class: "refused", id: "refused" }, state.refused.map((r, i) => h(
          "li",
          { key: i, "data-code": r.code },
          h("span", { class: "fname" }, r.name), " — ", refusalText(r),
        ))),
        h("button", { type: "button", class: "btn btn-quiet btn-small", onclick: () => { state.refused = []; draw(); } }, t("mydeck.clear_refused")),
      ) : null,
    ),
    count ? h(
      "section",
      { class: "panel", "aria-labelledby": "cards-h" },
      h("h2", { id: "cards-h" }, t("mydeck.cards", { n: count })),
      h("p", { class: "small muted" }, t("mydeck.caption_hint")),
      h("div", { class: "tiles", id: "cards" }, state.cards.map(cardTile)),
      state.published ? null : h(
        "div",
        { class: "actions" },
        h("button", { type: "button", class: "btn", id: "publish", disabled: state.busy || state.pending.length > 0, onclick: publish }, t("mydeck.publish")),
      ),
    ) : null,
    state.published ? donePanel() : null,
  ];
}

function mineList() {
  const list = mine().filter((d) => d.state === "ready");
  if (!list.length) return h("p", { class: "muted" }, t("mydeck.mine_none"));
  return h("ul", { class: "mine-list" }, list.map((d) => h(
    "li",
    { key: d.id, "data-deck": d.id },
    h("a", { class: "grow", href: `/decks?deck=${d.id}` }, d.title || d.id),
    h("a", { class: "btn btn-small", href: `/?deck=${d.id}` }, t("mydeck.play")),
    h("button", { type: "button", class: "btn btn-quiet btn-small btn-danger delete-deck", onclick: () => deleteDeck(d) }, t("mydeck.delete")),
  )));
}

function draw() {
  render(editor(), $("#editor"));
  render(mineList(), $("#mine"));
}

boot(draw);
