// The drawing surface of the drawing game: a picture (the `canvas` capability's size,
// 800 × 600) built from the protocol's operations (docs/protocol.md, "The canvas"), and
// the drawer's pen that turns pointer input into those operations, sent in small batches.

/** The pen's colours and sizes; the `canvas` capability says how many the server takes. */
export const COLORS = [
  "#ffffff", "#000000", "#7f7f7f", "#c1c1c1", "#e53935", "#fb8c00", "#fdd835", "#43a047",
  "#00897b", "#1e88e5", "#3949ab", "#8e24aa", "#d81b60", "#6d4c41", "#f8bbd0", "#a5d6a7",
];
export const SIZES = [4, 12, 32];
const MAX_POINTS = 200; // per stroke operation
const MAX_OPS = 64; // per frame
const MAX_NUMBERS = 512; // per frame
const FLUSH_MS = 50;
const FILL_TOLERANCE = 120; // summed RGB distance still counted as the clicked colour

/** @type {[number, number, number][]} */
const rgb = /** @type {any} */ (COLORS.map((c) => [1, 3, 5].map((i) => Number.parseInt(c.slice(i, i + 2), 16))));

// Undo must not replay the whole picture: a drawer who sends fills and undos would
// freeze every viewer's page (a flood fill is a pass over the whole bitmap). The Sketch
// keeps checkpoints, copies of its bitmap part way through the list, and repaints from
// the nearest one. Their cost is counted in "fills": a fill is 1, a stroke 1/16.
const STROKE_COST = 1 / 16;
/** A checkpoint after every fill, and before a stroke once this much was painted since the last. */
const CHECKPOINT_COST = 1;
/** At most this many checkpoints per canvas … */
const MAX_CHECKPOINTS = 32;
/** … holding at most this many bytes (a raw 800 × 600 bitmap is 1.9 MB; most pack small). */
const MAX_CHECKPOINT_BYTES = 24 * 1024 * 1024;

/**
 * @typedef {{kind: "stroke", color: number, size: number, pts: number[], acc: number} | {kind: "fill", color: number, x: number, y: number, acc: number}} Item
 *   acc: the cost of the items up to and including this one
 * @typedef {{at: number, acc: number, data: Uint32Array, packed: boolean}} Checkpoint
 *   the bitmap once items[0 … at) are painted; data: raw pixels, or runs (count, pixel)
 */

/**
 * One canvas: the list of strokes and fills it shows (undo removes the last one), drawn
 * on a bitmap of the game's size that CSS scales to the screen.
 *
 * `stats` counts the work done, for the tests and for anyone curious: the same numbers
 * are on the <canvas> element as data attributes (data-fills-painted …), read-only
 * copies, so a test reads them with no global object and no debug switch.
 */
export class Sketch {
  /**
   * @param {string} label
   * @param {{width: number, height: number}} size
   */
  constructor(label, { width, height }) {
    this.w = width;
    this.h = height;
    this.el = document.createElement("canvas");
    this.el.className = "sketch";
    this.el.width = width;
    this.el.height = height;
    this.el.setAttribute("role", "img");
    this.el.setAttribute("aria-label", label);
    const ctx = this.el.getContext("2d", { willReadFrequently: true });
    if (!ctx) throw new Error("this browser draws no 2D canvas");
    this.ctx = ctx;
    /** @type {Item[]} */
    this.items = [];
    /** @type {(Item & {kind: "stroke"}) | null} the stroke that [1] operations extend */
    this.open = null;
    /** @type {Checkpoint[]} by `at`, all at or below items.length */
    this.checkpoints = [];
    this.checkpointBytes = 0;
    /** Whether the bitmap is behind `items` (an undo): repaint before painting more. */
    this.stale = false;
    /** Painting a whole new list (reset): its repaint is no undo's. */
    this.bulk = false;
    /** @type {Uint8Array | null} the flood fill's "done" marks, kept between fills */
    this.seen = null;
    /** @type {ImageData | null} the bitmap's pixels while nothing drew on it since (fills in a row read it once) */
    this.mirror = null;
    this.stats = {
      fillsPainted: 0, // every fill painted, as it came or again in a repaint
      fillsReplayed: 0, // fills painted again in repaints (after an undo)
      opsReplayed: 0, // strokes and fills painted again in repaints
      repaints: 0,
      checkpoints: 0,
      checkpointBytes: 0,
    };
    /** @type {Pen | null} */
    this.pen = null;
    this.blank();
    this.count();
  }

