// After the game, its story: every player's score round by round (a chart), and each
// round told again: the clue, the cards on the table with their owners and voters, the
// points. From the finished game's `history` (a list of rounds like `last_round`). Told
// in the table's language, whatever the screen's (docs/client.md).
import { h } from "../../dom.js";
import { translator, t as screenT } from "../../i18n.js";
import { icon } from "../../icons.js";
import { lineChart } from "../../chart.js";
import { cardImage, openZoom } from "./cards.js";
import { chip } from "./reveal.js";
import { tableLang, rerender } from "../../shell/app.js";
import { heard } from "../../shell/people.js";

/** @typedef {import("../../i18n.js").Translate} T */

/**
 * @typedef {{seat: number, name: string, color: string}} P
 */

/** @param {Record<string, any>} round @param {number} seat */
const pointsOf = (round, seat) => Number(round.points?.[seat] ?? 0) || 0;

/** @param {number} p */
const signed = (p) => (p > 0 ? `+${p}` : p < 0 ? `−${-p}` : "0");

/**
 * @param {Record<string, any>[]} history
 * @param {P[]} players
 * @param {T} t
 */
function chartView(history, players, t) {
  const series = players.map((p) => {
    let sum = 0;
    const values = [0];
    for (const round of history) {
      sum += pointsOf(round, p.seat);
      values.push(sum);
    }
    return { key: p.seat, name: p.name, color: p.color, values };
  });
  return lineChart(series, { label: t("story.chart_label"), xLabel: (i) => String(i) });
}

/**
 * @param {Record<string, any>} round
 * @param {(seat: number) => P} bySeat
 * @param {boolean} gallery
 * @param {T} t
 */
function roundView(round, bySeat, gallery, t) {
  const st = bySeat(round.storyteller);
  const head = h(
    "span",
    { class: "story-head" },
    h("span", { class: "story-n" }, t("story.turn", { n: round.turn })),
    chip(st),
    round.skipped ? h("span", { class: "muted" }, t("story.skipped")) : heard(round.storyteller, `clue:${round.turn}`, h("q", { class: "story-clue" }, round.clue || "")),
    round.restriction ? h("span", { class: "tag" }, icon(round.restriction, { size: 14 }), t(`restriction.${round.restriction}.short`)) : null,
  );
  if (round.skipped) return h("li", { class: "story-round", "data-turn": round.turn, key: round.turn }, h("div", { class: "story-summary" }, head));
  const votes = round.votes || [];
  const finders = votes.filter((/** @type {number | null} */ v) => v === round.story_position).length;
  const voters = votes.filter((/** @type {number | null} */ v) => v !== null && v !== undefined).length;
  const outcome = finders === 0 ? "none" : finders === voters ? "all" : "some";
  const cards = (round.table || []).map((/** @type {Record<string, any>} */ cell) => {
    const story = cell.position === round.story_position;
    const owner = bySeat(cell.owner);
    return h(
      "li",
      { class: ["story-card", story && "story"], key: cell.position, "data-position": cell.position },
      h("button", { type: "button", class: "story-thumb", "aria-label": t("card.position", { n: cell.position }), onclick: () => openZoom(cell.card, { position: cell.position, note: gallery ? null : screenT("reveal.card_of", { name: owner.name }) }) },
        cardImage(cell.card, { alt: "", lazy: true }), h("span", { class: "story-pos", "aria-hidden": "true" }, String(cell.position))),
      h(
        "div",
        { class: "story-card-text small" },
        story ? h("strong", { class: "story-mark" }, icon("quill", { size: 14 }), t("reveal.story_card")) : gallery ? null : h("span", {}, t("reveal.card_of", { name: owner.name })),
        h("span", { class: "muted" }, (cell.voters || []).length ? t("story.votes_from", { names: cell.voters.map((/** @type {number} */ v) => bySeat(v).name).join(", ") }) : t("reveal.no_votes")),
      ),
    );
  });
  const seats = Object.keys(round.points || {}).map(Number).filter((seat) => !Number.isNaN(seat));
  const points = seats
    .sort((a, b) => pointsOf(round, b) - pointsOf(round, a))
    .map((seat) => h("span", { class: ["story-pts", pointsOf(round, seat) > 0 ? "gain" : ""], key: seat }, bySeat(seat).name, " ", h("strong", {}, signed(pointsOf(round, seat)))));
  return h(
    "li",
    { class: "story-round", "data-turn": round.turn, key: round.turn },
    h(
      "details",
      {},
      h("summary", { class: "story-summary" }, head, h("span", { class: "story-outcome small muted" }, t(`reveal.outcome.${outcome}`, { n: finders, total: voters }))),
      h("ol", { class: "story-table" }, cards),
    ),
    h("p", { class: "story-points small" }, points),
  );
}

/**
 * The story of a finished game: null while there is none.
 * @param {Record<string, any>} g
 * @param {P[]} players
 * @param {{gallery: boolean}} opts
 */
export function storyView(g, players, { gallery }) {
  const history = g.history || [];
  if (!history.length) return null;
  const t = translator(tableLang(), rerender);
  /** @param {number} seat */
  const bySeat = (seat) => players.find((p) => p.seat === seat) || { seat, name: `#${seat + 1}`, color: "#888" };
  return h(
    "div",
    // The clues inside are in this language too: the story's mark covers them.
    { class: "story", id: "story", lang: tableLang() },
    h("h3", {}, t("story.chart_title")),
    chartView(history, players, t),
    h("h3", {}, t("story.title")),
    h("ol", { class: "story-list" }, history.map((round) => roundView(round, bySeat, gallery, t))),
  );
}
