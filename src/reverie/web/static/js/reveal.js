// The results of a revealed round (game.last_round) and the check of the storyteller's
// commitment: sha256("reverie:" + story_card + ":" + salt) must equal the hash published
// before the vote.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { icon } from "./icons.js";
import { cardTile, cardRow } from "./cards.js";

export async function sha256Hex(text) {
  const data = new TextEncoder().encode(text);
  const digest = await crypto.subtle.digest("SHA-256", data);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** true / false, or null when there is nothing to check. */
export async function verifyCommitment(round) {
  if (!round || !round.commitment || round.salt === null || round.salt === undefined || round.story_card === null) return null;
  if (!(globalThis.crypto && crypto.subtle)) return null;
  const hex = await sha256Hex(`reverie:${round.story_card}:${round.salt}`);
  return hex === String(round.commitment).toLowerCase();
}

export function chip(player, extra = null) {
  return h(
    "span",
    { class: "chip", "data-seat": player ? player.seat : null },
    h("span", { class: "dot", style: { background: player?.color || "#888" }, "aria-hidden": "true" }),
    h("span", { class: "chip-name" }, player ? player.name : "?"),
    extra,
  );
}

function pointsText(p) {
  if (p > 0) return `+${p}`;
  if (p < 0) return `−${Math.abs(p)}`;
  return "0";
}

/**
 * round: last_round; players: merged [{seat, name, color, score}] indexed by seat;
 * gallery: true for the storyteller's gallery (every card is the storyteller's).
 */
export function revealView(round, players, { gallery = false, you = null, onClose = null } = {}) {
  const bySeat = (s) => players.find((p) => p.seat === s) || { seat: s, name: `#${s + 1}`, color: "#888" };
  const st = bySeat(round.storyteller);
  const verify = h("span", { class: "verify pending", "aria-live": "polite" }, icon("shield", { size: 18 }), t("reveal.checking"));
  if (!round.skipped) {
    verifyCommitment(round).then((ok) => {
      verify.classList.remove("pending");
      verify.replaceChildren(icon(ok ? "shield" : "warn", { size: 18 }), ok === null ? t("reveal.unchecked") : ok ? t("reveal.verified") : t("reveal.mismatch"));
      verify.classList.add(ok ? "ok" : ok === null ? "unknown" : "bad");
      verify.title = ok ? t("reveal.verified_hint") : "";
    });
  }
  const header = h(
    "div",
    { class: "reveal-head" },
    h("h2", { id: "reveal-title" }, t("reveal.title", { n: round.turn })),
    onClose ? h("button", { type: "button", class: "btn btn-quiet btn-small", id: "reveal-close", onclick: onClose }, t("reveal.close")) : null,
  );
  if (round.skipped) {
    return h(
      "section",
      { class: "panel reveal", id: "reveal-panel", "aria-labelledby": "reveal-title", "data-turn": round.turn },
      header,
      h("p", {}, t("reveal.skipped", { name: st.name })),
    );
  }
  const votedFor = round.votes || [];
  const tiles = (round.table || []).map((cell) => {
    const owner = bySeat(cell.owner);
    const isStory = cell.position === round.story_position;
    const voters = (cell.voters || []).map(bySeat);
    const below = h(
      "div",
      { class: "reveal-info" },
      isStory ? h("div", { class: "ribbon" }, icon("quill", { size: 16 }), t("reveal.story_card")) : null,
      h(
        "div",
        { class: "voters", "aria-label": t("reveal.voters") },
        voters.length
          ? [h("span", { class: "muted small votes-label" }, t("reveal.votes_label")), voters.map((v) => chip(v))]
          : h("span", { class: "muted small" }, t("reveal.no_votes")),
      ),
    );
    return cardTile(cell.card, {
      position: cell.position,
      story: isStory,
      mine: !gallery && cell.owner === you,
      note: gallery ? null : t("reveal.card_of", { name: owner.name }),
      below,
    });
  });
  const order = players.slice().sort((a, b) => (round.points[b.seat] ?? 0) - (round.points[a.seat] ?? 0));
  const points = h(
    "table",
    { class: "simple points-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("reveal.player")), h("th", { scope: "col" }, t("reveal.voted")), h("th", { scope: "col", class: "num" }, t("reveal.points")))),
    h(
      "tbody",
      {},
      order.map((p) => {
        const v = votedFor[p.seat];
        const pts = round.points[p.seat] ?? 0;
        return h(
          "tr",
          { "data-seat": p.seat, class: p.seat === round.storyteller ? "is-storyteller" : "" },
          h("td", {}, chip(p, p.seat === round.storyteller ? h("span", { class: "tag" }, t("reveal.storyteller")) : null)),
          h("td", {}, p.seat === round.storyteller ? "—" : v ? t("reveal.voted_for", { n: v }) : t("reveal.did_not_vote")),
          h("td", { class: ["num", pts > 0 ? "gain" : pts < 0 ? "loss" : ""] }, pointsText(pts)),
        );
      }),
    ),
  );
  const finders = votedFor.filter((v) => v === round.story_position).length;
  const voters = votedFor.filter((v) => v !== null && v !== undefined).length;
  const outcome = finders === 0 ? "none" : finders === voters ? "all" : "some";
  return h(
    "section",
    { class: "panel reveal", id: "reveal-panel", "aria-labelledby": "reveal-title", "data-turn": round.turn },
    header,
    h(
      "p",
      { class: "reveal-clue" },
      chip(st),
      " ",
      h("q", { class: "clue-text" }, round.clue || ""),
      round.restriction ? h("span", { class: "tag" }, t(`restriction.${round.restriction}.short`)) : null,
    ),
    h("p", { class: "reveal-outcome" }, t(`reveal.outcome.${outcome}`, { n: finders, total: voters })),
    cardRow(tiles, { cls: "reveal-row", label: t("reveal.table") }),
    h("div", { class: "reveal-bottom" }, points, h("p", { class: "verify-line" }, verify, h("span", { class: "muted small commitment" }, t("reveal.commitment", { hash: String(round.commitment || "").slice(0, 16) + "…" })))),
  );
}
