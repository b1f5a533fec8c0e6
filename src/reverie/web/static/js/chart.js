// A small line chart in inline SVG: one line per series over the rounds of a game
// (the end screen's scores). It scales to its box and stays readable on a phone.
import { h, s } from "./dom.js";

/**
 * @typedef {{key: string | number, name: string, color: string, values: number[]}} Series
 */

/** Round numbers for the axis: every step that keeps about eight labels. @param {number} max */
function ticks(max) {
  const raw = Math.max(1, max) / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((x) => x >= raw) || mag * 10;
  const out = [];
  for (let v = 0; v <= max + 1e-9; v += step) out.push(v);
  if (out[out.length - 1] < max) out.push(out[out.length - 1] + step);
  return out;
}

/**
 * values[i] is the value after round i (values[0]: the start, usually 0).
 * @param {Series[]} series
 * @param {{label: string, xLabel: (i: number) => string, id?: string}} opts
 */
export function lineChart(series, { label, xLabel, id = "score-chart" }) {
  const W = 400;
  const H = 230;
  const left = 30;
  const right = 10;
  const top = 10;
  const bottom = 26;
  const rounds = Math.max(1, ...series.map((x) => x.values.length - 1));
  const max = Math.max(1, ...series.flatMap((x) => x.values));
  const min = Math.min(0, ...series.flatMap((x) => x.values));
  const yt = ticks(max - min).map((v) => v + min);
  const top_ = yt[yt.length - 1];
  /** @param {number} i */
  const x = (i) => left + ((W - left - right) * i) / rounds;
  /** @param {number} v */
  const y = (v) => top + (H - top - bottom) * (1 - (v - min) / (top_ - min || 1));
  const every = Math.max(1, Math.ceil(rounds / 10));
  const xs = [];
  for (let i = 0; i <= rounds; i += every) xs.push(i);
  // Equal values would hide a line under another: each series is nudged a little.
  const nudge = (/** @type {number} */ k) => (k - (series.length - 1) / 2) * 1.6;
  return h(
    "figure",
    { class: "chart", id },
    s(
      "svg",
      { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label, class: "chart-svg", preserveAspectRatio: "xMidYMid meet" },
      yt.map((v) =>
        s("g", { key: `y${v}` },
          s("line", { x1: left, x2: W - right, y1: y(v), y2: y(v), class: "chart-grid" }),
          s("text", { x: left - 6, y: y(v) + 4, class: "chart-tick", "text-anchor": "end" }, String(v)))),
      xs.map((i) => s("text", { key: `x${i}`, x: x(i), y: H - 8, class: "chart-tick", "text-anchor": "middle" }, xLabel(i))),
      series.map((se, k) =>
        s(
          "g",
          { key: se.key, class: "chart-series", "data-key": se.key },
          s("polyline", { class: "chart-halo", points: se.values.map((v, i) => `${x(i).toFixed(1)},${(y(v) + nudge(k)).toFixed(1)}`).join(" ") }),
          s("polyline", { class: "chart-line", stroke: se.color, "data-key": se.key, points: se.values.map((v, i) => `${x(i).toFixed(1)},${(y(v) + nudge(k)).toFixed(1)}`).join(" ") }),
          se.values.length ? s("circle", { cx: x(se.values.length - 1), cy: y(se.values[se.values.length - 1]) + nudge(k), r: 4, fill: se.color, class: "chart-end" }) : null,
        ),
      ),
    ),
    h(
      "figcaption",
      { class: "chart-legend" },
      series.map((se) =>
        h("span", { class: "chart-key", key: se.key }, h("span", { class: "chart-swatch", style: { background: se.color }, "aria-hidden": "true" }), h("span", { class: "chart-name" }, se.name), " ",
          h("strong", {}, String(se.values[se.values.length - 1] ?? 0))),
      ),
    ),
  );
}
