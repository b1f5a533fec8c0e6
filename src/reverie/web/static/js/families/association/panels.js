// The association games' panels around the stage: the round revealed, the end of the
// game, the scoreboard, the board (from the `board` capability) and the log.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { icon } from "../../icons.js";
import { colorName } from "../../common.js";
import { room, game, me, caps, players, nameOf, send, isHost, tableLang } from "../../shell/app.js";
import { badges } from "../../shell/lobby.js";
import { botLevels, chosenLevel } from "../../shell/botlevel.js";
import { boardSVG } from "./board.js";
import { chip } from "./reveal.js";
import { storyView } from "./story.js";
import { heard } from "../../shell/people.js";

/** @param {Record<string, any>} g */
export function finalView(g) {
  const list = players().slice().sort((a, b) => b.score - a.score);
  const winners = g.winners || [];
  let rank = 0;
  let prev = null;
  const rows = list.map((p, i) => {
    if (p.score !== prev) {
      rank = i + 1;
      prev = p.score;
    }
    const won = winners.includes(p.seat);
    return h(
      "li",
      { class: ["final-row", won && "winner"], "data-seat": p.seat, key: p.seat },
      h("span", { class: "rank" }, String(rank)),
      chip(p),
      won ? h("span", { class: "tag tag-win" }, icon("trophy", { size: 14 }), t("final.winner")) : null,
      h("span", { class: "final-score" }, t("board.points", { n: p.score })),
    );
  });
  const names = winners.map(nameOf).join(", ");
  return h(
    "div",
    { class: "panel final" },
    h("h2", {}, icon("trophy", { size: 26 }), " ", t("final.title")),
    h("p", { class: "final-winners" }, winners.length ? t("final.won", { names, n: winners.length }) : t("final.no_winner")),
    h("p", { class: "muted small" }, t("final.rounds", { n: g.rounds_played })),
    h("ol", { class: "final-list" }, rows),
    isHost()
      ? h("div", { class: "actions" }, h("button", { type: "button", class: "btn", id: "rematch", onclick: (/** @type {MouseEvent} */ e) => send({ type: "rematch" }, /** @type {Element} */ (e.currentTarget)) }, t("final.rematch")))
      : h("p", { class: "muted" }, t("final.wait_rematch")),
    storyView(g, players(), { gallery: caps()?.story_source === "gallery" }),
  );
}

/**
 * The host's frame that hands a gone player's seat to a bot (of the level last chosen
 * for new bots) or back.
 * @param {import("../../shell/app.js").RoomPlayer} p
 */
function handOver(p) {
  const frame = { type: "bot_seat", seat: p.seat, on: !p.bot_playing };
  return frame.on && botLevels().length ? { ...frame, level: chosenLevel() } : frame;
}

/** @param {Record<string, any>} g */
export function scoresView(g) {
  const host = isHost();
  const pts = g.last_round?.points || [];
  const waiting = g.waiting_for || [];
  return h(
    "div",
    { class: "panel scores" },
    h("h2", {}, t("players.title")),
    h(
      "ul",
      { class: "score-list" },
      players().map((p) => {
        const delta = pts[p.seat];
        const isWaiting = waiting.includes(p.seat);
        return h(
          "li",
          { class: ["score-row", isWaiting && "waiting", p.seat === me() && "is-you"], "data-seat": p.seat, key: p.seat },
          h("span", { class: "dot big", style: { background: p.color }, title: colorName(p.color) }),
          h("span", { class: "score-name" }, h("span", { class: "pname" }, p.name), h("span", { class: "badges" }, badges(p))),
          isWaiting ? h("span", { class: "state-icon", title: t("players.waiting") }, icon("hourglass", { size: 16, label: t("players.waiting") })) : null,
          h("span", { class: "score" }, String(p.score), delta ? h("span", { class: ["delta", delta > 0 ? "gain" : "loss"] }, delta > 0 ? `+${delta}` : `−${-delta}`) : null),
          host && !p.bot && (!p.connected || p.bot_playing) && g.phase !== "over"
            ? h("button", { type: "button", class: "btn btn-quiet btn-small seat-bot", onclick: (/** @type {MouseEvent} */ e) => send(handOver(p), /** @type {Element} */ (e.currentTarget)) },
                icon("bot", { size: 16 }), p.bot_playing ? t("players.bot_off") : t("players.bot_on"))
            : null,
        );
      }),
    ),
    // A game played with a real box keeps no deck here.
    typeof g.deck === "number" ? h("p", { class: "muted small" }, t("players.deck", { n: g.deck, d: g.discard })) : null,
  );
}

