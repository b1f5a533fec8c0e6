// Deck browser: lists decks from /api/decks and shows every card with its caption.
// Shares the header, the language and the look of the other pages.
// All data goes into the page through textContent / attributes, never innerHTML.

import { boot } from "./js/common.js";
import { t, lang } from "./js/i18n.js";
import { byId } from "./js/dom.js";

/**
 * @typedef {Record<string, string>} Texts a text by language
 * @typedef {{name: string, title: Texts, count: number}} DeckInfo
 * @typedef {{name: string, cards: {image: string, caption: Texts}[]}} Deck
 */

/** @type {{decks: DeckInfo[], current: string | null, deck: Deck | null}} */
const state = { decks: [], current: null, deck: null };

/** @param {Texts | null | undefined} map */
function pick(map) {
  if (!map) return "";
  return map[lang()] || map.en || Object.values(map)[0] || "";
}

/** @param {string} text */
function setStatus(text) {
  byId("status").textContent = text;
}

/** @param {string} url */
async function getJSON(url) {
  const res = await fetch(url, { headers: { Accept: "application/json" } });
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return res.json();
}

function renderDeckList() {
  const nav = byId("decks");
  nav.replaceChildren();
  for (const d of state.decks) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.name = d.name;
    b.textContent = `${pick(d.title)} · ${t("decks.cards", { n: d.count })}`;
    b.setAttribute("aria-pressed", String(d.name === state.current));
    b.addEventListener("click", () => openDeck(d.name));
    nav.append(b);
  }
}

function renderCards() {
  const grid = byId("cards");
  grid.replaceChildren();
  if (!state.deck) return;
  const deck = state.deck;
  const base = `/decks/${encodeURIComponent(deck.name)}/`;
  for (const card of deck.cards) {
    const fig = document.createElement("figure");
    fig.className = "card";
    const img = document.createElement("img");
    img.loading = "lazy";
    img.decoding = "async";
    img.width = 400;
    img.height = 600;
    img.src = base + card.image.split("/").map(encodeURIComponent).join("/");
    const cap = document.createElement("figcaption");
    cap.textContent = pick(card.caption);
    img.alt = cap.textContent;
    fig.append(img, cap);
    grid.append(fig);
  }
}

function updateCaptions() {
  if (!state.deck) return;
  const figs = document.querySelectorAll("#cards figure");
  state.deck.cards.forEach((card, i) => {
    const fig = figs[i];
    if (!fig) return;
    const text = pick(card.caption);
    const cap = fig.querySelector("figcaption");
    const img = fig.querySelector("img");
    if (cap) cap.textContent = text;
    if (img) img.alt = text;
  });
}

/** @param {string} name */
async function openDeck(name) {
  state.current = name;
  renderDeckList();
  setStatus(t("decks.loading"));
  try {
    state.deck = await getJSON(`/api/decks/${encodeURIComponent(name)}`);
    setStatus("");
  } catch (err) {
    console.error(err);
    state.deck = null;
    setStatus(t("decks.failed"));
  }
  renderCards();
}

async function main() {
  await boot(() => {
    renderDeckList();
    updateCaptions();
  });
  setStatus(t("decks.loading"));
  try {
    state.decks = await getJSON("/api/decks");
  } catch (err) {
    console.error(err);
    setStatus(t("decks.failed"));
    return;
  }
  const wanted = new URLSearchParams(location.search).get("deck");
  // A player's deck is never listed: only its link (?deck=u-…) shows it.
  if (wanted && /^u-[a-z2-7]{26}$/.test(wanted) && !state.decks.some((d) => d.name === wanted)) {
    const res = await fetch(`/api/decks/${wanted}`, { headers: { Accept: "application/json" } });
    if (res.ok) {
      const d = await res.json();
      state.decks.push({ name: d.name, title: d.title, count: d.count });
    } else {
      setStatus(t(res.status === 410 ? "decks.deleted" : "decks.failed"));
      renderDeckList();
      return;
    }
  }
  const first = state.decks.find((d) => d.name === wanted) || state.decks[0];
  renderDeckList();
  if (first) await openDeck(first.name);
  else setStatus("");
}

main();
