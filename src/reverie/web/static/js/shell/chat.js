// The room's chat: the last 200 lines, a form for the seated, team lines where the family
// offers them, silence for whoever the family says must not talk (a drawer while drawing).
import { h, $ } from "../dom.js";
import { t, lang } from "../i18n.js";
import { icon } from "../icons.js";
import { toast } from "../common.js";
import { app, me, players, send, rerender, isTeamSeat } from "./app.js";
import { heard } from "./people.js";

/** @param {import("./app.js").ChatLine[]} messages */
export function addChat(messages) {
  if (app.chatReset) {
    app.chat = [];
    app.chatReset = false;
  }
  app.chat.push(...messages);
  if (app.chat.length > 200) app.chat = app.chat.slice(-200);
}

/**
 * @param {SubmitEvent} e
 * @param {boolean} team
 */
function onChat(e, team) {
  e.preventDefault();
  const input = /** @type {HTMLInputElement} */ ($("#chat-input"));
  const text = input.value.trim();
  if (!text) return;
  if (text.length > 300) {
    toast(t("chat.too_long"), { anchor: $("#chat-send") });
    return;
  }
  // The line stays in the box until the server takes it: a refused one (too fast) is
  // still there to send again.
  // A team seat's own chat (its members only), or the family's team's.
  const to = !team ? {} : isTeamSeat(me()) ? { own: true } : { team: true };
  send({ type: "chat", text, ...to }, $("#chat-form"));
}

/**
 * The server took a chat line: empty the box unless something else was typed meanwhile.
 * @param {Record<string, any>} f an `ack`
 */
export function chatAcked(f) {
  const frame = f.request?.frame;
  if (frame?.type !== "chat") return;
  const input = /** @type {HTMLInputElement | null} */ ($("#chat-input"));
  if (input && input.value.trim() === frame.text) input.value = "";
}

function lines() {
  if (!app.chat.length) return [h("li", { class: "muted small chat-empty", key: "empty" }, t("chat.empty"))];
  const colors = new Map(players().map((p) => [p.seat, p.color]));
  return app.chat.map((m, i) => {
    const time = new Date(m.at);
    if (m.note) {
      return h(
        "li",
        { class: ["chat-line", "chat-note", "muted"], key: `${m.at}:note:${i}` },
        icon("bot", { size: 14 }),
        " ",
        h("span", { class: "chat-text" }, t(m.note, m.params || {})),
        h("time", { class: "chat-time", datetime: time.toISOString() }, time.toLocaleTimeString(lang(), { hour: "2-digit", minute: "2-digit" })),
      );
    }
    const teamLine = Boolean(m.own) || (m.team !== undefined && m.team !== null && m.team !== false);
    return h(
      "li",
      { class: ["chat-line", teamLine && "chat-team"], key: `${m.at}:${m.seat}:${i}` },
      h("span", { class: "dot", style: { background: colors.get(m.seat) || "#888" }, "aria-hidden": "true" }),
      h("strong", { class: "chat-name" }, m.name),
      " ",
      teamLine ? [h("span", { class: "tag tag-team" }, t("chat.team_tag")), " "] : null,
      // A muted person's line shows as hidden here, with a button that shows it.
      h("span", { class: "chat-text" }, heard(m.seat, `chat:${m.at}:${m.seat}:${i}`, m.text, m.name)),
      h("time", { class: "chat-time", datetime: time.toISOString() }, time.toLocaleTimeString(lang(), { hour: "2-digit", minute: "2-digit" })),
    );
  });
}

let shown = -1;

/** Keep the newest line in sight when lines arrive (after the page is drawn). */
export function scrollChat() {
  const list = $("#chat-list");
  if (!list || shown === app.chat.length) return;
  shown = app.chat.length;
  list.scrollTop = list.scrollHeight;
}

/**
 * The family says whether this seat may write now (and what it reads when not), and
 * whether it is offered lines for its team only.
 * @param {import("./contract.js").Family} fam
 */
export function chatView(fam) {
  const seated = me() !== null;
  const mode = { silent: seated && !fam.mayChat(), team: seated && (fam.teamChat() || isTeamSeat(me())) };
  const team = app.ui.teamChat && mode.team;
  return h(
    "div",
    { class: "panel chat" },
    h("h2", { id: "chat-title" }, t("chat.title")),
    h("ul", { class: "chat-list", id: "chat-list", "aria-live": "polite", "aria-labelledby": "chat-title", tabindex: 0 }, lines()),
    seated && mode.silent ? h("p", { class: "muted small chat-silent", id: "chat-silent" }, fam.chatSilence()) : null,
    seated && !mode.silent
      ? h(
          "form",
          { class: "chat-form", id: "chat-form", onsubmit: (/** @type {SubmitEvent} */ e) => onChat(e, team) },
          h("label", { for: "chat-input", class: "visually-hidden" }, t("chat.label")),
          h("input", { id: "chat-input", maxlength: 300, autocomplete: "off", placeholder: t(team ? "chat.placeholder_team" : "chat.placeholder"), enterkeyhint: "send" }),
          h("button", { type: "submit", class: "btn btn-icon", id: "chat-send", "aria-label": t("chat.send"), title: t("chat.send") }, icon("send", { size: 18 })),
        )
      : null,
    seated && !mode.silent && mode.team
      ? h(
          "label",
          { class: "chat-team-toggle small", for: "chat-team" },
          h("input", {
            type: "checkbox", id: "chat-team", checked: app.ui.teamChat,
            onchange: (/** @type {Event} */ e) => {
              app.ui.teamChat = /** @type {HTMLInputElement} */ (e.currentTarget).checked;
              rerender();
            },
          }),
          icon("team", { size: 16 }),
          t("chat.team_only"),
        )
      : null,
    seated ? null : h("p", { class: "muted small" }, t("chat.spectator")),
  );
}
