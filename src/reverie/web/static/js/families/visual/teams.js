// Teams of the drawing game: their names and colours, and the lobby's team columns
// (join a team, stand aside; the host sets the number of teams and can balance them).
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { icon } from "../../icons.js";
import { colorName } from "../../common.js";

/** @typedef {import("../../shell/app.js").Room} Room */

/** @param {number | null | undefined} team */
export function teamName(team) {
  return teamNameIn(team, t);
}

/**
 * A team's name in another language (its `t`); `teamName` keeps one parameter, as
 * `list.map(teamName)` calls it.
 * @param {number | null | undefined} team
 * @param {import("../../i18n.js").Translate} tr
 */
export function teamNameIn(team, tr) {
  return team === null || team === undefined ? tr("teams.none") : tr("teams.name", { n: team + 1 });
}

/**
 * A team's colour, from the `teams` capability.
 * @param {Room | null} room
 * @param {number | null} team
 */
export function teamColor(room, team) {
  const list = room?.capabilities?.teams?.colors || room?.team_colors || [];
  return (team !== null && list.length && list[team % list.length]) || "#888";
}

/**
 * A team's name with its colour: a small coloured badge.
 * @param {Room | null} room
 * @param {number | null} team
 * @param {{cls?: string, tr?: import("../../i18n.js").Translate}} [opts]
 */
export function teamBadge(room, team, { cls = "", tr = t } = {}) {
  return h(
    "span",
    { class: ["team-badge", cls], "data-team": team ?? "none", style: { "--team": teamColor(room, team) } },
    h("span", { class: "team-dot", "aria-hidden": "true" }),
    h("span", { class: "team-label" }, teamNameIn(team, tr)),
  );
}

/**
 * The seat that stays outside the teams (the `teams` capability's `host_aside`: the
 * host's device is the table's), or null.
 * @param {Room} room
 * @returns {number | null}
 */
export function deviceSeat(room) {
  if (!room.capabilities.teams?.host_aside) return null;
  return room.players.find((p) => p.host)?.seat ?? null;
}

/**
 * The room's `teams` capability, which every room of the drawing game has.
 * @param {Room} room
 */
function teamSpec(room) {
  const spec = room.capabilities.teams;
  if (!spec) throw new Error("the room has no teams: not a drawing game");
  return spec;
}

/**
 * Teams with too few players (the `teams` capability's min_size) once the unassigned
 * are dealt into the smallest teams.
 * @param {Room} room
 */
export function shortTeams(room) {
  const spec = teamSpec(room);
  const count = room.team_count || spec.min;
  const minSize = spec.min_size;
  const device = deviceSeat(room);
  const sizes = Array.from({ length: count }, (_, k) => room.players.filter((p) => p.team === k && p.seat !== device).length);
  let free = room.players.filter((p) => p.seat !== device && (p.team === null || p.team === undefined || p.team >= count)).length;
  while (free > 0) {
    const k = sizes.indexOf(Math.min(...sizes));
    sizes[k] += 1;
    free -= 1;
  }
  return sizes.map((n, k) => (n < minSize ? k : null)).filter((k) => k !== null);
}

/**
 * The lobby's teams: one column per team and one of the players without a team.
 * @param {{room: Room, me: number | null, isHost: boolean, send: (frame: Record<string, any>, anchor?: Element) => unknown,
 *   badges: (p: any) => import("../../dom.js").Child, hostTools: (p: any) => import("../../dom.js").Child}} ctx
 */
