// Companion tables' options: the association fields their capabilities offer (no timers,
// no decks: the box has its own), read back as only those.
import { optionsFields as associationFields, readOptions as associationRead, defaultSeats } from "../association/options.js";

export { defaultSeats };
export const proposed = {};
export const optionsFields = associationFields;

/**
 * @param {ParentNode} root
 * @param {import("../../shell/app.js").Capabilities} caps
 */
export function readOptions(root, caps) {
  const all = associationRead(root, caps);
  /** @type {Record<string, any>} */
  const options = {};
  for (const name of caps.options) if (name in all) options[name] = all[name];
  return options;
}