  blank() {
    this.mirror = null;
    this.ctx.fillStyle = COLORS[0];
    this.ctx.fillRect(0, 0, this.w, this.h);
  }

  /** Replace the whole picture with `ops`, replayed in order. */
  reset(ops = []) {
    this.items = [];
    this.open = null;
    this.dropCheckpoints(0);
    // List the items first, then paint them: with the end known, checkpoints far from
    // it that would be dropped at once are not taken.
    this.stale = true;
    this.bulk = true;
    this.apply(ops);
    this.bulk = false;
  }

  /** The cost of items[0 … at). */
  costAt(at) {
    return at > 0 ? this.items[at - 1].acc : 0;
  }

  /** @param {Item} item */
  push(item) {
    item.acc = this.costAt(this.items.length) + (item.kind === "fill" ? 1 : STROKE_COST);
    this.items.push(item);
    this.open = item.kind === "stroke" ? item : null;
    if (!this.stale) this.paintItem(this.items.length - 1);
  }

  /** Apply operations in order (bad ones are skipped: the server has checked them). */
  apply(ops) {
    for (const op of ops || []) {
      if (!Array.isArray(op)) continue;
      const kind = op[0];
      if (kind === 0 && op.length >= 5) {
        this.push({ kind: "stroke", color: op[1] | 0, size: op[2] | 0, pts: op.slice(3), acc: 0 });
      } else if (kind === 1 && this.open) {
        const from = this.open.pts.length;
        for (let i = 1; i + 1 < op.length; i += 2) this.open.pts.push(op[i], op[i + 1]);
        if (!this.stale) this.paintStroke(this.open, Math.max(0, from - 2));
      } else if (kind === 2) {
        if (this.items.length) {
          this.items.pop();
          this.dropCheckpoints(this.items.length);
          this.stale = true;
        }
        this.open = null;
      } else if (kind === 3) {
        this.items = [];
        this.open = null;
        this.dropCheckpoints(0);
        this.stale = false;
        this.blank();
      } else if (kind === 4 && op.length >= 4) {
        this.push({ kind: "fill", color: op[1] | 0, x: op[2] | 0, y: op[3] | 0, acc: 0 });
      }
    }
    if (this.stale) this.repaint();
    this.count();
  }

  /** Bring the bitmap up to `items` from the nearest checkpoint (or a blank page). */
  repaint() {
    this.stale = false;
    const cp = this.checkpoints[this.checkpoints.length - 1];
    const from = cp ? cp.at : 0;
    if (cp) this.restore(cp);
    else this.blank();
    if (!this.bulk) this.stats.repaints += 1;
    for (let i = from; i < this.items.length; i += 1) {
      if (!this.bulk) {
        this.stats.opsReplayed += 1;
        if (this.items[i].kind === "fill") this.stats.fillsReplayed += 1;
      }
      this.paintItem(i);
    }
  }

  /** Paint items[i] on a bitmap that shows items[0 … i), keeping checkpoints. */
  paintItem(i) {
    const item = this.items[i];
    if (item.kind === "stroke") {
      const last = this.checkpoints[this.checkpoints.length - 1];
      if (this.costAt(i) - (last ? last.acc : 0) >= CHECKPOINT_COST && (!this.bulk || this.wanted(i))) this.keep(i, this.pixels());
      this.paintStroke(item, 0);
    } else {
      this.stats.fillsPainted += 1;
      this.seen ||= new Uint8Array(this.w * this.h);
      const img = this.pixelData();
      const box = floodFill(img, this.w, this.h, item.x, item.y, rgb[item.color] || rgb[1], this.seen);
      if (box) this.ctx.putImageData(img, 0, 0, box[0], box[1], box[2] - box[0], box[3] - box[1]);
      if (!this.bulk || this.wanted(i + 1)) this.keep(i + 1, this.pixels());
    }
  }

  /** The bitmap's pixels (read once after something else drew on it). */
  pixelData() {
    this.mirror ||= this.ctx.getImageData(0, 0, this.w, this.h);
    return this.mirror;
  }

  pixels() {
    return new Uint32Array(this.pixelData().data.buffer);
  }

