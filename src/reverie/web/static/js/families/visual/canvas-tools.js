// The drawer's toolbar: the colours and sizes the `canvas` capability allows (16 and 3),
// pen / eraser / fill, undo and clear.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { icon } from "../../icons.js";
import { COLORS, SIZES } from "./canvas.js";
import { rerender } from "./ctx.js";

/**
 * @param {string} name
 * @param {string | number} value
 * @param {boolean} checked
 * @param {boolean} disabled
 * @param {string} label
 * @param {import("../../dom.js").Child} body
 * @param {() => void} onchange
 */
function radio(name, value, checked, disabled, label, body, onchange) {
  return h(
    "label",
    { class: `vtool-${name}`, title: label, key: String(value) },
    h("input", { type: "radio", name: `pen-${name}`, value: String(value), checked, disabled, "aria-label": label, onchange }),
    body,
  );
}

/**
 * The toolbar of `pen` (a canvas.js Pen).
 * @param {import("./canvas.js").Pen} pen
 * @param {{enabled: boolean, hidden: boolean, canvas: import("../../shell/app.js").Canvas}} opts
 */
export function penToolsView(pen, { enabled, hidden, canvas }) {
  const tool = pen.tool;
  const off = !enabled;
  /** @param {() => void} fn */
  const set = (fn) => () => {
    fn();
    rerender();
  };
  const palette = h(
    "fieldset",
    { class: "vpalette" },
    h("legend", { class: "visually-hidden" }, t("vtools.color")),
    COLORS.slice(0, canvas.colors).map((c, i) =>
      radio("color", i, i === tool.color, off, t(`vtools.color.${i}`), h("span", { class: "vswatch", style: { background: c } }), set(() => {
        tool.color = i;
        if (tool.mode === "eraser") tool.mode = "pen";
      })),
    ),
  );
  const sizes = h(
    "fieldset",
    { class: "vsizes" },
    h("legend", { class: "visually-hidden" }, t("vtools.size")),
    SIZES.slice(0, canvas.sizes).map((w, i) =>
      radio("size", i, i === tool.size, off, t(`vtools.size.${i}`), h("span", { class: "vsize-dot", style: { width: `${Math.max(6, w * 0.7)}px`, height: `${Math.max(6, w * 0.7)}px` } }), set(() => {
        tool.size = i;
      })),
    ),
  );
  const modes = h(
    "fieldset",
    { class: "vmodes" },
    h("legend", { class: "visually-hidden" }, t("vtools.tool")),
    ["pen", "eraser", "fill"].map((m) =>
      radio("mode", m, tool.mode === m, off, t(`vtools.${m}`), icon(m === "pen" ? "pencil" : m, { size: 20 }), set(() => {
        tool.mode = m;
      })),
    ),
  );
  return h(
    "div",
    { class: ["vtools", off && "disabled"], id: "pen-tools", role: "group", "aria-label": t("vtools.label"), hidden },
    palette,
    h(
      "div",
      { class: "vtool-row" },
      modes,
      sizes,
      h(
        "div",
        { class: "vtool-actions" },
        h("button", { type: "button", class: "btn btn-quiet btn-icon", id: "tool-undo", disabled: off, "aria-label": t("vtools.undo"), title: `${t("vtools.undo")} (Ctrl+Z)`, onclick: () => pen.undo() }, icon("undo", { size: 20 })),
        h("button", { type: "button", class: "btn btn-quiet btn-icon btn-danger", id: "tool-clear", disabled: off, "aria-label": t("vtools.clear"), title: t("vtools.clear"), onclick: () => pen.clear() }, icon("trash", { size: 20 })),
      ),
    ),
  );
}
