// The drawing game's side panels and end screen: the teams' scoreboard, the board, the
// last turn revealed, the log of turns, and the final results.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { icon } from "../../icons.js";
import { teamName, teamBadge } from "./teams.js";
import { visualBoardSVG } from "./board.js";
import { visualStoryView } from "./story.js";
import { room, game, me, theCap, isHost, send, nameOf, seatColor, colorOf, player, myTeam, tableLang } from "./ctx.js";

/** @param {Event} e */
const target = (e) => /** @type {Element} */ (e.currentTarget);

/**
 * @param {{id: number, value: number, bonus?: boolean}} token
 * @param {{cls?: string}} [opts]
 */
export function tokenChip(token, { cls = "" } = {}) {
  return h(
    "span",
    {
      class: ["vtoken", token.bonus && "bonus", cls], "data-token": token.id, "data-value": token.value,
      title: t(token.bonus ? "vboard.bonus_token" : "vboard.token", { n: token.value }),
    },
    token.bonus ? icon("star", { size: 12 }) : null,
    String(token.value),
  );
}

/**
 * @param {string} category @param {boolean} proverb
 * @param {import("../../i18n.js").Translate} [tr] another language's `t`
 */
export function categoryText(category, proverb, tr = t) {
  return proverb ? tr("vcat.proverbs") : tr(`vcat.${category}`);
}

/** @param {number} seat @param {Record<string, any>} g */
function memberRow(seat, g) {
  const p = player(seat);
  const turn = g.turn || {};
  const drawing = g.phase === "choose" ? turn.drawer === seat : ["think", "draw"].includes(g.phase) && (turn.drawers || []).includes(seat);
  const waiting = (g.waiting || []).includes(seat);
  const host = isHost();
  return h(
    "li",
    { class: ["vmember", seat === me() && "is-you", waiting && "waiting"], "data-seat": seat, key: seat },
    h("span", { class: "dot", style: { background: seatColor(seat) }, "aria-hidden": "true" }),
    h("span", { class: "pname" }, nameOf(seat)),
    seat === me() ? h("span", { class: "tag tag-you" }, t("players.you")) : null,
    drawing ? h("span", { class: "tag tag-story" }, icon("pencil", { size: 13 }), t("vplayers.drawing")) : null,
    p && !p.bot && !p.connected ? h("span", { class: "tag tag-off" }, icon("offline", { size: 13 }), t("players.offline")) : null,
    p?.bot_playing ? h("span", { class: "tag tag-warn" }, icon("bot", { size: 13 }), t("players.bot_playing")) : null,
    host && p && !p.bot && (!p.connected || p.bot_playing) && g.phase !== "over"
      ? h("button", { type: "button", class: "btn btn-quiet btn-small seat-bot", onclick: (/** @type {Event} */ e) => send({ type: "bot_seat", seat, on: !p.bot_playing }, target(e)) },
          icon("bot", { size: 16 }), p.bot_playing ? t("players.bot_off") : t("players.bot_on"))
      : null,
  );
}

/** The teams' scoreboard. @param {Record<string, any>} g */
export function scoresView(g) {
  const r = room();
  const current = g.phase === "over" ? null : g.turn?.team;
  return h(
    "div",
    { class: "panel scores vscores" },
    h("h2", {}, t("vplayers.title")),
    h(
      "ul",
      { class: "vteam-list" },
      (g.teams || []).map((tm) =>
        h(
          "li",
          { class: ["vteam", tm.team === current && "current", tm.team === myTeam() && "mine"], "data-team": tm.team, key: tm.team, style: { "--team": colorOf(tm.team) } },
          h(
            "div",
            { class: "vteam-head" },
            teamBadge(r, tm.team),
            tm.team === current ? h("span", { class: "tag tag-story" }, t("vplayers.turn")) : null,
            h("span", { class: "vteam-square small muted" }, t("vplayers.square", { n: tm.square })),
            h("span", { class: "vteam-total", title: t("vplayers.total") }, h("span", { class: "visually-hidden" }, `${t("vplayers.total")}: `), String(tm.total)),
          ),
          h("ul", { class: "vmembers" }, (tm.seats || []).map((seat) => memberRow(seat, g))),
          h(
            "div",
            { class: "vteam-tokens", "aria-label": t("vplayers.tokens") },
            (tm.tokens || []).length ? tm.tokens.map((tk) => tokenChip(tk)) : h("span", { class: "muted small" }, t("vplayers.no_tokens")),
          ),
        ),
      ),
    ),
    h("p", { class: "muted small" }, t("vplayers.cards_left", { n: g.cards_left ?? 0 })),
  );
}

