// The boards, drawn in SVG from the `board` capability: a scoring loop (Dixit's 0–29),
// a board of clouds with the special ones marked (Imaginarium), a track ending in a box
// (Pictoric).
/** @typedef {{seat: number, name: string, color: string, score: number, square: number}} Piece */
import { s } from "../../dom.js";
import { t } from "../../i18n.js";
import { iconGroup } from "../../icons.js";

const W = 640;
const DIXIT_H = 420;

function serpentine(n, cols, { dx, dy, x0, y0, wobble = 0 }) {
  const pts = [];
  for (let i = 0; i < n; i++) {
    const r = Math.floor(i / cols);
    const c = r % 2 === 0 ? i % cols : cols - 1 - (i % cols);
    const wob = wobble ? Math.sin(i * 1.7) * wobble : 0;
    pts.push({ x: x0 + c * dx, y: y0 + r * dy + wob });
  }
  return pts;
}

function loop30() {
  // 9 along the top, 6 down the right, 9 back along the bottom, 6 up the left.
  const pts = [];
  const x0 = 44, x1 = W - 44, y0 = 44, y1 = DIXIT_H - 44;
  const dx = (x1 - x0) / 8, dy = (y1 - y0) / 7;
  for (let i = 0; i <= 8; i++) pts.push({ x: x0 + i * dx, y: y0 });
  for (let i = 1; i <= 6; i++) pts.push({ x: x1, y: y0 + i * dy });
  for (let i = 8; i >= 0; i--) pts.push({ x: x0 + i * dx, y: y1 });
  for (let i = 6; i >= 1; i--) pts.push({ x: x0, y: y0 + i * dy });
  return pts;
}

function pathThrough(pts, closed) {
  if (!pts.length) return "";
  let d = `M${pts[0].x.toFixed(1)} ${pts[0].y.toFixed(1)}`;
  for (const p of pts.slice(1)) d += ` L${p.x.toFixed(1)} ${p.y.toFixed(1)}`;
  return closed ? `${d} Z` : d;
}

function cloud(x, y, r, { fill, stroke, width }) {
  // Three puffs on a flat base; the outline is the same shapes drawn wider underneath.
  const shapes = (grow, paint) => [
    s("circle", { cx: x - r * 0.68, cy: y + r * 0.08, r: r * 0.52 + grow, fill: paint }),
    s("circle", { cx: x + r * 0.05, cy: y - r * 0.22, r: r * 0.72 + grow, fill: paint }),
    s("circle", { cx: x + r * 0.72, cy: y + r * 0.06, r: r * 0.55 + grow, fill: paint }),
    s("rect", { x: x - r * 1.2 - grow, y: y - r * 0.05 - grow, width: r * 2.4 + grow * 2, height: r * 0.66 + grow * 2, rx: r * 0.33 + grow, fill: paint }),
  ];
  return s("g", { class: "cloud-shape" }, shapes(width, stroke), shapes(0, fill));
}

/**
 * Each piece's mark, so that no piece is told from another by its colour alone (WCAG
 * 1.4.1): the player's initial, two letters where initials meet, the seat's number
 * where even those do.
 * @param {Piece[]} list
 * @returns {Map<number, string>}
 */
export function pieceMarks(list) {
  /** @param {Piece} pl @param {number} n */
  const head = (pl, n) => Array.from(String(pl.name || "").trim()).slice(0, n).join("").toUpperCase();
  const marks = new Map(list.map((pl) => [pl.seat, head(pl, 1)]));
  for (const n of [2, 0]) {
    const count = new Map();
    for (const m of marks.values()) count.set(m, (count.get(m) || 0) + 1);
    for (const pl of list) {
      const m = marks.get(pl.seat) || "";
      if (m && count.get(m) === 1) continue;
      marks.set(pl.seat, n ? head(pl, n) : String(pl.seat + 1));
    }
  }
  return marks;
}

/**
 * A mark on a piece's head, dark letters ringed in white: legible on every colour.
 * @param {string} mark
 * @param {number} r
 */
export function pieceMark(mark, r) {
  const size = (mark.length > 1 ? 0.36 : 0.46) * r;
  return s("text", { class: "piece-mark", x: 0, y: -r * 0.12, "text-anchor": "middle", "dominant-baseline": "middle", "font-size": size.toFixed(1), "aria-hidden": "true" }, mark);
}

/**
 * The players' pieces, in seat order whatever their squares (so that a piece is the same
 * element from one render to the next and glides to its new square).
 * @param {Map<number, Piece[]>} playersAt
 * @param {{x: number, y: number}[]} pts
 * @param {number} r
 */
