// The room page (/r/{code}): the shell around a game. It keeps the connection, reads
// each frame into the page's state (shell/app.js) and draws the whole page from that
// state after every change; the renderer changes only what differs. The game family's
// module (chosen by the room's `client` capability) draws the stage and its panels.
import { h, render, $, byId } from "./dom.js";
import { t, lang } from "./i18n.js";
import { icon } from "./icons.js";
import { boot, getJSON, toast, errorText } from "./common.js";
import { loadToken, saveToken, tokenKey } from "./store.js";
import { RoomSocket } from "./socket.js";
import { app, code, room, game, me, family, setFamilyChooser, setRenderer, timeLeft, scrollClaimed } from "./shell/app.js";
import { familyFor } from "./families/index.js";
import { gateView, lobbyView, seatToolsView, linkChoiceView, replacedView } from "./shell/lobby.js";
import { noticesView, absenceError, absenceStatus, announceAbsence } from "./shell/absence.js";
import { cueMove, muteButton, keepAwake, initCues, wakeState } from "./shell/cues.js";
import { addChat, chatView, scrollChat, chatAcked } from "./shell/chat.js";
import { tableMode } from "./shell/table.js";
import { peopleView, voteView } from "./shell/people.js";
import { reportView, reportAcked, reportFailed, closeReport } from "./shell/report.js";
import { announceState } from "./shell/announce.js";

// ------------------------------------------------------------------ status bar

function statusText() {
  if (app.replaced) return t("seat.replaced_title");
  if (app.closed) return t("room.closed_title");
  const r = room();
  if (!r) return t("status.connecting");
  const g = game();
  if (r.status === "lobby" || !g) {
    const host = r.players.find((p) => p.host);
    return t("status.lobby", { n: r.players.length, seats: r.seats, host: host ? host.name : "—" });
  }
  if (g.phase === "over" || r.status === "over") return t("status.over");
  const away = absenceStatus();
  // Queued for a bot's seat: the reader's own news first (they sit down at the turn's end).
  const queued = r.queued ? t(r.capabilities.bots ? "status.queued" : "status.queued_team") : "";
  return [queued, family()?.status() ?? "", away].filter(Boolean).join(" · ");
}

const yourMove = () => Boolean(room() && family()?.yourMove());

function statusBar() {
  const r = room();
  const move = yourMove();
  const badge = !r ? "" : r.you ? (move ? t("status.your_move") : "") : t("status.watching");
  const clock = timeLeft();
  const conn = app.conn !== "open" && !app.missing && !app.replaced && !app.closed;
  return [
    h("div", { id: "conn", class: "conn-banner", role: "status", hidden: !conn }, conn ? t(app.state ? "conn.reconnecting" : "conn.connecting") : null),
    // Whole on a phone too, its lines around the badge, clock and sound toggle (css). Not a
    // live region: it changes with every move of anyone's, and #announcer says what matters once.
    h("p", { id: "status-text", class: "status-text" }, statusText()),
    h(
      "span",
      { class: "status-tools" },
      h("span", { id: "status-you", class: "status-you", hidden: !badge }, badge),
      h(
        "span",
        { id: "countdown", class: ["countdown", clock && clock.secs <= 10 && "urgent"], role: "timer", hidden: !clock, "aria-label": clock ? t("status.time_left", { time: clock.text }) : null },
        icon("clock", { size: 18 }),
        h("span", { class: "count" }, clock?.text ?? ""),
      ),
      r?.you && !app.closed ? muteButton(draw) : null,
    ),
  ];
}

// ------------------------------------------------------------------ the page

/**
 * A section of the page: always there (the layout and the tests know them by id),
 * hidden while it has nothing to show.
 * @param {string} id
 * @param {import("./dom.js").Child} content
 */
function section(id, content) {
  const empty = content === null || content === undefined || content === false;
  return h("section", { id, key: id, hidden: empty }, empty ? null : content);
}

