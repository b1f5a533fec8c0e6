// A companion game on a phone: roll for the first storyteller, say the clue is told,
// count the cards on the table, then enter in secret where one's card lies and one's
// vote. The cards themselves stay on the table.
import { h, $ } from "../../dom.js";
import { t } from "../../i18n.js";
import { icon } from "../../icons.js";
import { nameOf, action, rerender, tableLang } from "../../shell/app.js";
import { restrictionTag } from "../association/stage.js";
import { heard } from "../../shell/people.js";

/** What this page has picked in the current step, before it is sent. */
export const picked = {
  key: "",
  /** @type {number | null} */
  position: null,
  clue: "",
};

/** The turn (and clash) in which this page asked to enter its position again. */
let changing = "";

/** @param {Record<string, any>} g */
function stepKey(g) {
  return `${g.turn}:${g.phase}:${g.my_position ?? "-"}:${g.my_vote ?? "-"}:${g.clashes || 0}`;
}

/** @param {MouseEvent | SubmitEvent} e */
const at = (e) => /** @type {Element} */ (e.currentTarget);

/** @param {number[]} seats @param {number | null} mine */
export function names(seats, mine) {
  return seats.map((s) => (s === mine ? t("status.you") : nameOf(s))).join(", ");
}

/** @param {Record<string, any>} g */
export function restrictionNote(g) {
  const r = g.restriction;
  if (!r) return null;
  return h(
    "div",
    { class: "restriction-box", role: "note", id: "companion-restriction", "data-restriction": r },
    icon(r, { size: 28 }),
    h("div", {}, h("strong", {}, t(`restriction.${r}.short`)), h("div", { class: "small" }, t(`restriction.${r}.rule_other`)), h("div", { class: "small muted" }, t("companion.clue.table_judges"))),
  );
}

/** @param {Record<string, any>} g @param {number | null} mine */
function dice(g, mine) {
  const rows = g.first_rolls || [];
  const row = rows[rows.length - 1] || [];
  const contenders = g.contenders || [];
  const mayRoll = mine !== null && contenders.includes(mine) && !row[mine];
  return [
    h("h2", { class: "stage-title" }, icon("dice", { size: 22 }), " ", t("companion.dice.title")),
    rows.length > 1 ? h("p", { class: "notice", id: "dice-tie" }, t("companion.dice.tie", { names: names(contenders, mine) })) : h("p", { class: "muted" }, t("companion.dice.hint")),
    mayRoll
      ? h("div", { class: "actions" }, h("button", { type: "button", class: "btn btn-big", id: "roll", onclick: (/** @type {MouseEvent} */ e) => action({ type: "roll" }, at(e)) }, icon("dice", { size: 20 }), t("companion.dice.roll")))
      : mine !== null && contenders.length && !contenders.includes(mine)
        ? h("p", { class: "muted" }, t("companion.dice.out"))
        : null,
  ];
}

/** @param {Record<string, any>} g @param {number | null} mine */
function clue(g, mine) {
  const st = g.storyteller;
  const tells = mine !== null && (st === mine || st === null);
  const parts = [restrictionNote(g)];
  if (st === null) parts.push(h("h2", { class: "stage-title" }, t("companion.clue.claim_title")), h("p", { class: "muted" }, t("companion.clue.claim_hint")));
  else if (st === mine) parts.push(h("h2", { class: "stage-title" }, t("companion.clue.yours")), h("p", { class: "muted" }, t("companion.clue.yours_hint")));
  else parts.push(h("h2", { class: "stage-title" }, t("companion.clue.listen", { name: nameOf(st) })));
  if (tells) {
    /** @param {SubmitEvent} e */
    const onTell = (e) => {
      e.preventDefault();
      action({ type: "tell", text: picked.clue }, $("#tell"));
    };
    parts.push(
      h(
        "form",
        { class: "tell-form", onsubmit: onTell },
        h("label", { for: "tell-text" }, t("companion.clue.text_label")),
        h("input", { id: "tell-text", maxlength: 200, autocomplete: "off", value: picked.clue, placeholder: t("companion.clue.text_placeholder"), oninput: (/** @type {InputEvent} */ e) => { picked.clue = /** @type {HTMLInputElement} */ (e.currentTarget).value; } }),
        h("div", { class: "actions" }, h("button", { type: "submit", class: "btn btn-big", id: "tell" }, icon("quill", { size: 18 }), t(st === null ? "companion.clue.claim" : "companion.clue.told"))),
      ),
    );
  }
  return parts;
}

