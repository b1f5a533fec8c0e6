// The open tables page: the public tables a stranger may sit at (GET /api/open, polled
// with its ETag every two seconds), filters by game and language, and play now.
import { h, render, $ } from "./dom.js";
import { t, lang, LANGS, LANG_NAMES } from "./i18n.js";
import { boot, postJSON, errorText } from "./common.js";
import { loadVariants } from "./variants.js";
import { saveToken } from "./store.js";

const POLL_MS = 2000;
/** @type {Record<string, any>[] | null} */
let tables = null;
/** @type {import("./variants.js").Variant[]} */
let variants = [];
let etag = "";
let failed = false;
let busy = false;
let problem = "";
/** The server's clock minus ours (from the Date header), for "running for". */
let skew = 0;
const filters = { game: "", lang: "" };

/** @param {string} name */
function title(name) {
  return variants.find((v) => v.name === name)?.title || name;
}

/** @param {number} seconds */
function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** @param {Record<string, any>} table */
function row(table) {
  const now = Date.now() / 1000 + skew;
  const phase = table.phase === "lobby" ? t("play.phase_lobby") : t("play.phase_playing", { time: clock(now - (table.started || now)) });
  return h(
    "li",
    { class: "panel open-table" },
    h(
      "div",
      {},
      h("h3", {}, title(table.game)),
      h("p", { class: "open-facts small" },
        `${LANG_NAMES[table.lang] || table.lang} · ${t("play.people", { n: table.people })} · ${t("play.bots", { n: table.bots })} · ${t("play.seats", { n: table.seats })} · ${phase}`),
    ),
    h("a", { class: "btn", href: `/r/${table.code}` }, t("play.sit")),
  );
}

async function playNow() {
  const name = (/** @type {HTMLInputElement | null} */ ($("#play-name"))?.value || "").trim();
  if (!name) {
    problem = t("play.need_name");
    draw();
    $("#play-name")?.focus();
    return;
  }
  localStorage.setItem("reverie:name", name);
  busy = true;
  problem = "";
  draw();
  try {
    const game = filters.game || variants[0]?.name || "dixit";
    const res = await postJSON("/api/play", { game, lang: filters.lang || lang(), name, color: localStorage.getItem("reverie:color") || "" });
    saveToken(res.code, res.token);
    location.href = res.url;
  } catch (err) {
    const e = /** @type {any} */ (err);
    problem = errorText(e.code || null, e.message || null, e.params || {});
    busy = false;
    draw();
  }
}

/** @param {string} key @param {string} value */
function setFilter(key, value) {
  filters[/** @type {"game" | "lang"} */ (key)] = value;
  etag = "";
  poll();
}

function draw() {
  const list = tables || [];
  render(
    [
      h("h1", {}, t("play.heading")),
      h("p", { class: "prose" }, t("play.intro")),
      h(
        "form",
        { class: "panel play-form", onSubmit: (/** @type {Event} */ e) => { e.preventDefault(); playNow(); } },
        h("label", {}, t("play.game"),
          h("select", { id: "play-game", value: filters.game, onChange: (/** @type {any} */ e) => setFilter("game", e.target.value) },
            h("option", { value: "" }, t("play.any_game")),
            variants.map((v) => h("option", { value: v.name }, v.title)))),
        h("label", {}, t("play.lang"),
          h("select", { id: "play-lang", value: filters.lang, onChange: (/** @type {any} */ e) => setFilter("lang", e.target.value) },
            h("option", { value: "" }, t("play.any_lang")),
            LANGS.map((l) => h("option", { value: l }, LANG_NAMES[l])))),
        h("label", {}, t("play.name"), h("input", { id: "play-name", autocomplete: "nickname", maxLength: 24, value: localStorage.getItem("reverie:name") || "" })),
        h("button", { class: "btn primary", type: "submit", disabled: busy }, t("play.now")),
        problem ? h("p", { class: "warn", role: "alert" }, problem) : null,
      ),
      h("h2", {}, t("play.open")),
      h(
        "div",
        { "aria-live": "polite" },
        tables === null
          ? h("p", { class: failed ? "warn" : "muted", role: "status" }, failed ? t("play.failed") : t("play.loading"))
          : list.length
            ? h("ul", { class: "open-list" }, list.map(row))
            : h("p", { class: "muted", role: "status" }, t("play.empty")),
      ),
    ],
    $("#main"),
  );
}

async function poll() {
  const query = new URLSearchParams();
  if (filters.game) query.set("game", filters.game);
  if (filters.lang) query.set("lang", filters.lang);
  try {
    const res = await fetch(`/api/open?${query}`, { headers: etag ? { "If-None-Match": etag } : {} });
    const date = Date.parse(res.headers.get("date") || "");
    if (!Number.isNaN(date)) skew = date / 1000 - Date.now() / 1000;
    if (res.status === 200) {
      etag = res.headers.get("etag") || "";
      tables = (await res.json()).tables || [];
      failed = false;
    } else if (res.status !== 304) {
      failed = true;
    }
  } catch {
    failed = true;
  }
  draw();
}

boot(draw).then(async () => {
  try {
    variants = await loadVariants();
  } catch {
    variants = [];
  }
  await poll();
  setInterval(poll, POLL_MS);
});
