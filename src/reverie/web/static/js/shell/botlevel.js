// How well bots play: the levels the room's family offers (the `bot_levels` capability;
// none: its bots play one way only and nothing is shown), the level of each seat a bot
// plays (a tag; in the lobby the host's tag is a picker), and the level the host picks
// for the next bot, remembered by this browser.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { caps, isHost, room, send } from "./app.js";

const REMEMBERED = "reverie:bot-level";
/** What the server gives a bot when none is asked for (docs/protocol.md, `add_bot`). */
const DEFAULT = "normal";

/** The levels a host may choose in this room ([]: none to choose). */
export const botLevels = () => caps()?.bot_levels || [];

/**
 * A level's name, in the page's language (a level the client does not know: as sent).
 * @param {string} level
 */
export function levelName(level) {
  switch (level) {
    case "easy":
      return t("bots.level.easy");
    case "normal":
      return t("bots.level.normal");
    case "clever":
      return t("bots.level.clever");
    default:
      return level;
  }
}

/** @param {string} text */
const capital = (text) => text.charAt(0).toLocaleUpperCase() + text.slice(1);

/** The level for the next bot: the one last chosen here, if this room offers it. */
export function chosenLevel() {
  const levels = botLevels();
  let saved = null;
  try {
    saved = localStorage.getItem(REMEMBERED);
  } catch {
    /* private mode: the default */
  }
  if (saved && levels.includes(saved)) return saved;
  return levels.includes(DEFAULT) ? DEFAULT : levels[0];
}

/** @param {Event} e */
function remember(e) {
  try {
    localStorage.setItem(REMEMBERED, /** @type {HTMLSelectElement} */ (e.currentTarget).value);
  } catch {
    /* private mode: chosen for this page only */
  }
}

/**
 * The options of a level select, `current` chosen (`capitals`: names begin with one,
 * as in a form; a tag's are written small like the other tags).
 * @param {string[]} levels
 * @param {string} current
 * @param {boolean} capitals
 */
const options = (levels, current, capitals) =>
  levels.map((l) => h("option", { value: l, selected: l === current }, capitals ? capital(levelName(l)) : levelName(l)));

/**
 * The host's "Add a bot" button, with the level of that bot beside it when there is a
 * choice.
 * @param {{disabled: boolean}} opts
 */
export function addBotControl({ disabled }) {
  const levels = botLevels();
  const level = chosenLevel();
  /** @param {Event} e */
  const add = (e) => {
    const picked = /** @type {HTMLSelectElement | null} */ (document.getElementById("bot-level"))?.value;
    send(picked ? { type: "add_bot", level: picked } : { type: "add_bot" }, /** @type {Element} */ (e.currentTarget));
  };
  const button = h("button", { type: "button", class: "btn btn-quiet", id: "add-bot", disabled, onclick: add }, icon("bot", { size: 18 }), t("lobby.add_bot"));
  if (!levels.length) return button;
  return h(
    "span",
    { class: "add-bot" },
    button,
    h("select", { id: "bot-level", class: "level-select", disabled, "aria-label": t("bots.new_level"), title: t("bots.new_level"), value: level, onchange: remember }, options(levels, level, true)),
  );
}

/**
 * The level of the bot that plays `p`'s seat: a tag, or for the host in the lobby a
 * picker that changes it; nothing for a person's seat or a family without levels.
 * @param {import("./app.js").RoomPlayer} p
 */
export function levelBadge(p) {
  const levels = botLevels();
  if (!levels.length || !p.bot_level || !(p.bot || p.bot_playing)) return null;
  if (isHost() && room()?.status === "lobby" && p.bot) {
    const label = t("bots.level_of", { name: p.name });
    /** @param {Event} e */
    const change = (e) => {
      const select = /** @type {HTMLSelectElement} */ (e.currentTarget);
      send({ type: "bot_level", seat: p.seat, level: select.value }, select);
    };
    return h("select", { class: "tag tag-level level-select", "data-level": p.bot_level, "aria-label": label, title: label, value: p.bot_level, onchange: change }, options(levels, p.bot_level, false));
  }
  return h("span", { class: "tag tag-level", "data-level": p.bot_level, title: t("bots.level_title") }, levelName(p.bot_level));
}
