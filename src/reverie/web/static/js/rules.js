// The rules page: the common turn, each variant (/rules#dixit …), and the online table's
// options with their defaults. The text lives in the i18n dictionaries.
import { h, clear, $ } from "./dom.js";
import { t } from "./i18n.js";
import { icon } from "./icons.js";
import { boot } from "./common.js";
import { loadVariants, variantInfo } from "./variants.js";
import { boardSVG } from "./board.js";
import { visualBoardSVG } from "./visual-board.js";

const NAMES = ["dixit", "imaginarium", "imaginarium-harmony", "pictoric", "pictoric-gallery"];

const decision = (key) => h("p", { class: "decision" }, h("strong", {}, `${t("rules.decision")}: `), t(key));

function facts(v, rows) {
  return h(
    "table",
    { class: "simple facts" },
    h("tbody", {}, rows.filter(Boolean).map(([label, key]) => h("tr", {}, h("th", { scope: "row" }, t(label)), h("td", {}, t(key))))),
  );
}

function scoring(v, extra = true) {
  const items = [
    ["rules.score.all", `rules.${v}.score.all`],
    ["rules.score.none", `rules.${v}.score.none`],
    ["rules.score.some", `rules.${v}.score.some`],
  ];
  if (extra && t(`rules.${v}.score.extra`) !== `rules.${v}.score.extra`) items.push(["rules.score.extra", `rules.${v}.score.extra`]);
  return [h("h3", {}, t("rules.label.scoring")), h("ul", {}, items.map(([a, b]) => h("li", {}, h("strong", {}, `${t(a)}: `), t(b))))];
}

function specials(v) {
  const sp = v.board.specials || {};
  return [
    h("h3", {}, t("rules.specials.title")),
    h(
      "ul",
      { class: "special-list" },
      Object.entries(sp)
        .sort((a, b) => Number(a[0]) - Number(b[0]))
        .map(([n, kind]) => h("li", {}, icon(kind, { size: 22 }), h("span", {}, h("strong", {}, t("rules.specials.cloud", { n })), " — ", t(`restriction.${kind}.short`), ". ", t(`restriction.${kind}.rule_other`)))),
    ),
  ];
}

function demoBoard(v) {
  const players = [
    { seat: 0, name: "A", color: "#e63946", score: 0, square: 1 },
    { seat: 1, name: "B", color: "#2a9d8f", score: 0, square: 1 },
  ];
  return h("figure", { class: "rules-board" }, boardSVG(v, players, { restrictions: "board", track_length: 40 }));
}

function variantSection(name) {
  const v = variantInfo(name);
  const body = [h("h2", {}, t(`variant.${name}.title`)), h("p", { class: "tagline" }, t(`variant.${name}.blurb`))];
  if (name === "dixit") {
    body.push(
      facts(v, [["rules.label.players", "rules.dixit.players"], ["rules.label.hand", "rules.dixit.hand"], ["rules.label.deck", "rules.dixit.deck"], ["rules.label.first", "rules.dixit.first"], ["rules.label.board", "rules.dixit.board"]]),
      decision("rules.dixit.first_decision"),
      ...scoring(name),
      h("h3", {}, t("rules.label.after")), h("p", {}, t("rules.dixit.after")),
      h("h3", {}, t("rules.label.end")), h("p", {}, t("rules.dixit.end")), decision("rules.dixit.end_decision"),
      demoBoard(v),
    );
  } else if (name === "imaginarium") {
    body.push(
      facts(v, [["rules.label.players", "rules.imaginarium.players"], ["rules.label.hand", "rules.imaginarium.hand"], ["rules.label.deck", "rules.imaginarium.deck"], ["rules.label.first", "rules.imaginarium.first"], ["rules.label.board", "rules.imaginarium.board"]]),
      decision("rules.imaginarium.deck_decision"),
      h("p", {}, t("rules.imaginarium.specials")),
      decision("rules.imaginarium.specials_decision"),
      ...specials(v),
      demoBoard(v),
      ...scoring(name),
      h("h3", {}, t("rules.label.after")), h("p", {}, t("rules.imaginarium.after")),
      h("h3", {}, t("rules.label.end")), h("p", {}, t("rules.imaginarium.end")),
      h("p", { class: "muted" }, t("rules.imaginarium.teams")),
    );
  } else if (name === "imaginarium-harmony") {
    body.push(
      facts(v, [["rules.label.players", "rules.imaginarium-harmony.players"], ["rules.label.hand", "rules.imaginarium-harmony.hand"]]),
      h("p", {}, t("rules.imaginarium-harmony.same"), " ", h("a", { href: "#imaginarium" }, t("variant.imaginarium.title"))),
      ...scoring(name),
      h("p", { class: "example" }, t("rules.imaginarium-harmony.example")),
    );
  } else if (name === "pictoric") {
    body.push(
      facts(v, [["rules.label.players", "rules.pictoric.players"], ["rules.label.hand", "rules.pictoric.hand"], ["rules.label.deck", "rules.pictoric.deck"], ["rules.label.first", "rules.pictoric.first"], ["rules.label.board", "rules.pictoric.board"]]),
      decision("rules.pictoric.board_decision"),
      h("h3", {}, t("rules.label.turn")), h("p", {}, t("rules.pictoric.turn")),
      ...scoring(name),
      h("h3", {}, t("rules.label.after")), h("p", {}, t("rules.pictoric.after")),
      h("h3", {}, t("rules.label.end")), h("p", {}, t("rules.pictoric.end")),
      demoBoard(v),
    );
  } else {
    body.push(
      facts(v, [["rules.label.players", "rules.pictoric-gallery.players"], ["rules.label.hand", "rules.pictoric-gallery.hand"], ["rules.label.first", "rules.pictoric-gallery.first"]]),
      h("h3", {}, t("rules.label.turn")), h("p", {}, t("rules.pictoric-gallery.turn")),
      ...scoring(name, false),
      h("h3", {}, t("rules.label.after")), h("p", {}, t("rules.pictoric-gallery.after")),
      h("h3", {}, t("rules.label.end")), h("p", {}, t("rules.pictoric-gallery.end")),
      decision("rules.pictoric-gallery.forfeits"),
    );
  }
  return withHeadingId(h("section", { class: "panel rules-section prose", id: name }, body), name);
}

