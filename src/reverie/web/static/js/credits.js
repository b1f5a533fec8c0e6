// The credits page: art and words from GET /api/credits, software, fonts and icons.
import { h, render, $ } from "./dom.js";
import { t } from "./i18n.js";
import { boot, getJSON } from "./common.js";

/** @type {{sources?: Record<string, any>[], software?: Record<string, any>[]} | null} */
let data = null;
let failed = false;

/** The license texts of the libraries the pages load, kept beside them (static/vendor). */
/** @type {Record<string, string>} */
const LICENSE_FILES = { Preact: "/static/vendor/preact/LICENSE" };

/** @param {Record<string, any>} item */
function entry(item) {
  const authors = Array.isArray(item.authors) ? item.authors.join(", ") : item.authors;
  return h(
    "article",
    { class: "credit" },
    h("h3", {}, item.source || "—"),
    item.description ? h("p", {}, item.description) : null,
    h(
      "p",
      { class: "small muted" },
      authors ? [h("strong", {}, `${t("credits.authors")}: `), authors, " · "] : null,
      item.license ? [h("strong", {}, `${t("credits.license")}: `), item.license] : null,
      LICENSE_FILES[item.source] ? [" · ", h("a", { href: LICENSE_FILES[item.source] }, t("credits.license_file"))] : null,
      item.used_for ? [" · ", h("strong", {}, `${t("credits.used_for")}: `), item.used_for] : null,
    ),
  );
}

function draw() {
  const main = $("#main");
  const sources = data?.sources || [];
  const software = data?.software || [];
  render([
    h("h1", {}, t("credits.heading")),
    h("p", { class: "prose" }, t("credits.intro")),
    h(
      "section",
      { class: "panel prose", id: "content" },
      h("h2", {}, t("credits.content")),
      data ? sources.map(entry) : h("p", { class: "muted", role: "status" }, failed ? t("credits.failed") : t("credits.loading")),
    ),
    h(
      "section",
      { class: "panel prose", id: "fonts" },
      h("h2", {}, t("credits.fonts")),
      h("article", { class: "credit" }, h("h3", {}, "Nunito"), h("p", {}, t("credits.font_nunito")),
        h("p", { class: "small muted" }, h("strong", {}, `${t("credits.license")}: `), t("credits.ofl"), " · ", h("a", { href: "/static/fonts/nunito/OFL.txt" }, t("credits.license_file")))),
      h("article", { class: "credit" }, h("h3", {}, "Lora"), h("p", {}, t("credits.font_lora")),
        h("p", { class: "small muted" }, h("strong", {}, `${t("credits.license")}: `), t("credits.ofl"), " · ", h("a", { href: "/static/fonts/lora/OFL.txt" }, t("credits.license_file")))),
      h("p", { class: "small muted" }, t("credits.font_via")),
    ),
    h(
      "section",
      { class: "panel prose", id: "software" },
      h("h2", {}, t("credits.software")),
      software.map(entry),
      h("article", { class: "credit" }, h("h3", {}, t("credits.icons")), h("p", {}, t("credits.icons_text")), h("p", {}, t("credits.browser")), h("p", { class: "small muted" }, t("credits.tests"))),
    ),
  ], main);
}

boot(draw).then(async () => {
  try {
    data = await getJSON("/api/credits");
  } catch {
    failed = true;
  }
  draw();
});