function missingView() {
  return h(
    "div",
    { class: "panel missing" },
    h("h1", {}, t("room.missing_title")),
    h("p", {}, t("room.missing_text", { code })),
    h("a", { class: "btn", href: "/" }, t("room.go_home")),
  );
}

/** The site's operator closed the room: said once, with the ways on (home, the open tables). */
function closedView() {
  return h(
    "div",
    { class: "panel missing closed-room", id: "closed-room", role: "region", "aria-labelledby": "closed-title" },
    h("h1", { id: "closed-title" }, t("room.closed_title")),
    h("p", {}, t("error.room_closed")),
    h(
      "div",
      { class: "actions" },
      h("a", { class: "btn", href: "/play", id: "closed-play" }, t("room.closed_play")),
      h("a", { class: "btn btn-quiet", href: "/" }, t("room.go_home")),
    ),
  );
}

function page() {
  const fam = family();
  if (app.missing) return missingView();
  if (app.closed) return closedView();
  if (app.replaced) return replacedView();
  if (!fam) return null;
  // The table screen: the family's big view, else the spectator's page.
  if (tableMode && fam.table && room()) return h("div", { class: "table-screen-main", key: "table" }, fam.table());
  const main = fam.main();
  const side = fam.side();
  return [
    h(
      "div",
      { class: "room-main", key: "main" },
      section("link-choice", linkChoiceView()),
      section("gate", gateView()),
      section("vote", voteView()),
      section("notice", noticesView()),
      section("lobby", lobbyView(fam)),
      section("final", main.final),
      section("reveal", main.reveal),
      section("stage", main.stage),
    ),
    h(
      "aside",
      { class: "room-side", key: "side" },
      section("scores", side.scores),
      section("board", side.board),
      section("log", side.log),
      section("chat", room() ? chatView(fam) : null),
      section("people", peopleView()),
      section("seat-tools", seatToolsView()),
    ),
  ];
}

/** The move this page last brought the stage for ("" while it is nobody's here). */
let lastMove = "";

/**
 * When a move becomes this reader's, the stage comes into view (under the status bar):
 * a host who tapped Start at the foot of a long lobby, a phone scrolled down to the chat.
 * A panel a family brings into view at the same moment (the round's results, with
 * "Continue" at its top) goes first; nothing moves while they type in the chat or look
 * at a card.
 */
function stageIntoView() {
  requestAnimationFrame(() => {
    const stage = document.getElementById("stage");
    if (!stage || stage.hidden || document.activeElement?.id === "chat-input") return;
    if (/** @type {HTMLDialogElement | null} */ (document.getElementById("zoom"))?.open) return;
    const top = stage.getBoundingClientRect().top;
    const below = $("#status").getBoundingClientRect().bottom;
    if (top < below - 1 || top > window.innerHeight * 0.4) stage.scrollIntoView({ block: "start" });
  });
}

/** The status bar's measures, after a render or a change of the screen's size. */
function fitStatus() {
  const bar = $("#status");
  // A phone's status line leaves room for the badge, clock and toggle in its corner.
  bar.style.setProperty("--tools-w", `${/** @type {HTMLElement | null} */ (bar.querySelector(".status-tools"))?.offsetWidth ?? 0}px`);
  // What scrolls into view stops below the sticky status bar (css: --status-h).
  document.documentElement.style.setProperty("--status-h", `${bar.offsetHeight}px`);
}

function draw() {
  const bar = $("#status");
  const move = yourMove();
  // The bar says "your move" in colour too, not only in its badge.
  bar.classList.toggle("your-move", move);
  render(statusBar(), bar);
  fitStatus();
  render(page(), $("#main"));
  render(reportView(), byId("report"));
  // A move of a new phase or turn is a new move, even when the last one was ours too.
  const g = game();
  const moveKey = move && g ? `${g.turn?.number ?? g.turn}:${g.phase}` : "";
  if (moveKey && moveKey !== lastMove && !scrollClaimed() && !tableMode) stageIntoView();
  lastMove = moveKey;
  scrollChat();
  const title = `${code} · Reverie`;
  document.title = yourMove() ? `${t("status.title_your_move")} · ${title}` : title;
  document.body.dataset.status = room()?.status || "";
  cueMove(yourMove());
  keepAwake(room()?.status === "playing" && (me() !== null || tableMode));
  document.body.dataset.wake = wakeState().wanted ? "on" : "off";
  document.body.dataset.phase = game()?.phase || "";
}

