// The drawer's toolbar: 16 colours, 3 sizes, pen / eraser / fill, undo and clear.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { icon } from "./icons.js";
import { COLORS, SIZES } from "./canvas.js";

function radio(name, value, checked, label, body, onchange) {
  return h(
    "label",
    { class: `vtool-${name}`, title: label },
    h("input", { type: "radio", name: `pen-${name}`, value: String(value), checked, "aria-label": label, onchange }),
    body,
  );
}

/** The toolbar of `pen` (a canvas.js Pen). Returns {el, setEnabled(on)}. */
export function penTools(pen) {
  const tool = pen.tool;
  const sync = () => {
    for (const input of el.querySelectorAll("input[name=pen-mode]")) input.checked = input.value === tool.mode;
  };
  const palette = h(
    "fieldset",
    { class: "vpalette" },
    h("legend", { class: "visually-hidden" }, t("vtools.color")),
    COLORS.map((c, i) =>
      radio("color", i, i === tool.color, t(`vtools.color.${i}`), h("span", { class: "vswatch", style: { background: c } }), () => {
        tool.color = i;
        if (tool.mode === "eraser") tool.mode = "pen";
        sync();
      }),
    ),
  );
  const sizes = h(
    "fieldset",
    { class: "vsizes" },
    h("legend", { class: "visually-hidden" }, t("vtools.size")),
    SIZES.map((w, i) =>
      radio("size", i, i === tool.size, t(`vtools.size.${i}`), h("span", { class: "vsize-dot", style: { width: `${Math.max(6, w * 0.7)}px`, height: `${Math.max(6, w * 0.7)}px` } }), () => {
        tool.size = i;
      }),
    ),
  );
  const modes = h(
    "fieldset",
    { class: "vmodes" },
    h("legend", { class: "visually-hidden" }, t("vtools.tool")),
    ["pen", "eraser", "fill"].map((m) =>
      radio("mode", m, tool.mode === m, t(`vtools.${m}`), icon(m === "pen" ? "pencil" : m, { size: 20 }), () => {
        tool.mode = m;
      }),
    ),
  );
  const undo = h("button", { type: "button", class: "btn btn-quiet btn-icon", id: "tool-undo", "aria-label": t("vtools.undo"), title: `${t("vtools.undo")} (Ctrl+Z)`, onclick: () => pen.undo() }, icon("undo", { size: 20 }));
  const clearBtn = h("button", { type: "button", class: "btn btn-quiet btn-icon btn-danger", id: "tool-clear", "aria-label": t("vtools.clear"), title: t("vtools.clear"), onclick: () => pen.clear() }, icon("trash", { size: 20 }));
  const el = h(
    "div",
    { class: "vtools", id: "pen-tools", role: "group", "aria-label": t("vtools.label") },
    palette,
    h("div", { class: "vtool-row" }, modes, sizes, h("div", { class: "vtool-actions" }, undo, clearBtn)),
  );
  return {
    el,
    setEnabled(on) {
      pen.setEnabled(on);
      el.classList.toggle("disabled", !on);
      for (const c of el.querySelectorAll("input, button")) c.disabled = !on;
    },
  };
}
