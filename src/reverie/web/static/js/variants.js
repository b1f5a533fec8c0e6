// The games this server offers, from GET /api/variants: titles, player counts and each
// game's capabilities (docs/protocol.md, "Capabilities"). There is no copy of these facts
// in the client: a page that cannot load them says so.
import { getJSON } from "./common.js";

/**
 * @typedef {{name: string, title: string, family: string, min_players: number, max_players: number,
 *   capabilities: import("./shell/app.js").Capabilities}} Variant
 */

/** @type {Promise<Variant[]> | null} */
let loading = null;

/**
 * The server's list (asked once per page); rejects when it cannot be had.
 * @returns {Promise<Variant[]>}
 */
export function loadVariants() {
  if (!loading) {
    loading = getJSON("/api/variants").then((res) => {
      const list = res && Array.isArray(res.variants) ? res.variants : null;
      if (!list || !list.length) throw new Error("no variants");
      return list;
    });
    loading.catch(() => {
      loading = null; // the next render may try again
    });
  }
  return loading;
}

/**
 * @param {Variant[]} list
 * @param {string | null} name the first variant when null or unknown
 */
export function variantInfo(list, name) {
  return list.find((v) => v.name === name) || list[0];
}
