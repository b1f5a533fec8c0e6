// The drawing game's screen (room.family == "visual"): choosing a category, the subject,
// the live canvases, guesses, the team decisions after a proverb or on a bonus token or a
// failed turn. room.js calls renderVisual() after every state and hands over the `draw`
// and `canvas` frames. The stage keeps its canvases and inputs across states and updates
// its parts in place, so that a stroke or a half-typed guess is never interrupted.
import { h, clear } from "./dom.js";
import { t, lang } from "./i18n.js";
import { icon } from "./icons.js";
import { toast } from "./common.js";
import { Sketch, Pen } from "./canvas.js";
import { penTools } from "./canvas-tools.js";
import { teamName, teamBadge } from "./teams.js";
import { room, game, me, action, sendRaw, nameOf, seatColor, colorOf, myTeam, rerender } from "./visual-ctx.js";
import { renderScores, renderBoard, renderLastTurn, renderLog, renderFinal, categoryText } from "./visual-panels.js";
import { decisionView, moveTarget, moveChoice } from "./visual-decide.js";

export { setContext, isVisualRoom } from "./visual-ctx.js";

const CATEGORIES = [["objects", 3], ["actions", 4], ["places", 5], ["luck", 6]];
const DRAWING = new Set(["think", "draw"]);
const DECIDING = new Set(["move", "bonus", "lose"]);

// ------------------------------------------------------------------ canvases

const sketches = new Map(); // seat → Sketch, for the turn `sketchTurn`
let sketchTurn = null;
let sketchGame = null;
let sketchEpoch = 0;

function resetSketches() {
  for (const sk of sketches.values()) sk.pen?.stop();
  sketches.clear();
  sketchEpoch += 1;
}

function sketchFor(seat) {
  let sk = sketches.get(seat);
  if (!sk) {
    sk = new Sketch(t("vcanvas.label", { name: nameOf(seat) }));
    sk.el.dataset.seat = String(seat);
    sketches.set(seat, sk);
  }
  return sk;
}

/** Every state: a new turn (or a choose phase, or the end) starts with empty canvases. */
export function onVisualState(g) {
  if (!g || !g.turn) return;
  const n = g.turn.number;
  if (n !== sketchTurn || g.phase === "choose" || g.phase === "over") {
    if (sketches.size) resetSketches();
    sketchTurn = n;
  }
}

function sameGame(f) {
  if (f.game === undefined || f.game === null) return;
  if (sketchGame !== null && f.game !== sketchGame) resetSketches();
  sketchGame = f.game;
}

/** A `draw` frame: operations for one drawer's canvas. */
export function onDrawFrame(f) {
  sameGame(f);
  if (f.turn !== undefined && f.turn !== sketchTurn) {
    resetSketches();
    sketchTurn = f.turn;
  }
  const known = sketches.has(f.seat);
  sketchFor(f.seat).apply(f.ops);
  if (!known) rerender();
}

/** A `canvas` frame: the whole drawing so far of each canvas this seat may see. */
export function onCanvasFrame(f) {
  sameGame(f);
  if (f.turn !== undefined && f.turn !== sketchTurn) {
    resetSketches();
    sketchTurn = f.turn;
  }
  const given = f.canvases || {};
  for (const [seat, sk] of sketches) if (!(String(seat) in given)) sk.reset([]);
  for (const [seat, ops] of Object.entries(given)) {
    const sk = sketchFor(Number(seat));
    sk.pen?.stop();
    sk.reset(ops);
  }
  rerender();
}

/** The seats whose canvas this page shows. */
function canvasSeats(g) {
  const turn = g.turn || {};
  if (!turn.category || g.phase === "choose") return [];
  if (!turn.proverb) return [turn.drawer];
  const drawers = turn.drawers || [];
  const team = g.you?.team;
  if (team !== null && team !== undefined && drawers[team] !== undefined) return [drawers[team]];
  return []; // spectators: the teams' drawings stay theirs until the turn ends
}

const iDraw = (g) => me() !== null && (g.turn?.drawers || []).includes(me()) && (DRAWING.has(g.phase) || DECIDING.has(g.phase));

// ------------------------------------------------------------------ status, chat

