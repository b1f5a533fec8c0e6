// The game families' room modules, by the `client` capability of a room: the one place
// that names them (the shell asks through setFamilyChooser, in shell/app.js).
import { association } from "./association/index.js";
import { visual } from "./visual/index.js";
import { companion } from "./companion/index.js";
import { visualCompanion } from "./vcompanion/index.js";

/** @type {Record<string, import("../shell/contract.js").Family>} */
const FAMILIES = { association, visual, companion, "visual-companion": visualCompanion };

/**
 * @param {import("../shell/app.js").Capabilities} caps
 * @returns {import("../shell/contract.js").Family | null}
 */
export function familyFor(caps) {
  return FAMILIES[caps.client] || null;
}
