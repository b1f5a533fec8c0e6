// The results of a revealed round (game.last_round) and the check of the storyteller's
// commitment: sha256("reverie:" + story_card + ":" + salt) must equal the hash published
// before the vote.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { icon } from "../../icons.js";
import { cardTile, cardRow } from "./cards.js";
import { rerender, tableLang } from "../../shell/app.js";
import { heard } from "../../shell/people.js";

/** @param {string} text */

export async function sha256Hex(text) {
  const data = new TextEncoder().encode(text);
  const digest = await crypto.subtle.digest("SHA-256", data);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * true / false, or null when there is nothing to check.
 * @param {Record<string, any>} round
 */
export async function verifyCommitment(round) {
  if (!round || !round.commitment || round.salt === null || round.salt === undefined || round.story_card === null) return null;
  if (!(globalThis.crypto && crypto.subtle)) return null;
  const hex = await sha256Hex(`reverie:${round.story_card}:${round.salt}`);
  return hex === String(round.commitment).toLowerCase();
}

/** The outcome of each round's check, by commitment: true, false, null, or "pending". */
/** @type {Map<string, boolean | null | "pending">} */
const checked = new Map();

/** @param {Record<string, any>} round */
function verifyState(round) {
  const key = `${round.turn}:${round.commitment}:${round.salt}`;
  if (!checked.has(key)) {
    checked.set(key, "pending");
    verifyCommitment(round).then(
      (ok) => checked.set(key, ok),
      () => checked.set(key, null),
    ).then(rerender);
  }
  return checked.get(key);
}

/** @param {Record<string, any>} round */
function verifyBadge(round) {
  const ok = verifyState(round);
  if (ok === "pending") {
    return h("span", { class: "verify pending", "aria-live": "polite" }, icon("shield", { size: 18 }), t("reveal.checking"));
  }
  return h(
    "span",
    { class: ["verify", ok ? "ok" : ok === null ? "unknown" : "bad"], "aria-live": "polite", title: ok ? t("reveal.verified_hint") : "" },
    icon(ok ? "shield" : "warn", { size: 18 }),
    ok === null ? t("reveal.unchecked") : ok ? t("reveal.verified") : t("reveal.mismatch"),
  );
}

/**
 * @param {{seat: number, name: string, color?: string} | null} player
 * @param {import("../../dom.js").Child} [extra]
 */
export function chip(player, extra = null) {
  return h(
    "span",
    { class: "chip", "data-seat": player ? player.seat : null },
    h("span", { class: "dot", style: { background: player?.color || "#888" }, "aria-hidden": "true" }),
    h("span", { class: "chip-name" }, player ? player.name : "?"),
    extra,
  );
}

/** Phones: the results open compact, their table of votes and points folded. */
const phone = () => window.matchMedia("(max-width: 640px)").matches;

/** @type {Map<number, boolean>} turn → whether its votes and points are unfolded (by the reader) */
const unfolded = new Map();

/** @param {number} p */
function pointsText(p) {
  if (p > 0) return `+${p}`;
  if (p < 0) return `−${Math.abs(p)}`;
  return "0";
}

/**
 * round: last_round; players: merged [{seat, name, color, score}] indexed by seat;
 * gallery: true when every card on the table is the storyteller's (no owners to show).
 * @param {Record<string, any>} round
 * @param {{seat: number, name: string, color: string}[]} players
 * folded: whether who voted for what starts folded (by default on a phone).
 * @param {{gallery?: boolean, you?: number | null, onClose?: (() => void) | null, folded?: boolean}} [opts]
 */
export function revealView(round, players, { gallery = false, you = null, onClose = null, folded = phone() } = {}) {
  /** @param {number} seat */
  const bySeat = (seat) => players.find((p) => p.seat === seat) || { seat, name: `#${seat + 1}`, color: "#888" };
  const st = bySeat(round.storyteller);
  const header = h(
    "div",
    { class: "reveal-head" },
    h("h2", { id: "reveal-title" }, t("reveal.title", { n: round.turn })),
    onClose ? h("button", { type: "button", class: "btn btn-quiet btn-small", id: "reveal-close", onclick: onClose }, t("reveal.close")) : null,
  );
  if (round.skipped) {
    return h(
      "section",
      { class: "panel reveal", id: "reveal-panel", "aria-labelledby": "reveal-title", "data-turn": round.turn },
      header,
      h("p", {}, t("reveal.skipped", { name: st.name })),
    );
  }
  const votedFor = round.votes || [];
  const tiles = (round.table || []).map((cell) => {
    const owner = bySeat(cell.owner);
    const isStory = cell.position === round.story_position;
    const voters = (cell.voters || []).map(bySeat);
    const below = h(
      "div",
      { class: "reveal-info" },
      isStory ? h("div", { class: "ribbon" }, icon("quill", { size: 16 }), h("span", { class: "ribbon-long" }, t("reveal.story_card")), h("span", { class: "ribbon-short" }, t("reveal.storyteller"))) : null,
      h(
        "div",
        { class: "voters", "aria-label": t("reveal.voters") },
        voters.length
          ? [h("span", { class: "muted small votes-label" }, t("reveal.votes_label")), voters.map((v) => chip(v))]
          : h("span", { class: "muted small" }, t("reveal.no_votes")),
      ),
      // A phone's compact line: how many found it (who voted is in the table below).
      h("div", { class: "votes-count small", "aria-hidden": "true" }, t("reveal.votes_count", { n: voters.length })),
    );
    return cardTile(cell.card, {
      position: cell.position,
      story: isStory,
      mine: !gallery && cell.owner === you,
      note: gallery ? null : t("reveal.card_of", { name: owner.name }),
      below,
    });
  });
  const order = players.slice().sort((a, b) => (round.points[b.seat] ?? 0) - (round.points[a.seat] ?? 0));
  const points = h(
    "table",
    { class: "simple points-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("reveal.player")), h("th", { scope: "col" }, t("reveal.voted")), h("th", { scope: "col", class: "num" }, t("reveal.points")))),
    h(
      "tbody",
      {},
      order.map((p) => {
        const v = votedFor[p.seat];
        const pts = round.points[p.seat] ?? 0;
        return h(
          "tr",
          { "data-seat": p.seat, class: p.seat === round.storyteller ? "is-storyteller" : "" },
          h("td", {}, chip(p, p.seat === round.storyteller ? h("span", { class: "tag" }, t("reveal.storyteller")) : null)),
          h("td", {}, p.seat === round.storyteller ? "—" : v ? t("reveal.voted_for", { n: v }) : t("reveal.did_not_vote")),
          h("td", { class: ["num", pts > 0 ? "gain" : pts < 0 ? "loss" : ""] }, pointsText(pts)),
        );
      }),
    ),
  );
  const finders = votedFor.filter((v) => v === round.story_position).length;
  const voters = votedFor.filter((v) => v !== null && v !== undefined).length;
  const outcome = finders === 0 ? "none" : finders === voters ? "all" : "some";
  return h(
    "section",
    { class: "panel reveal", id: "reveal-panel", "aria-labelledby": "reveal-title", "data-turn": round.turn },
    header,
    h(
      "p",
      { class: "reveal-clue" },
      chip(st),
      " ",
      heard(round.storyteller, `clue:${round.turn}`, h("q", { class: "clue-text", lang: tableLang() }, round.clue || "")),
      round.restriction ? h("span", { class: "tag" }, t(`restriction.${round.restriction}.short`)) : null,
    ),
    h("p", { class: "reveal-outcome" }, t(`reveal.outcome.${outcome}`, { n: finders, total: voters })),
    // On a phone the points table is a long scroll below the cards: the points at a
    // glance come first (the table below stays the full account, for screen readers too).
    h("p", { class: "reveal-points-line", id: "reveal-points-line", "aria-hidden": "true" },
      order.map((p) => h("span", { class: ["story-pts", (round.points[p.seat] ?? 0) > 0 && "gain"], key: p.seat, "data-seat": p.seat }, p.name, " ", h("strong", {}, pointsText(round.points[p.seat] ?? 0))))),
    cardRow(tiles, { cls: "reveal-row", label: t("reveal.table") }),
    // Who voted for what, the points and the check: open on a laptop, a tap away on a
    // phone, where the panel would otherwise run to several screens.
    h(
      "details",
      {
        class: "reveal-details", id: "reveal-details", open: unfolded.get(round.turn) ?? !folded,
        ontoggle: (/** @type {Event} */ e) => unfolded.set(round.turn, /** @type {HTMLDetailsElement} */ (e.currentTarget).open),
      },
      h("summary", { id: "reveal-details-summary" }, t("reveal.details")),
      h("div", { class: "reveal-bottom" }, points, h("p", { class: "verify-line" }, verifyBadge(round), h("span", { class: "muted small commitment" }, t("reveal.commitment", { hash: String(round.commitment || "").slice(0, 16) + "…" })))),
    ),
  );
}