export function visualStatus() {
  const g = game();
  if (!g) return "";
  if (g.phase === "over") return t("status.over");
  const turn = g.turn || {};
  const parts = [t("status.turn", { n: turn.number }), t("vstatus.team_plays", { team: teamName(turn.team) }), t(`vphase.${g.phase}`)];
  if (turn.proverb && DRAWING.has(g.phase)) parts.push(t("vstatus.proverb"));
  if (g.phase === "choose" || (DRAWING.has(g.phase) && !turn.proverb)) {
    parts.push(turn.drawer === me() ? t("vstatus.you_draw") : t("vstatus.drawer", { name: nameOf(turn.drawer) }));
  } else if (DRAWING.has(g.phase) && iDraw(g)) {
    parts.push(t("vstatus.you_draw"));
  } else if (g.phase === "move" || g.phase === "bonus") {
    parts.push(t("vstatus.deciding", { team: teamName(turn.solved_by) }));
  } else if (g.phase === "lose") {
    parts.push(t("vstatus.deciding", { team: teamName(turn.team) }));
  }
  return parts.join(" · ");
}

export function visualYourMove() {
  const g = game();
  return Boolean(g && me() !== null && g.phase !== "over" && (g.waiting || []).includes(me()));
}

/** The chat's mode: whether a team toggle is offered, and whether I must stay silent. */
export function chatMode() {
  const g = game();
  const r = room();
  const team = myTeam();
  const silent = Boolean(g && r?.status === "playing" && DRAWING.has(g.phase) && (g.turn?.drawers || []).includes(me()));
  return { team: me() !== null && team !== null && team !== undefined, silent };
}

// ------------------------------------------------------------------ the stage

const ui = {
  struct: null,
  sigs: {},
  parts: null,
};

function part(name, sig, build) {
  const el = ui.parts?.[name];
  if (!el) return;
  const key = JSON.stringify([sig, lang()]);
  if (ui.sigs[name] === key) return;
  ui.sigs[name] = key;
  const content = build();
  el.hidden = content === null;
  clear(el, content);
}

function struct(g) {
  const group = g.phase === "choose" ? "choose" : "turn";
  return JSON.stringify([g.turn?.number, group, g.you?.role, canvasSeats(g), sketchEpoch, lang(), me()]);
}

export function renderVisual() {
  renderStage();
  renderLastTurn();
  renderFinal();
  renderScores();
  renderBoard(moveTarget());
  renderLog();
  tickVisual();
}

function renderStage() {
  const el = document.getElementById("stage");
  const g = game();
  const r = room();
  const show = Boolean(r && g && r.status === "playing" && g.phase !== "over" && g.turn);
  if (!show) {
    if (ui.struct !== null || !el.hidden) {
      el.hidden = true;
      el.replaceChildren();
      ui.struct = null;
      ui.parts = null;
    }
    return;
  }
  const key = struct(g);
  if (ui.struct !== key) {
    const active = document.activeElement;
    const focusId = active && el.contains(active) ? active.id : null;
    ui.struct = key;
    ui.sigs = {};
    build(el, g);
    el.hidden = false;
    if (focusId) document.getElementById(focusId)?.focus({ preventScroll: true });
  }
  update(g);
}

function build(el, g) {
  const role = g.you?.role || "spectator";
  const seats = canvasSeats(g);
  const p = {
    head: h("div", { class: "vhead" }),
    decision: h("div", { class: "vdecision", id: "decision" }),
    choose: h("div", { class: "vchoose", id: "choose" }),
    subject: h("div", { class: "vsubject-box", id: "subject-box" }),
    guesses: h("div", { class: "vguesses", id: "guesses" }),
    tools: null,
    guessForm: null,
    pen: null,
  };
  let canvases = null;
  if (!seats.length && g.turn?.proverb && DRAWING.has(g.phase)) {
    canvases = h("p", { class: "vcanvases-hidden muted", id: "canvases-hidden" }, t("vcanvas.hidden_proverb"));
  }
  if (seats.length) {
    canvases = h(
      "div",
      { class: "vcanvases", "data-count": seats.length },
      seats.map((seat) =>
        h(
          "figure",
          { class: "vcanvas", "data-seat": seat, style: { "--team": colorOf(g.players?.find((x) => x.seat === seat)?.team ?? 0) } },
          sketchFor(seat).el,
          h(
            "figcaption",
            { class: "small muted" },
            seat === me() ? t("vcanvas.yours") : t("vcanvas.label", { name: nameOf(seat) }),
            seats.length > 1 ? [" · ", teamName(g.players?.find((x) => x.seat === seat)?.team ?? null)] : null,
          ),
        ),
      ),
    );
  }
  if (role === "drawer" && seats.includes(me())) {
    const sk = sketchFor(me());
    if (!sk.pen) sk.pen = new Pen(sk, (ops) => sendRaw({ type: "draw", ops }));
    p.pen = sk.pen;
    p.tools = penTools(sk.pen);
  }
  if (role === "guesser") p.guessForm = guessForm();
  ui.parts = p;
  clear(
    el,
    h(
      "div",
      { class: ["panel", "stage", "vstage", `role-${role}`], "data-turn": g.turn.number, "data-role": role },
      p.head,
      p.decision,
      p.choose,
      p.subject,
      canvases
        ? h(
            "div",
            { class: "vplay" },
            h("div", { class: "vcanvas-col" }, canvases, p.tools?.el, p.guessForm),
            h("div", { class: "vside-col" }, p.guesses),
          )
        : p.guesses,
    ),
  );
}