/** The room code in the site header. */
const headerCode = () =>
  h("span", { class: "room-code", title: t("room.code") }, h("span", { class: "muted small" }, t("room.code_short")), " ", h("strong", {}, code));

// ------------------------------------------------------------------ frames

/** @type {Record<string, any>[]} a game's own frames that came before the first state */
const early = [];

/** @param {Record<string, any>} f */
function onFrame(f) {
  switch (f.type) {
    case "welcome":
      app.token = f.token;
      app.member = typeof f.member === "number" ? f.member : 0;
      saveToken(code, f.token);
      app.ui.watching = false;
      break;
    case "state": {
      const prev = app.state;
      app.state = /** @type {import("./shell/app.js").StateFrame} */ (f);
      if (f.room.closed) roomClosed(); // its room_closed error and close code follow
      if (typeof f.room.server_time === "number") app.skew = f.room.server_time - Date.now();
      if (!f.room.you && app.token && !f.room.queued) {
        // The stored seat is no longer valid (kicked, left, its link replaced): forget
        // it. A seat link opened meanwhile then takes nothing away: use it.
        saveToken(code, null);
        app.token = null;
        if (app.ui.linkToken) {
          app.token = app.ui.linkToken;
          app.ui.linkToken = null;
          saveToken(code, app.token);
          app.socket?.reconnect();
        }
      }
      announceAbsence(prev, app.state);
      family()?.onState(app.state, prev);
      // The live region: whose turn, the clue, the reveal, the points (screen readers).
      announceState(family(), prev, app.state);
      // The server sends a late joiner the drawing so far before the state that says
      // which game this is.
      for (const e of early.splice(0)) family()?.onFrame(e);
      break;
    }
    case "chat":
      addChat(f.messages || []);
      break;
    case "ack":
      if (f.request?.frame?.type === "new_link") {
        toast(t("seat.new_link_done"), { anchor: f.request.anchor || null, kind: "info" });
        return;
      }
      if (reportAcked(f)) return;
      chatAcked(f);
      family()?.onAck(f);
      return;
    case "error":
      onError(f);
      return;
    default:
      if (!family() && early.length < 100) early.push(f);
      if (!family()?.onFrame(f)) return;
  }
  draw();
}

/** @param {Record<string, any>} f */
function onError(f) {
  if (f.code === "stale_version") return; // a fresher state is on its way
  if (f.code === "unknown_room") {
    showMissing();
    return;
  }
  if (f.code === "link_replaced") {
    linkReplaced();
    return;
  }
  if (f.code === "room_closed") {
    roomClosed();
    return;
  }
  if (reportFailed(f)) return;
  // The family's own errors (the drawing game's strokes) are its to tell, or not.
  if (family()?.onError(f)) return;
  const anchor = f.request?.anchor || null;
  let text = absenceError(f) || errorText(f.code, f.message, f.params);
  if (f.code === "rate_limited" && f.request?.frame?.type === "chat") text = t("error.chat_rate_limited");
  toast(text, { anchor });
}

/**
 * @param {string} s
 * @param {{code?: number}} info
 */
function onStatus(s, info) {
  if (s === "closed" && info.code === 4404) {
    showMissing();
    return;
  }
  if (s === "closed" && info.code === 4001) {
    linkReplaced();
    return;
  }
  if (s === "closed" && info.code === 4410) {
    roomClosed();
    return;
  }
  if (s === "connecting" || s === "retrying" || (s === "closed" && app.conn === "open")) app.chatReset = true;
  app.conn = s;
  draw();
}

