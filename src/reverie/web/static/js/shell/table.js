// The table screen (/r/{code}?table): a device on the table (a tablet, a laptop on the
// TV) shows the room to everyone: big, and with no secret on it, since it watches as a
// spectator. Its join panel shows a QR code of the room's address for phones to scan.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { getJSON } from "../common.js";
import { code, room, rerender } from "./app.js";

/** Whether this page is the table screen (never a seat: it holds no token). */
export const tableMode = new URLSearchParams(location.search).has("table");

/** @type {{url: string, lan_url: string | null} | null} */
let join = null;
let asked = false;

function askJoin() {
  if (asked) return;
  asked = true;
  getJSON(`/api/rooms/${encodeURIComponent(code)}/join`)
    .then((j) => {
      join = j;
      rerender();
    })
    .catch(() => {
      asked = false;
    });
}

/**
 * The QR code to join, the address in letters, and what to do when this screen was
 * opened at `localhost` (a phone cannot reach it there).
 * @param {{big?: boolean}} [opts]
 */
export function joinPanel({ big = false } = {}) {
  askJoin();
  const lan = join?.lan_url || null;
  const url = lan || join?.url || `${location.origin}/r/${code}`;
  const src = `/api/rooms/${encodeURIComponent(code)}/qr.svg${lan ? "?lan=1" : ""}`;
  const r = room();
  return h(
    "div",
    { class: ["panel", "join-panel", big && "big"], id: "join-panel" },
    h("h2", {}, t(r?.status === "lobby" ? "table.join_title" : "table.join_late")),
    h("img", { class: "join-qr", id: "join-qr", src, alt: t("table.qr_alt", { url }), width: 264, height: 264 }),
    h("p", { class: "join-url" }, h("code", { id: "join-url" }, url)),
    h("p", { class: "muted small" }, t("table.room_code", { code })),
    lan ? h("p", { class: "notice small", id: "join-lan" }, t("table.lan_hint")) : null,
  );
}

/** A link that opens this room as the table screen (for the host's lobby). */
export function tableLink() {
  return h("a", { class: "btn btn-quiet btn-small", id: "open-table", href: `/r/${encodeURIComponent(code)}?table`, target: "_blank", rel: "noopener" }, t("table.open"));
}
