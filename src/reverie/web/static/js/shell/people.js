// The other people at the table, and what this reader can do about them: mute one (for
// this browser only: their chat lines and clues show as hidden, each with a way to show
// it), the host's "Remove" at any time (confirmed first), and at a public table a vote to
// remove; a report to the site's operator about one of them or the whole table
// (shell/report.js); the running vote's bar, with its ballot for those who vote.
import { h } from "../dom.js";
import { t, lang } from "../i18n.js";
import { icon } from "../icons.js";
import { app, code, room, me, isHost, nameOf, send, rerender } from "./app.js";
import { openReport } from "./report.js";

const KEY = `reverie:muted:${code}`;

/** @returns {Set<string>} the names muted at this table (names are unique at a table) */
function loadMuted() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    return new Set(Array.isArray(list) ? list.filter((x) => typeof x === "string") : []);
  } catch {
    return new Set();
  }
}

const muted = loadMuted();
/** The hidden texts the reader chose to see all the same (by the caller's key). */
const shown = new Set();

/** @param {string} name */
function toggleMute(name) {
  if (muted.has(name)) muted.delete(name);
  else muted.add(name);
  try {
    localStorage.setItem(KEY, JSON.stringify([...muted]));
  } catch {
    // Private mode: the mute lasts as long as the page.
  }
  rerender();
}

/**
 * Whether the person in `seat` is muted here (a bot never is: its words are the game's).
 * `name`: who of a team seat wrote it (a chat line); else any of its people muted hides
 * what the seat says (a clue is the whole seat's).
 * @param {number | null | undefined} seat
 * @param {string} [name]
 */
export function isMuted(seat, name) {
  const p = room()?.players.find((x) => x.seat === seat);
  if (!p || p.bot) return false;
  if (name !== undefined) return muted.has(name);
  return muted.has(p.name) || Boolean(p.members?.some((m) => muted.has(m.name)));
}

/**
 * What `seat` wrote, as this reader sees it: `content` itself, or, when they are muted,
 * "hidden" with a button that shows this one text (`key` names it; `name`: which person
 * of a team seat wrote it).
 * @param {number | null | undefined} seat
 * @param {string} key
 * @param {import("../dom.js").Child} content
 * @param {string} [name]
 */
export function heard(seat, key, content, name) {
  if (!isMuted(seat, name) || shown.has(key)) return content;
  return h(
    "span",
    // Said in the screen's language, wherever it stands (the story is in the table's).
    { class: "muted-text", lang: lang() },
    h("span", { class: "muted" }, t("people.hidden")),
    " ",
    h("button", {
      type: "button", class: "btn-link small",
      "aria-label": t("people.show_label", { name: nameOf(/** @type {number} */ (seat)) }),
      onclick: () => { shown.add(key); rerender(); },
    }, t("people.show")),
  );
}

/** @param {Event} e */
const at = (e) => /** @type {Element} */ (e.currentTarget);

/**
 * @param {string} id
 * @param {string} iconName
 * @param {string} text
 * @param {string} label
 * @param {(e: MouseEvent) => void} onclick
 * @param {{pressed?: boolean, danger?: boolean}} [opts]
 */
function button(id, iconName, text, label, onclick, { pressed, danger = false } = {}) {
  return h(
    "button",
    { type: "button", id, class: ["btn btn-quiet btn-small", danger && "btn-danger"], "aria-label": label, "aria-pressed": pressed === undefined ? null : String(pressed), onclick },
    icon(iconName, { size: 16 }),
    text,
  );
}

/**
 * The people panel: everyone else who is a person (each member of a team seat on their
 * own, this page's teammates too), with mute, report, remove and vote; and a report of
 * the whole table (at a public table also when nobody else is there: a stranger's table
 * may be reported for what it plays).
 */
