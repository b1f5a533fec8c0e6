// What every room shows whatever the game: the gate (take a seat or watch), the lobby
// (invite, players, options, start), the notice that a bot plays one's seat, and the
// link that moves a seat to another device. The game family fills in the players'
// list and the options.
import { h, $ } from "../dom.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { PALETTE, copyText, toast, colorName } from "../common.js";
import { saveToken } from "../store.js";
import { swatchesField } from "../swatches.js";
import { reader, seatsField } from "../fields.js";
import { awayField, readAway } from "./absence.js";
import { readTime, timeField, timeNote } from "./pace.js";
import { filterField, readFilter } from "./textfilter.js";
import { addBotControl, levelBadge } from "./botlevel.js";
import { confirmRemoval } from "./people.js";
import { app, code, room, me, isHost, theCaps, players, send, rerender, family, theRoom, teamName } from "./app.js";

const inviteURL = () => `${location.origin}/r/${code}`;
/** @param {Event} e */
const target = (e) => /** @type {HTMLElement} */ (e.currentTarget);

/** @param {string} key */
function remembered(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/**
 * The tags by a player's name.
 * @param {import("./app.js").RoomPlayer} p
 */
export function badges(p) {
  return [
    p.seat === me() ? h("span", { class: "tag tag-you" }, t("players.you")) : null,
    p.members?.length ? h("span", { class: "tag tag-team" }, icon("team", { size: 14 }), t("players.team_seat", { n: p.members.length })) : null,
    p.host ? h("span", { class: "tag", title: t("players.host") }, icon("crown", { size: 14 }), t("players.host")) : null,
    // One tag says "bot" in the reader's language; a bot's name does not say it again
    // (names from old logs, "Luna (bot)", get the icon alone).
    p.bot ? h("span", { class: "tag tag-bot", title: t("players.bot"), "aria-label": t("players.bot") }, icon("bot", { size: 14 }), /\(bot\)/i.test(p.name) ? null : t("players.bot")) : null,
    !p.bot && p.bot_playing ? h("span", { class: "tag tag-warn" }, icon("bot", { size: 14 }), t("players.bot_playing")) : null,
    levelBadge(p),
    !p.bot && !p.connected ? h("span", { class: "tag tag-off", title: t("players.offline") }, icon("offline", { size: 14 }), t("players.offline")) : null,
    // A team seat plays on while one member is here: say who of its members is away.
    p.connected && p.members?.some((m) => !m.connected)
      ? h("span", { class: "tag tag-off" }, icon("offline", { size: 14 }), t("players.members_away", { names: p.members.filter((m) => !m.connected).map((m) => m.name).join(", ") }))
      : null,
    family()?.lobbyTags(p) ?? null,
  ];
}

/**
 * @param {number} i
 * @param {number} delta
 * @param {Element} anchor
 */
function move(i, delta, anchor) {
  const order = players().map((p) => p.seat);
  const j = i + delta;
  if (j < 0 || j >= order.length) return;
  [order[i], order[j]] = [order[j], order[i]];
  send({ type: "order", order }, anchor);
}

/**
 * A small icon button of the host's.
 * @param {string} name
 * @param {string} label
 * @param {(e: MouseEvent) => void} onclick
 * @param {{disabled?: boolean, danger?: boolean}} [opts]
 */
function tool(name, label, onclick, { disabled = false, danger = false } = {}) {
  return h("button", { type: "button", class: ["btn btn-quiet btn-icon", danger && "btn-danger"], disabled, "aria-label": label, title: label, onclick }, icon(name, { size: 18 }));
}

/**
 * The lobby's players in seat order (a family's default list); the host can reorder,
 * hand over, remove.
 */
export function seatsLobby() {
  const r = theRoom();
  const host = isHost();
  const mine = me();
  const list = players();
  /** @param {MouseEvent} e */
  const at = (e) => /** @type {Element} */ (e.currentTarget);
  const rows = list.map((p, i) =>
    h(
      "li",
      { class: ["lobby-player", p.seat === mine && "is-you"], "data-seat": p.seat, key: p.seat },
      h("span", { class: "seat-no", "aria-hidden": "true" }, String(i + 1)),
      h("span", { class: "dot big", style: { background: p.color }, title: colorName(p.color) }),
      h("span", { class: "lobby-name" }, h("span", { class: "pname" }, p.name), badges(p)),
      host
        ? h(
            "span",
            { class: "lobby-tools" },
            tool("up", t("lobby.move_up", { name: p.name }), (e) => move(i, -1, at(e)), { disabled: i === 0 }),
            tool("down", t("lobby.move_down", { name: p.name }), (e) => move(i, 1, at(e)), { disabled: i === list.length - 1 }),
            p.seat !== mine && !p.bot ? tool("crown", t("lobby.make_host", { name: p.name }), (e) => send({ type: "make_host", seat: p.seat }, at(e))) : null,
            p.seat !== mine ? tool("kick", t("lobby.kick", { name: p.name }), (e) => { if (confirmRemoval(p)) send({ type: "kick", seat: p.seat }, at(e)); }, { danger: true }) : null,
          )
        : null,
    ),
  );
  return [h("h3", {}, t("lobby.players", { n: r.players.length, seats: r.seats })), h("ol", { class: "lobby-list" }, rows)];
}

function watch() {
  app.ui.watching = true;
  rerender();
}

/** @param {SubmitEvent} e */
function onJoin(e) {
  e.preventDefault();
  const f = /** @type {HTMLFormElement} */ (e.currentTarget);
  const input = /** @type {HTMLInputElement} */ (f.elements.namedItem("name"));
  const name = input.value.trim();
  const button = $("#join-submit");
  if (!name) {
    input.setAttribute("aria-invalid", "true");
    input.focus();
    toast(t("home.need_name"), { anchor: button });
    return;
  }
  if (room()?.status === "playing") {
    // A bot's seat mid-game: it keeps its colour (the board's piece), so none is asked.
    send({ type: "join", name, color: "" }, button);
    return;
  }
  const color = /** @type {HTMLInputElement | null} */ (f.querySelector("input[name=join-color]:checked"))?.value;
  // A team seat's member joins that seat (its colour is the seat's).
  const where = /** @type {HTMLInputElement | null} */ (f.querySelector("input[name=join-seat]:checked"))?.value;
  const seat = where && where !== "own" ? Number(where) : null;
  if (seat !== null) {
    send({ type: "join", name, color: "", seat }, button);
    return;
  }
  if (!color) {
    toast(t("gate.need_color"), { anchor: button });
    return;
  }
  try {
    localStorage.setItem("reverie:name", name);
    localStorage.setItem("reverie:color", color);
  } catch {
    /* ignore */
  }
  send({ type: "join", name, color }, button);
}

const watchButton = (/** @type {string} */ label) =>
  h("button", { type: "button", class: "btn btn-quiet", id: "gate-watch", onclick: watch }, icon("eye", { size: 18 }), t(label));

/**
 * At a table of team seats, where a person joins: a seat of their own (while one is
 * free, in the lobby) or a team seat, as one more member (also during a game).
 * @param {import("./app.js").Room} r
 */
function seatChoice(r) {
  const own = r.status === "lobby" && r.players.length < r.seats;
  const teams = r.players.filter((p) => !p.bot);
  /** @param {string} value @param {string} label @param {boolean} checked */
  const radio = (value, label, checked) =>
    h("label", { class: "radio" }, h("input", { type: "radio", name: "join-seat", value, checked, id: `join-seat-${value}` }), " ", label);
  return h(
    "fieldset",
    { class: "join-seat" },
    h("legend", {}, t("gate.where")),
    own ? radio("own", t("gate.own_seat"), true) : null,
    teams.map((p, i) => radio(String(p.seat), t("gate.join_team", { name: teamName(p) }), !own && i === 0)),
  );
}

/** Whether the table takes team seats (the family's `team_seats` option). */
export const teamSeats = () => {
  const mode = room()?.options?.team_seats;
  return typeof mode === "string" && mode !== "off";
};

/** Who opens the room without a seat: join (a name and a colour) or watch. */
/**
 * Out of the queue for a seat: the page watches on, its link forgotten.
 * @param {Element} anchor
 */
function leaveQueue(anchor) {
  send({ type: "leave" }, anchor);
  saveToken(code, null);
  app.token = null;
  app.ui.watching = true;
}

/**
 * A running public table: the form that queues for a seat at the next turn (a bot's, with
 * its cards and score, or one in the drawing game's smaller team), or, once queued, what
 * the reader waits for.
 * @param {import("./app.js").Room} r
 */
function takeoverView(r) {
  // A game without bots (the drawing game) takes the newcomer into its smaller team.
  const teams = !r.capabilities.bots;
  if (r.queued) {
    return h(
      "div",
      { class: "panel gate", id: "queued" },
      h("h2", {}, t("gate.queued_title")),
      h("p", { role: "status" }, t(teams ? "gate.queued_team" : "gate.queued")),
      h("div", { class: "actions" }, h("button", { type: "button", class: "btn btn-quiet", id: "leave-queue", onclick: (/** @type {Event} */ e) => leaveQueue(target(e)) }, t("gate.watch"))),
    );
  }
  const name = app.ui.joinName ?? (remembered("reverie:name") || "");
  return h(
    "div",
    { class: "panel gate" },
    h("h2", {}, t("gate.take_title", { game: t(`variant.${r.variant}.title`) })),
    h("p", { class: "muted" }, t(teams ? "gate.take_intro_team" : "gate.take_intro")),
    h(
      "form",
      { id: "join-form", novalidate: true, onsubmit: onJoin },
      h(
        "div",
        { class: "field" },
        h("label", { for: "join-name" }, t("home.your_name")),
        h("input", {
          id: "join-name", name: "name", maxlength: 24, autocomplete: "nickname", value: name,
          placeholder: t("home.name_placeholder"), oninput: (/** @type {Event} */ e) => (app.ui.joinName = /** @type {HTMLInputElement} */ (e.currentTarget).value),
        }),
      ),
      h("div", { class: "actions" }, h("button", { type: "submit", class: "btn", id: "join-submit" }, t(teams ? "gate.take_team" : "gate.take")), watchButton("gate.watch")),
    ),
  );
}

export function gateView() {
  const r = room();
  if (!r || r.you || app.ui.watching) return null;
  if (r.status === "playing" && (r.queued || (r.places ?? 0) > 0)) return takeoverView(r);
  const free = r.seats - r.players.length;
  const teams = teamSeats() && r.status !== "over" && r.players.some((p) => !p.bot);
  if ((r.status !== "lobby" || free <= 0) && !teams) {
    return h(
      "div",
      { class: "panel gate" },
      h("h2", {}, t("gate.watching_title")),
      h("p", {}, r.status === "lobby" ? t("gate.full") : t("gate.started")),
      h("div", { class: "actions" }, watchButton("gate.ok")),
    );
  }
  const taken = r.players.map((p) => String(p.color).toLowerCase());
  let color = app.ui.joinColor;
  if (!color || taken.includes(color)) {
    const saved = remembered("reverie:color");
    color = saved && !taken.includes(saved) ? saved : (PALETTE.find((c) => !taken.includes(c)) ?? null);
  }
  const name = app.ui.joinName ?? (remembered("reverie:name") || "");
  return h(
    "div",
    { class: "panel gate" },
    h("h2", {}, t("gate.title", { game: t(`variant.${r.variant}.title`) })),
    h("p", { class: "muted" }, t("gate.intro", { n: r.players.length, seats: r.seats })),
    h(
      "form",
      { id: "join-form", novalidate: true, onsubmit: onJoin },
      h(
        "div",
        { class: "field" },
        h("label", { for: "join-name" }, t("home.your_name")),
        h("input", {
          id: "join-name", name: "name", maxlength: 24, autocomplete: "nickname", value: name,
          placeholder: t("home.name_placeholder"), oninput: (/** @type {Event} */ e) => (app.ui.joinName = /** @type {HTMLInputElement} */ (e.currentTarget).value),
        }),
      ),
      teams ? seatChoice(r) : null,
      swatchesField("join-color", color, {
        taken, legend: t("home.your_color"),
        onchange: (/** @type {string} */ c) => {
          app.ui.joinColor = c;
          rerender();
        },
      }),
      h("div", { class: "actions" }, h("button", { type: "submit", class: "btn", id: "join-submit" }, t("gate.join")), watchButton("gate.watch")),
    ),
  );
}

/** @param {Element} anchor */
function leave(anchor) {
  if (!confirm(t("lobby.leave_confirm"))) return;
  send({ type: "leave" }, anchor);
  saveToken(code, null);
  app.token = null;
  app.ui.watching = true;
}

function invite() {
  return h(
    "div",
    { class: "invite" },
    h("div", { class: "invite-code" }, h("span", { class: "muted small" }, t("lobby.code")), h("strong", { id: "room-code" }, code),
      h("button", { type: "button", class: "btn btn-quiet btn-small", id: "copy-code", onclick: (/** @type {Event} */ e) => copyText(code, target(e)) }, icon("copy", { size: 16 }), h("span", { class: "btn-label" }, t("common.copy")))),
    h("label", { for: "invite-link", class: "small" }, t("lobby.invite")),
    h(
      "div",
      { class: "row" },
      h("input", { id: "invite-link", class: "grow", readonly: true, value: inviteURL(), onfocus: (/** @type {Event} */ e) => /** @type {HTMLInputElement} */ (e.currentTarget).select() }),
      h("button", { type: "button", class: "btn btn-small", id: "copy-link", onclick: (/** @type {Event} */ e) => copyText(inviteURL(), target(e)) }, icon("link", { size: 16 }), h("span", { class: "btn-label" }, t("lobby.copy_link"))),
    ),
  );
}

/** @param {import("./contract.js").Family} fam */
export function lobbyView(fam) {
  const r = room();
  if (!r || r.status !== "lobby") return null;
  const host = isHost();
  const mine = me();
  const hostP = r.players.find((p) => p.host);
  const enough = r.players.length >= r.min_players;
  const canSit = mine === null && r.players.length < r.seats;
  /** @param {Event} e */
  const onOptions = (e) => {
    if (!host) return;
    const form = /** @type {HTMLFormElement} */ (e.currentTarget);
    send({ type: "options", options: fam.readOptions(form), seats: reader(form).int("seats") ?? r.seats, away_seconds: readAway(form), time_factor: readTime(form), text_filter: readFilter(form) }, /** @type {Element} */ (e.target));
  };
  const takeSeat = () => {
    app.ui.watching = false;
    rerender();
    $("#join-name")?.focus();
  };
  return h(
    "div",
    { class: "panel lobby" },
    h("h2", {}, t("lobby.title", { game: t(`variant.${r.variant}.title`) })),
    canSit && app.ui.watching
      ? h("p", { class: "row watching-note" }, icon("eye", { size: 18 }), t("lobby.watching"), h("button", { type: "button", class: "btn btn-small", id: "take-seat", onclick: takeSeat }, t("lobby.take_seat")))
      : null,
    h("p", { class: "muted" }, t(`variant.${r.variant}.blurb`), " ", h("a", { href: `/rules#${r.variant}`, target: "_blank", rel: "noopener" }, t("lobby.rules_link"))),
    invite(),
    fam.lobbyPlayers(),
    timeNote(r.time_factor),
    h(
      "div",
      { class: "actions" },
      host
        ? [
            theCaps().bots ? addBotControl({ disabled: r.players.length >= r.seats }) : null,
            h("button", { type: "button", class: "btn", id: "start", disabled: !enough, onclick: (/** @type {Event} */ e) => startGame(fam, target(e)) }, t("lobby.start")),
            teamSeats() ? dealControl(r) : null,
          ]
        : h("p", { class: "muted" }, t("lobby.wait_host", { name: hostP ? hostP.name : "—" })),
      mine !== null && !host ? h("button", { type: "button", class: "btn btn-quiet", id: "leave", onclick: (/** @type {Event} */ e) => leave(target(e)) }, t("lobby.leave")) : null,
    ),
    !enough ? h("p", { class: "muted small" }, t("lobby.need_players", { n: r.min_players })) : null,
    listedControl(r, host),
    deckFit(r),
    h(
      "details",
      { class: "lobby-options-box", open: host ? true : null },
      h("summary", {}, t(host ? "lobby.options" : "lobby.options_view")),
      h(
        "form",
        { id: "lobby-options", class: "lobby-options", onchange: onOptions, onsubmit: (/** @type {Event} */ e) => e.preventDefault() },
        fam.optionsFields({ prefix: "lobby", disabled: !host, players: players(), lead: [seatsField(r, r.seats, { prefix: "lobby", disabled: !host }), awayField(r.away_seconds, { prefix: "lobby", disabled: !host }), timeField(r.time_factor, { prefix: "lobby", disabled: !host }), filterField(r.text_filter, { prefix: "lobby", disabled: !host })] }),
      ),
    ),
  );
}

/**
 * Public (on the open tables page, /play) or private (link only): the host's switch; the
 * others see which it is.
 * @param {import("./app.js").Room} r
 * @param {boolean} host
 */
function listedControl(r, host) {
  if (!host) return h("p", { class: "muted small", id: "lobby-listed" }, t(r.public ? "lobby.is_public" : "lobby.is_private"));
  return h(
    "p",
    { class: "row small" },
    h("input", {
      id: "lobby-public", type: "checkbox", checked: !!r.public,
      onchange: (/** @type {Event} */ e) => send({ type: "public", public: /** @type {HTMLInputElement} */ (e.target).checked }, target(e)),
    }),
    h("label", { for: "lobby-public" }, t("lobby.public")),
  );
}

/**
 * The host's deal: everyone at the table (not the bots) dealt at random into so many
 * team seats, evenly; dealt again whenever people have come or gone.
 * @param {import("./app.js").Room} r
 */
function dealControl(r) {
  const people = r.players.reduce((n, p) => n + (p.bot ? 0 : Math.max(1, p.members?.length || 0)), 0);
  const most = Math.max(1, Math.min(people, r.seats - r.players.filter((p) => p.bot).length));
  const value = Math.min(most, Math.max(1, Math.ceil(people / 2)));
  return h(
    "span",
    { class: "deal row" },
    h("label", { for: "deal-seats", class: "small" }, t("lobby.deal_seats")),
    h("input", { id: "deal-seats", type: "number", min: 1, max: most, value, class: "narrow" }),
    h("button", {
      type: "button", class: "btn btn-quiet", id: "deal",
      onclick: (/** @type {Event} */ e) => send({ type: "deal", seats: Number(/** @type {HTMLInputElement} */ ($("#deal-seats")).value) || value }, target(e)),
    }, icon("team", { size: 18 }), t("lobby.deal")),
  );
}

/**
 * Start, once the family has done what must come first (the drawing game keeps the
 * words typed in its own-words box); it may keep the lobby open, and says why.
 * @param {import("./contract.js").Family} fam
 * @param {Element} button
 */
async function startGame(fam, button) {
  const form = $("#lobby-options");
  if (form && !(await fam.beforeStart(form, button))) return;
  send({ type: "start" }, button);
}

/**
 * What the room's deck allows, told before the start: how many seats it deals to and
 * about how many rounds it lasts at this table (a small deck of one's own pictures may
 * give a game of a round or two, or none).
 * @param {any} r the room
 */
function deckFit(r) {
  const fit = r.deck_fit;
  if (!fit) return null;
  const parts = [];
  let warn = false;
  if (fit.max_players === 0) {
    parts.push(t("lobby.deck_fit.none", { n: fit.cards }));
    warn = true;
  } else if (fit.rounds === 0) {
    parts.push(t("lobby.deck_fit.seats", { cards: fit.cards, n: fit.max_players }), t("lobby.deck_fit.too_small", { n: r.seats }));
    warn = true;
  } else if (fit.rounds !== null) {
    parts.push(t("lobby.deck_fit.seats", { cards: fit.cards, n: fit.max_players }));
    parts.push(t("lobby.deck_fit.rounds", { seats: r.seats, n: fit.rounds }));
    warn = fit.rounds <= 3;
  }
  return h(
    "p",
    { id: "deck-fit", class: warn ? "deck-fit warn" : "deck-fit muted small", role: warn ? "status" : null },
    warn ? icon("warn", { size: 18 }) : null,
    " ",
    parts.join(" "),
  );
}

/**
 * The page was opened with a seat link (#t=…) for this room while this browser holds
 * another seat here: keep it (the default) or take the link's seat. Never replaced
 * unasked: a link sent by someone else must not take a player's own seat away.
 */
export function linkChoiceView() {
  if (!app.ui.linkToken || !room()) return null;
  const keep = () => {
    app.ui.linkToken = null;
    rerender();
  };
  const use = () => {
    saveToken(code, app.ui.linkToken);
    app.ui.linkToken = null;
    location.reload();
  };
  return h(
    "div",
    { class: "panel link-choice", role: "alertdialog", "aria-labelledby": "link-choice-title", "aria-describedby": "link-choice-text" },
    h("h2", { id: "link-choice-title" }, icon("link", { size: 20 }), " ", t("seat.link_title")),
    h("p", { id: "link-choice-text" }, t("seat.link_text")),
    h(
      "div",
      { class: "actions" },
      h("button", { type: "button", class: "btn", id: "link-keep", onclick: keep }, t("seat.link_keep")),
      h("button", { type: "button", class: "btn btn-quiet", id: "link-use", onclick: use }, t("seat.link_use")),
    ),
  );
}

/** This seat's link was replaced on another device: this page can no longer play it. */
export function replacedView() {
  return h(
    "div",
    { class: "panel missing replaced", role: "alert", id: "link-replaced" },
    h("h1", {}, t("seat.replaced_title")),
    h("p", {}, t("seat.replaced_text")),
    h(
      "div",
      { class: "actions" },
      h("a", { class: "btn", id: "replaced-watch", href: `/r/${code}` }, icon("eye", { size: 18 }), t("seat.replaced_watch")),
      h("a", { class: "btn btn-quiet", href: "/" }, t("room.go_home")),
    ),
  );
}

/** The link that opens this seat on another device, and a new one that ends the old. */
export function seatToolsView() {
  const mine = me();
  if (!room() || mine === null || !app.token) return null;
  const link = `${location.origin}/r/${code}#t=${app.token}`;
  return h(
    "div",
    { class: "panel seat-tools" },
    h(
      "details",
      { class: "move-device" },
      h("summary", {}, icon("link", { size: 16 }), " ", t("seat.move")),
      h("p", { class: "small warn" }, icon("warn", { size: 16 }), " ", t("seat.move_warning")),
      h(
        "div",
        { class: "row" },
        h("input", { id: "seat-link", class: "grow", readonly: true, value: link, "aria-label": t("seat.move"), onfocus: (/** @type {Event} */ e) => /** @type {HTMLInputElement} */ (e.currentTarget).select() }),
        h("button", { type: "button", class: "btn btn-small", id: "copy-seat-link", onclick: (/** @type {Event} */ e) => copyText(link, target(e)) }, icon("copy", { size: 16 }), h("span", { class: "btn-label" }, t("common.copy"))),
      ),
      h("p", { class: "small muted" }, t("seat.new_link_hint")),
      h("button", { type: "button", class: "btn btn-quiet btn-small", id: "new-seat-link", onclick: (/** @type {Event} */ e) => send({ type: "new_link" }, target(e)) }, icon("link", { size: 16 }), t("seat.new_link")),
    ),
  );
}
