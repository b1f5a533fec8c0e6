// The drawing game's stage: choosing a category, the subject, the live canvases,
// guesses and the team decisions (after a proverb, on a bonus token, after a failed
// turn). The canvases are elements of their own (they keep their drawing); everything
// else is drawn from the state.
import { h, foreign } from "../../dom.js";
import { t } from "../../i18n.js";
import { icon } from "../../icons.js";
import { toast } from "../../common.js";
import { timeLeft } from "../../shell/app.js";
import { Pen } from "./canvas.js";
import { penToolsView } from "./canvas-tools.js";
import { teamName, teamBadge } from "./teams.js";
import { room, me, theCaps, theCap, action, sendRaw, nameOf, seatColor, colorOf, myTeam, tableLang } from "./ctx.js";
import { categoryText } from "./panels.js";
import { decisionView } from "./decide.js";
import { sketchFor } from "./sketches.js";
import { heard } from "../../shell/people.js";

export const DRAWING = new Set(["think", "draw"]);
export const DECIDING = new Set(["move", "bonus", "lose"]);

/** @type {Pen | null} the pen of this page's drawer, while there is one */
let currentPen = null;

/**
 * The seats whose canvas this page shows.
 * @param {Record<string, any>} g
 */
function canvasSeats(g) {
  const turn = g.turn || {};
  if (!turn.category || g.phase === "choose") return [];
  if (!turn.proverb) return [turn.drawer];
  const drawers = turn.drawers || [];
  const team = g.you?.team;
  if (team !== null && team !== undefined && drawers[team] !== undefined) return [drawers[team]];
  return []; // spectators: the teams' drawings stay theirs until the turn ends
}

/** The categories the drawer may choose, with the squares they are worth. */
const choosable = () => (theCaps().categories || []).filter((c) => c.choosable);

/**
 * The timer bar of the turn, from room.deadline and the turn's timer length.
 * @param {Record<string, any>} g
 */
function timer(g) {
  const total = (g.turn?.seconds || 0) * 1000;
  const clock = timeLeft();
  const left = clock && total ? clock.left : null;
  // The time left in figures is the status bar's; the stage shows it as a bar.
  return h("div", { class: ["vtimer", left !== null && left <= 10000 && "urgent"], "aria-hidden": "true", hidden: left === null },
    h("div", { class: "vtimer-fill", style: { width: left !== null ? `${Math.min(100, (left / total) * 100).toFixed(1)}%` : "0%" } }));
}

/** @param {Record<string, any>} g @param {string} role */
function headView(g, role) {
  const turn = g.turn;
  const mine = myTeam();
  const drawer = nameOf(turn.drawer);
  const team = teamName(turn.team);
  let title;
  let hint = null;
  if (g.phase === "choose") {
    title = role === "drawer" ? t("vstage.choose_you") : t("vstage.choose_other", { name: drawer, team });
  } else if (g.phase === "think") {
    title = role === "drawer" ? t("vstage.think_you") : turn.proverb ? t("vstage.think_proverb") : t("vstage.think_other", { name: drawer });
  } else if (g.phase === "draw") {
    if (role === "drawer") title = turn.proverb ? t("vstage.draw_you_proverb") : t("vstage.draw_you");
    else if (role === "guesser") title = turn.proverb ? t("vstage.guess_proverb") : t("vstage.guess", { name: drawer });
    else title = turn.proverb ? t("vstage.watch_proverb") : t("vstage.watch", { team, name: drawer });
  } else if (g.phase === "move") {
    title = turn.solved_by === mine ? t("vstage.move_you") : t("vstage.move_other", { team: teamName(turn.solved_by) });
  } else if (g.phase === "bonus") {
    title = turn.solved_by === mine ? t("vstage.bonus_you") : t("vstage.bonus_other", { team: teamName(turn.solved_by) });
  } else if (g.phase === "lose") {
    title = turn.team === mine ? t("vstage.lose_you") : t("vstage.lose_other", { team });
  } else title = t(`vphase.${g.phase}`);
  if (turn.proverb && DRAWING.has(g.phase)) hint = t("vstage.proverb_hint");
  else if (role === "watcher" && g.phase === "draw") hint = t("vstage.watch_hint", { team });
  else if (role === "drawer" && g.phase === "draw") hint = t("vstage.draw_rules");
  const value = turn.category ? turn.value : null;
  const clock = timer(g);
  const proverbs = (theCaps().categories || []).find((c) => !c.choosable);
  return [
    h(
      "div",
      { class: "vhead-line" },
      h("span", { class: "vturn-n" }, t("status.turn", { n: turn.number })),
      teamBadge(room(), turn.team),
      turn.category
        ? h(
            "span",
            { class: ["tag", "vcat-tag", turn.proverb && "proverb"], id: "turn-category", "data-category": turn.proverb ? "proverbs" : turn.category },
            categoryText(turn.category, turn.proverb), " · ", turn.proverb ? t("vcat.up_to", { n: proverbs?.points ?? value }) : t("vcat.squares", { n: value }),
          )
        : null,
    ),
    h("h2", { class: "stage-title", id: "stage-title" }, title),
    hint ? h("p", { class: "muted small vhint" }, hint) : null,
    clock,
  ];
}

