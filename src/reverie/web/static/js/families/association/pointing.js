// A team seat (several people playing one seat, each on their own device): each member
// sees where the others point (the card they would play or tell, the card they would
// vote for), and, when the table's `team_seats` is "agree", the bar where a member
// agrees with a teammate's confirmed move. The server shows a seat's choices to its own
// members only (`room.you.proposals`); the move a member agrees to is sent as it is.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { icon } from "../../icons.js";
import { app, room, me, isTeamSeat, send, action, tableLang } from "../../shell/app.js";
import { cardImage } from "./cards.js";

/** Whether this page plays a team seat. */
export const teamSeat = () => isTeamSeat(me());

/** @returns {import("../../shell/app.js").Proposal[]} the teammates' current choices */
function others() {
  return (room()?.you?.proposals || []).filter((p) => p.member !== app.member);
}

/** This member's own confirmed move, waiting for a teammate. */
const mineWaiting = () => (room()?.you?.proposals || []).find((p) => p.member === app.member && p.firm) || null;

/**
 * Tell the teammates what this member points at (a move frame, or null): nothing is
 * sent at a solo seat.
 * @param {Record<string, any> | null} move
 */
export function pointAt(move) {
  if (teamSeat()) send({ type: "point", move });
}

/**
 * What the teammates point at on one card of the hand (a card to play or tell) or of
 * the table (a position to vote for): a note for the card's tile, or null.
 * @param {"card" | "position"} field
 * @param {number} value
 */
export function teamNote(field, value) {
  const names = others().filter((p) => p.move?.[field] === value).map((p) => t(p.firm ? "team.confirmed" : "team.points", { name: p.name }));
  return names.length ? names.join(". ") : null;
}

/** @param {Record<string, any>} move */
function describe(move) {
  if (move.type === "vote") return t("team.move_vote", { n: move.position });
  if (move.type === "clue" && move.text) return [t("team.move_clue"), " ", h("q", { lang: tableLang() }, move.text)];
  return t("team.move_card");
}

/**
 * The team's bar above the stage: in "agree" mode each teammate's confirmed move with
 * an Agree button (a button: Tab and Enter reach it), and this member's own move
 * waiting for a teammate; in any mode, who points where.
 */
export function teamBar() {
  if (!teamSeat()) return null;
  const agree = room()?.options?.team_seats === "agree";
  const theirs = others();
  const waiting = mineWaiting();
  const rows = theirs.map((p) =>
    h(
      "li",
      { class: ["team-choice", p.firm && "firm"], key: `${p.member}` },
      typeof p.move?.card === "number" ? h("span", { class: "chosen-thumb small-thumb" }, cardImage(p.move.card, { alt: "" })) : null,
      h("span", { class: "grow" }, h("strong", {}, p.name), ": ", describe(p.move)),
      agree && p.firm
        ? h("button", { type: "button", class: "btn btn-small", id: `agree-${p.member}`, onclick: (/** @type {MouseEvent} */ e) => action(p.move, /** @type {Element} */ (e.currentTarget)) },
            icon("check", { size: 16 }), t("team.agree_with", { name: p.name }))
        : h("span", { class: "muted small" }, t(p.firm ? "team.confirmed_short" : "team.pointing")),
    ),
  );
  return h(
    "section",
    { class: "team-bar", id: "team-bar", "aria-labelledby": "team-bar-title" },
    h("h3", { id: "team-bar-title" }, icon("team", { size: 18 }), " ", t("team.title")),
    rows.length ? h("ul", { class: "team-choices", "aria-live": "polite" }, rows) : h("p", { class: "muted small" }, t(agree ? "team.hint_agree" : "team.hint_one")),
    waiting ? h("p", { class: "small", role: "status", id: "team-waiting" }, t("team.waiting_agree")) : null,
  );
}
