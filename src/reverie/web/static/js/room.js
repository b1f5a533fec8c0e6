// The room page (/r/{code}): lobby, game, results. One controller keeps the latest
// `state` frame and re-renders the sections of the page whose inputs changed.
import { h, clear, $ } from "./dom.js";
import { t, lang } from "./i18n.js";
import { icon } from "./icons.js";
import { boot, PALETTE, colorName, getJSON, toast, errorText, copyText } from "./common.js";
import { loadVariants, variantInfo, isGallery, isPictoric } from "./variants.js";
import { optionsFields, readOptions } from "./options.js";
import { loadToken, saveToken, normaliseCode } from "./store.js";
import { RoomSocket } from "./socket.js";
import { loadDeck, cardTile, cardRow, cardImage, initZoom, closeZoom } from "./cards.js";
import { boardSVG } from "./board.js";
import { revealView, chip } from "./reveal.js";
import { checkClue } from "./clue.js";
import { swatchesField } from "./swatches.js";
import { teamsLobby } from "./teams.js";
import { visualOptionsFields, readVisualOptions } from "./visual-options.js";
import {
  setContext, isVisualRoom, renderVisual, visualStatus, visualYourMove, chatMode, onVisualState,
  onDrawFrame, onCanvasFrame, tickVisual, onKey,
} from "./visual.js";

const code = normaliseCode(location.pathname.split("/").filter(Boolean).pop());

const app = {
  token: null,
  state: null, // {version, room, game}
  chat: [],
  chatReset: true,
  socket: null,
  conn: "connecting",
  deckLoaded: null,
  sigs: {},
  ui: {
    watching: false,
    key: "", // phase key the selections belong to
    card: null, // chosen card (clue / submit)
    position: null, // chosen table position (vote)
    claim: false,
    clueDraft: "",
    revealClosed: null,
    skew: 0,
    joinName: null,
    joinColor: null,
    seenTurn: null,
    teamChat: false,
  },
};

// ------------------------------------------------------------------ helpers

function room() {
  return app.state?.room || null;
}
function game() {
  return app.state?.game || null;
}
function me() {
  const r = room();
  return r && r.you ? r.you.seat : null;
}

/** room.players merged with the game's scores and squares, by seat. */
function players() {
  const r = room();
  if (!r) return [];
  const g = game();
  return r.players
    .slice()
    .sort((a, b) => a.seat - b.seat)
    .map((p) => {
      const gp = g?.players?.find((x) => x.seat === p.seat);
      return { ...p, score: gp ? gp.score : 0, square: gp ? gp.square : 1, hand_size: gp ? gp.hand_size : null };
    });
}

function nameOf(seat) {
  const p = players().find((x) => x.seat === seat);
  return p ? p.name : `#${seat + 1}`;
}

function send(frame, anchor = null) {
  if (!app.socket) return null;
  return app.socket.send(frame, { anchor });
}

function action(frame, anchor) {
  return send({ ...frame, version: app.state?.version }, anchor);
}

function hostOf(r) {
  return r.players.find((p) => p.host) || null;
}

function isHost() {
  return Boolean(room()?.you?.host);
}

/** Rebuild a section only when what it shows has changed; keep the focus in place. */
function section(id, sig, build) {
  const el = document.getElementById(id);
  if (!el) return;
  const key = JSON.stringify([sig, lang()]);
  if (app.sigs[id] === key) return;
  app.sigs[id] = key;
  const active = document.activeElement;
  const focusId = active && el.contains(active) ? active.id : null;
  const sel = focusId && "selectionStart" in active ? [active.selectionStart, active.selectionEnd] : null;
  const content = build();
  if (content === null || content === undefined || content === false) {
    el.hidden = true;
    el.replaceChildren();
    return;
  }
  el.hidden = false;
  clear(el, content);
  if (focusId) {
    const again = document.getElementById(focusId);
    if (again) {
      again.focus({ preventScroll: true });
      if (sel && "setSelectionRange" in again) {
        try {
          again.setSelectionRange(sel[0], sel[1]);
        } catch {
          /* not a text field */
        }
      }
    }
  }
}

function inviteURL() {
  return `${location.origin}/r/${code}`;
}

// ------------------------------------------------------------------ header / status

function renderHeaderCode() {
  const slot = document.querySelector(".header-extra");
  if (!slot || slot.querySelector(".room-code")) return;
  slot.prepend(
    h("span", { class: "room-code", title: t("room.code") }, h("span", { class: "muted small" }, t("room.code_short")), " ", h("strong", {}, code)),
  );
}

function phaseLabel(g) {
  return t(`phase.${g.phase}`);
}

function statusText() {
  const r = room();
  if (!r) return t("status.connecting");
  const g = game();
  const mine = me();
  if (r.status === "lobby" || !g) {
    const host = hostOf(r);
    return t("status.lobby", { n: r.players.length, seats: r.seats, host: host ? host.name : "—" });
  }
  if (g.phase === "over" || r.status === "over") return t("status.over");
  if (isVisualRoom(r)) return visualStatus();
  const parts = [t("status.turn", { n: g.turn }), phaseLabel(g)];
  if (g.storyteller === null) parts.push(t("status.no_storyteller"));
  else parts.push(g.storyteller === mine ? t("status.you_storyteller") : t("status.storyteller", { name: nameOf(g.storyteller) }));
  const waiting = g.waiting_for || [];
  if (waiting.length) {
    const names = waiting.map((s) => (s === mine ? t("status.you") : nameOf(s)));
    parts.push(t("status.waiting", { names: names.join(", ") }));
  }
  return parts.join(" · ");
}

function yourMove() {
  if (isVisualRoom(room())) return visualYourMove();
  const g = game();
  const mine = me();
  return Boolean(g && mine !== null && g.phase !== "over" && (g.waiting_for || []).includes(mine));
}

function renderStatus() {
  const el = $("#status-text");
  const txt = statusText();
  if (el.textContent !== txt) el.textContent = txt;
  $("#status").classList.toggle("your-move", yourMove());
  const badge = $("#status-you");
  const r = room();
  const label = !r ? "" : r.you ? (yourMove() ? t("status.your_move") : "") : t("status.watching");
  badge.textContent = label;
  badge.hidden = !label;
}

