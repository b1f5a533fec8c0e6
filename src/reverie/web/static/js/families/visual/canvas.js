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

/**
 * @typedef {{kind: "stroke", color: number, size: number, pts: number[]} | {kind: "fill", color: number, x: number, y: number}} Item
 */

/**
 * One canvas: the list of strokes and fills it shows (undo removes the last one), drawn
 * on a bitmap of the game's size that CSS scales to the screen.
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
    this.ctx = this.el.getContext("2d", { willReadFrequently: true });
    /** @type {Item[]} */
    this.items = [];
    /** @type {(Item & {kind: "stroke"}) | null} the stroke that [1] operations extend */
    this.open = null;
    /** @type {Pen | null} */
    this.pen = null;
    this.blank();
    this.count();
  }

  blank() {
    this.ctx.fillStyle = COLORS[0];
    this.ctx.fillRect(0, 0, this.w, this.h);
  }

  /** Replace the whole picture with `ops`, replayed in order. */
  reset(ops = []) {
    this.items = [];
    this.open = null;
    this.blank();
    this.apply(ops);
  }

  /** Apply operations in order (bad ones are skipped: the server has checked them). */
  apply(ops) {
    let redraw = false;
    for (const op of ops || []) {
      if (!Array.isArray(op)) continue;
      const kind = op[0];
      if (kind === 0 && op.length >= 5) {
        /** @type {Item & {kind: "stroke"}} */
        const item = { kind: "stroke", color: op[1] | 0, size: op[2] | 0, pts: op.slice(3) };
        this.items.push(item);
        this.open = item;
        if (!redraw) this.paintStroke(item, 0);
      } else if (kind === 1 && this.open) {
        const from = this.open.pts.length;
        for (let i = 1; i + 1 < op.length; i += 2) this.open.pts.push(op[i], op[i + 1]);
        if (!redraw) this.paintStroke(this.open, Math.max(0, from - 2));
      } else if (kind === 2) {
        this.items.pop();
        this.open = null;
        redraw = true;
      } else if (kind === 3) {
        this.items = [];
        this.open = null;
        redraw = true;
      } else if (kind === 4 && op.length >= 4) {
        /** @type {Item} */
        const item = { kind: "fill", color: op[1] | 0, x: op[2] | 0, y: op[3] | 0 };
        this.items.push(item);
        this.open = null;
        if (!redraw) this.paintFill(item);
      }
    }
    if (redraw) this.repaint();
    this.count();
  }

  repaint() {
    this.blank();
    for (const item of this.items) {
      if (item.kind === "stroke") this.paintStroke(item, 0);
      else this.paintFill(item);
    }
  }

  /** Paint a stroke from point index `start` (a coordinate offset) to its end. */
  paintStroke(item, start) {
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

  paintFill(item) {
    floodFill(this.ctx, this.w, this.h, item.x, item.y, rgb[item.color] || rgb[1]);
  }

  count() {
    const points = this.items.reduce((n, it) => n + (it.kind === "stroke" ? it.pts.length / 2 : 1), 0);
    this.el.dataset.items = String(this.items.length);
    this.el.dataset.points = String(points);
  }
}

/** Scanline flood fill of the region around (x, y) that has about the colour found there. */
function floodFill(ctx, W, H, x0, y0, [r, g, b]) {
  const x = Math.min(W - 1, Math.max(0, Math.round(x0)));
  const y = Math.min(H - 1, Math.max(0, Math.round(y0)));
  const img = ctx.getImageData(0, 0, W, H);
  const d = img.data;
  const at = (y * W + x) * 4;
  const sr = d[at], sg = d[at + 1], sb = d[at + 2];
  if (Math.abs(sr - r) + Math.abs(sg - g) + Math.abs(sb - b) === 0) return;
  const seen = new Uint8Array(W * H);
  const like = (i) => {
    const k = i * 4;
    return Math.abs(d[k] - sr) + Math.abs(d[k + 1] - sg) + Math.abs(d[k + 2] - sb) <= FILL_TOLERANCE;
  };
  const stack = [x, y];
  while (stack.length) {
    const py = stack.pop();
    let px = stack.pop();
    let i = py * W + px;
    while (px > 0 && !seen[i - 1] && like(i - 1)) {
      px -= 1;
      i -= 1;
    }
    let up = false;
    let down = false;
    for (; px < W && !seen[i] && like(i); px += 1, i += 1) {
      seen[i] = 1;
      const k = i * 4;
      d[k] = r;
      d[k + 1] = g;
      d[k + 2] = b;
      d[k + 3] = 255;
      if (py > 0) {
        const u = i - W;
        if (!seen[u] && like(u)) {
          if (!up) stack.push(px, py - 1);
          up = true;
        } else up = false;
      }
      if (py < H - 1) {
        const v = i + W;
        if (!seen[v] && like(v)) {
          if (!down) stack.push(px, py + 1);
          down = true;
        } else down = false;
      }
    }
  }
  ctx.putImageData(img, 0, 0);
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
    clearTimeout(this.timer);
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
