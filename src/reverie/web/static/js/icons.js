// Inline SVG icons (24×24, stroked with currentColor), drawn for Reverie.
import { s } from "./dom.js";

/** @type {Record<string, [string, Record<string, string | number>][]>} */
const PATHS = {
  logo: [
    ["path", { d: "M15.5 3.5a8.5 8.5 0 1 0 5 15.2A7 7 0 0 1 15.5 3.5z", fill: "currentColor", stroke: "none" }],
    ["path", { d: "M19 3l.7 1.6L21.3 5l-1.6.7L19 7.3l-.7-1.6L16.7 5l1.6-.4z", fill: "currentColor", stroke: "none" }],
  ],
  crown: [["path", { d: "M3 8l4.5 4L12 5l4.5 7L21 8l-2 11H5z" }]],
  bell: [["path", { d: "M6 16v-5a6 6 0 0 1 12 0v5l2 2H4zM10 20.5a2 2 0 0 0 4 0" }]],
  bell_off: [["path", { d: "M6 16v-5a6 6 0 0 1 12 0v5l2 2H4zM10 20.5a2 2 0 0 0 4 0M3 3l18 18" }]],
  bot: [
    ["rect", { x: 4, y: 8, width: 16, height: 12, rx: 3 }],
    ["path", { d: "M12 4v4M9 13h.01M15 13h.01M9 17h6" }],
    ["circle", { cx: 12, cy: 3.5, r: 1 }],
  ],
  offline: [["path", { d: "M3 3l18 18M8.5 16.5a5 5 0 0 1 7 0M5 13a10 10 0 0 1 5-2.7M19 13a10 10 0 0 0-2.3-1.6M2 9.5a15 15 0 0 1 4.4-2.8M22 9.5A15 15 0 0 0 11 5.1M12 20h.01" }]],
  quill: [["path", { d: "M20 4c-7 0-12 5-13 13l-2 3M7 17c6 0 11-4 13-13M10 14h4" }]],
  hourglass: [["path", { d: "M6 3h12M6 21h12M7 3c0 5 10 6 10 9s-10 4-10 9M17 3c0 5-10 6-10 9s10 4 10 9" }]],
  check: [["path", { d: "M4 12.5l5 5L20 6.5" }]],
  close: [["path", { d: "M6 6l12 12M18 6L6 18" }]],
  up: [["path", { d: "M6 15l6-6 6 6" }]],
  down: [["path", { d: "M6 9l6 6 6-6" }]],
  copy: [
    ["rect", { x: 8, y: 8, width: 12, height: 12, rx: 2 }],
    ["path", { d: "M16 8V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h2" }],
  ],
  send: [["path", { d: "M4 12l16-8-6 16-2.5-6.5z" }]],
  eye: [
    ["path", { d: "M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" }],
    ["circle", { cx: 12, cy: 12, r: 3 }],
  ],
  shield: [["path", { d: "M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6z" }], ["path", { d: "M8.5 12l2.5 2.5 4.5-5" }]],
  warn: [["path", { d: "M12 3l10 18H2z" }], ["path", { d: "M12 10v5M12 18h.01" }]],
  clock: [["circle", { cx: 12, cy: 12, r: 9 }], ["path", { d: "M12 7v5l3 2" }]],
  kick: [["path", { d: "M15 12H3M8 7l-5 5 5 5M14 4h5a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-5" }]],
  plus: [["path", { d: "M12 5v14M5 12h14" }]],
  zoom: [["circle", { cx: 11, cy: 11, r: 7 }], ["path", { d: "M20 20l-4-4M11 8v6M8 11h6" }]],
  link: [["path", { d: "M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" }]],
  dice: [
    ["rect", { x: 4, y: 4, width: 16, height: 16, rx: 3 }],
    ["circle", { cx: 9, cy: 9, r: 1.2, fill: "currentColor" }],
    ["circle", { cx: 15, cy: 15, r: 1.2, fill: "currentColor" }],
    ["circle", { cx: 15, cy: 9, r: 1.2, fill: "currentColor" }],
    ["circle", { cx: 9, cy: 15, r: 1.2, fill: "currentColor" }],
  ],
  trophy: [["path", { d: "M8 4h8v5a4 4 0 0 1-8 0zM8 6H4v1a4 4 0 0 0 4 4M16 6h4v1a4 4 0 0 1-4 4M12 13v4M8 20h8M10 17h4v3h-4z" }]],
  // Clue restrictions (Imaginarium's special clouds).
  four_words: [
    ["rect", { x: 3, y: 5, width: 18, height: 14, rx: 3 }],
    ["path", { d: "M10.5 9l-3 4.5h5M11 9v7M14.5 12h3" }],
  ],
  three_words: [
    ["rect", { x: 3, y: 5, width: 18, height: 14, rx: 3 }],
    ["path", { d: "M8 9h3.5l-2 2.2c1.6 0 2.3.8 2.3 1.9S11 15 9.8 15c-.8 0-1.5-.3-2-.8M14.5 12h3" }],
  ],
  question: [["circle", { cx: 12, cy: 12, r: 9 }], ["path", { d: "M9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.7.3-1 .9-1 1.7M12 17h.01" }]],
  brand: [["path", { d: "M3 12V4h8l10 10-8 8z" }], ["circle", { cx: 7.5, cy: 8.5, r: 1.5 }]],
  film: [
    ["rect", { x: 3, y: 9, width: 18, height: 11, rx: 1.5 }],
    ["path", { d: "M3 9l17-4.5.6 2.2M7.5 8l2.8-3.7M13 6.5l2.8-3.7" }],
  ],
  story: [["path", { d: "M12 6c-2-1.5-5-2-9-2v14c4 0 7 .5 9 2 2-1.5 5-2 9-2V4c-4 0-7 .5-9 2zM12 6v14" }]],
  box: [["path", { d: "M3 8l9-4 9 4-9 4zM3 8v9l9 4 9-4V8M12 12v9" }]],
  // The drawing game's tools.
  pencil: [["path", { d: "M4 20l1-5L16 4l4 4L9 19zM14 6l4 4M4 20l5-1" }]],
  eraser: [["path", { d: "M8 20h12M4.5 15.5l9-9a2 2 0 0 1 2.8 0l2.2 2.2a2 2 0 0 1 0 2.8L11 19H8z" }], ["path", { d: "M9 11l5 5" }]],
  fill: [["path", { d: "M5 11l6-6 8 8-6 6a2 2 0 0 1-2.8 0L5 13.8a2 2 0 0 1 0-2.8zM5 12h14M9 3l2 2" }], ["path", { d: "M20 17c0 1.5-1 2.5-1.5 2.5S17 18.5 17 17s1.5-3 1.5-3 1.5 1.5 1.5 3z", fill: "currentColor" }]],
  undo: [["path", { d: "M9 14L4 9l5-5M4 9h10a6 6 0 0 1 0 12h-3" }]],
  trash: [["path", { d: "M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" }]],
  team: [["circle", { cx: 9, cy: 8, r: 3 }], ["circle", { cx: 17, cy: 9, r: 2.5 }], ["path", { d: "M3 20c0-3.5 2.7-6 6-6s6 2.5 6 6M15 14.5c3 0 6 1.8 6 5.5" }]],
  star: [["path", { d: "M12 3l2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1L3.2 9.5l6.1-.9z" }]],
  flag: [["path", { d: "M5 21V4M5 4h12l-2 4 2 4H5" }]],
};