function tickCountdown() {
  const el = $("#countdown");
  const r = room();
  if (isVisualRoom(r)) tickVisual(app.ui.skew);
  if (!r || !r.deadline || r.status !== "playing") {
    el.hidden = true;
    return;
  }
  const left = Math.max(0, r.deadline - (Date.now() + app.ui.skew));
  const secs = Math.ceil(left / 1000);
  const text = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
  el.hidden = false;
  el.classList.toggle("urgent", secs <= 10);
  const out = el.querySelector(".count");
  if (out.textContent !== text) out.textContent = text;
  el.setAttribute("aria-label", t("status.time_left", { time: text }));
}

function renderConn() {
  const el = $("#conn");
  const show = app.conn !== "open";
  el.hidden = !show;
  if (show) {
    el.textContent = app.state ? t("conn.reconnecting") : t("conn.connecting");
  }
}

// ------------------------------------------------------------------ gate (join / watch)

function renderGate() {
  const r = room();
  const free = r ? r.seats - r.players.length : 0;
  const show = r && !r.you && !app.ui.watching;
  section("gate", show ? [r.status, free, r.players.map((p) => p.color), app.ui.watching] : null, () => {
    if (!show) return null;
    if (r.status !== "lobby" || free <= 0) {
      return h(
        "div",
        { class: "panel gate" },
        h("h2", {}, t("gate.watching_title")),
        h("p", {}, r.status === "lobby" ? t("gate.full") : t("gate.started")),
        h("div", { class: "actions" }, h("button", { type: "button", class: "btn btn-quiet", id: "gate-watch", onclick: () => watch() }, icon("eye", { size: 18 }), t("gate.ok"))),
      );
    }
    const taken = r.players.map((p) => String(p.color).toLowerCase());
    let color = app.ui.joinColor;
    if (!color || taken.includes(color)) {
      const saved = (() => {
        try {
          return localStorage.getItem("reverie:color");
        } catch {
          return null;
        }
      })();
      color = saved && !taken.includes(saved) ? saved : PALETTE.find((c) => !taken.includes(c));
    }
    const name =
      app.ui.joinName ??
      (() => {
        try {
          return localStorage.getItem("reverie:name") || "";
        } catch {
          return "";
        }
      })();
    const form = h(
      "form",
      { id: "join-form", novalidate: true, onsubmit: (e) => onJoin(e) },
      h(
        "div",
        { class: "field" },
        h("label", { for: "join-name" }, t("home.your_name")),
        h("input", {
          id: "join-name", name: "name", maxlength: 24, autocomplete: "nickname", value: name,
          placeholder: t("home.name_placeholder"), oninput: (e) => (app.ui.joinName = e.target.value),
        }),
      ),
      swatchesField("join-color", color, {
        taken, legend: t("home.your_color"),
        onchange: (c) => (app.ui.joinColor = c),
      }),
      h(
        "div",
        { class: "actions" },
        h("button", { type: "submit", class: "btn", id: "join-submit" }, t("gate.join")),
        h("button", { type: "button", class: "btn btn-quiet", id: "gate-watch", onclick: () => watch() }, icon("eye", { size: 18 }), t("gate.watch")),
      ),
    );
    return h(
      "div",
      { class: "panel gate" },
      h("h2", {}, t("gate.title", { game: t(`variant.${r.variant}.title`) })),
      h("p", { class: "muted" }, t("gate.intro", { n: r.players.length, seats: r.seats })),
      form,
    );
  });
}

function watch() {
  app.ui.watching = true;
  render();
}

