// Home page: create a room, or join one by its code. The games on offer and their
// options come from the server (GET /api/variants).
import { h, render, $ } from "./dom.js";
import { t, lang } from "./i18n.js";
import { boot, PALETTE, postJSON, getJSON, toast, errorText } from "./common.js";
import { loadVariants, variantInfo } from "./variants.js";
import { familyOptions } from "./families/options.js";
import { seatsField, reader, select } from "./fields.js";
import { saveToken, normaliseCode } from "./store.js";
import { swatchesField } from "./swatches.js";
import { awayField, readAway, DEFAULT_AWAY } from "./shell/absence.js";
import { keepTypedWords } from "./families/visual/words.js";

/** @type {{name: string, color: string, variant: string | null, seats: number | null, options: Record<string, any> | null, away: number | null, deck: string}} */
const form = { name: "", color: PALETTE[0], variant: null, seats: null, options: null, away: DEFAULT_AWAY, deck: "" };
/** @type {[string, string][]} the decks a picture game may be played with: [name, title] */
/** Deck choices as [name, title]; "" is the server's default deck (the API lists it first). */
let decks = [["", ""]];

/** Whether a variant is played with a box on the table (cards or paper): a companion. @param {import("./variants.js").Variant} v */
const withBox = (v) => Boolean(v.capabilities.companion_of);
/** @type {import("./variants.js").Variant[] | null} */
let variants = null;
let failed = false;

function remembered() {
  try {
    form.name = localStorage.getItem("reverie:name") || "";
    const c = localStorage.getItem("reverie:color");
    if (c && PALETTE.includes(c)) form.color = c;
  } catch {
    /* private mode */
  }
}

/** What the person has typed and picked so far, kept across re-renders. */
function captureDraft() {
  const f = /** @type {HTMLFormElement} */ ($("#create"));
  if (!f || !variants || !f.elements.length) return;
  form.name = /** @type {HTMLInputElement} */ (f.elements.namedItem("name"))?.value ?? form.name;
  form.color = /** @type {HTMLInputElement} */ (f.querySelector("input[name=color]:checked"))?.value ?? form.color;
  const v = variantInfo(variants, form.variant);
  form.options = familyOptions(v).readOptions(f, v.capabilities);
  form.seats = reader(f).int("seats");
  if (f.querySelector("[name=deck]")) form.deck = reader(f).val("deck") || "";
  if (f.querySelector("[name=away_seconds]")) form.away = readAway(f);
}

/** @param {import("./variants.js").Variant} x */
function pickVariant(x) {
  if (!variants) return;
  captureDraft();
  const before = variantInfo(variants, form.variant);
  if (before.capabilities.client !== x.capabilities.client) form.options = null;
  form.variant = x.name;
  form.seats = null;
  draw();
}

/**
 * Online games or games with a box on the table: the list shows one kind at a time (a
 * variant of the other kind is a tap away), so it stays short.
 * @param {boolean} box
 */
function pickKind(box) {
  if (!variants) return;
  const first = variants.find((x) => withBox(x) === box);
  if (first && withBox(variantInfo(variants, form.variant)) !== box) pickVariant(first);
}

/** @param {boolean} box */
function kindToggle(box) {
  /** @param {boolean} value @param {string} id @param {string} label */
  const choice = (value, id, label) =>
    h("div", { class: "kind-option" }, h("input", { type: "radio", name: "kind", id, checked: box === value, onchange: () => pickKind(value) }), h("label", { for: id }, label));
  return h("div", { class: "kind-toggle", role: "radiogroup", "aria-label": t("home.kind") }, choice(false, "kind-online", t("home.kind_online")), choice(true, "kind-box", t("home.kind_box")));
}

function createForm() {
  if (!variants) {
    return h("p", { class: failed ? "warn" : "muted", role: failed ? "alert" : "status" }, failed ? t("home.variants_failed") : t("credits.loading"));
  }
  const v = variantInfo(variants, form.variant);
  form.variant = v.name;
  const box = withBox(v);
  const shown = variants.filter((x) => withBox(x) === box);
  const fam = familyOptions(v);
  if (form.seats === null || form.seats < v.min_players || form.seats > v.max_players) form.seats = fam.defaultSeats(v);
  const team = Boolean(v.capabilities.teams);
  return [
    h(
      "div",
      { class: "field" },
      h("label", { for: "create-name" }, t("home.your_name")),
      h("input", {
        id: "create-name", name: "name", maxlength: 24, autocomplete: "nickname", required: true,
        value: form.name, placeholder: t("home.name_placeholder"),
      }),
    ),
    swatchesField("color", form.color, { legend: t("home.your_color") }),
    h(
      "fieldset",
      { class: "variants" },
      h("legend", {}, t("home.variant")),
      variants.some(withBox) ? kindToggle(box) : null,
      box ? h("p", { class: "small muted kind-hint" }, t("home.kind_box_hint")) : null,
      shown.map((x) =>
        h(
          "div",
          { class: "variant-option", key: x.name },
          h("input", { type: "radio", name: "variant", id: `variant-${x.name}`, value: x.name, checked: x.name === form.variant, onchange: () => pickVariant(x) }),
          h(
            "label",
            { for: `variant-${x.name}` },
            h("strong", {}, t(`variant.${x.name}.title`)),
            h("span", { class: "small" }, t(`variant.${x.name}.blurb`), " · ", t("home.players_range", { min: x.min_players, max: x.max_players, n: x.max_players })),
          ),
        ),
      ),
    ),
    // The number of seats is worth seeing without opening the options.
    seatsField(v, form.seats, { prefix: "create" }),
    // Only a game played with a picture deck offers one (its `deck` capability).
    v.capabilities.deck ? deckField() : null,
    h(
      "details",
      { class: "options-details", key: v.capabilities.client },
      h("summary", {}, t(team ? "home.options_visual" : "home.options")),
      fam.optionsFields(v, form.options ?? fam.proposed, { prefix: "create", lead: awayField(form.away, { prefix: "create" }) }),
    ),
    h("div", { class: "actions" }, h("button", { class: "btn", type: "submit", id: "create-submit" }, t("home.create_button"))),
  ];
}

