// The association games' stage: telling a clue, adding a card, voting. Where the
// storyteller's card comes from is the `story_source` capability: the hand, the top of
// the deck (shown to the storyteller), or a gallery of cards face up on the table.
import { h, $ } from "../../dom.js";
import { t } from "../../i18n.js";
import { icon } from "../../icons.js";
import { toast } from "../../common.js";
import { caps, players, nameOf, action, rerender, tableLang, game } from "../../shell/app.js";
import { heard } from "../../shell/people.js";
import { cardTile, cardRow, cardImage } from "./cards.js";
import { checkClue } from "./clue.js";
import { pointAt, teamBar, teamNote } from "./pointing.js";

/** What this page has chosen in the current phase, before it is sent. */
export const choice = {
  key: "", // the phase the choices belong to
  /** @type {number | null} */
  card: null,
  /** @type {number | null} */
  position: null,
  claim: false,
  clueDraft: "",
};

/** @param {Record<string, any>} g */
export function resetChoices(g) {
  const key = g ? `${g.turn}:${g.phase}:${g.storyteller}` : "";
  if (choice.key === key) return;
  choice.key = key;
  choice.card = null;
  choice.position = null;
  if (g && g.phase !== "clue") {
    choice.claim = false;
    choice.clueDraft = "";
  }
}

const source = () => caps()?.story_source || "hand";

function focusConfirm() {
  requestAnimationFrame(() => /** @type {HTMLElement | null} */ (document.querySelector("#confirm-card, #confirm-vote, #clue-text"))?.focus());
}

/** @param {number} card */
function pickCard(card) {
  choice.card = card;
  // A team seat's members see the card a teammate would play or tell.
  pointAt(game()?.phase === "clue" ? { type: "clue", text: choice.clueDraft.trim(), card } : { type: "submit", card });
  rerender();
  focusConfirm();
}

/** @param {string} r */
export function restrictionTag(r) {
  return h("span", { class: "tag tag-restriction", title: t(`restriction.${r}.rule`) }, icon(r, { size: 16 }), t(`restriction.${r}.short`));
}

/** @param {string | null} r @param {boolean} mine */
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

/** @param {Record<string, any>} g */
function clueBanner(g) {
  if (!g.clue) return null;
  const st = players().find((p) => p.seat === g.storyteller);
  return h(
    "div",
    { class: "clue-banner" },
    h("span", { class: "muted small" }, t("stage.clue_by", { name: st ? st.name : "—" })),
    // A muted storyteller's clue is hidden here until the reader shows it.
    heard(g.storyteller, `clue:${g.turn?.number ?? g.turn}`, h("q", { class: "clue-text", id: "current-clue", lang: tableLang() }, g.clue)),
    g.restriction ? restrictionTag(g.restriction) : null,
  );
}

/**
 * @param {Record<string, any>} g
 * @param {{choosable: boolean, chooseLabel?: string, chosen?: number | null}} opts
 */
function handRow(g, { choosable, chooseLabel = "", chosen = null }) {
  const hand = g.hand || [];
  if (!hand.length) return h("p", { class: "muted" }, t("stage.empty_hand"));
  return cardRow(
    hand.map((/** @type {number} */ c) => cardTile(c, { selected: chosen === c, onChoose: choosable ? pickCard : null, chooseLabel, note: teamNote("card", c) })),
    { cls: "hand-row", label: t("stage.your_hand") },
  );
}

/** @param {string | null} r */
const restrictionHint = (r) => (r ? t(`restriction.${r}.rule`) : t("stage.clue_free"));

/**
 * While the first storyteller is open the server fixes the restriction on the claim;
 * a single restriction for the whole game applies to anyone.
 * @param {Record<string, any>} g
 */
function claimRestriction(g) {
  const o = g.options?.restrictions;
  return o && o !== "board" && o !== "off" ? o : null;
}

/** The storyteller picks the card (hand or gallery) unless the deck dealt it. */
const picksCard = () => source() !== "deck_top";