function update(g) {
  const p = ui.parts;
  const role = g.you?.role || "spectator";
  const turn = g.turn;
  part("head", [g.phase, turn.number, turn.team, turn.drawer, turn.drawers, turn.category, turn.proverb, turn.solved_by, role, room()?.team_colors, (g.players || []).map((x) => x.name)], () => headView(g, role));
  part("choose", [g.phase, role, turn.drawer, nameOf(turn.drawer)], () => (g.phase === "choose" ? chooseView(g, role) : null));
  part("subject", [g.phase, g.subject, turn.proverb, role], () => subjectView(g, role));
  part("decision", [g.phase, turn.solved_by, turn.bonus_token, g.teams, g.squares, myTeam(), moveChoice()], () => decisionView(g));
  part("guesses", [g.phase, g.guesses, role, myTeam(), turn.proverb, (g.players || []).map((x) => x.name)], () => guessesView(g, role));
  p.tools?.setEnabled(g.phase === "draw");
  if (p.tools) p.tools.el.hidden = !DRAWING.has(g.phase);
  if (p.guessForm) {
    p.guessForm.hidden = !DRAWING.has(g.phase);
    const input = p.guessForm.querySelector("input");
    const button = p.guessForm.querySelector("button");
    const open = g.phase === "draw";
    input.disabled = !open;
    button.disabled = !open;
    input.placeholder = open ? t("vguess.placeholder") : t("vguess.wait");
  }
}

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
            categoryText(turn.category, turn.proverb), " · ", turn.proverb ? t("vcat.up_to", { n: 8 }) : t("vcat.squares", { n: value }),
          )
        : null,
      h("span", { class: "vtimer-text", "aria-hidden": "true" }),
    ),
    h("h2", { class: "stage-title", id: "stage-title" }, title),
    hint ? h("p", { class: "muted small vhint" }, hint) : null,
    h("div", { class: "vtimer", "aria-hidden": "true" }, h("div", { class: "vtimer-fill" })),
  ];
}

function chooseView(g, role) {
  if (role !== "drawer") {
    return h(
      "div",
      { class: "vchoose-wait" },
      h("p", { class: "muted small" }, t("vchoose.values")),
      h("ul", { class: "vcat-legend" }, CATEGORIES.map(([c, v]) => h("li", {}, h("strong", {}, t(`vcat.${c}`)), " ", t("vcat.squares", { n: v })))),
    );
  }
  return [
    h(
      "div",
      { class: "vcat-grid", role: "group", "aria-label": t("vchoose.label") },
      CATEGORIES.map(([c, v]) =>
        h(
          "button",
          { type: "button", class: "vcat", id: `choose-${c}`, "data-category": c, onclick: (e) => action({ type: "choose", category: c }, e.currentTarget) },
          h("span", { class: "vcat-value" }, String(v)),
          h("span", { class: "vcat-name" }, t(`vcat.${c}`)),
          h("span", { class: "vcat-sub small" }, t(`vcat.${c}.hint`)),
        ),
      ),
    ),
    h("p", { class: "muted small" }, icon("star", { size: 14 }), " ", t("vchoose.blank_hint")),
  ];
}