/** The team drawing game: a short account of RULES.md §3 and of the online table. */
function visualSection() {
  const demo = {
    teams: [{ team: 0, square: 1 }, { team: 1, square: 1 }],
    squares: Array.from({ length: 40 }, (_, i) => {
      if (i === 0) return null;
      const bonus = i % 13 === 6;
      return { id: i, value: bonus ? 2 : 1 + ((i * 7) % 5), bonus };
    }),
  };
  const colors = ["#e63946", "#457b9d"];
  const categories = [["objects", 3], ["actions", 4], ["places", 5], ["luck", 6], ["proverbs", 8]];
  const body = [
    h("h2", {}, t("variant.visual.title")),
    h("p", { class: "tagline" }, t("variant.visual.blurb")),
    facts(null, [["rules.label.players", "rules.visual.players"], ["rules.label.board", "rules.visual.board"]]),
    decision("rules.visual.tokens"),
    h("figure", { class: "rules-board" }, visualBoardSVG(demo, (k) => colors[k])),
    h("h3", {}, t("rules.label.turn")),
    h("p", {}, t("rules.visual.turn")),
    h(
      "table",
      { class: "simple" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("rules.visual.category")), h("th", { scope: "col" }, t("rules.visual.value")))),
      h("tbody", {}, categories.map(([c, v]) => h("tr", {}, h("td", {}, t(`vcat.${c}`)), h("td", {}, c === "proverbs" ? t("vcat.up_to", { n: v }) : t("vcat.squares", { n: v }))))),
    ),
    h("ul", {}, h("li", {}, h("strong", {}, `${t("rules.visual.correct_label")}: `), t("rules.visual.correct")), h("li", {}, h("strong", {}, `${t("rules.visual.fail_label")}: `), t("rules.visual.fail"))),
    h("h3", {}, t("rules.visual.blank_label")),
    h("p", {}, t("rules.visual.blank")),
    h("h3", {}, t("rules.label.end")),
    h("p", {}, t("rules.visual.end")),
    decision("rules.visual.overshoot"),
    h("h3", {}, t("rules.visual.online_label")),
    h("ul", {}, ["guesses", "watch", "clock", "bots"].map((k) => h("li", {}, t(`rules.visual.online.${k}`)))),
  ];
  return withHeadingId(h("section", { class: "panel rules-section prose", id: "visual" }, body), "visual");
}

function withHeadingId(sectionEl, name) {
  const h2 = sectionEl.querySelector("h2");
  h2.id = `${name}-h`;
  sectionEl.setAttribute("aria-labelledby", h2.id);
  return sectionEl;
}

async function render() {
  await loadVariants();
  const main = $("#main");
  clear(
    main,
    h("h1", {}, t("rules.heading")),
    h("p", { class: "prose" }, t("rules.intro")),
    h("nav", { "aria-label": t("rules.toc") }, h("ul", { class: "toc" }, NAMES.map((n) => h("li", {}, h("a", { href: `#${n}` }, t(`variant.${n}.title`)))), h("li", {}, h("a", { href: "#online" }, t("rules.online.title"))), h("li", {}, h("a", { href: "#visual" }, t("variant.visual.title"))))),
    h(
      "section",
      { class: "panel rules-section prose", id: "common" },
      h("h2", {}, t("rules.common.title")),
      h("ol", {}, [1, 2, 3, 4, 5, 6, 7].map((i) => h("li", {}, t(`rules.common.${i}`)))),
      h("p", {}, icon("shield", { size: 18 }), " ", t("rules.common.fair")),
    ),
    NAMES.map(variantSection),
    h(
      "section",
      { class: "panel rules-section prose", id: "online" },
      h("h2", {}, t("rules.online.title")),
      h("p", {}, t("rules.online.intro")),
      h("ul", {}, ["first", "restrictions", "target", "track", "timers", "timeout", "bots"].map((k) => h("li", {}, t(`rules.online.${k}`)))),
      h("h3", {}, t("rules.label.scoring")),
      h("ul", {}, ["voters", "no_votes", "floor", "six_minus"].map((k) => h("li", {}, decision(`rules.online.${k}`)))),
    ),
    visualSection(),
  );
  if (location.hash) {
    const target = document.getElementById(location.hash.slice(1));
    if (target) target.scrollIntoView();
  }
}

boot(render);