function pieces(playersAt, pts, r) {
  /** @type {[number, import("../../dom.js").VNode][]} */
  const out = [];
  const marks = pieceMarks([...playersAt.values()].flat());
  for (const [idx, group] of playersAt) {
    const p = pts[idx];
    if (!p) continue;
    group.forEach((pl, k) => {
      const n = group.length;
      const angle = (k / Math.max(n, 1)) * Math.PI * 2 - Math.PI / 2;
      const off = n > 1 ? r * 0.55 : 0;
      const cx = p.x + Math.cos(angle) * off;
      const cy = p.y + Math.sin(angle) * off - (n > 1 ? 0 : r * 0.15);
      out.push([
        pl.seat,
        s(
          "g",
          { key: pl.seat, class: "piece", "data-seat": pl.seat, "data-square": pl.square, style: { transform: `translate(${cx}px, ${cy}px)` } },
          s("title", {}, `${pl.name}: ${t("board.points", { n: pl.score })}`),
          s("ellipse", { cx: 0, cy: r * 0.42, rx: r * 0.42, ry: r * 0.14, fill: "rgba(0,0,0,.35)" }),
          s("path", {
            d: `M0 ${-r * 0.55} C${r * 0.38} ${-r * 0.55} ${r * 0.42} ${-r * 0.1} ${r * 0.2} ${r * 0.05} L${r * 0.38} ${r * 0.42} L${-r * 0.38} ${r * 0.42} L${-r * 0.2} ${r * 0.05} C${-r * 0.42} ${-r * 0.1} ${-r * 0.38} ${-r * 0.55} 0 ${-r * 0.55} Z`,
            fill: pl.color || "#fff", stroke: "#140f26", "stroke-width": 1.6,
          }),
          pieceMark(marks.get(pl.seat) || "", r),
        ),
      ]);
    });
  }
  return out.sort((a, b) => a[0] - b[0]).map(([, node]) => node);
}

function groupBySquare(players, toIndex) {
  const m = new Map();
  for (const p of players) {
    const i = toIndex(p.square);
    if (!m.has(i)) m.set(i, []);
    m.get(i).push(p);
  }
  return m;
}

function svgRoot(height, label, children) {
  return s(
    "svg",
    { class: "board-svg", viewBox: `0 0 ${W} ${height}`, role: "img", "aria-label": label, preserveAspectRatio: "xMidYMid meet" },
    s(
      "defs",
      {},
      s(
        "linearGradient",
        { id: "bg-sky", x1: 0, y1: 0, x2: 0, y2: 1 },
        s("stop", { offset: "0", "stop-color": "#2a2152" }),
        s("stop", { offset: ".7", "stop-color": "#5b3b6e" }),
        s("stop", { offset: "1", "stop-color": "#c8766d" }),
      ),
      s(
        "radialGradient",
        { id: "sq-glow" },
        s("stop", { offset: "0", "stop-color": "#fff4d8" }),
        s("stop", { offset: "1", "stop-color": "#f7c99a" }),
      ),
    ),
    s("rect", { x: 0, y: 0, width: W, height, rx: 22, fill: "url(#bg-sky)" }),
    children,
  );
}

function summary(players) {
  return players.map((p) => `${p.name} ${t("board.points", { n: p.score })}`).join(", ");
}

/** @param {Piece[]} players */
function loopBoard(players) {
  const pts = loop30();
  const r = 24;
  const squares = pts.map((p, i) =>
    s(
      "g",
      { class: "square" },
      s("circle", { cx: p.x, cy: p.y, r, fill: i % 5 === 0 ? "url(#sq-glow)" : "#4a3a6b", stroke: "rgba(255,226,200,.55)", "stroke-width": 1.2 }),
      s("text", { x: p.x, y: p.y + 5.5, "text-anchor": "middle", class: i % 5 === 0 ? "sq-num big strong" : "sq-num big" }, String(i)),
    ),
  );
  const label = `${t("board.dixit")}: ${summary(players)}`;
  return svgRoot(DIXIT_H, label, [
    s("path", { d: pathThrough(pts, true), fill: "none", stroke: "rgba(255,226,200,.25)", "stroke-width": 10, "stroke-linejoin": "round" }),
    s("text", { x: W / 2, y: DIXIT_H / 2 - 4, "text-anchor": "middle", class: "board-title" }, t("variant.dixit.title")),
    s("text", { x: W / 2, y: DIXIT_H / 2 + 26, "text-anchor": "middle", class: "board-sub" }, t("board.dixit_sub")),
    squares,
    pieces(groupBySquare(players, (sq) => sq - 1), pts, r),
  ]);
}

