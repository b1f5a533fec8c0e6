// The sand timer of the Visual Game on paper: the room's deadline for the think and draw
// phases, drawn as an hourglass with the time left in figures, and its sounds: a tick in
// each of the last seconds, an alarm when the drawing runs out unsolved.
import { h, s } from "../../dom.js";
import { t } from "../../i18n.js";
import { room, timeLeft } from "../../shell/app.js";
import { sandCue } from "../../shell/cues.js";

/** The last seconds that tick. */
const TICKS_FROM = 5;

/** @param {number} secs */
const clockText = (secs) => `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;

/**
 * How much sand is still on top (1: all of it) and the figures to show.
 * @param {Record<string, any>} g
 */
function sandState(g) {
  const drawSecs = room()?.options?.draw_seconds || 60;
  const clock = timeLeft();
  if (g.phase === "draw" && clock) {
    const total = (g.turn?.seconds || drawSecs) * 1000;
    return { frac: Math.max(0, Math.min(1, clock.left / total)), text: clock.text, running: true, urgent: clock.secs <= 10 };
  }
  if (g.phase === "think") return { frac: 1, text: clock ? clock.text : clockText(drawSecs), running: false, urgent: false };
  if (g.phase === "choose") return { frac: 1, text: clockText(drawSecs), running: false, urgent: false };
  return { frac: 0, text: clockText(0), running: false, urgent: false };
}

/**
 * The hourglass: the upper bulb empties as the drawing time passes.
 * @param {Record<string, any>} g
 * @param {{big?: boolean, id?: string}} [opts]
 */
export function sandTimer(g, { big = false, id = "sand" } = {}) {
  const st = sandState(g);
  const top = 78 - 64 * st.frac; // the top sand's surface, falling towards the neck
  const bottom = 148 - 64 * (1 - st.frac); // the heap in the lower bulb, rising
  const label = g.phase === "think" ? t("vcompanion.sand.ready") : g.phase === "draw" ? t("vcompanion.sand.running") : t("vcompanion.sand.idle");
  return h(
    "div",
    { class: ["sand", big && "big", st.running && "running", st.urgent && "urgent"], id, role: "timer", "data-phase": g.phase, "aria-label": t("vcompanion.sand.label", { time: st.text }) },
    s(
      "svg",
      { class: "sand-glass", viewBox: "0 0 100 160", "aria-hidden": "true" },
      s(
        "defs",
        {},
        s("clipPath", { id: `${id}-top` }, s("polygon", { points: "12,14 88,14 53,78 47,78" })),
        s("clipPath", { id: `${id}-bottom` }, s("polygon", { points: "47,82 53,82 88,146 12,146" })),
      ),
      s("rect", { x: 4, y: 4, width: 92, height: 8, rx: 3, class: "sand-cap" }),
      s("rect", { x: 4, y: 148, width: 92, height: 8, rx: 3, class: "sand-cap" }),
      s("polygon", { points: "12,14 88,14 53,78 47,78", class: "sand-bulb" }),
      s("polygon", { points: "47,82 53,82 88,146 12,146", class: "sand-bulb" }),
      s("rect", { x: 0, y: top.toFixed(1), width: 100, height: (78 - top).toFixed(1), class: "sand-grains", "clip-path": `url(#${id}-top)` }),
      s("rect", { x: 0, y: bottom.toFixed(1), width: 100, height: (148 - bottom).toFixed(1), class: "sand-grains", "clip-path": `url(#${id}-bottom)` }),
      st.running && st.frac > 0 ? s("line", { x1: 50, y1: 78, x2: 50, y2: bottom.toFixed(1), class: "sand-stream" }) : null,
    ),
    h("div", { class: "sand-read" }, h("span", { class: "sand-time", id: `${id}-time` }, st.text), h("span", { class: "sand-label small" }, label)),
  );
}

/** The turn whose alarm sounded, and the last second that ticked. */
let rung = "";
let ticked = "";

/**
 * Every draw of a page that sounds the timer (the table's device, the table screen):
 * ticks in the last seconds, the alarm when the clock reaches zero.
 * @param {Record<string, any> | null} g
 */
export function watchSand(g) {
  const clock = timeLeft();
  if (!g || g.phase !== "draw" || !clock) return;
  const key = String(g.turn?.number);
  if (clock.secs > 0 && clock.secs <= TICKS_FROM && ticked !== `${key}:${clock.secs}`) {
    ticked = `${key}:${clock.secs}`;
    sandCue("tick");
  }
  if (clock.left <= 0 && rung !== key) {
    rung = key;
    sandCue("alarm");
  }
}

/**
 * On a new state: a drawing that ended unsolved (the server's clock, or the table said
 * time ran out) sounds the alarm, if the local clock has not already.
 * @param {Record<string, any> | null} now
 * @param {Record<string, any> | null} before
 */
export function sandEnded(now, before) {
  if (!now || !before || before.phase !== "draw") return;
  const number = before.turn?.number;
  const last = now.last_turn;
  const failed = (now.phase === "lose" && now.turn?.number === number) || (last && last.number === number && last.solved_by === null);
  const key = String(number);
  if (failed && rung !== key) {
    rung = key;
    sandCue("alarm");
  }
}
