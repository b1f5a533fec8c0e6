// What a screen reader says as the game goes on: one polite live region for the whole
// room page, fed from the changes between two states (never from the layout): whose
// turn it is and what the phase asks, the clue once it is told, what the family says of
// a round or turn just ended (the storyteller's card, the points), the end. Sighted players read the same on the stage;
// these lines are for those who cannot see it (WCAG 4.1.3, status messages).
import { t, onLangChange } from "../i18n.js";
import { nameOf } from "./app.js";
import { isMuted } from "./people.js";

/** Lines kept in the region: a reader who came late can still read back a few. */
const KEPT = 6;

/** @type {HTMLElement | null} */
let region = null;

/** The live region, made once: it must be in the page before anything is said in it. */
export function liveRegion() {
  if (!region) {
    region = document.createElement("div");
    region.id = "announcer";
    region.className = "visually-hidden";
    region.setAttribute("aria-live", "polite");
    region.setAttribute("aria-atomic", "false");
    region.setAttribute("aria-relevant", "additions");
    document.body.append(region);
    // Lines said in the old language go with it (a page read in one language only);
    // a removal is not read out (aria-relevant: additions).
    onLangChange(() => region?.replaceChildren());
  }
  return region;
}

/**
 * Say these lines (as one paragraph: a reader hears them together).
 * @param {string[]} lines
 */
export function announce(lines) {
  const said = lines.filter(Boolean);
  if (!said.length) return;
  const el = liveRegion();
  const p = document.createElement("p");
  p.textContent = said.join(" ");
  el.append(p);
  while (el.childElementCount > KEPT) el.firstElementChild?.remove();
}

/** @param {Record<string, any> | null | undefined} g */
const phaseKey = (g) => (g ? `${typeof g.turn === "object" ? g.turn?.number : g.turn}:${g.phase}` : "");

/** @param {number} d */
const signed = (d) => (d > 0 ? `+${d}` : d < 0 ? `−${Math.abs(d)}` : "+0");

/**
 * The points line: each player's score and what it gained since `prev` (people and bots
 * alike); after a reveal (`revealed`) even when nobody scored. "" when there is nothing
 * to say, or no player has a score.
 * @param {Record<string, any>} g
 * @param {Record<string, any> | null} prev
 * @param {boolean} revealed
 */
export function scoresLine(g, prev, revealed) {
  const was = new Map((prev?.players || []).map((/** @type {any} */ p) => [p.seat, p.score]));
  const scored = (g.players || []).filter((/** @type {any} */ p) => typeof p.score === "number");
  if (!scored.length || !(revealed || scored.some((/** @type {any} */ p) => was.has(p.seat) && was.get(p.seat) !== p.score))) return "";
  const list = scored
    .slice()
    .sort((/** @type {any} */ a, /** @type {any} */ b) => b.score - a.score)
    .map((/** @type {any} */ p) => `${nameOf(p.seat)} ${p.score} (${signed(p.score - (was.get(p.seat) ?? p.score))})`);
  return t("announce.points", { list: list.join(", ") });
}

/**
 * Announce what changed from `prev` to `next` (two state frames).
 * @param {import("./contract.js").Family | null} fam the family, whose status line, move
 *   and lines of a round's end are for `next` (it is the page's state already)
 * @param {import("./app.js").StateFrame | null} prev
 * @param {import("./app.js").StateFrame} next
 */
export function announceState(fam, prev, next) {
  liveRegion();
  const g = next.game;
  if (!g || !fam) return;
  const was = prev?.game || null;
  const lines = [];
  if (was) lines.push(...fam.announce(g, was));
  if (g.phase === "over" || next.room.status === "over") {
    if (was && was.phase !== "over") lines.push(t("status.over"));
  } else if (phaseKey(g) !== phaseKey(was)) {
    lines.push(fam.status());
    if (fam.yourMove()) lines.push(t("status.your_move"));
  }
  if (typeof g.clue === "string" && g.clue && g.clue !== was?.clue) {
    // A muted storyteller's clue is not read out either (the screen shows it hidden).
    lines.push(t("announce.clue", { clue: isMuted(g.storyteller) ? t("people.hidden") : g.clue }));
  }
  announce(lines);
}
