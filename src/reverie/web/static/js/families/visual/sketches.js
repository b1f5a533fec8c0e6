// The canvases of the turn on this page, one per drawer whose drawing this page may see,
// fed by the `draw` (a few operations) and `canvas` (the whole drawing so far) frames.
import { t } from "../../i18n.js";
import { Sketch } from "./canvas.js";
import { theCap, nameOf } from "./ctx.js";

/** @type {Map<number, Sketch>} seat → Sketch, for the turn `sketchTurn` */
const sketches = new Map();
/** @type {number | null} */
let sketchTurn = null;
/** @type {unknown} */
let sketchGame = null;

function resetSketches() {
  for (const sk of sketches.values()) sk.pen?.stop();
  sketches.clear();
}

/** @param {number} seat */
export function sketchFor(seat) {
  let sk = sketches.get(seat);
  if (!sk) {
    sk = new Sketch(t("vcanvas.label", { name: nameOf(seat) }), theCap("canvas"));
    sk.el.dataset.seat = String(seat);
    sketches.set(seat, sk);
  }
  return sk;
}

/**
 * Every state: a new turn (or a choose phase, or the end) starts with empty canvases.
 * @param {Record<string, any> | null} g
 */
export function onStateSketches(g) {
  if (!g || !g.turn) return;
  const n = g.turn.number;
  if (n !== sketchTurn || g.phase === "choose" || g.phase === "over") {
    if (sketches.size) resetSketches();
    sketchTurn = n;
  }
}

/** @param {Record<string, any>} f */
function sameTurn(f) {
  if (f.game !== undefined && f.game !== null) {
    if (sketchGame !== null && f.game !== sketchGame) resetSketches();
    sketchGame = f.game;
  }
  if (f.turn !== undefined && f.turn !== sketchTurn) {
    resetSketches();
    sketchTurn = f.turn;
  }
}

/**
 * A `draw` frame: operations for one drawer's canvas. Returns whether the page must be
 * drawn again (a canvas it did not have yet).
 * @param {Record<string, any>} f
 */
export function onDrawFrame(f) {
  sameTurn(f);
  const known = sketches.has(f.seat);
  sketchFor(f.seat).apply(f.ops);
  return !known;
}

/**
 * A `canvas` frame: the whole drawing so far of each canvas this seat may see.
 * @param {Record<string, any>} f
 */
export function onCanvasFrame(f) {
  sameTurn(f);
  const given = f.canvases || {};
  for (const [seat, sk] of sketches) if (!(String(seat) in given)) sk.reset([]);
  for (const [seat, ops] of Object.entries(given)) {
    const sk = sketchFor(Number(seat));
    sk.pen?.stop();
    sk.reset(ops);
  }
  return true;
}