/**
 * @param {string} name
 * @param {{size?: number, label?: string | null, cls?: string}} [opts]
 */
export function icon(name, { size = 20, label = null, cls = "" } = {}) {
  const parts = PATHS[name] || PATHS.warn;
  return s(
    "svg",
    {
      class: `icon icon-${name} ${cls}`.trim(),
      viewBox: "0 0 24 24",
      width: size,
      height: size,
      fill: "none",
      stroke: "currentColor",
      "stroke-width": 1.8,
      "stroke-linecap": "round",
      "stroke-linejoin": "round",
      "aria-hidden": label ? null : "true",
      role: label ? "img" : null,
      "aria-label": label,
      focusable: "false",
    },
    label ? s("title", {}, label) : null,
    parts.map(([tag, attrs]) => s(tag, attrs)),
  );
}

/**
 * Paths only, for embedding in a bigger drawing (the boards).
 * @param {string} name
 * @param {{x: number, y: number, size?: number, color?: string}} opts
 */
export function iconGroup(name, { x, y, size = 20, color = "currentColor" }) {
  const parts = PATHS[name] || PATHS.warn;
  const k = size / 24;
  return s(
    "g",
    {
      transform: `translate(${x - size / 2} ${y - size / 2}) scale(${k})`,
      fill: "none",
      stroke: color,
      "stroke-width": 2,
      "stroke-linecap": "round",
      "stroke-linejoin": "round",
    },
    parts.map(([tag, attrs]) => s(tag, attrs)),
  );
}
