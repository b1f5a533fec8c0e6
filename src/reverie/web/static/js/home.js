// Home page: create a room, or join one by its code.
import { h, clear, $ } from "./dom.js";
import { t, lang } from "./i18n.js";
import { boot, PALETTE, postJSON, getJSON, toast, errorText } from "./common.js";
import { loadVariants, variantInfo } from "./variants.js";
import { optionsFields, readOptions } from "./options.js";
import { saveToken, normaliseCode } from "./store.js";
import { swatchesField } from "./swatches.js";
import { isVisual, visualOptionsFields, readVisualOptions } from "./visual-options.js";

const form = { name: "", color: null, variant: "dixit", seats: null, options: null };

function remembered() {
  try {
    form.name = localStorage.getItem("reverie:name") || "";
    const c = localStorage.getItem("reverie:color");
    form.color = PALETTE.includes(c) ? c : PALETTE[0];
  } catch {
    form.color = PALETTE[0];
  }
}

function captureDraft() {
  const f = $("#create");
  if (!f || !f.elements.length) return;
  form.name = f.elements.namedItem("name")?.value ?? form.name;
  form.color = f.querySelector("input[name=color]:checked")?.value ?? form.color;
  form.variant = f.querySelector("input[name=variant]:checked")?.value ?? form.variant;
  const o = isVisual(variantInfo(form.variant)) ? readVisualOptions(f) : readOptions(f, form.variant);
  form.options = o.options;
  form.seats = o.seats;
}

async function renderCreate() {
  const variants = await loadVariants();
  const f = $("#create");
  const v = variantInfo(form.variant);
  const visual = isVisual(v);
  if (form.seats === null || form.seats < v.min_players || form.seats > v.max_players) {
    form.seats = Math.min(v.max_players, visual ? 8 : 6);
  }
  clear(
    f,
    h(
      "div",
      { class: "field" },
      h("label", { for: "create-name" }, t("home.your_name")),
      h("input", {
        id: "create-name", name: "name", maxlength: 24, autocomplete: "nickname", required: true,
        value: form.name, placeholder: t("home.name_placeholder"),
      }),
    ),
    swatchesField("color", form.color, { legend: t("home.your_color") }),
    h(
      "fieldset",
      { class: "variants" },
      h("legend", {}, t("home.variant")),
      variants.map((x) =>
        h(
          "div",
          { class: "variant-option" },
          h("input", {
            type: "radio", name: "variant", id: `variant-${x.name}`, value: x.name, checked: x.name === form.variant,
            onchange: () => {
              captureDraft();
              if (isVisual(variantInfo(x.name)) !== isVisual(variantInfo(form.variant))) form.options = null;
              form.variant = x.name;
              form.seats = null;
              renderCreate();
              $(`#variant-${x.name}`)?.focus();
            },
          }),
          h(
            "label",
            { for: `variant-${x.name}` },
            h("strong", {}, t(`variant.${x.name}.title`)),
            h("span", { class: "small" }, t(`variant.${x.name}.blurb`), " · ",
              t("home.players_range", { min: x.min_players, max: x.max_players })),
          ),
        ),
      ),
    ),
    h(
      "details",
      { class: "options-details" },
      h("summary", {}, t(visual ? "home.options_visual" : "home.options")),
      visual ? visualOptionsFields(v, form.options, form.seats) : optionsFields(v, form.options, form.seats),
    ),
    h("div", { class: "actions" }, h("button", { class: "btn", type: "submit", id: "create-submit" }, t("home.create_button"))),
  );
  const seatsSel = f.querySelector("[name=seats]");
  // The number of seats is worth seeing without opening the options.
  const details = f.querySelector(".options-details");
  details.before(seatsSel.closest(".field"));
}

async function onCreate(ev) {
  ev.preventDefault();
  captureDraft();
  const f = ev.currentTarget;
  const nameInput = f.elements.namedItem("name");
  const name = nameInput.value.trim();
  const button = $("#create-submit");
  if (!name) {
    nameInput.setAttribute("aria-invalid", "true");
    nameInput.focus();
    toast(t("home.need_name"), { anchor: button });
    return;
  }
  nameInput.removeAttribute("aria-invalid");
  try {
    localStorage.setItem("reverie:name", name);
    localStorage.setItem("reverie:color", form.color);
  } catch {
    /* ignore */
  }
  button.disabled = true;
  try {
    const res = await postJSON("/api/rooms", {
      name, color: form.color, variant: form.variant, seats: form.seats, options: form.options, lang: lang(),
    });
    saveToken(res.code, res.token);
    location.assign(res.url || `/r/${res.code}`);
  } catch (err) {
    button.disabled = false;
    toast(errorText(err.code, err.message), { anchor: button });
  }
}

async function onJoin(ev) {
  ev.preventDefault();
  const input = $("#join-code");
  const code = normaliseCode(input.value);
  const button = ev.currentTarget.querySelector("button");
  if (!code) {
    input.focus();
    toast(t("home.need_code"), { anchor: button });
    return;
  }
  try {
    await getJSON(`/api/rooms/${encodeURIComponent(code)}`);
    location.assign(`/r/${code}`);
  } catch (err) {
    toast(err.status === 404 ? t("error.unknown_room") : errorText(err.code, err.message), { anchor: button });
  }
}

async function render() {
  captureDraft();
  await renderCreate();
}

remembered();
$("#create").addEventListener("submit", onCreate);
$("#join").addEventListener("submit", onJoin);
boot(render);
