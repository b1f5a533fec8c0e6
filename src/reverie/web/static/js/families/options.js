// Each game family's table options, by the `client` capability of a variant.
import * as association from "./association/options.js";
import * as visual from "./visual/options.js";
import * as companion from "./companion/options.js";

/**
 * @typedef {{
 *   optionsFields: (v: any, options: Record<string, any> | null, opts: {prefix: string, lead?: import("../dom.js").Child, disabled?: boolean, players?: {seat: number, name: string}[] | null}) => import("../dom.js").VNode,
 *   readOptions: (root: ParentNode, caps: import("../shell/app.js").Capabilities) => Record<string, any>,
 *   defaultSeats: (v: {max_players: number}) => number,
 *   proposed: Record<string, any>,
 * }} FamilyOptions
 */

/** @type {Record<string, FamilyOptions>} */
const BY_CLIENT = { association, visual, companion, "visual-companion": visual };

/** @param {{capabilities: import("../shell/app.js").Capabilities}} v */
export function familyOptions(v) {
  const fam = BY_CLIENT[v.capabilities.client];
  if (!fam) throw new Error(`no client module for ${v.capabilities.client}`);
  return fam;
}