  /**
   * A checkpoint of the bitmap `px` (which shows items[0 … at)), then as many old ones
   * dropped as the limits ask. Dense near the end of the list, where undos go, and
   * spread evenly further down: undoing step by step repaints a few fills each time.
   * @param {number} at
   * @param {Uint32Array} px
   */
  keep(at, px) {
    const cps = this.checkpoints;
    while (cps.length && cps[cps.length - 1].at >= at) this.forget(cps.length - 1);
    const cp = packPixels(px);
    cps.push({ at, acc: this.costAt(at), ...cp });
    this.checkpointBytes += cp.data.byteLength;
    const top = this.costAt(this.items.length);
    const near = Math.max(2, (2 * top) / MAX_CHECKPOINTS);
    while (cps.length > 1 && (cps.length > MAX_CHECKPOINTS || this.checkpointBytes > MAX_CHECKPOINT_BYTES)) {
      // Drop the one whose gap (the fills to repaint) is smallest for its distance
      // from the end; never the newest.
      let best = 0;
      let score = Infinity;
      for (let k = 0; k < cps.length - 1; k += 1) {
        const gap = cps[k + 1].acc - (k ? cps[k - 1].acc : 0);
        const s = gap / Math.min(top - cps[k].acc + 1, near);
        if (s < score) {
          score = s;
          best = k;
        }
      }
      this.forget(best);
    }
  }

  /**
   * Whether a checkpoint at `at` would outlive the next few: the spacing that `keep`
   * leaves is about min(distance from the end, 2 × end / MAX_CHECKPOINTS).
   * @param {number} at
   */
  wanted(at) {
    const last = this.checkpoints[this.checkpoints.length - 1];
    const top = this.costAt(this.items.length);
    const c = this.costAt(at);
    const near = Math.max(2, (2 * top) / MAX_CHECKPOINTS);
    return c - (last ? last.acc : 0) >= Math.min(top - c + 1, near) / 2;
  }

  /** @param {number} k */
  forget(k) {
    this.checkpointBytes -= this.checkpoints[k].data.byteLength;
    this.checkpoints.splice(k, 1);
  }

  /** Forget the checkpoints past items[0 … at) (undone, or cleared). */
  dropCheckpoints(at) {
    const cps = this.checkpoints;
    while (cps.length && cps[cps.length - 1].at > at) this.forget(cps.length - 1);
  }

  /** @param {Checkpoint} cp */
  restore(cp) {
    const img = this.ctx.createImageData(this.w, this.h);
    unpackPixels(cp, new Uint32Array(img.data.buffer));
    this.ctx.putImageData(img, 0, 0);
    this.mirror = img;
  }

  /** Paint a stroke from point index `start` (a coordinate offset) to its end. */
  paintStroke(item, start) {
    this.mirror = null;
    const c = this.ctx;
    const p = item.pts;
    const color = COLORS[item.color] || COLORS[1];
    const width = SIZES[item.size] || SIZES[0];
    if (p.length < 2) return;
    if (p.length === 2) {
      c.fillStyle = color;
      c.beginPath();
      c.arc(p[0], p[1], width / 2, 0, Math.PI * 2);
      c.fill();
      return;
    }
    c.strokeStyle = color;
    c.lineWidth = width;
    c.lineCap = "round";
    c.lineJoin = "round";
    c.beginPath();
    c.moveTo(p[start], p[start + 1]);
    for (let i = start + 2; i + 1 < p.length; i += 2) c.lineTo(p[i], p[i + 1]);
    c.stroke();
  }

  count() {
    const points = this.items.reduce((n, it) => n + (it.kind === "stroke" ? it.pts.length / 2 : 1), 0);
    const d = this.el.dataset;
    d.items = String(this.items.length);
    d.points = String(points);
    this.stats.checkpoints = this.checkpoints.length;
    this.stats.checkpointBytes = this.checkpointBytes;
    for (const [k, v] of Object.entries(this.stats)) d[k] = String(v);
  }
}

/**
 * A bitmap's pixels as runs (count, pixel) when that is smaller (flat colours, the usual
 * drawing), else a raw copy.
 * @param {Uint32Array} px
 * @returns {{data: Uint32Array, packed: boolean}}
 */
function packPixels(px) {
  const n = px.length;
  const most = n >> 2; // past this many runs, a raw copy is as small
  let runs = 1;
  for (let i = 1; i < n && runs < most; i += 1) if (px[i] !== px[i - 1]) runs += 1;
  if (runs >= most) return { data: px.slice(), packed: false };
  const data = new Uint32Array(runs * 2);
  let j = 0;
  let start = 0;
  for (let i = 1; i <= n; i += 1) {
    if (i === n || px[i] !== px[start]) {
      data[j] = i - start;
      data[j + 1] = px[start];
      j += 2;
      start = i;
    }
  }
  return { data, packed: true };
}