function subjectView(g, role) {
  if (role !== "drawer" || g.phase === "choose" || !g.subject) return null;
  return [
    h("span", { class: "vsubject-label small" }, icon("eye", { size: 16 }), " ", g.turn.proverb ? t("vsubject.proverb") : t("vsubject.word")),
    h("strong", { class: ["vsubject", g.turn.proverb && "proverb"], id: "subject" }, g.subject),
    g.phase === "think" ? h("span", { class: "small muted" }, t("vsubject.think")) : null,
  ];
}

function guessForm() {
  return h(
    "form",
    { class: "vguess-form", id: "guess-form", novalidate: true, onsubmit: onGuess },
    h("label", { for: "guess-input", class: "visually-hidden" }, t("vguess.label")),
    h(
      "div",
      { class: "row" },
      h("input", { id: "guess-input", class: "grow", maxlength: 200, autocomplete: "off", autocapitalize: "off", spellcheck: "false", enterkeyhint: "send", placeholder: t("vguess.placeholder") }),
      h("button", { type: "submit", class: "btn", id: "guess-send" }, icon("send", { size: 18 }), t("vguess.send")),
    ),
  );
}

function onGuess(e) {
  e.preventDefault();
  const input = document.getElementById("guess-input");
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

function guessesView(g, role) {
  if (g.phase === "choose") return null;
  const list = (g.guesses || []).slice().reverse();
  if (DECIDING.has(g.phase) && !list.length) return null;
  const mine = myTeam();
  const canMark = role === "drawer" && g.phase === "draw";
  const items = list.map((gs) => {
    const markable = canMark && gs.team === mine;
    return h(
      "li",
      { class: ["vguess", gs.close && "close", gs.synonym && "synonym", gs.seat === me() && "mine"], "data-index": gs.index, "data-team": gs.team },
      h("span", { class: "dot", style: { background: seatColor(gs.seat) }, "aria-hidden": "true" }),
      h("span", { class: "vguess-body" }, h("strong", { class: "vguess-name" }, nameOf(gs.seat)), " ", h("span", { class: "vguess-text" }, gs.text)),
      gs.close ? h("span", { class: "tag tag-close" }, t("vguess.close")) : null,
      gs.synonym ? h("span", { class: "tag tag-syn" }, "≈ ", t("vguess.synonym")) : null,
      markable
        ? h(
            "span",
            { class: "vguess-marks" },
            h("button", { type: "button", class: "btn btn-small vaccept", "aria-label": t("vguess.accept_label", { text: gs.text }), onclick: (e) => action({ type: "accept", index: gs.index }, e.currentTarget) }, icon("check", { size: 16 }), t("vguess.accept")),
            gs.synonym
              ? null
              : h("button", { type: "button", class: "btn btn-quiet btn-small vsyn", "aria-label": t("vguess.synonym_label", { text: gs.text }), onclick: (e) => action({ type: "synonym", index: gs.index }, e.currentTarget) }, "≈ ", t("vguess.synonym")),
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

// ------------------------------------------------------------------ the clock

/** The stage's timer bar, from room.deadline and the turn's timer length. */
export function tickVisual(skew = 0) {
  const r = room();
  const g = game();
  const bar = document.querySelector("#stage .vtimer");
  const text = document.querySelector("#stage .vtimer-text");
  if (!bar || !text) return;
  const total = (g?.turn?.seconds || 0) * 1000;
  if (!r?.deadline || !total) {
    bar.hidden = true;
    text.textContent = "";
    return;
  }
  const left = Math.max(0, r.deadline - (Date.now() + skew));
  bar.hidden = false;
  const fill = bar.firstElementChild;
  fill.style.width = `${Math.min(100, (left / total) * 100).toFixed(1)}%`;
  bar.classList.toggle("urgent", left <= 10000);
  const secs = Math.ceil(left / 1000);
  const label = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
  if (text.textContent !== label) text.textContent = label;
}

/** Ctrl+Z / Cmd+Z undoes the drawer's last stroke (outside text fields). */
export function onKey(e) {
  if (!(e.ctrlKey || e.metaKey) || e.key.toLowerCase() !== "z" || e.shiftKey) return;
  if (e.target instanceof HTMLElement && e.target.matches("input, textarea, select")) return;
  const pen = ui.parts?.pen;
  if (pen && pen.enabled) {
    e.preventDefault();
    pen.undo();
  }
}