/** The deck a picture game is played with: the site's, the host's own, a shared one. */
function deckField() {
  const choices = decks.map(([name, title]) => [name, title || (name ? name : t("home.deck_default"))]);
  return h(
    "div",
    { class: "deck-choice" },
    select("deck", t("home.deck"), /** @type {any} */ (choices), form.deck, { prefix: "create" }),
    h("p", { class: "small" }, h("a", { href: "/decks/new", id: "make-deck" }, t("home.deck_make"))),
  );
}

/**
 * @param {any} title a deck's title: text per language
 * @returns {string}
 */
function titleOf(title) {
  if (!title || typeof title === "string") return title || "";
  return title[lang()] || title.en || "";
}

async function loadDecks() {
  /** @type {[string, string][]} */
  const found = [];
  try {
    for (const d of await getJSON("/api/decks")) found.push([d.name, titleOf(d.title)]);
  } catch {
    found.push(["", ""]);
  }
  try {
    for (const d of JSON.parse(localStorage.getItem("reverie:mydecks") || "[]")) {
      if (d && d.state === "ready" && typeof d.id === "string") found.push([d.id, d.title || d.id]);
    }
  } catch {
    /* private mode */
  }
  const linked = new URLSearchParams(location.search).get("deck");
  if (linked && /^u-[a-z2-7]{26}$/.test(linked)) {
    try {
      const d = await getJSON(`/api/decks/${linked}`);
      if (!found.some(([n]) => n === linked)) found.push([linked, titleOf(d.title)]);
      form.deck = linked;
    } catch (e) {
      const err = /** @type {import("./common.js").HttpError} */ (e);
      toast(errorText(err.code, err.message, err.params));
    }
  }
  decks = found.length ? found : [["", ""]];
  // The server lists its default deck first: a new room gets it unless chosen otherwise.
  if (!form.deck || !decks.some(([n]) => n === form.deck)) form.deck = decks[0][0];
}

function draw() {
  render(createForm(), $("#create"));
}

/** @param {SubmitEvent} ev */
async function onCreate(ev) {
  ev.preventDefault();
  if (!variants) return;
  captureDraft();
  const f = /** @type {HTMLFormElement} */ (ev.currentTarget);
  const nameInput = /** @type {HTMLInputElement} */ (f.elements.namedItem("name"));
  const name = nameInput.value.trim();
  const button = $("#create-submit");
  if (!name) {
    nameInput.setAttribute("aria-invalid", "true");
    nameInput.focus();
    toast(t("home.need_name"), { anchor: button });
    return;
  }
  nameInput.removeAttribute("aria-invalid");
  try {
    localStorage.setItem("reverie:name", name);
    localStorage.setItem("reverie:color", form.color);
  } catch {
    /* ignore */
  }
  button.disabled = true;
  // Words typed in the own-words box but not yet kept are kept now, or the room waits.
  if (!(await keepTypedWords(f, lang()))) {
    button.disabled = false;
    toast(t("words.not_kept"), { anchor: button });
    return;
  }
  captureDraft(); // the kept list's id is in the form now
  try {
    const res = await postJSON("/api/rooms", {
      name, color: form.color, variant: form.variant, seats: form.seats, options: form.options, away_seconds: form.away, lang: lang(),
      deck: variantInfo(variants, form.variant).capabilities.deck ? form.deck : null,
    });
    saveToken(res.code, res.token);
    location.assign(res.url || `/r/${res.code}`);
  } catch (e) {
    const err = /** @type {import("./common.js").HttpError} */ (e);
    button.disabled = false;
    toast(errorText(err.code, err.message, err.params), { anchor: button });
  }
}

/** @param {SubmitEvent} ev */
async function onJoin(ev) {
  ev.preventDefault();
  const input = $("#join-code");
  const code = normaliseCode(input.value);
  const button = /** @type {HTMLElement} */ (ev.currentTarget).querySelector("button");
  if (!code) {
    input.focus();
    toast(t("home.need_code"), { anchor: button });
    return;
  }
  try {
    await getJSON(`/api/rooms/${encodeURIComponent(code)}`);
    location.assign(`/r/${code}`);
  } catch (e) {
    const err = /** @type {import("./common.js").HttpError} */ (e);
    toast(err.status === 404 ? t("error.unknown_room") : errorText(err.code, err.message, err.params), { anchor: button });
  }
}

async function renderPage() {
  captureDraft();
  if (!variants) {
    try {
      [variants] = await Promise.all([loadVariants(), loadDecks()]);
      failed = false;
    } catch {
      failed = true;
    }
  }
  draw();
}

remembered();
$("#create").addEventListener("submit", onCreate);
$("#join").addEventListener("submit", onJoin);
boot(renderPage);
