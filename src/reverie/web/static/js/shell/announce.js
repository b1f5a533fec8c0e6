// What a screen reader says as the game goes on: one polite live region for the whole
// room page, fed from the changes between two states (never from the layout): whose
// turn it is and what the phase asks, the clue once it is told, a round's reveal (the
// storyteller's card), the points, the end. Sighted players read the same on the stage;
// these lines are for those who cannot see it (WCAG 4.1.3, status messages).
import { t, onLangChange } from "../i18n.js";
import { nameOf } from "./app.js";
import { teamName } from "../families/visual/teams.js";

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
 * The points line: each player's score and what it gained since `prev` (people and
 * bots of the association games), or each team's square (the drawing game); after a
 * reveal (`revealed`) even when nobody scored.
 * @param {Record<string, any>} g
 * @param {Record<string, any> | null} prev
 * @param {boolean} revealed
 */
function pointsLine(g, prev, revealed) {
  const was = new Map((prev?.players || []).map((/** @type {any} */ p) => [p.seat, p.score]));
  const scored = (g.players || []).filter((/** @type {any} */ p) => typeof p.score === "number");
  if (scored.length && (revealed || scored.some((/** @type {any} */ p) => was.has(p.seat) && was.get(p.seat) !== p.score))) {
    const list = scored
      .slice()
      .sort((/** @type {any} */ a, /** @type {any} */ b) => b.score - a.score)
      .map((/** @type {any} */ p) => `${nameOf(p.seat)} ${p.score} (${signed(p.score - (was.get(p.seat) ?? p.score))})`);
    return t("announce.points", { list: list.join(", ") });
  }
  const squares = new Map((prev?.teams || []).map((/** @type {any} */ tm) => [tm.team, tm.square]));
  const teams = (g.teams || []).filter((/** @type {any} */ tm) => typeof tm.square === "number");
  if (teams.length && (revealed || teams.some((/** @type {any} */ tm) => squares.has(tm.team) && squares.get(tm.team) !== tm.square))) {
    return t("announce.points", { list: teams.map((/** @type {any} */ tm) => t("vboard.team_at", { team: teamName(tm.team), n: tm.square })).join(", ") });
  }
  return "";
}

/**
 * The reveal of a round (association: `last_round`) or the end of a drawing turn
 * (`last_turn`) that `prev` had not seen.
 * @param {Record<string, any>} g
 * @param {Record<string, any> | null} prev
 */
function revealLine(g, prev) {
  const lr = g.last_round;
  if (lr && lr.turn !== prev?.last_round?.turn) {
    if (typeof lr.story_position === "number" && lr.storyteller !== null && lr.storyteller !== undefined) {
      return t("announce.reveal", { n: lr.turn, name: nameOf(lr.storyteller), position: lr.story_position });
    }
    return t("announce.round_over", { n: lr.turn });
  }
  const lt = g.last_turn;
  if (lt && lt.number !== prev?.last_turn?.number) {
    return t("vlast.title", { n: lt.number, name: nameOf(lt.drawer), team: teamName(lt.team) });
  }
  return "";
}

/**
 * Announce what changed from `prev` to `next` (two state frames).
 * @param {{status: () => string, yourMove: () => boolean} | null} fam the family, whose
 *   status line and move are for `next` (it is the page's state already)
 * @param {import("./app.js").StateFrame | null} prev
 * @param {import("./app.js").StateFrame} next
 */
export function announceState(fam, prev, next) {
  liveRegion();
  const g = next.game;
  if (!g || !fam) return;
  const was = prev?.game || null;
  const lines = [];
  if (was) {
    const reveal = revealLine(g, was);
    lines.push(reveal, pointsLine(g, was, Boolean(reveal)));
  }
  if (g.phase === "over" || next.room.status === "over") {
    if (was && was.phase !== "over") lines.push(t("status.over"));
  } else if (phaseKey(g) !== phaseKey(was)) {
    lines.push(fam.status());
    if (fam.yourMove()) lines.push(t("status.your_move"));
  }
  if (typeof g.clue === "string" && g.clue && g.clue !== was?.clue) lines.push(t("announce.clue", { clue: g.clue }));
  announce(lines);
}