/**
 * This seat's link was replaced on another device (`link_replaced`, then close code
 * 4001): the token this page holds is dead, so no more reconnecting with it. When
 * another tab of this browser made the new link, the stored token is the new one: go on
 * with it. Otherwise say so, and forget the dead token.
 */
function linkReplaced() {
  if (app.replaced) return;
  const dead = app.token;
  const held = loadToken(code);
  if (held && held !== dead) {
    app.token = held;
    app.socket?.reconnect();
    return;
  }
  app.socket?.stop();
  if (held === dead) saveToken(code, null);
  app.token = null;
  app.replaced = true;
  draw();
}

/**
 * Another tab of this browser stored a token for this room (it made the new link, its
 * answer crossing our `link_replaced`, or opened the new link): a replaced page plays on.
 * @param {StorageEvent} e
 */
function onStorage(e) {
  if (e.key !== tokenKey(code) || !e.newValue || !app.replaced) return;
  app.replaced = false;
  app.token = e.newValue;
  app.socket?.resume();
  draw();
}

/**
 * The site's operator closed the room (the state's `closed`, the error `room_closed`,
 * close code 4410; a socket opened later gets the last two at once): the socket stops
 * for good and the page says so, with the ways on.
 */
function roomClosed() {
  if (app.closed) return;
  app.socket?.stop();
  app.closed = true;
  closeReport();
  draw();
}

function showMissing() {
  app.socket?.stop();
  app.missing = true;
  draw();
}

// ------------------------------------------------------------------ start

/**
 * A seat link (#t=TOKEN) opens that seat here, unless this browser holds another seat in
 * the room: then the page asks first (shell/lobby.js, linkChoiceView) and plays the seat
 * it holds meanwhile. The token leaves the address bar either way.
 */
function takeHashToken() {
  const m = /^#t=([^&]+)/.exec(location.hash);
  if (!m) return;
  history.replaceState(null, "", location.pathname + location.search);
  let linked;
  try {
    linked = decodeURIComponent(m[1]);
  } catch {
    return;
  }
  const held = loadToken(code);
  if (held && held !== linked) app.ui.linkToken = linked;
  else saveToken(code, linked);
}

/** A seat link opened in this page (only the hash changed): the same rule. */
function onHashChange() {
  takeHashToken();
  const token = loadToken(code);
  if (app.replaced) {
    if (token) {
      app.replaced = false;
      app.token = token;
      app.socket?.resume();
    }
  } else if (token !== app.token) {
    app.token = token;
    app.socket?.reconnect();
  }
  draw();
}

async function start() {
  if (tableMode) {
    // The table screen watches as a spectator whatever seat this browser holds, and
    // asks nobody whether to join or watch.
    document.body.classList.add("table-screen");
    app.ui.watching = true;
  } else {
    takeHashToken();
    app.token = loadToken(code);
  }
  setFamilyChooser(familyFor);
  initCues();
  setRenderer(draw);
  // The room's summary is asked for while the dictionary loads: one round trip less
  // before the socket opens on a slow network.
  const summary = getJSON(`/api/rooms/${encodeURIComponent(code)}`);
  summary.catch(() => {}); // read below, once the page is up
  await boot(draw, { headerExtra: headerCode });
  try {
    await summary;
  } catch (err) {
    if (/** @type {import("./common.js").HttpError} */ (err).status === 404) {
      showMissing();
      return;
    }
  }
  app.socket = new RoomSocket(code, {
    onFrame,
    onStatus,
    getHello: () => ({ token: (!tableMode && app.token) || null, lang: lang() }),
  });
  app.socket.connect();
  // The clocks: the status bar's countdown and the family's own (a drawing's time bar).
  setInterval(() => {
    if (room()?.deadline || room()?.vote) draw();
  }, 250);
  document.addEventListener("keydown", (e) => family()?.onKey(e));
  window.addEventListener("hashchange", onHashChange);
  window.addEventListener("resize", fitStatus);
  window.addEventListener("storage", onStorage);
}

start();