/**
 * What the board's legend says: the special squares, a restriction for the whole game,
 * or how the track ends.
 * @param {import("../../shell/app.js").Board} board
 * @param {Record<string, any>} opts
 */
function boardLegend(board, opts) {
  const setting = opts.restrictions || "board";
  const kinds = [...new Set(Object.values(board.specials || {}))];
  if (kinds.length && setting === "board") {
    return h("ul", { class: "legend" }, kinds.map((k) => h("li", { key: k }, icon(k, { size: 18 }), t(`restriction.${k}.short`))));
  }
  if (setting !== "board" && setting !== "off") {
    return h("p", { class: "small muted" }, t("board.whole_game", { what: t(`restriction.${setting}.short`) }));
  }
  if (!board.loops) return h("p", { class: "small muted" }, t("board.pictoric_hint", { n: opts.track_length || board.length }));
  if (!kinds.length) return h("p", { class: "small muted" }, t("board.dixit_hint"));
  return null;
}

export function boardView() {
  const board = caps()?.board;
  if (!board) return null;
  const opts = game()?.options || room()?.options || {};
  return h(
    "div",
    { class: "panel board" },
    h("h2", {}, t(`board.title.${board.name}`)),
    boardSVG(board, players(), opts),
    boardLegend(board, opts),
  );
}

/**
 * The log: dice rolled for the first storyteller, and what happened in the last round.
 * @param {Record<string, any>} g
 * @param {{revealClosed: boolean, showReveal: () => void}} opts
 */
export function logView(g, { revealClosed, showReveal }) {
  const lr = g.last_round;
  const rolls = g.first_rolls || [];
  if (!lr && !rolls.length) return null;
  const items = [];
  rolls.forEach((/** @type {number[]} */ roll, /** @type {number} */ i) => {
    const shown = roll.map((v, seat) => (v ? `${nameOf(seat)} ${v}` : null)).filter(Boolean).join(", ");
    if (shown) items.push(h("li", {}, icon("dice", { size: 16 }), " ", t("log.roll", { n: i + 1, rolls: shown })));
  });
  if (lr) {
    if (lr.skipped) items.push(h("li", {}, t("log.skipped", { name: nameOf(lr.storyteller) })));
    else {
      items.push(h("li", {}, t("log.told", { name: nameOf(lr.storyteller) }), " ", heard(lr.storyteller, `clue:${lr.turn}`, h("q", { lang: tableLang() }, lr.clue || ""))));
      items.push(h("li", {}, t("log.story_at", { n: lr.story_position })));
      const finders = (lr.votes || []).map((/** @type {number | null} */ v, /** @type {number} */ seat) => (v === lr.story_position ? nameOf(seat) : null)).filter(Boolean);
      items.push(h("li", {}, finders.length ? t("log.found", { names: finders.join(", "), n: finders.length }) : t("log.nobody")));
      const pts = players().map((p) => `${p.name} ${(lr.points[p.seat] ?? 0) > 0 ? "+" : ""}${lr.points[p.seat] ?? 0}`).join(", ");
      items.push(h("li", {}, t("log.points", { points: pts })));
    }
  }
  return h(
    "div",
    { class: "panel log" },
    h("h2", {}, lr ? t("log.title", { n: lr.turn }) : t("log.title_start")),
    h("ul", { class: "log-list" }, items),
    lr && revealClosed && g.phase !== "over"
      ? h("button", { type: "button", class: "btn btn-quiet btn-small", id: "show-reveal", onclick: showReveal }, t("log.show_reveal"))
      : null,
  );
}