function onJoin(e) {
  e.preventDefault();
  const f = e.currentTarget;
  const input = f.elements.namedItem("name");
  const name = input.value.trim();
  const button = $("#join-submit");
  if (!name) {
    input.setAttribute("aria-invalid", "true");
    input.focus();
    toast(t("home.need_name"), { anchor: button });
    return;
  }
  const color = f.querySelector("input[name=join-color]:checked")?.value;
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

// ------------------------------------------------------------------ lobby

function renderLobby() {
  const r = room();
  const show = r && r.status === "lobby";
  section("lobby", show ? [r, me(), app.ui.watching] : null, () => {
    if (!show) return null;
    const host = isHost();
    const list = players();
    const v = variantInfo(r.variant);
    const mine = me();
    const rows = list.map((p, i) =>
      h(
        "li",
        { class: ["lobby-player", p.seat === mine && "is-you"], "data-seat": p.seat },
        h("span", { class: "seat-no", "aria-hidden": "true" }, String(i + 1)),
        h("span", { class: "dot big", style: { background: p.color }, title: colorName(p.color) }),
        h("span", { class: "lobby-name" }, h("span", { class: "pname" }, p.name), badges(p)),
        host
          ? h(
              "span",
              { class: "lobby-tools" },
              h("button", { type: "button", class: "btn btn-quiet btn-icon", disabled: i === 0, "aria-label": t("lobby.move_up", { name: p.name }), title: t("lobby.move_up", { name: p.name }), onclick: (e) => move(i, -1, e.currentTarget) }, icon("up", { size: 18 })),
              h("button", { type: "button", class: "btn btn-quiet btn-icon", disabled: i === list.length - 1, "aria-label": t("lobby.move_down", { name: p.name }), title: t("lobby.move_down", { name: p.name }), onclick: (e) => move(i, 1, e.currentTarget) }, icon("down", { size: 18 })),
              p.seat !== mine && !p.bot
                ? h("button", { type: "button", class: "btn btn-quiet btn-icon", "aria-label": t("lobby.make_host", { name: p.name }), title: t("lobby.make_host", { name: p.name }), onclick: (e) => send({ type: "make_host", seat: p.seat }, e.currentTarget) }, icon("crown", { size: 18 }))
                : null,
              p.seat !== mine
                ? h("button", { type: "button", class: "btn btn-quiet btn-icon btn-danger", "aria-label": t("lobby.kick", { name: p.name }), title: t("lobby.kick", { name: p.name }), onclick: (e) => send({ type: "kick", seat: p.seat }, e.currentTarget) }, icon("kick", { size: 18 }))
                : null,
            )
          : null,
      ),
    );
    const enough = r.players.length >= r.min_players;
    const visual = isVisualRoom(r);
    const hostP = hostOf(r);
    const invite = h(
      "div",
      { class: "invite" },
      h("div", { class: "invite-code" }, h("span", { class: "muted small" }, t("lobby.code")), h("strong", { id: "room-code" }, code),
        h("button", { type: "button", class: "btn btn-quiet btn-small", id: "copy-code", onclick: (e) => copyText(code, e.currentTarget) }, icon("copy", { size: 16 }), h("span", { class: "btn-label" }, t("common.copy")))),
      h("label", { for: "invite-link", class: "small" }, t("lobby.invite")),
      h(
        "div",
        { class: "row" },
        h("input", { id: "invite-link", class: "grow", readonly: true, value: inviteURL(), onfocus: (e) => e.target.select() }),
        h("button", { type: "button", class: "btn btn-small", id: "copy-link", onclick: (e) => copyText(inviteURL(), e.currentTarget) }, icon("link", { size: 16 }), h("span", { class: "btn-label" }, t("lobby.copy_link"))),
      ),
    );
    const opts = h(
      "form",
      { id: "lobby-options", class: "lobby-options", onchange: (e) => onOptionsChange(e), onsubmit: (e) => e.preventDefault() },
      visual
        ? visualOptionsFields(v, r.options, r.seats, { disabled: !host })
        : optionsFields(v, r.options, r.seats, { players: list.filter((p) => !p.bot || true), disabled: !host }),
    );
    const canSit = mine === null && r.players.length < r.seats;
    return h(
      "div",
      { class: "panel lobby" },
      h("h2", {}, t("lobby.title", { game: t(`variant.${r.variant}.title`) })),
      canSit && app.ui.watching
        ? h("p", { class: "row watching-note" }, icon("eye", { size: 18 }), t("lobby.watching"),
            h("button", { type: "button", class: "btn btn-small", id: "take-seat", onclick: () => { app.ui.watching = false; render(); $("#join-name")?.focus(); } }, t("lobby.take_seat")))
        : null,
      h("p", { class: "muted" }, t(`variant.${r.variant}.blurb`), " ", h("a", { href: `/rules#${r.variant}`, target: "_blank", rel: "noopener" }, t("lobby.rules_link"))),
      invite,
      visual
        ? teamsLobby({ room: r, me: mine, isHost: host, send, badges, hostTools: memberTools })
        : [h("h3", {}, t("lobby.players", { n: r.players.length, seats: r.seats })), h("ol", { class: "lobby-list" }, rows)],
      h(
        "div",
        { class: "actions" },
        host
          ? [
              visual ? null : h("button", { type: "button", class: "btn btn-quiet", id: "add-bot", disabled: r.players.length >= r.seats, onclick: (e) => send({ type: "add_bot" }, e.currentTarget) }, icon("bot", { size: 18 }), t("lobby.add_bot")),
              h("button", { type: "button", class: "btn", id: "start", disabled: !enough, onclick: (e) => send({ type: "start" }, e.currentTarget) }, t("lobby.start")),
            ]
          : h("p", { class: "muted" }, t("lobby.wait_host", { name: hostP ? hostP.name : "—" })),
        mine !== null && !host ? h("button", { type: "button", class: "btn btn-quiet", id: "leave", onclick: (e) => leave(e.currentTarget) }, t("lobby.leave")) : null,
      ),
      !enough ? h("p", { class: "muted small" }, t("lobby.need_players", { n: r.min_players })) : null,
      h("details", { class: "lobby-options-box", open: host ? true : null }, h("summary", {}, t(host ? "lobby.options" : "lobby.options_view")), opts),
    );
  });
}

/** The host's buttons on a team member in the drawing game's lobby. */
function memberTools(p) {
  const mine = me();
  if (p.seat === mine) return null;
  return h(
    "span",
    { class: "lobby-tools" },
    p.bot ? null : h("button", { type: "button", class: "btn btn-quiet btn-icon", "aria-label": t("lobby.make_host", { name: p.name }), title: t("lobby.make_host", { name: p.name }), onclick: (e) => send({ type: "make_host", seat: p.seat }, e.currentTarget) }, icon("crown", { size: 18 })),
    h("button", { type: "button", class: "btn btn-quiet btn-icon btn-danger", "aria-label": t("lobby.kick", { name: p.name }), title: t("lobby.kick", { name: p.name }), onclick: (e) => send({ type: "kick", seat: p.seat }, e.currentTarget) }, icon("kick", { size: 18 })),
  );
}

function badges(p) {
  const g = game();
  const out = [];
  if (p.seat === me()) out.push(h("span", { class: "tag tag-you" }, t("players.you")));
  if (p.host) out.push(h("span", { class: "tag", title: t("players.host") }, icon("crown", { size: 14 }), t("players.host")));
  if (p.bot) out.push(h("span", { class: "tag", title: t("players.bot") }, icon("bot", { size: 14 }), t("players.bot")));
  else if (p.bot_playing) out.push(h("span", { class: "tag tag-warn" }, icon("bot", { size: 14 }), t("players.bot_playing")));
  if (!p.bot && !p.connected) out.push(h("span", { class: "tag tag-off", title: t("players.offline") }, icon("offline", { size: 14 }), t("players.offline")));
  if (g && g.phase !== "over" && g.storyteller === p.seat) out.push(h("span", { class: "tag tag-story" }, icon("quill", { size: 14 }), t("players.storyteller")));
  return out;
}

function move(i, delta, anchor) {
  const list = players();
  const order = list.map((p) => p.seat);
  const j = i + delta;
  if (j < 0 || j >= order.length) return;
  [order[i], order[j]] = [order[j], order[i]];
  send({ type: "order", order }, anchor);
}

function onOptionsChange(e) {
  if (!isHost()) return;
  const r = room();
  const { options, seats } = isVisualRoom(r) ? readVisualOptions(e.currentTarget) : readOptions(e.currentTarget, r.variant);
  send({ type: "options", options, seats: seats ?? r.seats }, e.target);
}

function leave(anchor) {
  if (!confirm(t("lobby.leave_confirm"))) return;
  send({ type: "leave" }, anchor);
  saveToken(code, null);
  app.token = null;
  app.ui.watching = true;
}

// ------------------------------------------------------------------ the game stage

function phaseKey(g) {
  return g ? `${g.turn}:${g.phase}:${g.storyteller}` : "";
}

function resetSelections(g) {
  const key = phaseKey(g);
  if (app.ui.key !== key) {
    app.ui.key = key;
    app.ui.card = null;
    app.ui.position = null;
    if (g && g.phase !== "clue") {
      app.ui.claim = false;
      app.ui.clueDraft = "";
    }
  }
}

function clueBanner(g) {
  if (!g.clue) return null;
  const st = players().find((p) => p.seat === g.storyteller);
  return h(
    "div",
    { class: "clue-banner" },
    h("span", { class: "muted small" }, t("stage.clue_by", { name: st ? st.name : "—" })),
    h("q", { class: "clue-text", id: "current-clue" }, g.clue),
    g.restriction ? restrictionTag(g.restriction) : null,
  );
}

function restrictionTag(r) {
  return h("span", { class: "tag tag-restriction", title: t(`restriction.${r}.rule`) }, icon(r, { size: 16 }), t(`restriction.${r}.short`));
}

function restrictionBox(r, mine) {
  if (!r) return null;
  return h(
    "div",
    { class: "restriction-box", role: "note" },
    icon(r, { size: 28 }),
    h("div", {}, h("strong", {}, t(`restriction.${r}.short`)), h("div", { class: "small" }, t(mine ? `restriction.${r}.rule` : `restriction.${r}.rule_other`)),
      ["brand", "film", "story"].includes(r) ? h("div", { class: "small muted" }, t("restriction.table_judges")) : null),
  );
}

function handRow(g, { choosable, chooseLabel, chosen }) {
  const hand = g.hand || [];
  if (!hand.length) return h("p", { class: "muted" }, t("stage.empty_hand"));
  return cardRow(
    hand.map((c) =>
      cardTile(c, {
        selected: chosen === c,
        onChoose: choosable ? (card) => { app.ui.card = card; render(); focusConfirm(); } : null,
        chooseLabel,
      }),
    ),
    { cls: "hand-row", label: t("stage.your_hand") },
  );
}

function focusConfirm() {
  requestAnimationFrame(() => {
    const b = document.querySelector("#confirm-card, #confirm-vote, #clue-text");
    if (b) b.focus();
  });
}

function clueForm(g) {
  const needCard = !isPictoric(g.variant) || isGallery(g.variant);
  const chosen = isPictoric(g.variant) && !isGallery(g.variant) ? g.story_card : app.ui.card;
  const restriction = g.storyteller === null ? claimRestriction(g) : g.restriction;
  const input = h("input", {
    id: "clue-text", name: "clue", maxlength: 200, autocomplete: "off", enterkeyhint: "send",
    value: app.ui.clueDraft, placeholder: t("stage.clue_placeholder"),
    "aria-describedby": "clue-hint",
    oninput: (e) => {
      app.ui.clueDraft = e.target.value;
      const problem = e.target.value.trim() ? checkClue(e.target.value, restriction) : null;
      const hint = document.getElementById("clue-hint");
      if (hint) {
        hint.textContent = problem ? t(problem.key, problem.params) : restrictionHint(restriction);
        hint.classList.toggle("bad", Boolean(problem));
      }
      e.target.setAttribute("aria-invalid", problem ? "true" : "false");
    },
  });
  return h(
    "form",
    { class: "clue-form", id: "clue-form", novalidate: true, onsubmit: (e) => onClue(e, g, restriction) },
    needCard && chosen === null
      ? h("p", { class: "pick-hint" }, icon("zoom", { size: 18 }), t(isGallery(g.variant) ? "stage.pick_gallery" : "stage.pick_hand"))
      : h("div", { class: "chosen" }, h("div", { class: "chosen-thumb" }, cardImage(chosen, { alt: t("stage.chosen_card") })), h("span", { class: "small muted" }, t("stage.chosen_card"))),
    h("label", { for: "clue-text" }, t("stage.your_clue")),
    h("div", { class: "row actions" }, h("div", { class: "grow" }, input),
      h("button", { type: "submit", class: "btn", id: "clue-submit" }, icon("quill", { size: 18 }), t("stage.tell"))),
    h("div", { class: "hint", id: "clue-hint" }, restrictionHint(restriction)),
  );
}

function restrictionHint(r) {
  return r ? t(`restriction.${r}.rule`) : t("stage.clue_free");
}

function claimRestriction(g) {
  // While the first storyteller is open the server fixes the restriction on the claim;
  // a single restriction for the whole game applies to anyone.
  const o = g.options?.restrictions;
  return o && o !== "board" && o !== "off" ? o : null;
}

function onClue(e, g, restriction) {
  e.preventDefault();
  const button = $("#clue-submit");
  const text = $("#clue-text").value;
  let card = null;
  if (isGallery(g.variant) || !isPictoric(g.variant)) {
    card = app.ui.card;
    if (card === null) {
      toast(t(isGallery(g.variant) ? "stage.pick_gallery" : "stage.pick_hand"), { anchor: button });
      return;
    }
  }
  const problem = checkClue(text, restriction);
  if (problem) {
    toast(t(problem.key, problem.params), { anchor: button });
    $("#clue-text").focus();
    return;
  }
  action({ type: "clue", text: text.trim(), card }, button);
}

function stageClue(g, mine) {
  const st = g.storyteller;
  const seated = mine !== null;
  const parts = [];
  const gallery = isGallery(g.variant);
  const pictoric = isPictoric(g.variant) && !gallery;
  const iTell = seated && (st === mine || (st === null && app.ui.claim));
  if (st === null) {
    parts.push(
      h("h2", { class: "stage-title" }, t("stage.claim_title")),
      h("p", {}, t("stage.claim_text")),
    );
    if (seated && !app.ui.claim) {
      parts.push(h("div", { class: "actions" }, h("button", { type: "button", class: "btn", id: "claim", onclick: () => { app.ui.claim = true; render(); focusConfirm(); } }, icon("quill", { size: 18 }), t("stage.claim_button"))));
    }
  } else if (st === mine) {
    parts.push(h("h2", { class: "stage-title" }, t("stage.you_tell")), restrictionBox(g.restriction, true));
  } else {
    parts.push(h("h2", { class: "stage-title" }, t("stage.other_tells", { name: nameOf(st) })), restrictionBox(g.restriction, false));
  }
  if (gallery) {
    parts.push(
      h("h3", {}, t(iTell ? "stage.gallery_pick" : "stage.gallery")),
      cardRow(
        (g.table || []).map((c) =>
          cardTile(c.card, {
            position: c.position,
            selected: iTell && app.ui.card === c.card,
            onChoose: iTell ? (card) => { app.ui.card = card; render(); focusConfirm(); } : null,
            chooseLabel: t("stage.choose_secret"),
          }),
        ),
        { cls: "table-row", label: t("stage.gallery") },
      ),
    );
  }
  if (pictoric && st === mine && g.story_card !== null) {
    parts.push(h("h3", {}, t("stage.drawn_card")), cardRow([cardTile(g.story_card, { story: true, note: t("stage.drawn_card") })], { cls: "table-row" }));
  }
  const handPart = !gallery && seated
    ? [
        h("h3", {}, t(iTell && !pictoric ? "stage.pick_from_hand" : "stage.your_hand")),
        handRow(g, { choosable: iTell && !pictoric, chooseLabel: t("stage.choose_story"), chosen: app.ui.card }),
      ]
    : [];
  // Choosing from the hand comes first, then the clue; otherwise the clue, then the hand.
  if (iTell && !pictoric) parts.push(...handPart, clueForm(g));
  else parts.push(iTell ? clueForm(g) : null, ...handPart);
  return parts;
}

function stageSubmit(g, mine) {
  const parts = [clueBanner(g)];
  const st = g.storyteller;
  const waiting = g.waiting_for || [];
  const played = (g.played || []).length;
  const needed = played + waiting.length;
  if (mine === null) {
    parts.push(h("p", {}, t("stage.others_playing", { n: played, total: needed })));
    return parts;
  }
  if (mine === st) {
    parts.push(
      h("h2", { class: "stage-title" }, t("stage.wait_cards")),
      h("p", { class: "muted" }, t("stage.others_playing", { n: played, total: needed })),
      g.story_card !== null ? cardRow([cardTile(g.story_card, { story: true, note: t("stage.your_story_card") })], { cls: "table-row" }) : null,
      h("h3", {}, t("stage.your_hand")),
      handRow(g, { choosable: false }),
    );
    return parts;
  }
  if ((g.sat_out || []).includes(mine)) {
    parts.push(h("p", {}, t("stage.sat_out")));
    return parts;
  }
  if (g.my_card !== null && g.my_card !== undefined) {
    parts.push(
      h("h2", { class: "stage-title" }, t("stage.card_down")),
      h("p", { class: "muted" }, t("stage.others_playing", { n: played, total: needed })),
      cardRow([cardTile(g.my_card, { mine: true, note: t("stage.your_card") })], { cls: "table-row" }),
      h("h3", {}, t("stage.your_hand")),
      handRow(g, { choosable: false }),
    );
    return parts;
  }
  parts.push(
    h("h2", { class: "stage-title" }, t("stage.pick_submit")),
    h("p", { class: "muted" }, t("stage.pick_submit_hint")),
    h(
      "div",
      { class: "actions confirm-bar" },
      app.ui.card !== null ? h("div", { class: "chosen-thumb" }, cardImage(app.ui.card, { alt: t("stage.chosen_card") })) : null,
      h("button", { type: "button", class: "btn", id: "confirm-card", disabled: app.ui.card === null, onclick: (e) => action({ type: "submit", card: app.ui.card }, e.currentTarget) }, icon("check", { size: 18 }), t("stage.play_card")),
    ),
    handRow(g, { choosable: true, chooseLabel: t("stage.choose_this"), chosen: app.ui.card }),
  );
  return parts;
}

function stageVote(g, mine) {
  const parts = [clueBanner(g)];
  const st = g.storyteller;
  const canVote = mine !== null && mine !== st && (g.waiting_for || []).includes(mine);
  const voted = g.my_vote !== null && g.my_vote !== undefined;
  const voters = (g.voted || []).length;
  const total = voters + (g.waiting_for || []).length;
  if (mine === null) parts.push(h("h2", { class: "stage-title" }, t("stage.voting")));
  else if (mine === st) parts.push(h("h2", { class: "stage-title" }, t("stage.st_no_vote")), h("p", { class: "muted" }, t("stage.st_no_vote_hint")));
  else if (voted) parts.push(h("h2", { class: "stage-title" }, t("stage.voted", { n: g.my_vote })));
  else if (canVote) parts.push(h("h2", { class: "stage-title" }, t("stage.vote_title")), h("p", { class: "muted" }, t("stage.vote_hint")));
  else parts.push(h("h2", { class: "stage-title" }, t("stage.voting")));
  parts.push(h("p", { class: "muted small" }, t("stage.votes_in", { n: voters, total })));
  const tiles = (g.table || []).map((c) => {
    const mineCard = g.my_position === c.position;
    const note = mineCard ? (mine === st ? t("stage.your_story_card") : t("stage.your_card")) : g.my_vote === c.position ? t("stage.your_vote") : null;
    return cardTile(c.card, {
      position: c.position,
      mine: mineCard,
      story: mineCard && mine === st,
      selected: app.ui.position === c.position || g.my_vote === c.position,
      note,
      disabled: mineCard,
      onChoose: canVote && !mineCard ? (card, pos) => { app.ui.position = pos; render(); focusConfirm(); } : null,
      chooseLabel: t("stage.vote_for", { n: c.position }),
    });
  });
  if (canVote) {
    parts.push(
      h(
        "div",
        { class: "actions confirm-bar" },
        h("button", { type: "button", class: "btn", id: "confirm-vote", disabled: app.ui.position === null, onclick: (e) => action({ type: "vote", position: app.ui.position }, e.currentTarget) },
          icon("check", { size: 18 }), app.ui.position === null ? t("stage.vote_pick") : t("stage.vote_confirm", { n: app.ui.position })),
      ),
    );
  }
  parts.push(cardRow(tiles, { cls: "table-row vote-row", label: t("stage.table") }));
  if (mine !== null && !isGallery(g.variant) && (g.hand || []).length) {
    parts.push(h("details", { class: "hand-peek" }, h("summary", {}, t("stage.your_hand")), handRow(g, { choosable: false })));
  }
  return parts;
}

function renderStage() {
  const g = game();
  const r = room();
  const show = r && g && r.status !== "lobby" && g.phase !== "over";
  const mine = me();
  if (g) resetSelections(g);
  const sig = show
    ? [g.phase, g.turn, g.storyteller, g.clue, g.restriction, g.hand, g.table, g.story_card, g.my_card, g.my_position, g.my_vote,
        g.waiting_for, g.played, g.voted, g.sat_out, mine, app.ui.card, app.ui.position, app.ui.claim, players().map((p) => p.name), app.deckLoaded]
    : null;
  section("stage", sig, () => {
    if (!show) return null;
    let parts;
    if (g.phase === "clue") parts = stageClue(g, mine);
    else if (g.phase === "submit") parts = stageSubmit(g, mine);
    else parts = stageVote(g, mine);
    return h("div", { class: ["panel", "stage", `phase-${g.phase}`], "data-phase": g.phase, "data-turn": g.turn }, parts);
  });
}

// ------------------------------------------------------------------ reveal, final

function renderReveal() {
  const g = game();
  const lr = g?.last_round;
  const over = g && (g.phase === "over" || room()?.status === "over");
  const show = lr && (over || app.ui.revealClosed !== lr.turn);
  section("reveal", show ? [lr, players().map((p) => [p.name, p.color]), app.deckLoaded, over] : null, () => {
    if (!show) return null;
    return revealView(lr, players(), {
      gallery: isGallery(g.variant),
      you: me(),
      onClose: over ? null : () => {
        app.ui.revealClosed = lr.turn;
        render();
        $("#stage")?.querySelector("button, input")?.focus();
      },
    });
  });
}

function renderFinal() {
  const g = game();
  const r = room();
  const show = g && (g.phase === "over" || r.status === "over");
  section("final", show ? [g.winners, players().map((p) => [p.name, p.score]), isHost()] : null, () => {
    if (!show) return null;
    const list = players().slice().sort((a, b) => b.score - a.score);
    const winners = g.winners || [];
    let rank = 0;
    let prev = null;
    const rows = list.map((p, i) => {
      if (p.score !== prev) {
        rank = i + 1;
        prev = p.score;
      }
      const won = winners.includes(p.seat);
      return h(
        "li",
        { class: ["final-row", won && "winner"], "data-seat": p.seat },
        h("span", { class: "rank" }, String(rank)),
        chip(p),
        won ? h("span", { class: "tag tag-win" }, icon("trophy", { size: 14 }), t("final.winner")) : null,
        h("span", { class: "final-score" }, t("board.points", { n: p.score })),
      );
    });
    const names = winners.map(nameOf).join(", ");
    return h(
      "div",
      { class: "panel final" },
      h("h2", {}, icon("trophy", { size: 26 }), " ", t("final.title")),
      h("p", { class: "final-winners" }, winners.length ? t("final.won", { names, n: winners.length }) : t("final.no_winner")),
      h("p", { class: "muted small" }, t("final.rounds", { n: g.rounds_played })),
      h("ol", { class: "final-list" }, rows),
      isHost()
        ? h("div", { class: "actions" }, h("button", { type: "button", class: "btn", id: "rematch", onclick: (e) => send({ type: "rematch" }, e.currentTarget) }, t("final.rematch")))
        : h("p", { class: "muted" }, t("final.wait_rematch")),
    );
  });
}

// ------------------------------------------------------------------ sidebar

function renderScores() {
  const g = game();
  const r = room();
  const show = r && g && r.status !== "lobby";
  const host = isHost();
  const list = players();
  section("scores", show ? [list, g.waiting_for, g.storyteller, g.phase, g.last_round?.points, host, me()] : null, () => {
    if (!show) return null;
    const pts = g.last_round?.points || [];
    const waiting = g.waiting_for || [];
    return h(
      "div",
      { class: "panel scores" },
      h("h2", {}, t("players.title")),
      h(
        "ul",
        { class: "score-list" },
        list.map((p) => {
          const delta = pts[p.seat];
          const isWaiting = waiting.includes(p.seat);
          return h(
            "li",
            { class: ["score-row", isWaiting && "waiting", p.seat === me() && "is-you"], "data-seat": p.seat },
            h("span", { class: "dot big", style: { background: p.color }, title: colorName(p.color) }),
            h("span", { class: "score-name" }, h("span", { class: "pname" }, p.name), h("span", { class: "badges" }, badges(p))),
            isWaiting ? h("span", { class: "state-icon", title: t("players.waiting") }, icon("hourglass", { size: 16, label: t("players.waiting") })) : null,
            h("span", { class: "score" }, String(p.score), delta ? h("span", { class: ["delta", delta > 0 ? "gain" : "loss"] }, delta > 0 ? `+${delta}` : `−${-delta}`) : null),
            host && !p.bot && (!p.connected || p.bot_playing) && g.phase !== "over"
              ? h("button", { type: "button", class: "btn btn-quiet btn-small seat-bot", onclick: (e) => send({ type: "bot_seat", seat: p.seat, on: !p.bot_playing }, e.currentTarget) },
                  icon("bot", { size: 16 }), p.bot_playing ? t("players.bot_off") : t("players.bot_on"))
              : null,
          );
        }),
      ),
      h("p", { class: "muted small" }, t("players.deck", { n: g.deck, d: g.discard })),
    );
  });
}

function renderBoard() {
  const r = room();
  const g = game();
  const show = Boolean(r);
  const list = players();
  const opts = g?.options || r?.options || {};
  const sig = show ? [r.variant, opts.restrictions, opts.track_length, list.map((p) => [p.seat, p.name, p.color, p.square, p.score])] : null;
  const el = document.getElementById("board");
  const key = JSON.stringify([sig, lang()]);
  if (app.sigs.board === key) return;
  app.sigs.board = key;
  if (!show) {
    el.hidden = true;
    return;
  }
  const v = variantInfo(r.variant);
  const svg = boardSVG(v, list, opts);
  const shape = JSON.stringify([r.variant, opts.restrictions, opts.track_length, lang(), list.length]);
  const old = el.querySelector("svg.board-svg");
  if (old && el.dataset.shape === shape) {
    // Same board: move the pieces so that they glide to their new squares.
    for (const piece of svg.querySelectorAll(".piece")) {
      const prev = old.querySelector(`.piece[data-seat="${piece.dataset.seat}"]`);
      if (prev) {
        prev.style.transform = piece.style.transform;
        prev.dataset.square = piece.dataset.square;
        prev.replaceChildren(...piece.childNodes);
      }
    }
    old.setAttribute("aria-label", svg.getAttribute("aria-label"));
    return;
  }
  el.dataset.shape = shape;
  el.hidden = false;
  const legend = boardLegend(v, opts);
  clear(el, h("div", { class: "panel board" }, h("h2", {}, t(`board.title.${v.board?.name || "dixit-track"}`)), svg, legend));
}

function boardLegend(v, opts) {
  const setting = opts.restrictions || "board";
  if (v.name.startsWith("imaginarium") && setting === "board") {
    const kinds = [...new Set(Object.values(v.board.specials || {}))];
    return h("ul", { class: "legend" }, kinds.map((k) => h("li", {}, icon(k, { size: 18 }), t(`restriction.${k}.short`))));
  }
  if (setting !== "board" && setting !== "off") {
    return h("p", { class: "small muted" }, t("board.whole_game", { what: t(`restriction.${setting}.short`) }));
  }
  if (v.name.startsWith("pictoric")) return h("p", { class: "small muted" }, t("board.pictoric_hint", { n: opts.track_length || 40 }));
  if (v.name === "dixit") return h("p", { class: "small muted" }, t("board.dixit_hint"));
  return null;
}

function renderLog() {
  const g = game();
  const lr = g?.last_round;
  const rolls = g?.first_rolls || [];
  const show = g && (lr || rolls.length);
  section("log", show ? [lr, rolls, players().map((p) => p.name)] : null, () => {
    if (!show) return null;
    const items = [];
    rolls.forEach((roll, i) => {
      const shown = roll.map((v, s) => (v ? `${nameOf(s)} ${v}` : null)).filter(Boolean).join(", ");
      if (shown) items.push(h("li", {}, icon("dice", { size: 16 }), " ", t("log.roll", { n: i + 1, rolls: shown })));
    });
    if (lr) {
      if (lr.skipped) items.push(h("li", {}, t("log.skipped", { name: nameOf(lr.storyteller) })));
      else {
        items.push(h("li", {}, t("log.told", { name: nameOf(lr.storyteller) }), " ", h("q", {}, lr.clue || "")));
        items.push(h("li", {}, t("log.story_at", { n: lr.story_position })));
        const finders = (lr.votes || []).map((v, s) => (v === lr.story_position ? nameOf(s) : null)).filter(Boolean);
        items.push(h("li", {}, finders.length ? t("log.found", { names: finders.join(", "), n: finders.length }) : t("log.nobody")));
        const pts = players().map((p) => `${p.name} ${(lr.points[p.seat] ?? 0) > 0 ? "+" : ""}${lr.points[p.seat] ?? 0}`).join(", ");
        items.push(h("li", {}, t("log.points", { points: pts })));
      }
    }
    return h(
      "div",
      { class: "panel log" },
      h("h2", {}, lr ? t("log.title", { n: lr.turn }) : t("log.title_start")),
      h("ul", { class: "log-list" }, items),
      lr && app.ui.revealClosed === lr.turn && g.phase !== "over"
        ? h("button", { type: "button", class: "btn btn-quiet btn-small", id: "show-reveal", onclick: () => { app.ui.revealClosed = null; render(); } }, t("log.show_reveal"))
        : null,
    );
  });
}

// ------------------------------------------------------------------ chat

function renderChatShell() {
  const el = document.getElementById("chat");
  const r = room();
  if (!r) return;
  const seated = me() !== null;
  const mode = isVisualRoom(r) ? chatMode() : { team: false, silent: false };
  const sig = JSON.stringify([seated, mode, lang()]);
  if (app.sigs.chat !== sig) {
    app.sigs.chat = sig;
    el.hidden = false;
    clear(
      el,
      h(
        "div",
        { class: "panel chat" },
        h("h2", { id: "chat-title" }, t("chat.title")),
        h("ul", { class: "chat-list", id: "chat-list", "aria-live": "polite", "aria-labelledby": "chat-title", tabindex: 0 }),
        seated && mode.silent
          ? h("p", { class: "muted small chat-silent", id: "chat-silent" }, icon("pencil", { size: 16 }), " ", t("chat.drawer_silent"))
          : null,
        seated && !mode.silent
          ? h(
              "form",
              { class: "chat-form", id: "chat-form", onsubmit: onChat },
              h("label", { for: "chat-input", class: "visually-hidden" }, t("chat.label")),
              h("input", { id: "chat-input", maxlength: 300, autocomplete: "off", placeholder: t(app.ui.teamChat && mode.team ? "chat.placeholder_team" : "chat.placeholder"), enterkeyhint: "send" }),
              h("button", { type: "submit", class: "btn btn-icon", id: "chat-send", "aria-label": t("chat.send"), title: t("chat.send") }, icon("send", { size: 18 })),
            )
          : null,
        seated && !mode.silent && mode.team
          ? h(
              "label",
              { class: "chat-team-toggle small", for: "chat-team" },
              h("input", {
                type: "checkbox", id: "chat-team", checked: app.ui.teamChat,
                onchange: (e) => {
                  app.ui.teamChat = e.target.checked;
                  const input = $("#chat-input");
                  if (input) input.placeholder = t(app.ui.teamChat ? "chat.placeholder_team" : "chat.placeholder");
                },
              }),
              icon("team", { size: 16 }),
              t("chat.team_only"),
            )
          : null,
        seated ? null : h("p", { class: "muted small" }, t("chat.spectator")),
      ),
    );
    app.chatRendered = 0;
  }
  renderChatLines();
}

function renderChatLines() {
  const list = document.getElementById("chat-list");
  if (!list) return;
  if (app.chatRendered > app.chat.length) {
    list.replaceChildren();
    app.chatRendered = 0;
  }
  const colors = new Map(players().map((p) => [p.seat, p.color]));
  for (const m of app.chat.slice(app.chatRendered)) {
    const time = new Date(m.at);
    const teamLine = m.team !== undefined && m.team !== null && m.team !== false;
    list.append(
      h(
        "li",
        { class: ["chat-line", teamLine && "chat-team"] },
        h("span", { class: "dot", style: { background: colors.get(m.seat) || "#888" }, "aria-hidden": "true" }),
        h("strong", { class: "chat-name" }, m.name),
        " ",
        teamLine ? h("span", { class: "tag tag-team" }, t("chat.team_tag")) : null,
        teamLine ? " " : null,
        h("span", { class: "chat-text" }, m.text),
        h("time", { class: "chat-time", datetime: time.toISOString() }, time.toLocaleTimeString(lang(), { hour: "2-digit", minute: "2-digit" })),
      ),
    );
  }
  app.chatRendered = app.chat.length;
  if (!app.chat.length) {
    if (!list.children.length) list.append(h("li", { class: "muted small chat-empty" }, t("chat.empty")));
  } else list.querySelector(".chat-empty")?.remove();
  list.scrollTop = list.scrollHeight;
}

function onChat(e) {
  e.preventDefault();
  const input = $("#chat-input");
  const text = input.value.trim();
  if (!text) return;
  if (text.length > 300) {
    toast(t("chat.too_long"), { anchor: $("#chat-send") });
    return;
  }
  const team = app.ui.teamChat && isVisualRoom(room()) && chatMode().team;
  send(team ? { type: "chat", text, team: true } : { type: "chat", text }, $("#chat-form"));
  input.value = "";
}

// ------------------------------------------------------------------ my seat

function renderSeatTools() {
  const r = room();
  const mine = me();
  const p = players().find((x) => x.seat === mine);
  const show = r && mine !== null && app.token;
  section("seat-tools", show ? [mine, p?.bot_playing, r.status, app.token] : null, () => {
    if (!show) return null;
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
          h("input", { id: "seat-link", class: "grow", readonly: true, value: link, "aria-label": t("seat.move"), onfocus: (e) => e.target.select() }),
          h("button", { type: "button", class: "btn btn-small", id: "copy-seat-link", onclick: (e) => copyText(link, e.currentTarget) }, icon("copy", { size: 16 }), h("span", { class: "btn-label" }, t("common.copy"))),
        ),
      ),
    );
  });
}

