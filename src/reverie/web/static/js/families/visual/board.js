// The drawing game's board in SVG: 40 squares in a snake of 8 columns, the point tokens
// lying on them (bonus tokens starred), and the teams' pawns.
import { s } from "../../dom.js";
import { t } from "../../i18n.js";
import { teamName } from "./teams.js";
import { pieceMark } from "../association/board.js";

const COLS = 8;
const CELL = 62;
const PAD = 8;
const SIZE = 54;

/** Centre of square n (1-based). @param {number} n */
export function squareCentre(n) {
  const i = n - 1;
  const r = Math.floor(i / COLS);
  const c = r % 2 === 0 ? i % COLS : COLS - 1 - (i % COLS);
  return { x: PAD + c * CELL + CELL / 2, y: PAD + r * CELL + CELL / 2 };
}

/** @param {number} cx @param {number} cy @param {number} r */
function star(cx, cy, r) {
  const pts = [];
  for (let k = 0; k < 10; k++) {
    const a = (Math.PI / 5) * k - Math.PI / 2;
    const rr = k % 2 === 0 ? r : r * 0.45;
    pts.push(`${(cx + Math.cos(a) * rr).toFixed(1)},${(cy + Math.sin(a) * rr).toFixed(1)}`);
  }
  return s("polygon", { points: pts.join(" "), class: "token-star" });
}

/** @param {{id: number, value: number, bonus?: boolean}} token @param {number} x @param {number} y */
function tokenShape(token, x, y) {
  const bonus = Boolean(token.bonus);
  return s(
    "g",
    { class: ["token", bonus && "bonus"].filter(Boolean).join(" "), "data-token": token.id, "data-value": token.value, "data-bonus": bonus ? "true" : "false" },
    s("circle", { cx: x, cy: y, r: 15, class: "token-disc" }),
    bonus ? star(x + 12, y - 12, 7) : null,
    s("text", { x, y: y + 5.5, "text-anchor": "middle", class: "token-value" }, String(token.value)),
  );
}

/**
 * @param {number} team @param {number} square @param {string} color
 * @param {number} x @param {number} y @param {number} r @param {boolean} current
 */
function pawn(team, square, color, x, y, r, current) {
  return s(
    "g",
    { key: team, class: ["pawn", current && "current"].filter(Boolean).join(" "), "data-team": team, "data-square": square, transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})` },
    s("ellipse", { cx: 0, cy: r * 0.5, rx: r * 0.5, ry: r * 0.16, fill: "rgba(0,0,0,.35)" }),
    s("path", {
      d: `M0 ${-r * 0.62} C${r * 0.42} ${-r * 0.62} ${r * 0.46} ${-r * 0.12} ${r * 0.22} ${r * 0.05} L${r * 0.44} ${r * 0.5} L${-r * 0.44} ${r * 0.5} L${-r * 0.22} ${r * 0.05} C${-r * 0.46} ${-r * 0.12} ${-r * 0.42} ${-r * 0.62} 0 ${-r * 0.62} Z`,
      fill: color, stroke: "#140f26", "stroke-width": 1.6,
    }),
    // The team's number: a pawn is not told by its colour alone (WCAG 1.4.1).
    pieceMark(String(team + 1), r),
  );
}

/**
 * game: the visual view ({teams, squares}); colorOf(team) → CSS colour; opts: length:
 * the squares of the `board` capability, target: a square to highlight, current: the
 * team whose turn it is.
 * @param {{teams?: {team: number, square: number}[], squares?: ({id: number, value: number, bonus?: boolean} | null)[]}} game
 * @param {(team: number) => string} colorOf
 * @param {{length: number, target?: number | null, current?: number | null}} opts
 */
export function visualBoardSVG(game, colorOf, { length, target = null, current = null }) {
  const SQUARES = length;
  const width = PAD * 2 + COLS * CELL;
  const height = PAD * 2 + Math.ceil(SQUARES / COLS) * CELL;
  const teams = game.teams || [];
  const squares = game.squares || [];
  const centres = Array.from({ length: SQUARES }, (_, i) => squareCentre(i + 1));
  let d = "";
  centres.forEach((p, i) => {
    d += `${i ? "L" : "M"}${p.x} ${p.y} `;
  });
  const cells = centres.map((p, i) => {
    const n = i + 1;
    const token = squares[i] || null;
    const here = teams.filter((tm) => tm.square === n);
    const label = [t("vboard.square", { n }), token ? t(token.bonus ? "vboard.bonus_token" : "vboard.token", { n: token.value }) : null,
      ...here.map((tm) => teamName(tm.team))].filter(Boolean).join(" · ");
    const end = n === 1 || n === SQUARES;
    return s(
      "g",
      { class: ["vsquare", end && "end", n === target && "target"].filter(Boolean).join(" "), "data-square": n, key: n },
      s("title", {}, label),
      s("rect", { x: p.x - SIZE / 2, y: p.y - SIZE / 2, width: SIZE, height: SIZE, rx: 10, class: "vsquare-bg" }),
      s("text", { x: p.x - SIZE / 2 + 5, y: p.y - SIZE / 2 + 12, class: "vsquare-num" }, String(n)),
      n === SQUARES ? s("text", { x: p.x, y: p.y + 20, "text-anchor": "middle", class: "vsquare-flag" }, "★") : null,
      token ? tokenShape(token, p.x, p.y + 3) : null,
    );
  });
  /** @type {[number, import("../../dom.js").VNode][]} */
  const pawns = [];
  const groups = new Map();
  for (const tm of teams) {
    if (!groups.has(tm.square)) groups.set(tm.square, []);
    groups.get(tm.square).push(tm);
  }
  for (const [sq, group] of groups) {
    const p = centres[Math.min(SQUARES, Math.max(1, sq)) - 1];
    group.forEach((tm, k) => {
      const n = group.length;
      const cols = n > 3 ? 3 : n;
      const row = Math.floor(k / cols);
      const col = k % cols;
      const r = n > 1 ? 17 : 24;
      const x = p.x + (col - (cols - 1) / 2) * (r * 0.8);
      const y = p.y + 6 + (row - (Math.ceil(n / cols) - 1) / 2) * (r * 0.75);
      pawns.push([tm.team, pawn(tm.team, tm.square, colorOf(tm.team), x, y, r, tm.team === current)]);
    });
  }
  const summary = teams.map((tm) => t("vboard.team_at", { team: teamName(tm.team), n: tm.square })).join(", ");
  return s(
    "svg",
    { class: "board-svg vboard-svg", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `${t("vboard.label")}: ${summary}`, preserveAspectRatio: "xMidYMid meet" },
    s("rect", { x: 0, y: 0, width, height, rx: 18, class: "vboard-bg" }),
    s("path", { d, fill: "none", class: "vboard-path" }),
    cells,
    // In team order whatever the squares: a pawn stays the same element as it moves.
    pawns.sort((a, b) => a[0] - b[0]).map(([, node]) => node),
  );
}
