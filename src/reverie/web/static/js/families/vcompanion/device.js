// The table's shared device (the host's, in no team): it chooses the category for the
// drawer, shows the sand timer, says who guessed or that the time ran out, and takes the
// team decisions (the proverb's move, a bonus token, the token lost). It never receives
// the word: the rules' view of a seat in no team has none.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { icon } from "../../icons.js";
import { room, caps, action, nameOf } from "../visual/ctx.js";
import { teamName, teamBadge, teamColor } from "../visual/teams.js";
import { categoryText } from "../visual/panels.js";
import { decisionView } from "../visual/decide.js";
import { sandTimer } from "./sand.js";

/** @param {Event} e */
const target = (e) => /** @type {Element} */ (e.currentTarget);

/** The categories the drawer may choose, with their squares. */
const choosable = () => (caps()?.categories || []).filter((c) => c.choosable);

/** @param {Record<string, any>} g */
function title(g) {
  const turn = g.turn;
  const drawer = nameOf(turn.drawer);
  const team = teamName(turn.team);
  switch (g.phase) {
    case "choose":
      return t("vcompanion.device.choose", { team, name: drawer });
    case "think":
      return turn.proverb ? t("vcompanion.device.think_proverb") : t("vcompanion.device.think", { name: drawer });
    case "draw":
      return turn.proverb ? t("vcompanion.device.draw_proverb") : t("vcompanion.device.draw", { team, name: drawer });
    case "move":
    case "bonus":
      return t("vcompanion.device.deciding", { team: teamName(turn.solved_by) });
    case "lose":
      return t("vcompanion.device.deciding", { team });
    default:
      return t(`vphase.${g.phase}`);
  }
}

function chooser() {
  return [
    h(
      "div",
      { class: "vcat-grid vc-cats", role: "group", "aria-label": t("vchoose.label") },
      choosable().map(({ name: c, points: v }) =>
        h(
          "button",
          { type: "button", class: "vcat", id: `choose-${c}`, key: c, "data-category": c, onclick: (/** @type {Event} */ e) => action({ type: "choose", category: c }, target(e)) },
          h("span", { class: "vcat-value" }, String(v)),
          h("span", { class: "vcat-name" }, t(`vcat.${c}`)),
          h("span", { class: "vcat-sub small" }, t(`vcat.${c}.hint`)),
        ),
      ),
    ),
    h("p", { class: "muted small" }, icon("star", { size: 14 }), " ", t("vchoose.blank_hint")),
  ];
}

/**
 * "Guessed" for the team drawing (every team in a proverb round), and "time ran out".
 * @param {Record<string, any>} g
 */
function verdict(g) {
  const turn = g.turn;
  const open = g.phase === "draw";
  const teams = turn.proverb ? (g.teams || []).map((/** @type {Record<string, any>} */ x) => x.team) : [turn.team];
  return h(
    "div",
    { class: "vc-verdict", role: "group", "aria-label": t("vcompanion.device.verdict") },
    teams.map((tm) =>
      h(
        "button",
        {
          type: "button", class: "btn btn-big vc-guessed", id: `guessed-${tm}`, key: tm, "data-team": tm, disabled: !open,
          style: { "--team": teamColor(room(), tm) },
          onclick: (/** @type {Event} */ e) => action({ type: "guessed", team: tm }, target(e)),
        },
        icon("check", { size: 22 }),
        turn.proverb ? t("vcompanion.device.guessed_team", { team: teamName(tm) }) : t("vcompanion.device.guessed"),
      ),
    ),
    h(
      "button",
      { type: "button", class: "btn btn-quiet btn-big vc-ran-out", id: "ran-out", disabled: !open, onclick: (/** @type {Event} */ e) => action({ type: "ran_out" }, target(e)) },
      icon("hourglass", { size: 22 }),
      turn.proverb ? t("vcompanion.device.nobody") : t("vcompanion.device.ran_out"),
    ),
  );
}

/**
 * The device's stage.
 * @param {Record<string, any>} g
 */
export function deviceView(g) {
  const turn = g.turn;
  const timed = g.phase === "think" || g.phase === "draw";
  return h(
    "div",
    { class: ["panel", "stage", "vc-stage", "vc-device"], id: "vc-stage", "data-turn": turn.number, "data-phase": g.phase, "data-role": "table", key: `device:${turn.number}` },
    h(
      "div",
      { class: "vhead-line" },
      h("span", { class: "vturn-n" }, t("status.turn", { n: turn.number })),
      teamBadge(room(), turn.team),
      turn.category ? h("span", { class: ["tag", "vcat-tag", turn.proverb && "proverb"], id: "turn-category" }, categoryText(turn.category, turn.proverb)) : null,
    ),
    h("h2", { class: "stage-title", id: "stage-title" }, title(g)),
    g.phase === "choose" ? chooser() : null,
    timed || g.phase === "choose" ? h("div", { class: "vc-sand-row" }, sandTimer(g, { big: true, id: "sand" }), timed ? verdict(g) : null) : null,
    timed ? h("p", { class: "muted small" }, turn.proverb ? t("vcompanion.device.proverb_hint") : t("vcompanion.device.draw_hint")) : null,
    h("div", { class: "vdecision", id: "decision" }, decisionView(g, { table: true })),
  );
}