function renderNotice() {
  const p = players().find((x) => x.seat === me());
  const show = Boolean(p?.bot_playing) && room()?.status === "playing";
  section("notice", show ? [true] : null, () => {
    if (!show) return null;
    return h(
      "div",
      { class: "panel reclaim", role: "alert" },
      h("p", {}, icon("bot", { size: 20 }), " ", t("seat.bot_playing")),
      h("button", { type: "button", class: "btn", id: "reclaim", onclick: (e) => send({ type: "reclaim" }, e.currentTarget) }, t("seat.reclaim")),
    );
  });
}

// ------------------------------------------------------------------ frames

async function ensureDeck() {
  const r = room();
  if (!r || isVisualRoom(r) || !r.deck || app.deckLoaded === r.deck) return;
  app.deckLoaded = r.deck;
  await loadDeck(r.deck);
  app.deckLoaded = `${r.deck}:loaded`;
  render();
}

function onFrame(f) {
  switch (f.type) {
    case "welcome":
      app.token = f.token;
      saveToken(code, f.token);
      app.ui.watching = false;
      break;
    case "state": {
      const hadState = app.state !== null;
      const prevTurn = app.state?.game?.last_round?.turn ?? null;
      app.state = f;
      if (f.room && typeof f.room.server_time === "number") app.ui.skew = f.room.server_time - Date.now();
      if (!f.room.you && app.token) {
        // The stored seat is no longer valid (kicked, or left): forget it.
        saveToken(code, null);
        app.token = null;
      }
      const lr = f.game?.last_round;
      // A round revealed while we watch opens the results; one from before the page
      // was opened stays folded (the log can open it).
      if (lr && lr.turn !== prevTurn) app.ui.revealClosed = hadState ? null : lr.turn;
      if (!f.game) app.ui.revealClosed = null;
      if (isVisualRoom(f.room)) onVisualState(f.game);
      ensureDeck();
      render();
      break;
    }
    case "draw":
      onDrawFrame(f);
      break;
    case "canvas":
      onCanvasFrame(f);
      break;
    case "chat":
      if (app.chatReset) {
        app.chat = [];
        app.chatReset = false;
      }
      app.chat.push(...(f.messages || []));
      if (app.chat.length > 200) app.chat = app.chat.slice(-200);
      renderChatLines();
      break;
    case "ack":
      if (f.request?.frame?.type === "submit" || f.request?.frame?.type === "vote" || f.request?.frame?.type === "clue") {
        app.ui.clueDraft = "";
      }
      break;
    case "error":
      onError(f);
      break;
    default:
      break;
  }
}