/** @param {Record<string, any>} g @param {number | null} mine */
function count(g, mine) {
  const st = g.storyteller;
  const expected = g.gallery ? 6 : g.players.length;
  const parts = [clueLine(g)];
  if (st === mine) {
    /** @param {SubmitEvent} e */
    const onCount = (e) => {
      e.preventDefault();
      const input = /** @type {HTMLInputElement} */ ($("#count-cards"));
      action({ type: "count", cards: Number(input.value) }, $("#count"));
    };
    parts.push(
      h("h2", { class: "stage-title" }, t(g.gallery ? "companion.count.gallery_title" : "companion.count.title")),
      h("p", { class: "muted" }, t(g.gallery ? "companion.count.gallery_hint" : "companion.count.hint")),
      h(
        "form",
        { class: "count-form", onsubmit: onCount },
        h("label", { for: "count-cards" }, t("companion.count.label")),
        h("input", { id: "count-cards", type: "number", inputmode: "numeric", min: 2, max: 12, value: expected }),
        h("button", { type: "submit", class: "btn", id: "count" }, icon("check", { size: 18 }), t("companion.count.confirm")),
      ),
    );
  } else {
    parts.push(
      h("h2", { class: "stage-title" }, t(g.gallery ? "companion.count.wait_gallery" : "companion.count.lay", { name: nameOf(st) })),
      h("p", { class: "muted" }, t("companion.count.wait", { name: nameOf(st) })),
    );
  }
  return parts;
}

/** @param {Record<string, any>} g */
function clueLine(g) {
  return h(
    "div",
    { class: "clue-banner" },
    h("span", { class: "muted small" }, t("stage.clue_by", { name: nameOf(g.storyteller) })),
    g.clue ? heard(g.storyteller, `clue:${g.turn}`, h("q", { class: "clue-text", id: "current-clue", lang: tableLang() }, g.clue)) : h("span", { class: "muted" }, t("companion.clue.spoken")),
    g.restriction ? restrictionTag(g.restriction) : null,
  );
}

/**
 * Buttons 1..count; the chosen one is marked until it is confirmed.
 * @param {number} n @param {{mine?: number | null, id: string, label: (p: number) => string}} opts
 */
function positions(n, { mine = null, id, label }) {
  const buttons = [];
  for (let p = 1; p <= n; p++) {
    const own = p === mine;
    buttons.push(
      h("button", {
        type: "button", class: ["cpick", picked.position === p && "selected", own && "own"], "data-position": p, key: p,
        disabled: own, "aria-pressed": picked.position === p ? "true" : "false", "aria-label": own ? t("companion.secret.own", { n: p }) : label(p),
        onclick: () => { picked.position = p; rerender(); requestAnimationFrame(() => /** @type {HTMLElement | null} */ ($(`#${id}`))?.focus()); },
      }, String(p)),
    );
  }
  return h("div", { class: "cpick-grid", role: "group" }, buttons);
}

/** @param {Record<string, any>} g @param {number | null} mine */
function secret(g, mine) {
  const st = g.storyteller;
  /** @type {import("../../dom.js").Child[]} */
  const parts = [clueLine(g)];
  const places = mine !== null && (!g.gallery || mine === st);
  const votes = mine !== null && mine !== st;
  const n = g.count;
  const placedIn = (g.placed || []).length;
  const votedIn = (g.voted || []).length;
  const placers = g.gallery ? 1 : g.players.length;
  const progress = h("p", { class: "muted small", id: "secret-progress" }, t("companion.secret.progress", { placed: placedIn, placers, voted: votedIn, voters: g.players.length - 1 }));
  // A clash names nobody: every seat enters again and reads the same words.
  // Until every position is in again (then they are checked anew).
  const clashed = (g.clashes || 0) > 0 && placedIn < placers;
  if (clashed && !(places && g.my_position === null)) parts.push(h("p", { class: "notice", id: "recheck" }, t("companion.secret.recheck")));
  // Until every position is in, one's own may be entered again (a slip of the finger:
  // the rules take the new one and ask for the vote again).
  const roundKey = `${g.turn}:${g.clashes || 0}`;
  const canChange = places && g.my_position !== null && placedIn < placers;
  const editing = canChange && changing === roundKey;
  const changeButton = canChange && !editing
    ? h("p", { class: "actions" }, h("button", {
        type: "button", class: "btn btn-quiet btn-small", id: "change-place",
        onclick: () => { changing = roundKey; picked.position = null; rerender(); requestAnimationFrame(() => /** @type {HTMLElement | null} */ ($(".cpick"))?.focus()); },
      }, icon("undo", { size: 16 }), t("companion.secret.change", { n: g.my_position })))
    : null;
  if (places && (g.my_position === null || editing)) {
    const title = g.gallery ? "companion.secret.pick_title" : mine === st ? "companion.secret.story_title" : "companion.secret.place_title";
    parts.push(
      h("h2", { class: "stage-title" }, t(title)),
      clashed ? h("p", { class: "notice", id: "look-again", role: "status" }, t("companion.secret.look_again")) : null,
      h("p", { class: "muted" }, t("companion.secret.place_hint")),
      editing && g.my_vote !== null ? h("p", { class: "small", id: "change-note" }, t("companion.secret.change_note")) : null,
      positions(n, { id: "confirm-place", label: (p) => t("companion.secret.place_at", { n: p }) }),
      h("div", { class: "actions confirm-bar" }, h("button", { type: "button", class: "btn", id: "confirm-place", disabled: picked.position === null, onclick: (/** @type {MouseEvent} */ e) => { changing = ""; action({ type: "place", position: picked.position }, at(e)); } },
        icon("check", { size: 18 }), picked.position === null ? t("companion.secret.pick") : t("companion.secret.place_confirm", { n: picked.position })),
        editing ? h("button", { type: "button", class: "btn btn-quiet", id: "keep-place", onclick: () => { changing = ""; rerender(); } }, t("companion.secret.keep", { n: g.my_position })) : null),
    );
  } else if (votes && g.my_vote === null) {
    parts.push(
      h("h2", { class: "stage-title" }, t("companion.secret.vote_title")),
      h("p", { class: "muted" }, g.my_position ? t("companion.secret.vote_hint", { n: g.my_position }) : t("companion.secret.vote_hint_gallery")),
      positions(n, { mine: g.my_position, id: "confirm-vote", label: (p) => t("stage.vote_for", { n: p }) }),
      h("div", { class: "actions confirm-bar" }, h("button", { type: "button", class: "btn", id: "confirm-vote", disabled: picked.position === null, onclick: (/** @type {MouseEvent} */ e) => action({ type: "vote", position: picked.position }, at(e)) },
        icon("check", { size: 18 }), picked.position === null ? t("companion.secret.pick") : t("stage.vote_confirm", { n: picked.position }))),
      changeButton,
    );
  } else if (mine !== null) {
    const mineText = [
      g.my_position ? t("companion.secret.your_position", { n: g.my_position }) : null,
      g.my_vote ? t("companion.secret.your_vote", { n: g.my_vote }) : null,
    ].filter(Boolean).join(" · ");
    parts.push(h("h2", { class: "stage-title", id: "secret-done" }, t("companion.secret.done")), mineText ? h("p", { id: "secret-mine" }, mineText) : null, changeButton);
  } else {
    parts.push(h("h2", { class: "stage-title" }, t("companion.secret.entering")));
  }
  parts.push(progress);
  return parts;
}