/** @param {Record<string, any>} g */
function clueForm(g) {
  const chosen = picksCard() ? choice.card : g.story_card;
  const restriction = g.storyteller === null ? claimRestriction(g) : g.restriction;
  const problem = choice.clueDraft.trim() ? checkClue(choice.clueDraft, restriction) : null;
  const pickHint = source() === "gallery" ? "stage.pick_gallery" : "stage.pick_hand";
  /** @param {SubmitEvent} e */
  const onClue = (e) => {
    e.preventDefault();
    const button = $("#clue-submit");
    const card = picksCard() ? choice.card : null;
    if (picksCard() && card === null) {
      toast(t(pickHint), { anchor: button });
      return;
    }
    const bad = checkClue(choice.clueDraft, restriction);
    if (bad) {
      toast(t(bad.key, bad.params), { anchor: button });
      $("#clue-text").focus();
      return;
    }
    action({ type: "clue", text: choice.clueDraft.trim(), card }, button);
  };
  return h(
    "form",
    { class: "clue-form", id: "clue-form", novalidate: true, onsubmit: onClue },
    chosen === null
      ? h("p", { class: "pick-hint" }, icon("zoom", { size: 18 }), t(pickHint))
      : h("div", { class: "chosen" }, h("div", { class: "chosen-thumb" }, cardImage(chosen, { alt: t("stage.chosen_card") })), h("span", { class: "small muted" }, t("stage.chosen_card"))),
    h("label", { for: "clue-text" }, t("stage.your_clue")),
    h(
      "div",
      { class: "row actions" },
      h(
        "div",
        { class: "grow" },
        h("input", {
          id: "clue-text", name: "clue", maxlength: 200, autocomplete: "off", enterkeyhint: "send",
          value: choice.clueDraft, placeholder: t("stage.clue_placeholder"), "aria-describedby": "clue-hint",
          "aria-invalid": problem ? "true" : "false",
          oninput: (/** @type {InputEvent} */ e) => {
            choice.clueDraft = /** @type {HTMLInputElement} */ (e.currentTarget).value;
            rerender();
          },
          // The teammates see the clue once it is typed (not each key: each is logged).
          onchange: () => {
            if (choice.card !== null || !picksCard()) pointAt({ type: "clue", text: choice.clueDraft.trim(), card: picksCard() ? choice.card : null });
          },
        }),
      ),
      h("button", { type: "submit", class: "btn", id: "clue-submit" }, icon("quill", { size: 18 }), t("stage.tell")),
    ),
    h("div", { class: ["hint", problem && "bad"], id: "clue-hint" }, problem ? t(problem.key, problem.params) : restrictionHint(restriction)),
  );
}

/** @param {Record<string, any>} g @param {number | null} mine */
function stageClue(g, mine) {
  const st = g.storyteller;
  const seated = mine !== null;
  const parts = [];
  const gallery = source() === "gallery";
  const dealt = source() === "deck_top";
  const iTell = seated && (st === mine || (st === null && choice.claim));
  if (st === null) {
    parts.push(h("h2", { class: "stage-title" }, t("stage.claim_title")), h("p", {}, t("stage.claim_text")));
    if (seated && !choice.claim) {
      const claim = () => {
        choice.claim = true;
        rerender();
        focusConfirm();
      };
      parts.push(h("div", { class: "actions" }, h("button", { type: "button", class: "btn", id: "claim", onclick: claim }, icon("quill", { size: 18 }), t("stage.claim_button"))));
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
        (g.table || []).map((/** @type {any} */ c) =>
          cardTile(c.card, { position: c.position, selected: iTell && choice.card === c.card, onChoose: iTell ? pickCard : null, chooseLabel: t("stage.choose_secret") }),
        ),
        { cls: "table-row", label: t("stage.gallery") },
      ),
    );
  }
  if (dealt && st === mine && g.story_card !== null) {
    parts.push(h("h3", {}, t("stage.drawn_card")), cardRow([cardTile(g.story_card, { story: true, note: t("stage.drawn_card") })], { cls: "table-row" }));
  }
  const fromHand = iTell && !dealt;
  const handPart = !gallery && seated
    ? [h("h3", {}, t(fromHand ? "stage.pick_from_hand" : "stage.your_hand")), handRow(g, { choosable: fromHand, chooseLabel: t("stage.choose_story"), chosen: choice.card })]
    : [];
  // Choosing from the hand comes first, then the clue; otherwise the clue, then the hand.
  if (fromHand) parts.push(...handPart, clueForm(g));
  else parts.push(iTell ? clueForm(g) : null, ...handPart);
  return parts;
}

