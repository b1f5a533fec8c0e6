// The piece-colour picker: twelve radio buttons, the taken colours disabled.
import { h } from "./dom.js";
import { PALETTE, colorName } from "./common.js";

/**
 * @param {string} name
 * @param {string | null | undefined} selected
 * @param {{taken?: string[], legend: string, onchange?: ((c: string) => void) | null}} opts
 */
export function swatchesField(name, selected, { taken = [], legend, onchange = null }) {
  return h(
    "fieldset",
    { class: "swatch-set" },
    h("legend", {}, legend),
    h(
      "div",
      { class: "swatches" },
      PALETTE.map((c) =>
        h(
          "label",
          { class: "swatch", title: colorName(c) },
          h("input", {
            type: "radio", name, value: c, checked: c === selected, disabled: taken.includes(c),
            "aria-label": colorName(c), onchange: onchange ? () => onchange(c) : null,
          }),
          h("span", { style: { background: c } }),
        ),
      ),
    ),
  );
}