/**
 * The board panel; `square` highlights the square a team is about to choose.
 * @param {Record<string, any>} g
 * @param {number | null} square
 */
export function boardView(g, square = null) {
  const current = g.phase !== "over" ? g.turn?.team : null;
  return h(
    "div",
    { class: "panel board vboard" },
    h("h2", {}, t("vboard.title")),
    visualBoardSVG(g, colorOf, { length: theCap("board").length, target: square, current }),
    h(
      "ul",
      { class: "legend" },
      h("li", {}, h("span", { class: "vtoken" }, "3"), t("vboard.legend_token")),
      h("li", {}, h("span", { class: "vtoken bonus" }, icon("star", { size: 12 }), "2"), t("vboard.legend_bonus")),
      h("li", {}, icon("flag", { size: 16 }), t("vboard.legend_end")),
    ),
  );
}

/**
 * The token a failed turn cost its team (`lost_token`: one of the game's `removed`), or null.
 * @param {Record<string, any>} turn a finished turn
 * @param {Record<string, any>} g the game
 * @returns {{id: number, value: number, bonus?: boolean} | null}
 */
export function lostToken(turn, g) {
  if (turn.lost_token === null || turn.lost_token === undefined) return null;
  return (g.removed || []).find((/** @type {Record<string, any>} */ k) => k.id === turn.lost_token) || null;
}

/** @param {Record<string, any>} lt @param {Record<string, any>} g */
function lastTurnLines(lt, g) {
  const lines = [];
  const cat = h("span", { class: "tag" }, categoryText(lt.category, lt.proverb));
  // On paper the word stays on its drawer's phone: the others see the category only.
  const word = lt.subject
    ? [lt.proverb ? t("vlast.proverb_was") : t("vlast.word_was"), " ", h("q", { class: "vlast-word", lang: tableLang() }, lt.subject), " "]
    : null;
  lines.push(h("p", { class: "vlast-subject" }, word, cat));
  if (lt.solved_by === null || lt.solved_by === undefined) {
    lines.push(h("p", { class: "vlast-result muted" }, t("vlast.nobody")));
    const lost = lostToken(lt, g);
    if (lost) lines.push(h("p", { class: "vlast-lost", id: "last-lost" }, teamBadge(room(), lt.team), " ", t("vlast.lost"), " ", tokenChip(lost)));
  } else {
    const moved = lt.moved_from !== null && lt.moved_from !== undefined && lt.moved_to !== null && lt.moved_to !== undefined;
    lines.push(
      h(
        "p",
        { class: "vlast-result" },
        teamBadge(room(), lt.solved_by),
        " ",
        moved ? t("vlast.solved_moved", { from: lt.moved_from, to: lt.moved_to }) : t("vlast.solved"),
      ),
    );
  }
  return lines;
}

/**
 * "Turn n: Ann drew for Team 1", or in a proverb round, which every team drew, each drawer.
 * @param {Record<string, any>} lt a finished turn
 */
function lastTitle(lt) {
  if ((lt.drawers || []).length > 1) return t("vlast.title_all", { n: lt.number, names: lt.drawers.map(nameOf).join(", ") });
  return t("vlast.title", { n: lt.number, name: nameOf(lt.drawer), team: teamName(lt.team) });
}

/** The turn just finished, above the stage while the next one starts. */
export function lastTurnView() {
  const g = game();
  const r = room();
  const lt = g?.last_turn;
  if (!r || !g || !lt || r.status !== "playing" || (g.phase !== "choose" && g.phase !== "think")) return null;
  return h(
    "div",
    { class: "panel vlast", id: "last-turn", "data-turn": lt.number, role: "status" },
    h("h2", { class: "vlast-title" }, lastTitle(lt)),
    lastTurnLines(lt, g),
  );
}