export function teamsLobby(ctx) {
  const r = ctx.room;
  const mine = ctx.me;
  const host = ctx.isHost;
  const limits = teamSpec(r);
  const count = r.team_count || limits.min;
  const myTeam = r.players.find((p) => p.seat === mine)?.team ?? null;
  const device = deviceSeat(r);
  // The table's device plays in no team: it has no team to join.
  const seated = mine !== null && mine !== device;
  /** @param {import("../../shell/app.js").RoomPlayer} p */
  const inTeam = (p) => p.seat !== device && p.team !== null && p.team !== undefined && p.team < count;
  /** @param {import("../../shell/app.js").RoomPlayer} p */
  const member = (p) =>
    h(
      "li",
      { class: ["lobby-player", "team-member", p.seat === mine && "is-you"], "data-seat": p.seat, key: p.seat },
      h("span", { class: "dot big", style: { background: p.color }, title: colorName(p.color) }),
      h(
        "span",
        { class: "lobby-name" },
        h("span", { class: "pname" }, p.name),
        ctx.badges(p),
        p.seat === device ? h("span", { class: "tag tag-device" }, icon("eye", { size: 13 }), t("teams.device")) : null,
      ),
      host ? ctx.hostTools(p) : null,
    );
  /** @param {number | null} team */
  const column = (team) => {
    const list = r.players.filter((p) => (team === null ? !inTeam(p) : inTeam(p) && p.team === team));
    const mineHere = seated && (team === null ? myTeam === null || myTeam >= count : myTeam === team);
    const headingId = `team-h-${team ?? "none"}`;
    return h(
      "section",
      {
        class: ["team-col", team === null && "team-none", mineHere && "is-mine"],
        "data-team": team ?? "none",
        style: team === null ? null : { "--team": teamColor(r, team) },
        "aria-labelledby": headingId,
        key: team ?? "none",
      },
      h(
        "h4",
        { class: "team-head", id: headingId },
        team === null ? null : h("span", { class: "team-dot", "aria-hidden": "true" }),
        h("span", { class: "team-name" }, teamName(team)),
        h("span", { class: "team-count", title: t("teams.count", { n: list.length }) }, h("span", { "aria-hidden": "true" }, String(list.length)), h("span", { class: "visually-hidden" }, t("teams.count", { n: list.length }))),
      ),
      list.length
        ? h("ul", { class: "team-list" }, list.map(member))
        : h("p", { class: "muted small team-empty" }, team === null ? t("teams.nobody_aside") : t("teams.empty")),
      seated && !mineHere
        ? h(
            "button",
            {
              type: "button",
              class: ["btn", "btn-small", team === null ? "btn-quiet" : "btn-team"],
              id: `join-team-${team ?? "none"}`,
              onclick: (/** @type {Event} */ e) => ctx.send({ type: "team", team }, /** @type {Element} */ (e.currentTarget)),
            },
            team === null ? t("teams.stand_aside") : t("teams.join", { team: teamName(team) }),
          )
        : null,
    );
  };
  const short = shortTeams(r);
  const aside = r.players.filter((p) => !inTeam(p) && p.seat !== device).length;
  const countChoices = [];
  for (let n = limits.min; n <= limits.max; n++) countChoices.push(h("option", { value: String(n) }, String(n)));
  const countSelect = h(
    "select",
    {
      id: "team-count",
      value: String(count),
      onchange: (/** @type {Event} */ e) => {
        const sel = /** @type {HTMLSelectElement} */ (e.currentTarget);
        ctx.send({ type: "teams", count: Number(sel.value) }, sel);
      },
    },
    countChoices,
  );
  return [
    h(
      "div",
      { class: "teams-head" },
      h("h3", {}, t("lobby.players", { n: r.players.length, seats: r.seats })),
      host
        ? h(
            "div",
            { class: "teams-tools" },
            h("label", { for: "team-count", class: "inline-label" }, t("teams.how_many")),
            countSelect,
            h(
              "button",
              { type: "button", class: "btn btn-quiet btn-small", id: "balance-teams", onclick: (/** @type {Event} */ e) => ctx.send({ type: "balance" }, /** @type {Element} */ (e.currentTarget)) },
              icon("dice", { size: 16 }),
              t("teams.balance"),
            ),
          )
        : h("p", { class: "muted small" }, t("teams.count_is", { n: count })),
    ),
    h("div", { class: "teams-grid", id: "teams" }, Array.from({ length: count }, (_, k) => column(k)), column(null)),
    aside ? h("p", { class: "muted small" }, t("teams.aside_hint")) : null,
    short.length && r.players.length >= r.min_players
      ? h("p", { class: "small warn-text" }, icon("warn", { size: 16 }), " ", t("teams.too_small", { teams: short.map(teamName).join(", ") }))
      : null,
  ];
}
