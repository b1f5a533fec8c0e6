// The drawing game's team decisions: where to move after guessing a proverb, keeping a
// bonus token or stealing one, and which token to give up after a failed turn.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { icon } from "../../icons.js";
import { teamName, teamBadge } from "./teams.js";
import { room, game, theCap, action, myTeam, rerender } from "./ctx.js";
import { tokenChip } from "./panels.js";

const DECIDING = new Set(["move", "bonus", "lose"]);
/** @type {{turn: number, steps: number, direction: string} | null} the move picked, before it is confirmed */
let chosen = null;

export function moveTarget() {
  const g = game();
  if (!g || g.phase !== "move" || !chosen || chosen.turn !== g.turn.number) return null;
  const team = (g.teams || []).find((x) => x.team === g.turn.solved_by);
  if (!team) return null;
  return team.square + (chosen.direction === "forward" ? chosen.steps : -chosen.steps);
}

function waitLine(text) {
  return h("p", { class: "vwait" }, icon("hourglass", { size: 18 }), " ", text);
}

/**
 * The decision of the current phase: the choosers for the deciding team's members (and
 * for the table's shared device, `table`: it decides for every team), else a wait line.
 * @param {Record<string, any>} g
 * @param {{table?: boolean}} [opts]
 */
export function decisionView(g, { table = false } = {}) {
  if (!DECIDING.has(g.phase)) return null;
  const turn = g.turn;
  const mine = table ? (g.phase === "lose" ? turn.team : turn.solved_by) : myTeam();
  if (g.phase === "move") return turn.solved_by === mine ? moveChooser(g, table) : waitLine(t("vdecide.wait_move", { team: teamName(turn.solved_by) }));
  if (g.phase === "bonus") return turn.solved_by === mine ? bonusChooser(g, table) : waitLine(t("vdecide.wait_bonus", { team: teamName(turn.solved_by) }));
  return turn.team === mine ? loseChooser(g, table) : waitLine(t("vdecide.wait_lose", { team: teamName(turn.team) }));
}

/**
 * A chooser's first line: to the team's members ("your pawn"), or on the table's
 * shared device, naming the team.
 * @param {string} key @param {boolean} table @param {Record<string, any>} vars
 */
function intro(key, table, vars) {
  return h("p", {}, table ? t(`vdecide.table.${key}`, vars) : t(`vdecide.${key}`, vars));
}

function moveChooser(g, table) {
  const team = g.teams.find((x) => x.team === g.turn.solved_by);
  const start = team.square;
  if (chosen && chosen.turn !== g.turn.number) chosen = null;
  const pick = (steps, direction) => {
    chosen = { turn: g.turn.number, steps, direction };
    rerender();
    requestAnimationFrame(() => document.getElementById("confirm-move")?.focus());
  };
  const row = (direction) => {
    const steps = direction === "forward" ? [1, 2, 3, 4, 5, 6, 7, 8] : [8, 7, 6, 5, 4, 3, 2, 1];
    return h(
      "div",
      { class: ["vsteps", direction], role: "group", "aria-label": t(`vdecide.${direction}`) },
      h("span", { class: "vsteps-label small" }, t(`vdecide.${direction}`)),
      steps.map((n) => {
        const target = direction === "forward" ? start + n : start - n;
        const ok = target >= 1 && target <= theCap("board").length;
        const token = ok ? g.squares[target - 1] : null;
        const picked = Boolean(chosen && chosen.steps === n && chosen.direction === direction);
        return h(
          "button",
          {
            type: "button", class: ["vstep", picked && "chosen"], disabled: !ok, "aria-pressed": picked ? "true" : "false",
            "data-steps": n, "data-direction": direction, "data-target": ok ? target : null,
            onclick: () => pick(n, direction),
          },
          // The name is the button's own text, what it shows ("+3 → 7") and then the
          // words a screen reader needs: the visible words are in it (WCAG 2.5.3).
          h("span", { class: "vstep-n" }, `${direction === "forward" ? "+" : "−"}${n}`),
          h("span", { class: "vstep-target small" }, ok ? `→ ${target}` : "—"),
          token ? tokenChip(token, { cls: "mini" }) : null,
          h("span", { class: "visually-hidden" }, ` (${ok ? t("vdecide.step_label", { n, square: target }) : t("vdecide.off_board")})`),
        );
      }),
    );
  };
  const target = moveTarget();
  return [
    intro("move_intro", table, { n: start, team: teamName(g.turn.solved_by) }),
    row("backward"),
    row("forward"),
    h(
      "div",
      { class: "actions" },
      h(
        "button",
        {
          type: "button", class: "btn", id: "confirm-move", disabled: target === null,
          onclick: (/** @type {Event} */ e) => chosen && action({ type: "move", steps: chosen.steps, direction: chosen.direction }, /** @type {Element} */ (e.currentTarget)),
        },
        icon("check", { size: 18 }),
        target === null ? t("vdecide.move_pick") : t("vdecide.move_to", { n: target }),
      ),
    ),
  ];
}

function bonusChooser(g, table) {
  const bonus = g.turn.bonus_token;
  const others = (g.teams || []).filter((x) => x.team !== g.turn.solved_by && (x.tokens || []).length);
  return [
    intro("bonus_intro", table, { n: bonus ? bonus.value : 0, team: teamName(g.turn.solved_by) }),
    h("div", { class: "actions" }, h("button", { type: "button", class: "btn", id: "bonus-keep", onclick: (/** @type {Event} */ e) => action({ type: "keep" }, /** @type {Element} */ (e.currentTarget)) }, icon("check", { size: 18 }), t("vdecide.keep", { n: bonus ? bonus.value : 0 }))),
    h("p", { class: "small muted" }, t("vdecide.or_steal")),
    others.map((tm) =>
      h(
        "div",
        { class: "vsteal-team", "data-team": tm.team },
        teamBadge(room(), tm.team),
        h(
          "div",
          { class: "vtoken-buttons" },
          tm.tokens.map((tk) =>
            h(
              "button",
              { type: "button", class: "btn btn-quiet btn-small steal-token", "data-token": tk.id, "aria-label": t("vdecide.steal_label", { n: tk.value, team: teamName(tm.team) }), onclick: (/** @type {Event} */ e) => action({ type: "steal", token: tk.id }, /** @type {Element} */ (e.currentTarget)) },
              t("vdecide.steal"), " ", tokenChip(tk),
            ),
          ),
        ),
      ),
    ),
  ];
}

function loseChooser(g, table) {
  const team = (g.teams || []).find((x) => x.team === g.turn.team);
  return [
    intro("lose_intro", table, { team: teamName(g.turn.team) }),
    h(
      "div",
      { class: "vtoken-buttons" },
      (team?.tokens || []).map((tk) =>
        h(
          "button",
          { type: "button", class: "btn btn-quiet btn-small forfeit-token", "data-token": tk.id, "aria-label": t("vdecide.forfeit_label", { n: tk.value }), onclick: (/** @type {Event} */ e) => action({ type: "forfeit", token: tk.id }, /** @type {Element} */ (e.currentTarget)) },
          t("vdecide.forfeit"), " ", tokenChip(tk),
        ),
      ),
    ),
  ];
}
