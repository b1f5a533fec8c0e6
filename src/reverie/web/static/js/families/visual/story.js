// After the drawing game, its story: where each team's pawn stood turn by turn (a
// chart) and every turn told again: the team, the drawer, the word, solved or not, the
// move. From the finished game's `history` (every turn like `last_turn`). Told in the
// table's language, whatever the screen's (docs/client.md).
import { h } from "../../dom.js";
import { translator } from "../../i18n.js";
import { lineChart } from "../../chart.js";
import { teamNameIn, teamBadge } from "./teams.js";
import { room, nameOf, colorOf, tableLang, rerender } from "./ctx.js";
import { categoryText, lostToken } from "./panels.js";

/** @typedef {import("../../i18n.js").Translate} T */

/**
 * The squares of each team after every turn; a pawn starts on square 1.
 * @param {Record<string, any>[]} history
 * @param {number[]} teams
 */
function squares(history, teams) {
  /** @type {Map<number, number[]>} */
  const out = new Map(teams.map((tm) => [tm, [1]]));
  for (const turn of history) {
    for (const [tm, list] of out) {
      const moved = turn.solved_by === tm && turn.moved_to !== null && turn.moved_to !== undefined;
      list.push(moved ? turn.moved_to : list[list.length - 1]);
    }
  }
  return out;
}

/**
 * Who drew a turn: its one drawer, or in a proverb round every team's (`drawers`).
 * @param {Record<string, any>} turn @param {T} t
 */
function drewText(turn, t) {
  const drawers = turn.drawers?.length ? turn.drawers : [turn.drawer];
  const names = drawers.map(nameOf).join(", ");
  return drawers.length > 1 ? t("vstory.drew_all", { names }) : t("vstory.drew", { name: names });
}

/**
 * The token a failed turn cost its team (`lost_token`, one of the game's `removed`).
 * @param {Record<string, any>} turn @param {Record<string, any>} g @param {T} t
 */
function lostText(turn, g, t) {
  const token = lostToken(turn, g);
  if (!token) return null;
  return h("span", { class: "vstory-lost", "data-token": token.id }, t("vstory.lost", { team: teamNameIn(turn.team, t), n: token.value }));
}

/** @param {Record<string, any>} turn @param {Record<string, any>} g @param {T} t */
function turnView(turn, g, t) {
  const solved = turn.solved_by !== null && turn.solved_by !== undefined;
  const moved = solved && turn.moved_from !== null && turn.moved_from !== undefined && turn.moved_to !== null && turn.moved_to !== undefined;
  const lost = lostText(turn, g, t);
  return h(
    "li",
    { class: ["story-round", "vstory-turn", solved ? "solved" : "missed"], "data-turn": turn.number, key: turn.number },
    h(
      "div",
      { class: "story-summary" },
      h("span", { class: "story-n" }, t("story.turn", { n: turn.number })),
      teamBadge(room(), turn.team, { tr: t }),
      h("span", { class: "small muted vstory-drew" }, drewText(turn, t)),
      h("span", { class: "tag" }, categoryText(turn.category, turn.proverb, t)),
      turn.subject ? h("q", { class: "story-clue" }, turn.subject) : null,
    ),
    h(
      "p",
      { class: "story-points small" },
      solved
        ? [t("vstory.solved_by", { team: teamNameIn(turn.solved_by, t) }), moved ? ` · ${t("vstory.moved", { from: turn.moved_from, to: turn.moved_to })}` : ""]
        : [h("span", { class: "muted" }, t("vstory.missed")), lost ? [" · ", lost] : null],
    ),
  );
}

/**
 * The story of a finished drawing game, or null.
 * @param {Record<string, any>} g
 */
export function visualStoryView(g) {
  const history = g.history || [];
  if (!history.length) return null;
  const t = translator(tableLang(), rerender);
  const teams = (g.teams || []).map((/** @type {Record<string, any>} */ tm) => tm.team);
  const sq = squares(history, teams);
  const series = teams.map((tm) => ({ key: tm, name: teamNameIn(tm, t), color: colorOf(tm), values: sq.get(tm) || [] }));
  return h(
    "div",
    // The words inside are in this language too: the story's mark covers them.
    { class: "story vstory", id: "story", lang: tableLang() },
    h("h3", {}, t("vstory.chart_title")),
    lineChart(series, { label: t("vstory.chart_label"), xLabel: (i) => String(i) }),
    h("h3", {}, t("story.title")),
    h("ol", { class: "story-list" }, history.map((turn) => turnView(turn, g, t))),
  );
}