/** @param {Record<string, any>} g @param {string} role */
function chooseView(g, role) {
  if (role !== "drawer") {
    return h(
      "div",
      { class: "vchoose-wait" },
      h("p", { class: "muted small" }, t("vchoose.values")),
      h("ul", { class: "vcat-legend" }, choosable().map(({ name: c, points: v }) => h("li", { key: c }, h("strong", {}, t(`vcat.${c}`)), " ", t("vcat.squares", { n: v })))),
    );
  }
  return [
    h(
      "div",
      { class: "vcat-grid", role: "group", "aria-label": t("vchoose.label") },
      choosable().map(({ name: c, points: v }) =>
        h(
          "button",
          { type: "button", class: "vcat", id: `choose-${c}`, key: c, "data-category": c, onclick: (/** @type {Event} */ e) => action({ type: "choose", category: c }, /** @type {Element} */ (e.currentTarget)) },
          h("span", { class: "vcat-value" }, String(v)),
          h("span", { class: "vcat-name" }, t(`vcat.${c}`)),
          h("span", { class: "vcat-sub small" }, t(`vcat.${c}.hint`)),
        ),
      ),
    ),
    h("p", { class: "muted small" }, icon("star", { size: 14 }), " ", t("vchoose.blank_hint")),
  ];
}

/** @param {Record<string, any>} g @param {string} role */
function subjectView(g, role) {
  if (role !== "drawer" || g.phase === "choose" || !g.subject) return null;
  return [
    h("span", { class: "vsubject-label small" }, icon("eye", { size: 16 }), " ", g.turn.proverb ? t("vsubject.proverb") : t("vsubject.word")),
    h("strong", { class: ["vsubject", g.turn.proverb && "proverb"], id: "subject", lang: tableLang() }, g.subject),
    g.phase === "think" ? h("span", { class: "small muted" }, t("vsubject.think")) : null,
  ];
}

/** @param {Record<string, any>} g */
function guessForm(g) {
  const open = g.phase === "draw";
  return h(
    "form",
    { class: "vguess-form", id: "guess-form", novalidate: true, onsubmit: onGuess, hidden: !DRAWING.has(g.phase) },
    h("label", { for: "guess-input", class: "visually-hidden" }, t("vguess.label")),
    h(
      "div",
      { class: "row" },
      h("input", { id: "guess-input", class: "grow", maxlength: 200, autocomplete: "off", autocapitalize: "off", spellcheck: "false", enterkeyhint: "send", disabled: !open, placeholder: open ? t("vguess.placeholder") : t("vguess.wait") }),
      h("button", { type: "submit", class: "btn", id: "guess-send", disabled: !open }, icon("send", { size: 18 }), t("vguess.send")),
    ),
  );
}

/** @param {SubmitEvent} e */
function onGuess(e) {
  e.preventDefault();
  const input = /** @type {HTMLInputElement} */ (document.getElementById("guess-input"));
  const button = document.getElementById("guess-send");
  const text = input.value.trim();
  if (!text) {
    input.focus();
    return;
  }
  if (text.length > 200) {
    toast(t("error.guess_too_long"), { anchor: button });
    return;
  }
  action({ type: "guess", text }, button);
  input.value = "";
  input.focus();
}

/** @param {Record<string, any>} g @param {string} role */
function guessesView(g, role) {
  if (g.phase === "choose") return null;
  const list = (g.guesses || []).slice().reverse();
  if (DECIDING.has(g.phase) && !list.length) return null;
  const mine = myTeam();
  const canMark = role === "drawer" && g.phase === "draw";
  const items = list.map((/** @type {Record<string, any>} */ gs) => {
    const markable = canMark && gs.team === mine;
    return h(
      "li",
      { class: ["vguess", gs.close && "close", gs.synonym && "synonym", gs.seat === me() && "mine"], "data-index": gs.index, "data-team": gs.team, key: gs.index },
      h("span", { class: "dot", style: { background: seatColor(gs.seat) }, "aria-hidden": "true" }),
      h("span", { class: "vguess-body" }, h("strong", { class: "vguess-name" }, nameOf(gs.seat)), " ", heard(gs.seat, `guess:${g.turn?.number}:${gs.index}`, h("span", { class: "vguess-text" }, gs.text))),
      gs.close ? h("span", { class: "tag tag-close" }, t("vguess.close")) : null,
      gs.synonym ? h("span", { class: "tag tag-syn" }, "≈ ", t("vguess.synonym")) : null,
      markable
        ? h(
            "span",
            { class: "vguess-marks" },
            h("button", { type: "button", class: "btn btn-small vaccept", "aria-label": t("vguess.accept_label", { text: gs.text }), onclick: (/** @type {Event} */ e) => action({ type: "accept", index: gs.index }, /** @type {Element} */ (e.currentTarget)) }, icon("check", { size: 16 }), t("vguess.accept")),
            gs.synonym
              ? null
              : h("button", { type: "button", class: "btn btn-quiet btn-small vsyn", "aria-label": t("vguess.synonym_label", { text: gs.text }), onclick: (/** @type {Event} */ e) => action({ type: "synonym", index: gs.index }, /** @type {Element} */ (e.currentTarget)) }, "≈ ", t("vguess.synonym")),
          )
        : null,
    );
  });
  let empty;
  if (g.turn.proverb && (mine === null || mine === undefined)) empty = t("vguess.secret");
  else if (role === "guesser" && g.phase === "draw") empty = t("vguess.empty_guesser");
  else if (role === "drawer" && g.phase === "draw") empty = t("vguess.empty_drawer");
  else empty = t("vguess.empty");
  return [
    h("h3", { class: "vguesses-title" }, g.turn.proverb && mine !== null ? t("vguess.title_team") : t("vguess.title"), " ", h("span", { class: "muted small" }, String(g.guess_count ?? list.length))),
    items.length ? h("ol", { class: "vguess-list", "aria-live": "polite" }, items) : h("p", { class: "muted small vguess-empty" }, empty),
  ];
}