export function peopleView() {
  const r = room();
  if (!r) return null;
  const mine = me();
  // A team seat's people by their place in its `members` (what kick, vote_kick and
  // report name), its first person first; this page's own person aside.
  const others = r.players
    .filter((p) => !p.bot)
    .flatMap((p) => (p.members?.length ? p.members : [{ name: p.name }]).map((m, member) => ({ p, member, name: m.name })))
    .filter(({ p, member }) => !(p.seat === mine && member === app.member));
  if (!others.length && !r.public) return null;
  const mayVote = Boolean(r.public && mine !== null && !r.vote);
  const rows = others.map(({ p, member, name }) => {
    const off = muted.has(name);
    const id = member ? `${p.seat}-${member}` : `${p.seat}`;
    // The lobby's list has the host's own tools (remove among them), a seat's first
    // person's: a team seat's other members are removed from here.
    const mayRemove = isHost() && (r.status !== "lobby" || member > 0 || p.seat === mine);
    return h(
      "li",
      { class: "people-row", key: id, "data-seat": p.seat, "data-member": member },
      h("span", { class: "dot", style: { background: p.color }, "aria-hidden": "true" }),
      h("span", { class: "people-name" }, name, off ? [" ", h("span", { class: "tag" }, t("people.muted_tag"))] : null),
      h(
        "span",
        { class: "people-tools" },
        button(`mute-${id}`, off ? "bell" : "bell_off", t(off ? "people.unmute" : "people.mute"),
          t(off ? "people.unmute_label" : "people.mute_label", { name }), () => toggleMute(name), { pressed: off }),
        button(`report-${id}`, "warn", t("people.report"), t("people.report_label", { name }), (e) => openReport(p.seat, at(e), { member, name })),
        mayVote
          ? button(`vote-kick-${id}`, "flag", t("people.vote"), t("people.vote_label", { name }), (e) => {
              if (confirm(t("people.vote_confirm", { name }))) send({ type: "vote_kick", seat: p.seat, member }, at(e));
            })
          : null,
        mayRemove
          ? button(`remove-${id}`, "kick", t("people.remove"), t("lobby.kick", { name }), (e) => {
              if (confirm(t("people.remove_confirm", { name }))) send({ type: "kick", seat: p.seat, member }, at(e));
            }, { danger: true })
          : null,
      ),
    );
  });
  return h(
    "div",
    { class: "panel people" },
    h("h2", { id: "people-title", tabindex: "-1" }, t("people.title")),
    rows.length ? h("ul", { class: "people-list", "aria-labelledby": "people-title" }, rows) : null,
    h(
      "p",
      { class: "people-table" },
      button("report-table", "warn", t("people.report_table"), t("people.report_table"), (e) => openReport(null, at(e))),
    ),
  );
}

/**
 * The host's remove in the lobby asks first too: the person removed may not sit again.
 * @param {{seat: number, name: string, bot: boolean}} p
 * @returns {boolean}
 */
export function confirmRemoval(p) {
  return p.bot || confirm(t("people.remove_confirm", { name: p.name }));
}

/** The running vote: whom it is about, the counts, the time left; the ballot for voters. */
export function voteView() {
  const v = room()?.vote;
  if (!v) return null;
  const left = Math.max(0, Math.ceil((v.deadline - (Date.now() + app.skew)) / 1000));
  if (left <= 0) return null;
  const time = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  // A vote about one member of a team seat names them (`member`: their place in it).
  const members = room()?.players.find((p) => p.seat === v.target)?.members || [];
  const name = typeof v.member === "number" && members[v.member] ? members[v.member].name : nameOf(v.target);
  const aboutMe = v.target === me() && (typeof v.member !== "number" || v.member === app.member);
  const ballot = (/** @type {boolean} */ yes) => (/** @type {MouseEvent} */ e) => send({ type: "ballot", yes }, at(e));
  return h(
    "div",
    { class: "panel vote-bar", id: "vote-bar", role: "region", "aria-labelledby": "vote-title", key: "vote" },
    h("p", { id: "vote-title" }, icon("flag", { size: 20 }), " ", h("strong", {}, aboutMe ? t("vote.about_you") : t("vote.title", { name }))),
    h("p", { class: "small", id: "vote-counts" }, t("vote.counts", { yes: v.yes, no: v.no, needed: v.needed }), " · ", t("vote.time_left", { time })),
    // A team seat's frame says which of its members may still vote (`open`), each on their own.
    (Array.isArray(v.open) ? v.open.includes(app.member) : v.voter && !v.ballot)
      ? h(
          "div",
          { class: "actions" },
          h("button", { type: "button", class: "btn btn-danger", id: "ballot-yes", onclick: ballot(true) }, icon("check", { size: 18 }), t("vote.yes", { name })),
          h("button", { type: "button", class: "btn btn-quiet", id: "ballot-no", onclick: ballot(false) }, icon("close", { size: 18 }), t("vote.no", { name })),
        )
      : null,
    v.ballot ? h("p", { class: "muted small", id: "vote-mine" }, t(v.ballot === "yes" ? "vote.you_yes" : "vote.you_no")) : null,
  );
}