function onError(f) {
  if (f.code === "stale_version") return; // a fresher state is on its way
  if (f.code === "unknown_room") {
    app.socket?.stop();
    showMissing();
    return;
  }
  if (f.ref === null || f.ref === undefined) {
    // Strokes go without an id: a frame caught by the end of the drawing time is of no
    // interest, and a full canvas is said once in a while, not for every stroke.
    if (["wrong_phase", "not_drawer", "bad_stroke"].includes(f.code)) return;
    if (f.code === "canvas_full") {
      if (Date.now() - (app.ui.canvasFullAt || 0) < 5000) return;
      app.ui.canvasFullAt = Date.now();
    }
  }
  const anchor = f.request?.anchor || null;
  let text = errorText(f.code, f.message);
  if (f.code === "rate_limited" && f.request?.frame?.type === "chat") text = t("error.chat_rate_limited");
  toast(text, { anchor });
}

function onStatus(s, info) {
  if (s === "closed" && info.code === 4404) {
    app.socket?.stop();
    showMissing();
    return;
  }
  if (s === "closed" || s === "retrying" || s === "connecting") {
    if (app.conn === "open") app.chatReset = true;
    app.conn = s;
  } else app.conn = s;
  if (s === "connecting" || s === "retrying") app.chatReset = true;
  renderConn();
}

