// The rules page: the common turn, each game the server offers (/rules#dixit …), and the
// online table's options. The prose lives in the i18n dictionaries, by variant name; the
// facts (player counts, special squares, teams, categories) come from GET /api/variants.
import { h, render, $ } from "./dom.js";
import { t } from "./i18n.js";
import { icon } from "./icons.js";
import { boot } from "./common.js";
import { loadVariants } from "./variants.js";
import { boardSVG } from "./families/association/board.js";
import { visualBoardSVG } from "./families/visual/board.js";

/** @typedef {import("./variants.js").Variant} Variant */

/** @param {string} key */
const decision = (key) => h("p", { class: "decision" }, h("strong", {}, `${t("rules.decision")}: `), t(key));

/**
 * The facts table: the number of players (and teams) from the server, then rows of
 * [label key, text key].
 * @param {Variant} v
 * @param {[string, string][]} rows
 */
function facts(v, rows) {
  const teams = v.capabilities.teams;
  let players = t("home.players_range", { min: v.min_players, max: v.max_players, n: v.max_players });
  if (teams) players += `, ${t("rules.teams_range", { min: teams.min, max: teams.max, size: teams.min_size })}`;
  return h(
    "table",
    { class: "simple facts" },
    h(
      "tbody",
      {},
      h("tr", {}, h("th", { scope: "row" }, t("rules.label.players")), h("td", {}, players)),
      rows.map(([label, key]) => h("tr", {}, h("th", { scope: "row" }, t(label)), h("td", {}, t(key)))),
    ),
  );
}

/** @param {string} v @param {boolean} [extra] */
function scoring(v, extra = true) {
  const items = [
    ["rules.score.all", `rules.${v}.score.all`],
    ["rules.score.none", `rules.${v}.score.none`],
    ["rules.score.some", `rules.${v}.score.some`],
  ];
  if (extra && t(`rules.${v}.score.extra`) !== `rules.${v}.score.extra`) items.push(["rules.score.extra", `rules.${v}.score.extra`]);
  return [h("h3", {}, t("rules.label.scoring")), h("ul", {}, items.map(([a, b]) => h("li", {}, h("strong", {}, `${t(a)}: `), t(b))))];
}