/** @type {Map<number, Record<string, any>>} turn number → last_turn, as seen on this page */
const history = new Map();

/** Remember the turn just finished (every state). @param {Record<string, any> | null} g */
export function noteTurn(g) {
  const lt = g?.last_turn;
  if (g && g.phase === "choose" && g.turn?.number === 1 && !lt) history.clear();
  if (lt) {
    const seen = history.get(lt.number);
    if (seen && seen.subject !== lt.subject) history.clear(); // a new game
    history.set(lt.number, lt);
  }
}

export function logView() {
  const list = [...history.values()].sort((a, b) => b.number - a.number).slice(0, 10);
  if (!list.length) return null;
  return h(
    "div",
    { class: "panel log vlog" },
    h("h2", {}, t("vlog.title")),
    h(
      "ol",
      { class: "log-list vlog-list", reversed: true },
      list.map((x) =>
        h(
          "li",
          { "data-turn": x.number, key: x.number },
          h("span", { class: "vlog-n" }, `${x.number}.`),
          " ",
          h("span", { class: "team-dot", style: { "--team": colorOf(x.team) }, "aria-hidden": "true" }),
          x.subject ? h("q", { lang: tableLang() }, x.subject) : h("span", { class: "tag" }, categoryText(x.category, x.proverb)),
          " ",
          x.solved_by === null || x.solved_by === undefined
            ? h("span", { class: "muted" }, t("vlog.missed"))
            : h("span", {}, t("vlog.solved", { team: teamName(x.solved_by) }), x.moved_to ? ` · ${x.moved_from} → ${x.moved_to}` : ""),
        ),
      ),
    ),
  );
}

/** The end of the game. @param {Record<string, any>} g */
export function finalView(g) {
  const r = room();
  const winners = g.winners || [];
  const teams = (g.teams || []).slice().sort((a, b) => b.total - a.total || b.square - a.square);
  const names = winners.map(teamName).join(", ");
  return h(
    "div",
    { class: "panel final vfinal" },
    h("h2", {}, icon("trophy", { size: 26 }), " ", t("final.title")),
    h("p", { class: "final-winners", id: "winners" }, winners.length ? t("vfinal.won", { names, n: winners.length }) : t("final.no_winner")),
    g.finisher !== null && g.finisher !== undefined
      ? h("p", { class: "muted" }, t("vfinal.finisher", { team: teamName(g.finisher) }))
      : h("p", { class: "muted" }, t("vfinal.no_finisher")),
    g.last_turn ? h("div", { class: "vfinal-last" }, h("h3", {}, lastTitle(g.last_turn)), lastTurnLines(g.last_turn, g)) : null,
    h(
      "ol",
      { class: "final-list" },
      teams.map((tm, i) =>
        h(
          "li",
          { class: ["final-row", "vfinal-row", winners.includes(tm.team) && "winner"], "data-team": tm.team, key: tm.team, style: { "--team": colorOf(tm.team) } },
          h("span", { class: "rank" }, String(i + 1)),
          h(
            "div",
            { class: "vfinal-team" },
            h("div", { class: "vfinal-name" }, teamBadge(r, tm.team), winners.includes(tm.team) ? h("span", { class: "tag tag-win" }, icon("trophy", { size: 14 }), t("final.winner")) : null),
            h("div", { class: "small muted" }, (tm.seats || []).map(nameOf).join(", "), " · ", t("vplayers.square", { n: tm.square })),
            h("div", { class: "vteam-tokens" }, (tm.tokens || []).map((tk) => tokenChip(tk))),
          ),
          h("span", { class: "final-score" }, t("vfinal.points", { n: tm.total })),
        ),
      ),
    ),
    isHost()
      ? h("div", { class: "actions" }, h("button", { type: "button", class: "btn", id: "rematch", onclick: (/** @type {Event} */ e) => send({ type: "rematch" }, target(e)) }, t("final.rematch")))
      : h("p", { class: "muted" }, t("final.wait_rematch")),
    visualStoryView(g),
  );
}