function showMissing() {
  clear(
    $("#main"),
    h("div", { class: "panel missing" }, h("h1", {}, t("room.missing_title")), h("p", {}, t("room.missing_text", { code })), h("a", { class: "btn", href: "/" }, t("room.go_home"))),
  );
}

// ------------------------------------------------------------------ main

function render() {
  if (!app.state) {
    renderConn();
    return;
  }
  renderHeaderCode();
  renderStatus();
  tickCountdown();
  renderConn();
  renderGate();
  renderNotice();
  renderLobby();
  if (isVisualRoom(room())) {
    renderVisual();
  } else {
    renderReveal();
    renderStage();
    renderFinal();
    renderScores();
    renderBoard();
    renderLog();
  }
  renderChatShell();
  renderSeatTools();
  const title = `${code} · Reverie`;
  document.title = yourMove() ? `${t("status.title_your_move")} · ${title}` : title;
  document.body.dataset.status = room()?.status || "";
  document.body.dataset.phase = game()?.phase || "";
}

function takeHashToken() {
  const m = /^#t=([^&]+)/.exec(location.hash);
  if (!m) return;
  saveToken(code, decodeURIComponent(m[1]));
  history.replaceState(null, "", location.pathname + location.search);
}

async function start() {
  takeHashToken();
  app.token = loadToken(code);
  initZoom();
  setContext({
    room, game, me, send, action, render, isHost,
    section,
    sendRaw: (frame) => Boolean(app.socket?.sendRaw(frame)),
  });
  await loadVariants();
  await boot(() => {
    app.sigs = {};
    render();
  });
  try {
    await getJSON(`/api/rooms/${encodeURIComponent(code)}`);
  } catch (err) {
    if (err.status === 404) {
      showMissing();
      return;
    }
  }
  app.socket = new RoomSocket(code, {
    onFrame,
    onStatus,
    getHello: () => ({ token: app.token || null, lang: lang() }),
  });
  app.socket.connect();
  setInterval(tickCountdown, 250);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") closeZoom();
    onKey(e);
  });
}

start();