/**
 * @param {{data: Uint32Array, packed: boolean}} cp
 * @param {Uint32Array} px
 */
function unpackPixels({ data, packed }, px) {
  if (!packed) {
    px.set(data);
    return;
  }
  let at = 0;
  for (let j = 0; j < data.length; j += 2) {
    px.fill(data[j + 1], at, at + data[j]);
    at += data[j];
  }
}

/**
 * Scanline flood fill, in `img`, of the 4-connected region around (x, y) whose pixels
 * have about the colour found there (summed RGB distance ≤ FILL_TOLERANCE). Returns the
 * box it changed, [left, top, right, bottom) (null: nothing changed).
 * @param {ImageData} img
 * @param {number} W
 * @param {number} H
 * @param {number} x0
 * @param {number} y0
 * @param {[number, number, number]} color
 * @param {Uint8Array} seen W × H marks, all 0 (left all 0)
 * @returns {[number, number, number, number] | null}
 */
function floodFill(img, W, H, x0, y0, [r, g, b], seen) {
  const x = Math.min(W - 1, Math.max(0, Math.round(x0)));
  const y = Math.min(H - 1, Math.max(0, Math.round(y0)));
  const d = img.data;
  const px = new Uint32Array(d.buffer);
  const at = y * W + x;
  const sr = d[at * 4], sg = d[at * 4 + 1], sb = d[at * 4 + 2];
  if (Math.abs(sr - r) + Math.abs(sg - g) + Math.abs(sb - b) === 0) return null;
  const source = px[at];
  // The new colour as a pixel, whatever the byte order.
  const paint = new Uint32Array(Uint8ClampedArray.of(r, g, b, 255).buffer)[0];
  /** @param {number} i */
  const like = (i) => {
    if (seen[i]) return false;
    const v = px[i];
    if (v === source) return true;
    const k = i * 4;
    return Math.abs(d[k] - sr) + Math.abs(d[k + 1] - sg) + Math.abs(d[k + 2] - sb) <= FILL_TOLERANCE;
  };
  let left = x, right = x + 1, top = y, bottom = y + 1;
  const stack = [x, y];
  while (stack.length) {
    // Pairs (x, y) pushed in that order, taken from the top.
    const py = stack[stack.length - 1];
    let px0 = stack[stack.length - 2];
    stack.length -= 2;
    let i = py * W + px0;
    if (!like(i)) continue;
    while (px0 > 0 && like(i - 1)) {
      px0 -= 1;
      i -= 1;
    }
    if (px0 < left) left = px0;
    let up = false;
    let down = false;
    for (; px0 < W && like(i); px0 += 1, i += 1) {
      seen[i] = 1;
      px[i] = paint;
      if (py > 0) {
        if (like(i - W)) {
          if (!up) stack.push(px0, py - 1);
          up = true;
        } else up = false;
      }
      if (py < H - 1) {
        if (like(i + W)) {
          if (!down) stack.push(px0, py + 1);
          down = true;
        } else down = false;
      }
    }
    if (px0 > right) right = px0;
    if (py < top) top = py;
    if (py + 1 > bottom) bottom = py + 1;
  }
  for (let row = top; row < bottom; row += 1) seen.fill(0, row * W + left, row * W + right);
  return [left, top, right, bottom];
}

/**
 * The drawer's pen on a Sketch: pointer input (mouse, pen, touch) → operations, applied
 * locally at once and handed to `send(ops)` in frames of at most 64 operations and 512
 * numbers, every 50 ms.
 * tool: {color, size, mode: "pen" | "eraser" | "fill"}
 */
export class Pen {
  constructor(sketch, send) {
    this.sketch = sketch;
    this.send = send;
    this.tool = { color: 1, size: 1, mode: "pen" };
    this.enabled = false;
    this.pointer = null;
    this.last = null;
    this.pending = [];
    this.timer = null;
    const el = sketch.el;
    el.addEventListener("pointerdown", (e) => this.down(e));
    el.addEventListener("pointermove", (e) => this.move(e));
    el.addEventListener("pointerup", (e) => this.up(e));
    el.addEventListener("pointercancel", (e) => this.up(e));
    el.addEventListener("lostpointercapture", (e) => this.up(e));
    el.addEventListener("contextmenu", (e) => e.preventDefault());
  }

