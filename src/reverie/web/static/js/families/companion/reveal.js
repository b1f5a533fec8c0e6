// A revealed companion round: whose card lay at each position, who voted for it, and
// the points. Public once revealed (the table screen shows it too).
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { icon } from "../../icons.js";
import { chip } from "../association/reveal.js";
import { tableLang } from "../../shell/app.js";
import { heard } from "../../shell/people.js";

/** @param {number} p */
const pointsText = (p) => (p > 0 ? `+${p}` : p < 0 ? `−${-p}` : "0");

/**
 * @param {Record<string, any>} round a `last_round`
 * @param {{seat: number, name: string, color: string}[]} players
 * @param {{gallery: boolean, big?: boolean}} opts
 */
export function roundView(round, players, { gallery, big = false }) {
  /** @param {number} seat */
  const who = (seat) => players.find((p) => p.seat === seat) || { seat, name: `#${seat + 1}`, color: "#888" };
  const rows = round.table.map((/** @type {any} */ c) => {
    const story = c.position === round.story_position;
    return h(
      "li",
      { class: ["cpos", story && "story"], "data-position": c.position, key: c.position },
      h("span", { class: "cpos-n" }, String(c.position)),
      h(
        "span",
        { class: "cpos-owner" },
        gallery ? (story ? t("companion.reveal.picked") : t("companion.reveal.gallery_card")) : chip(who(c.owner)),
        story ? h("span", { class: "tag tag-story" }, icon("star", { size: 14 }), t("companion.reveal.story")) : null,
      ),
      h(
        "span",
        { class: "cpos-voters" },
        c.voters.length ? c.voters.map((/** @type {number} */ s) => chip(who(s))) : h("span", { class: "muted small" }, t("companion.reveal.no_votes")),
      ),
    );
  });
  const points = players.map((p) => h("li", { key: p.seat, "data-seat": p.seat }, chip(p), h("strong", { class: "cpoints" }, pointsText(round.points[p.seat] ?? 0))));
  return h(
    "div",
    { class: ["panel", "companion-reveal", big && "big"], id: "companion-reveal", "data-turn": round.turn },
    h("h2", {}, t("companion.reveal.title", { n: round.turn })),
    round.clue
      ? h("p", {}, t("companion.reveal.told", { name: who(round.storyteller).name }), " ", heard(round.storyteller, `clue:${round.turn}`, h("q", { lang: tableLang() }, round.clue)))
      : h("p", {}, t("companion.reveal.told_aloud", { name: who(round.storyteller).name })),
    h("ol", { class: "cpos-list" }, rows),
    h("h3", {}, t("companion.reveal.points")),
    h("ul", { class: "cpoints-list" }, points),
  );
}
