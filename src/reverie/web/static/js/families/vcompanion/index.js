// The Visual Game on paper (`client: "visual-companion"`): the drawings are on paper, one
// shared device on the table (the host's: it plays in no team) runs the turn, the board,
// the tokens and the sand timer, and the drawer reads the word on their own phone. The
// teams, the board and the panels are the drawing game's own modules.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { badges } from "../../shell/lobby.js";
import { tableMode, tableLink } from "../../shell/table.js";
import { defineFamily } from "../../shell/contract.js";
import { room, game, me, theRoom, theGame, isHost, send, nameOf } from "../visual/ctx.js";
import { teamName, teamsLobby } from "../visual/teams.js";
import { scoresView, boardView, lastTurnView, logView, finalView, noteTurn } from "../visual/panels.js";
import { moveTarget } from "../visual/decide.js";
import { deviceView } from "./device.js";
import { phoneView } from "./phone.js";
import { tableView } from "./table.js";
import { watchSand, sandEnded } from "./sand.js";
import { memberTools, keepWordsFirst, chatSilence, announceTurn } from "../visual/index.js";

const DECIDING = new Set(["move", "bonus", "lose"]);

/** Whether this page is the table's shared device. */
const isDevice = () => game()?.you?.role === "table";

/** Pages that sound the sand timer: the shared device and the table screen. */
const sounds = () => tableMode || isDevice();

function status() {
  const g = theGame();
  const turn = g.turn || {};
  const parts = [t("status.turn", { n: turn.number }), t("vstatus.team_plays", { team: teamName(turn.team) }), t(`vphase.${g.phase}`)];
  if (turn.proverb && (g.phase === "think" || g.phase === "draw")) parts.push(t("vstatus.proverb"));
  else if (g.phase === "choose" || g.phase === "think" || g.phase === "draw") {
    parts.push(turn.drawer === me() ? t("vstatus.you_draw") : t("vstatus.drawer", { name: nameOf(turn.drawer) }));
  }
  return parts.join(" · ");
}

/** The device's move when the table must decide; a drawer's when their word arrives. */
function yourMove() {
  const g = game();
  if (!g || me() === null || g.phase === "over") return false;
  if (isDevice()) return g.phase === "choose" || DECIDING.has(g.phase);
  return g.phase === "think" && (g.turn?.drawers || []).includes(me());
}

function main() {
  const r = theRoom();
  const g = game();
  if (g && sounds()) watchSand(g);
  const over = g !== null && (g.phase === "over" || r.status === "over");
  const playing = g !== null && r.status === "playing" && !over && Boolean(g.turn);
  return {
    final: over ? finalView(g) : null,
    reveal: lastTurnView(),
    stage: playing ? (isDevice() ? deviceView(g) : phoneView(g)) : null,
  };
}

function side() {
  const r = theRoom();
  const g = game();
  const playing = g !== null && r.status !== "lobby";
  return {
    scores: playing ? scoresView(g) : null,
    board: playing ? boardView(g, isDevice() ? moveTarget() : null) : null,
    log: g ? logView() : null,
  };
}

/** The lobby: the teams (the host's device in none) and the way to the table screen. */
function lobbyPlayers() {
  const host = room()?.players.find((p) => p.host);
  return [
    teamsLobby({ room: theRoom(), me: me(), isHost: isHost(), send, badges, hostTools: memberTools }),
    h("p", { class: "small muted table-link-note", id: "device-note" }, t("vcompanion.lobby.device", { name: host ? host.name : "—" }), " ", tableLink()),
  ];
}

/** A drawer keeps silent from reading their word until the sand has run out. */
function mayChat() {
  const g = game();
  return !(g && room()?.status === "playing" && (g.phase === "think" || g.phase === "draw") && (g.turn?.drawers || []).includes(me()));
}

export const visualCompanion = defineFamily({
  onState: (f, prev) => {
    noteTurn(f.game);
    if (sounds()) sandEnded(f.game, prev?.game || null);
  },
  status,
  yourMove,
  mayChat,
  chatSilence,
  lobbyPlayers,
  beforeStart: keepWordsFirst,
  announce: announceTurn,
  main,
  side,
  table: () => {
    const g = game();
    if (g) watchSand(g);
    return tableView();
  },
});
