// The Visual Game on paper on the table screen (/r/CODE?table): the sand timer big, whose
// turn it is, the board with its tokens, the teams' tokens, the last turn and the QR code
// to join. A spectator's view: it never holds the word.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { icon } from "../../icons.js";
import { room, game, theRoom, theGame, theCap, nameOf, colorOf } from "../visual/ctx.js";
import { teamName, teamBadge } from "../visual/teams.js";
import { categoryText, tokenChip, lastTurnView } from "../visual/panels.js";
import { visualBoardSVG } from "../visual/board.js";
import { joinPanel } from "../../shell/table.js";
import { muteButton, soundOn } from "../../shell/cues.js";
import { rerender } from "../../shell/app.js";
import { sandTimer } from "./sand.js";

/** @param {Record<string, any>} g */
function phaseLine(g) {
  const turn = g.turn;
  const team = teamName(turn.team);
  switch (g.phase) {
    case "choose":
      return t("vcompanion.table.choose", { team, name: nameOf(turn.drawer) });
    case "think":
    case "draw":
      return turn.proverb ? t("vcompanion.table.proverb") : t("vcompanion.table.draw", { team, name: nameOf(turn.drawer) });
    case "move":
    case "bonus":
      return t("vstatus.deciding", { team: teamName(turn.solved_by) });
    case "lose":
      return t("vstatus.deciding", { team });
    default:
      return t("status.over");
  }
}

/** @param {Record<string, any>} g */
function nowView(g) {
  const turn = g.turn;
  return h(
    "div",
    { class: "panel table-now vc-now", id: "table-now" },
    h(
      "div",
      { class: "table-turn muted" },
      t("status.turn", { n: turn.number }),
      teamBadge(room(), turn.team),
      turn.category ? h("span", { class: ["tag", "vcat-tag", turn.proverb && "proverb"] }, categoryText(turn.category, turn.proverb)) : null,
      h("span", { class: "vc-sound" }, soundOn() ? null : h("span", { class: "small", id: "sound-hint" }, t("vcompanion.table.sound_hint")), muteButton(rerender)),
    ),
    h("h1", { class: "table-phase", id: "table-phase" }, phaseLine(g)),
    sandTimer(g, { big: true, id: "table-sand" }),
  );
}

function teamsList() {
  const g = theGame();
  const current = g.phase === "over" ? null : g.turn?.team;
  return h(
    "ul",
    { class: "vc-table-teams" },
    (g.teams || []).map((/** @type {Record<string, any>} */ tm) =>
      h(
        "li",
        { key: tm.team, "data-team": tm.team, class: ["vteam", tm.team === current && "current"], style: { "--team": colorOf(tm.team) } },
        h("div", { class: "vteam-head" }, teamBadge(room(), tm.team), h("span", { class: "small muted" }, (tm.seats || []).map(nameOf).join(", ")), h("strong", { class: "vteam-total" }, String(tm.total))),
        h("div", { class: "vteam-tokens" }, (tm.tokens || []).length ? tm.tokens.map((/** @type {any} */ tk) => tokenChip(tk)) : h("span", { class: "muted small" }, t("vplayers.no_tokens"))),
      ),
    ),
  );
}

/** The whole table screen. */
export function tableView() {
  const r = theRoom();
  const g = game();
  if (!g || r.status === "lobby") {
    return h(
      "div",
      { class: "table-screen-grid lobby" },
      joinPanel({ big: true }),
      h("div", { class: "panel" }, h("h2", {}, t("companion.table.waiting_start")), h("p", { class: "muted" }, t("vcompanion.table.lobby_hint")), h("ul", { class: "table-scores" }, r.players.map((p) => h("li", { key: p.seat }, h("span", { class: "dot", style: { background: p.color } }), p.name)))),
    );
  }
  const over = g.phase === "over";
  const winners = g.winners || [];
  return h(
    "div",
    { class: "table-screen-grid vc-table" },
    h(
      "div",
      { class: "table-col" },
      over
        ? h("div", { class: "panel final big", id: "table-final" }, h("h1", {}, icon("trophy", { size: 32 }), " ", t("vfinal.won", { names: winners.map(teamName).join(", "), n: winners.length })))
        : nowView(g),
      lastTurnView(),
      h("div", { class: "panel" }, teamsList()),
    ),
    h(
      "div",
      { class: "table-col" },
      h("div", { class: "panel board vboard table-board" }, h("h2", {}, t("vboard.title")), visualBoardSVG(g, colorOf, { length: theCap("board").length, current: over ? null : g.turn?.team })),
      joinPanel(),
    ),
  );
}