/** @param {Piece[]} players @param {Record<string, string>} specials @param {number} n */
function cloudsBoard(players, specials, n) {
  const cols = 8;
  const pts = serpentine(n, cols, { dx: 76, dy: 64, x0: 54, y0: 46, wobble: 6 });
  const r = 24;
  const squares = pts.map((p, i) => {
    const num = i + 1;
    const sp = specials[num] || specials[String(num)];
    return s(
      "g",
      { class: ["cloud", sp ? `special special-${sp}` : ""].join(" "), "data-cloud": num, "data-special": sp || null },
      sp ? s("title", {}, t(`restriction.${sp}.short`)) : null,
      cloud(p.x, p.y, r, {
        fill: sp ? "#ffd9a8" : "#f6ede6",
        stroke: sp ? "#ff9a76" : "#c9b8d8", width: sp ? 2.2 : 1,
      }),
      sp
        ? iconGroup(sp, { x: p.x - r * 0.42, y: p.y + 1, size: 18, color: "#7a3b2e" })
        : s("text", { x: p.x, y: p.y + 6, "text-anchor": "middle", class: "cloud-num" }, String(num)),
      sp ? s("text", { x: p.x + r * 0.5, y: p.y + 6, "text-anchor": "middle", class: "cloud-num" }, String(num)) : null,
    );
  });
  const height = 46 + (Math.ceil(n / cols) - 1) * 64 + 46;
  const label = `${t("board.imaginarium")}: ${summary(players)}`;
  return svgRoot(height, label, [
    s("path", { d: pathThrough(pts, false), fill: "none", stroke: "rgba(255,226,200,.22)", "stroke-width": 6, "stroke-dasharray": "2 10", "stroke-linecap": "round" }),
    squares,
    pieces(groupBySquare(players, (sq) => sq - 1), pts, r),
  ]);
}

/** @param {Piece[]} players @param {number} length */
function trackBoard(players, length) {
  const n = length + 1; // squares 1..length, then the box
  const cols = 10;
  const rows = Math.ceil(n / cols);
  const pts = serpentine(n, cols, { dx: 62, dy: 58, x0: 42, y0: 42 });
  const r = 20;
  const squares = pts.map((p, i) => {
    const last = i === n - 1;
    if (last) {
      return s(
        "g",
        { class: "pictoricbox" },
        s("rect", { x: p.x - 28, y: p.y - 26, width: 56, height: 52, rx: 10, fill: "#ffd48a", stroke: "#ff8fa3", "stroke-width": 2.5 }),
        iconGroup("box", { x: p.x, y: p.y - 6, size: 24, color: "#6a2f3a" }),
        s("text", { x: p.x, y: p.y + 19, "text-anchor": "middle", class: "box-label" }, "PICTORICBOX"),
      );
    }
    return s(
      "g",
      { class: "square" },
      s("rect", { x: p.x - r, y: p.y - r, width: r * 2, height: r * 2, rx: 7, fill: i % 5 === 0 ? "url(#sq-glow)" : "#4a3a6b", stroke: "rgba(255,226,200,.5)", "stroke-width": 1.2 }),
      s("text", { x: p.x, y: p.y + 4.5, "text-anchor": "middle", class: i % 5 === 0 ? "sq-num strong" : "sq-num" }, String(i + 1)),
    );
  });
  const height = 42 + (rows - 1) * 58 + 42;
  const label = `${t("board.pictoric", { n: length })}: ${summary(players)}`;
  return svgRoot(height, label, [
    s("path", { d: pathThrough(pts, false), fill: "none", stroke: "rgba(255,226,200,.25)", "stroke-width": 8, "stroke-linejoin": "round" }),
    squares,
    pieces(groupBySquare(players, (sq) => Math.min(sq, n) - 1), pts, r),
  ]);
}

/**
 * The board of the `board` capability ({name, length, loops, specials}), with the
 * players' pieces ([{seat, name, color, score, square}]); options: the table's
 * (restrictions: special squares shown only when "board"; track_length).
 * @param {import("../../shell/app.js").Board} board
 * @param {Piece[]} players
 * @param {Record<string, any>} [options]
 */
export function boardSVG(board, players, options = {}) {
  if (!board.loops) return trackBoard(players, options.track_length || board.length || 40);
  const specials = (options.restrictions || "board") === "board" ? board.specials || {} : {};
  if (board.name === "imaginarium-clouds") return cloudsBoard(players, specials, board.length || 39);
  return loopBoard(players);
}