/** @param {Record<string, any>} g @param {number | null} mine */
function stageSubmit(g, mine) {
  const parts = [clueBanner(g)];
  const waiting = g.waiting_for || [];
  const played = (g.played || []).length;
  const progress = t("stage.others_playing", { n: played, total: played + waiting.length });
  if (mine === null) return [...parts, h("p", {}, progress)];
  if (mine === g.storyteller) {
    return [
      ...parts,
      h("h2", { class: "stage-title" }, t("stage.wait_cards")),
      h("p", { class: "muted" }, progress),
      g.story_card !== null ? cardRow([cardTile(g.story_card, { story: true, note: t("stage.your_story_card") })], { cls: "table-row" }) : null,
      h("h3", {}, t("stage.your_hand")),
      handRow(g, { choosable: false }),
    ];
  }
  if ((g.sat_out || []).includes(mine)) return [...parts, h("p", {}, t("stage.sat_out"))];
  if (g.my_card !== null && g.my_card !== undefined) {
    return [
      ...parts,
      h("h2", { class: "stage-title" }, t("stage.card_down")),
      h("p", { class: "muted" }, progress),
      cardRow([cardTile(g.my_card, { mine: true, note: t("stage.your_card") })], { cls: "table-row" }),
      h("h3", {}, t("stage.your_hand")),
      handRow(g, { choosable: false }),
    ];
  }
  return [
    ...parts,
    h("h2", { class: "stage-title" }, t("stage.pick_submit")),
    h("p", { class: "muted" }, t("stage.pick_submit_hint")),
    h(
      "div",
      { class: "actions confirm-bar" },
      choice.card !== null ? h("div", { class: "chosen-thumb" }, cardImage(choice.card, { alt: t("stage.chosen_card") })) : null,
      h("button", { type: "button", class: "btn", id: "confirm-card", disabled: choice.card === null, onclick: (/** @type {MouseEvent} */ e) => action({ type: "submit", card: choice.card }, /** @type {Element} */ (e.currentTarget)) },
        icon("check", { size: 18 }), t("stage.play_card")),
    ),
    handRow(g, { choosable: true, chooseLabel: t("stage.choose_this"), chosen: choice.card }),
  ];
}

/** @param {Record<string, any>} g @param {number | null} mine */
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
  const tiles = (g.table || []).map((/** @type {any} */ c) => {
    const mineCard = g.my_position === c.position;
    const note = mineCard ? (mine === st ? t("stage.your_story_card") : t("stage.your_card")) : g.my_vote === c.position ? t("stage.your_vote") : teamNote("position", c.position);
    /** @param {number} _card @param {number} [pos] */
    const pick = (_card, pos) => {
      choice.position = pos ?? null;
      pointAt(pos === undefined ? null : { type: "vote", position: pos });
      rerender();
      focusConfirm();
    };
    return cardTile(c.card, {
      position: c.position, mine: mineCard, story: mineCard && mine === st, note, disabled: mineCard,
      selected: choice.position === c.position || g.my_vote === c.position,
      onChoose: canVote && !mineCard ? pick : null,
      chooseLabel: t("stage.vote_for", { n: c.position }),
    });
  });
  if (canVote) {
    parts.push(
      h(
        "div",
        { class: "actions confirm-bar" },
        h("button", { type: "button", class: "btn", id: "confirm-vote", disabled: choice.position === null, onclick: (/** @type {MouseEvent} */ e) => action({ type: "vote", position: choice.position }, /** @type {Element} */ (e.currentTarget)) },
          icon("check", { size: 18 }), choice.position === null ? t("stage.vote_pick") : t("stage.vote_confirm", { n: choice.position })),
      ),
    );
  }
  parts.push(cardRow(tiles, { cls: "table-row vote-row", label: t("stage.table") }));
  if (mine !== null && source() !== "gallery" && (g.hand || []).length) {
    parts.push(h("details", { class: "hand-peek" }, h("summary", {}, t("stage.your_hand")), handRow(g, { choosable: false })));
  }
  return parts;
}

/** @param {Record<string, any>} g @param {number | null} mine */
export function stageView(g, mine) {
  resetChoices(g);
  const parts = [teamBar(), ...(g.phase === "clue" ? stageClue(g, mine) : g.phase === "submit" ? stageSubmit(g, mine) : stageVote(g, mine))];
  return h("div", { class: ["panel", "stage", `phase-${g.phase}`], "data-phase": g.phase, "data-turn": g.turn, key: `${g.turn}:${g.phase}` }, parts);
}