/** The table's two decisions between turns: take the last reveal back, end the game. */
export function tableTools(/** @type {Record<string, any>} */ g) {
  if (g.phase !== "clue" || g.told) return null;
  const undo = g.can_undo
    ? h("button", { type: "button", class: "btn btn-quiet", id: "undo", onclick: (/** @type {MouseEvent} */ e) => { if (confirm(t("companion.undo.confirm", { n: g.last_round.turn }))) action({ type: "undo" }, at(e)); } }, icon("undo", { size: 18 }), t("companion.undo.button"))
    : null;
  const finish = g.rounds_played
    ? h("button", { type: "button", class: "btn btn-quiet", id: "finish", onclick: (/** @type {MouseEvent} */ e) => { if (confirm(t("companion.finish.confirm"))) action({ type: "finish" }, at(e)); } }, icon("flag", { size: 18 }), t("companion.finish.button"))
    : null;
  if (!undo && !finish) return null;
  return h("div", { class: "actions table-tools" }, undo, finish);
}

/** @param {Record<string, any>} g @param {number | null} mine */
export function stageView(g, mine) {
  const key = stepKey(g);
  if (picked.key !== key) {
    picked.key = key;
    picked.position = null;
    if (g.phase !== "clue") picked.clue = ""; // told: the next clue starts empty
  }
  const parts = g.phase === "dice" ? dice(g, mine) : g.phase === "clue" ? clue(g, mine) : g.phase === "count" ? count(g, mine) : secret(g, mine);
  return h("div", { class: ["panel", "stage", "companion-stage", `phase-${g.phase}`], "data-phase": g.phase, "data-turn": g.turn, key: `${g.turn}:${g.phase}` }, undoneNote(g), parts, mine !== null ? tableTools(g) : null);
}

/**
 * While a round taken back is entered again, every phone says who took it back, as the
 * table screen does (the room's log keeps the reveal that was taken back).
 * @param {Record<string, any>} g
 */
function undoneNote(g) {
  const last = lastUndone(g);
  if (!last || last.turn !== g.turn || (g.phase !== "count" && g.phase !== "secret")) return null;
  return h("p", { class: "notice small", id: "undone-note" }, icon("undo", { size: 16 }), " ", undoneText(last));
}

/**
 * The reveal taken back last, if any: `{seat, turn}`.
 * @param {Record<string, any>} g
 * @returns {{seat: number, turn: number} | undefined}
 */
export function lastUndone(g) {
  const undone = g.undone || [];
  return undone[undone.length - 1];
}

/**
 * Who took back the reveal of which round (phones and the table screen say it alike).
 * @param {{seat: number, turn: number}} last
 */
export function undoneText(last) {
  return t("companion.undo.done", { name: nameOf(last.seat), n: last.turn });
}