/** @param {Variant} v */
function specials(v) {
  const sp = v.capabilities.board?.specials || {};
  if (!Object.keys(sp).length) return [];
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

/** @param {Variant} v */
function demoBoard(v) {
  const players = [
    { seat: 0, name: "A", color: "#e63946", score: 0, square: 1 },
    { seat: 1, name: "B", color: "#2a9d8f", score: 0, square: 1 },
  ];
  const board = v.capabilities.board;
  return board ? h("figure", { class: "rules-board" }, boardSVG(board, players, { restrictions: "board", track_length: board.length })) : null;
}

/**
 * One association game: its prose by name, a short account for a name without one.
 * @param {Variant} v
 */
function variantSection(v) {
  const name = v.name;
  /** @type {import("./dom.js").Child[]} */
  const body = [h("h2", { id: `${name}-h` }, t(`variant.${name}.title`)), h("p", { class: "tagline" }, t(`variant.${name}.blurb`))];
  if (name === "dixit") {
    body.push(
      facts(v, [["rules.label.hand", "rules.dixit.hand"], ["rules.label.deck", "rules.dixit.deck"], ["rules.label.first", "rules.dixit.first"], ["rules.label.board", "rules.dixit.board"]]),
      decision("rules.dixit.first_decision"),
      ...scoring(name),
      h("h3", {}, t("rules.label.after")), h("p", {}, t("rules.dixit.after")),
      h("h3", {}, t("rules.label.end")), h("p", {}, t("rules.dixit.end")), decision("rules.dixit.end_decision"),
      demoBoard(v),
    );
  } else if (name === "imaginarium") {
    body.push(
      facts(v, [["rules.label.hand", "rules.imaginarium.hand"], ["rules.label.deck", "rules.imaginarium.deck"], ["rules.label.first", "rules.imaginarium.first"], ["rules.label.board", "rules.imaginarium.board"]]),
      decision("rules.imaginarium.deck_decision"),
      h("p", {}, t("rules.imaginarium.specials")),
      decision("rules.imaginarium.specials_decision"),
      ...specials(v),
      demoBoard(v),
      ...scoring(name),
      h("h3", {}, t("rules.label.after")), h("p", {}, t("rules.imaginarium.after")),
      h("h3", {}, t("rules.label.end")), h("p", {}, t("rules.imaginarium.end")),
      decision("rules.imaginarium.teams"),
      h("h3", { id: "team-seats" }, t("rules.team_seats.title")), h("p", {}, t("rules.team_seats.text")),
    );
  } else if (name === "imaginarium-harmony") {
    body.push(
      facts(v, [["rules.label.hand", "rules.imaginarium-harmony.hand"]]),
      h("p", {}, t("rules.imaginarium-harmony.same"), " ", h("a", { href: "#imaginarium" }, t("variant.imaginarium.title"))),
      decision("rules.imaginarium-harmony.same_decision"),
      ...scoring(name),
      h("p", { class: "example" }, t("rules.imaginarium-harmony.example")),
    );
  } else if (name === "pictoric") {
    body.push(
      facts(v, [["rules.label.hand", "rules.pictoric.hand"], ["rules.label.deck", "rules.pictoric.deck"], ["rules.label.first", "rules.pictoric.first"], ["rules.label.board", "rules.pictoric.board"]]),
      decision("rules.pictoric.board_decision"),
      h("h3", {}, t("rules.label.turn")), h("p", {}, t("rules.pictoric.turn")),
      ...scoring(name),
      h("h3", {}, t("rules.label.after")), h("p", {}, t("rules.pictoric.after")),
      h("h3", {}, t("rules.label.end")), h("p", {}, t("rules.pictoric.end")),
      decision("rules.pictoric.same_round_decision"),
      demoBoard(v),
    );
  } else if (name === "pictoric-gallery") {
    body.push(
      facts(v, [["rules.label.hand", "rules.pictoric-gallery.hand"], ["rules.label.first", "rules.pictoric-gallery.first"]]),
      h("h3", {}, t("rules.label.turn")), h("p", {}, t("rules.pictoric-gallery.turn")),
      ...scoring(name, false),
      h("h3", {}, t("rules.label.after")), h("p", {}, t("rules.pictoric-gallery.after")),
      decision("rules.pictoric-gallery.deal_decision"),
      h("h3", {}, t("rules.label.end")), h("p", {}, t("rules.pictoric-gallery.end")),
      decision("rules.pictoric-gallery.forfeits"),
    );
  } else {
    body.push(facts(v, []), ...specials(v), demoBoard(v));
  }
  return rulesSection(name, body);
}

/**
 * The team drawing game: a short account of docs/specification.md §3 and of the online table.
 * @param {Variant} v
 */
function visualSection(v) {
  const caps = v.capabilities;
  const length = caps.board?.length || 40;
  const demo = {
    teams: [{ team: 0, square: 1 }, { team: 1, square: 1 }],
    squares: Array.from({ length }, (_, i) => {
      if (i === 0) return null;
      const bonus = i % 13 === 6;
      return { id: i, value: bonus ? 2 : 1 + ((i * 7) % 5), bonus };
    }),
  };
  const colors = caps.teams?.colors || [];
  const body = [
    h("h2", { id: `${v.name}-h` }, t(`variant.${v.name}.title`)),
    h("p", { class: "tagline" }, t(`variant.${v.name}.blurb`)),
    facts(v, [["rules.label.board", "rules.visual.board"]]),
    decision("rules.visual.players_decision"),
    decision("rules.visual.tokens"),
    h("figure", { class: "rules-board" }, visualBoardSVG(demo, (k) => colors[k % colors.length] || "#888", { length })),
    h("h3", {}, t("rules.label.turn")),
    h("p", {}, t("rules.visual.turn")),
    h("p", {}, t("rules.visual.no_faces")),
    h(
      "table",
      { class: "simple" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("rules.visual.category")), h("th", { scope: "col" }, t("rules.visual.value")))),
      h("tbody", {}, (caps.categories || []).map((c) => h("tr", {}, h("td", {}, t(`vcat.${c.name}`)), h("td", {}, c.choosable ? t("vcat.squares", { n: c.points }) : t("vcat.up_to", { n: c.points }))))),
    ),
    h("ul", {}, h("li", {}, h("strong", {}, `${t("rules.visual.correct_label")}: `), t("rules.visual.correct")), h("li", {}, h("strong", {}, `${t("rules.visual.fail_label")}: `), t("rules.visual.fail"))),
    h("h3", {}, t("rules.visual.blank_label")),
    h("p", {}, t("rules.visual.blank")),
    decision("rules.visual.proverb_decision"),
    h("h3", {}, t("rules.label.end")),
    h("p", {}, t("rules.visual.end")),
    decision("rules.visual.end_decision"),
    decision("rules.visual.overshoot"),
    h("h3", {}, t("rules.visual.online_label")),
    h("ul", {}, ["guesses", "watch", "clock", "bots"].map((k) => h("li", {}, t(`rules.visual.online.${k}`)))),
  ];
  return rulesSection(v.name, body);
}