  setEnabled(on) {
    this.enabled = Boolean(on);
    this.sketch.el.classList.toggle("drawing-on", this.enabled);
    if (!this.enabled) this.pointer = null;
  }

  point(e) {
    const r = this.sketch.el.getBoundingClientRect();
    const { w, h } = this.sketch;
    const x = Math.round(((e.clientX - r.left) / Math.max(1, r.width)) * w);
    const y = Math.round(((e.clientY - r.top) / Math.max(1, r.height)) * h);
    return [Math.min(w, Math.max(0, x)), Math.min(h, Math.max(0, y))];
  }

  down(e) {
    if (!this.enabled || this.pointer !== null || !e.isPrimary) return;
    if (e.pointerType === "mouse" && e.button !== 0) return;
    e.preventDefault();
    const [x, y] = this.point(e);
    if (this.tool.mode === "fill") {
      this.emit([4, this.tool.color, x, y]);
      return;
    }
    this.pointer = e.pointerId;
    try {
      this.sketch.el.setPointerCapture(e.pointerId);
    } catch {
      /* synthetic events */
    }
    const color = this.tool.mode === "eraser" ? 0 : this.tool.color;
    this.last = [x, y];
    this.emit([0, color, this.tool.size, x, y]);
  }

  move(e) {
    if (this.pointer !== e.pointerId) return;
    e.preventDefault();
    const events = typeof e.getCoalescedEvents === "function" ? e.getCoalescedEvents() : [];
    const pts = [];
    for (const ev of events.length ? events : [e]) {
      const [x, y] = this.point(ev);
      if (this.last && this.last[0] === x && this.last[1] === y) continue;
      this.last = [x, y];
      pts.push(x, y);
    }
    if (pts.length) this.extend(pts);
  }

  up(e) {
    if (this.pointer === null || this.pointer !== e.pointerId) return;
    if (e.type === "pointerup") this.move(e);
    this.pointer = null;
    this.last = null;
  }

  /** More points of the stroke in progress, in operations of at most 200 points. */
  extend(pts) {
    for (let i = 0; i < pts.length; i += MAX_POINTS * 2) this.emit([1, ...pts.slice(i, i + MAX_POINTS * 2)]);
  }

  undo() {
    if (!this.enabled) return;
    this.pointer = null;
    this.emit([2]);
  }

  clear() {
    if (!this.enabled) return;
    this.pointer = null;
    this.emit([3]);
  }

  emit(op) {
    this.sketch.apply([op]);
    const last = this.pending[this.pending.length - 1];
    // Points that follow points go into the same operation while it has room.
    if (op[0] === 1 && last && (last[0] === 0 || last[0] === 1)) {
      const room = MAX_POINTS - (last.length - (last[0] === 0 ? 3 : 1)) / 2;
      if (room * 2 >= op.length - 1) {
        last.push(...op.slice(1));
        this.schedule();
        return;
      }
    }
    this.pending.push(op);
    this.schedule();
  }

  schedule() {
    if (this.timer === null) this.timer = setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** Send what is pending, cut into frames within the protocol's limits. */
  flush() {
    this.timer = null;
    const ops = this.pending;
    this.pending = [];
    for (const frame of frames(ops)) this.send(frame);
  }

  stop() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.pending = [];
    this.pointer = null;
  }
}

/** Cut operations into frames of ≤ 64 operations and ≤ 512 numbers (stroke points split). */
export function frames(ops) {
  const out = [];
  let cur = [];
  let numbers = 0;
  const push = () => {
    if (cur.length) out.push(cur);
    cur = [];
    numbers = 0;
  };
  for (let op of ops) {
    while (op) {
      if (cur.length >= MAX_OPS) push();
      const room = MAX_NUMBERS - numbers;
      if (op.length <= room) {
        cur.push(op);
        numbers += op.length;
        op = null;
        continue;
      }
      const head = op[0] === 0 ? 3 : op[0] === 1 ? 1 : op.length;
      const fit = Math.floor((room - head) / 2) * 2;
      if (op[0] > 1 || fit < 2) {
        push();
        continue;
      }
      cur.push(op.slice(0, head + fit));
      push();
      op = [1, ...op.slice(head + fit)];
    }
  }
  push();
  return out;
}
