// A player's phone in the Visual Game on paper: the drawer reads the word card here (and
// only here); everyone else sees whose turn it is and the sand timer, and guesses aloud.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { icon } from "../../icons.js";
import { room, me, nameOf } from "../visual/ctx.js";
import { teamName, teamBadge } from "../visual/teams.js";
import { categoryText } from "../visual/panels.js";
import { sandTimer } from "./sand.js";

const SECRET = new Set(["think", "draw", "move", "bonus", "lose"]);

/** @param {Record<string, any>} g */
function wordCard(g) {
  const turn = g.turn;
  return h(
    "div",
    { class: ["vc-card", turn.proverb && "proverb"], id: "word-card" },
    h("span", { class: "vc-card-label small" }, icon("eye", { size: 16 }), " ", turn.proverb ? t("vsubject.proverb") : [t("vsubject.word"), " · ", categoryText(turn.category, false)]),
    h("strong", { class: ["vsubject", "vc-word", turn.proverb && "proverb"], id: "subject" }, g.subject),
    h("span", { class: "small muted" }, g.phase === "think" ? t("vcompanion.phone.think") : t("vcompanion.phone.draw_rules")),
  );
}

/** @param {Record<string, any>} g */
function title(g) {
  const turn = g.turn;
  const mine = g.you?.team;
  const drawing = (turn.drawers || []).includes(me()) && SECRET.has(g.phase);
  if (g.phase === "choose") return turn.drawer === me() ? t("vcompanion.phone.you_next") : t("vcompanion.phone.choosing", { team: teamName(turn.team), name: nameOf(turn.drawer) });
  if (g.phase === "think" || g.phase === "draw") {
    if (drawing) return turn.proverb ? t("vcompanion.phone.draw_proverb") : t("vcompanion.phone.draw");
    if (turn.proverb) return t("vcompanion.phone.guess_proverb");
    return mine === turn.team ? t("vcompanion.phone.guess", { name: nameOf(turn.drawer) }) : t("vcompanion.phone.watch", { team: teamName(turn.team), name: nameOf(turn.drawer) });
  }
  return t("vcompanion.phone.deciding");
}

/**
 * A phone's stage.
 * @param {Record<string, any>} g
 */
export function phoneView(g) {
  const turn = g.turn;
  const drawing = Boolean(g.subject) && (g.phase === "think" || g.phase === "draw");
  const timed = g.phase === "think" || g.phase === "draw";
  return h(
    "div",
    { class: ["panel", "stage", "vc-stage", "vc-phone", drawing && "drawing"], id: "vc-stage", "data-turn": turn.number, "data-phase": g.phase, "data-role": g.you?.role || "spectator", key: `phone:${turn.number}` },
    h(
      "div",
      { class: "vhead-line" },
      h("span", { class: "vturn-n" }, t("status.turn", { n: turn.number })),
      teamBadge(room(), turn.team),
      turn.category ? h("span", { class: ["tag", "vcat-tag", turn.proverb && "proverb"] }, categoryText(turn.category, turn.proverb)) : null,
    ),
    h("h2", { class: "stage-title", id: "stage-title" }, title(g)),
    drawing ? wordCard(g) : null,
    timed ? sandTimer(g, { id: "sand-phone" }) : null,
    !timed && g.phase !== "choose" ? h("p", { class: "muted" }, icon("hourglass", { size: 16 }), " ", t("vcompanion.phone.table_decides")) : null,
  );
}