/**
 * The drawing game on paper with one shared device.
 * @param {Variant} v
 */
function paperSection(v) {
  return rulesSection(v.name, [
    h("h2", { id: `${v.name}-h` }, t(`variant.${v.name}.title`)),
    h("p", { class: "tagline" }, t(`variant.${v.name}.blurb`)),
    facts(v, [["rules.label.board", "rules.visual.board"]]),
    h("ul", {}, ["device", "phone", "sand", "verdict", "engine"].map((k) => h("li", {}, t(`rules.vcompanion.${k}`)))),
  ]);
}

/**
 * @param {string} name
 * @param {import("./dom.js").Child[]} body its first element the <h2>
 */
function rulesSection(name, body) {
  return h("section", { class: "panel rules-section prose", id: name, key: name, "aria-labelledby": `${name}-h` }, body);
}

/** @type {Variant[] | null} */
let variants = null;
let failed = false;
let scrolled = false;

function page() {
  if (!variants) {
    return [h("h1", {}, t("rules.heading")), h("p", { class: failed ? "warn" : "muted", role: failed ? "alert" : "status" }, failed ? t("home.variants_failed") : t("credits.loading"))];
  }
  const association = variants.filter((v) => v.capabilities.client === "association");
  const drawing = variants.filter((v) => v.capabilities.client === "visual");
  const paper = variants.filter((v) => v.capabilities.client === "visual-companion");
  /** @param {string} href @param {string} text */
  const tocItem = (href, text) => h("li", { key: href }, h("a", { href }, text));
  return [
    h("h1", {}, t("rules.heading")),
    h("p", { class: "prose" }, t("rules.intro")),
    h(
      "nav",
      { "aria-label": t("rules.toc") },
      h(
        "ul",
        { class: "toc" },
        association.map((v) => tocItem(`#${v.name}`, t(`variant.${v.name}.title`))),
        tocItem("#online", t("rules.online.title")),
        [...drawing, ...paper].map((v) => tocItem(`#${v.name}`, t(`variant.${v.name}.title`))),
      ),
    ),
    h(
      "section",
      { class: "panel rules-section prose", id: "common" },
      h("h2", {}, t("rules.common.title")),
      h("ol", {}, [1, 2, 3, 4, 5, 6, 7].map((i) => h("li", {}, t(`rules.common.${i}`)))),
      h("p", {}, icon("shield", { size: 18 }), " ", t("rules.common.fair")),
    ),
    association.map(variantSection),
    h(
      "section",
      { class: "panel rules-section prose", id: "online" },
      h("h2", {}, t("rules.online.title")),
      h("p", {}, t("rules.online.intro")),
      h("ul", {}, ["first", "restrictions", "target", "track", "timers", "timeout", "bots"].map((k) => h("li", {}, t(`rules.online.${k}`)))),
      h("h3", {}, t("rules.label.scoring")),
      h("ul", {}, ["voters", "no_votes", "floor", "six_minus", "ties"].map((k) => h("li", {}, decision(`rules.online.${k}`)))),
    ),
    drawing.map(visualSection),
    paper.map(paperSection),
  ];
}

async function draw() {
  if (!variants) {
    try {
      variants = await loadVariants();
    } catch {
      failed = true;
    }
  }
  render(page(), $("#main"));
  if (variants && location.hash && !scrolled) {
    scrolled = true;
    document.getElementById(location.hash.slice(1))?.scrollIntoView();
  }
}

boot(draw);