/**
 * The canvases this page shows, each with its drawer's name.
 * @param {Record<string, any>} g
 * @param {number[]} seats
 */
function canvasesView(g, seats) {
  if (!seats.length) {
    return g.turn?.proverb && DRAWING.has(g.phase) ? h("p", { class: "vcanvases-hidden muted", id: "canvases-hidden" }, t("vcanvas.hidden_proverb")) : null;
  }
  /** @param {number} seat */
  const teamOf = (seat) => g.players?.find((/** @type {any} */ x) => x.seat === seat)?.team ?? null;
  return h(
    "div",
    { class: "vcanvases", "data-count": seats.length },
    seats.map((seat) => {
      const sk = sketchFor(seat);
      return h(
        "figure",
        { class: "vcanvas", "data-seat": seat, key: seat, style: { "--team": colorOf(teamOf(seat) ?? 0) } },
        foreign(sk.el, { class: "sketch-mount" }),
        h(
          "figcaption",
          { class: "small muted" },
          seat === me() ? t("vcanvas.yours") : t("vcanvas.label", { name: nameOf(seat) }),
          seats.length > 1 ? [" · ", teamName(teamOf(seat))] : null,
        ),
      );
    }),
  );
}

/**
 * The drawer's toolbar (and pen) while this page draws.
 * @param {Record<string, any>} g
 * @param {string} role
 * @param {number[]} seats
 */
function toolsView(g, role, seats) {
  currentPen = null;
  const mine = me();
  if (role !== "drawer" || mine === null || !seats.includes(mine)) return null;
  const sk = sketchFor(mine);
  if (!sk.pen) sk.pen = new Pen(sk, (ops) => sendRaw({ type: "draw", ops }));
  currentPen = sk.pen;
  sk.pen.setEnabled(g.phase === "draw");
  return penToolsView(sk.pen, { enabled: g.phase === "draw", hidden: !DRAWING.has(g.phase), canvas: theCap("canvas") });
}

/**
 * The stage of a turn; a new turn (or its choice of a category) starts a new one.
 * @param {Record<string, any>} g
 */
export function stageView(g) {
  const role = g.you?.role || "spectator";
  const seats = canvasSeats(g);
  const canvases = canvasesView(g, seats);
  /** @param {string} cls @param {string | null} id @param {import("../../dom.js").Child} content */
  const part = (cls, id, content) => h("div", { class: cls, id, hidden: content === null || content === undefined }, content);
  const guesses = part("vguesses", "guesses", guessesView(g, role));
  return h(
    "div",
    {
      class: ["panel", "stage", "vstage", `role-${role}`, DRAWING.has(g.phase) && "vdrawing"], "data-turn": g.turn.number, "data-role": role,
      key: `${g.turn.number}:${g.phase === "choose" ? "choose" : "turn"}:${role}`,
    },
    part("vhead", null, headView(g, role)),
    part("vdecision", "decision", decisionView(g)),
    part("vchoose", "choose", g.phase === "choose" ? chooseView(g, role) : null),
    part("vsubject-box", "subject-box", subjectView(g, role)),
    canvases
      ? h(
          "div",
          { class: "vplay" },
          h("div", { class: "vcanvas-col" }, canvases, toolsView(g, role, seats), role === "guesser" ? guessForm(g) : null),
          h("div", { class: "vside-col" }, guesses),
        )
      : guesses,
  );
}

/**
 * Ctrl+Z / Cmd+Z undoes the drawer's last stroke (outside text fields).
 * @param {KeyboardEvent} e
 */
export function onKey(e) {
  if (!(e.ctrlKey || e.metaKey) || e.key.toLowerCase() !== "z" || e.shiftKey) return;
  if (e.target instanceof HTMLElement && e.target.matches("input, textarea, select")) return;
  if (currentPen && currentPen.enabled) {
    e.preventDefault();
    currentPen.undo();
  }
}
