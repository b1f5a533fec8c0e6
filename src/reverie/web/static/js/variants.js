// The association variants. The server's GET /api/variants is the source; this copy of
// the same facts (src/reverie/rules/association/variants.py, boards.py) lets the pages
// draw before it answers or when it cannot.
import { getJSON } from "./common.js";

const SPECIALS = {
  4: "four_words", 8: "question", 12: "brand", 16: "film", 20: "story",
  24: "four_words", 28: "question", 31: "brand", 34: "film", 37: "story",
};

export const FALLBACK_VARIANTS = [
  { name: "dixit", title: "Dixit", min_players: 3, max_players: 6, first_storyteller: "claim",
    board: { name: "dixit-track", length: 30, loops: true, specials: {} } },
  { name: "imaginarium", title: "Imaginarium", min_players: 3, max_players: 8, first_storyteller: "random",
    board: { name: "imaginarium-clouds", length: 39, loops: true, specials: SPECIALS } },
  { name: "imaginarium-harmony", title: "Imaginarium: Harmony", min_players: 3, max_players: 8,
    first_storyteller: "random", board: { name: "imaginarium-clouds", length: 39, loops: true, specials: SPECIALS } },
  { name: "pictoric", title: "Pictoric", min_players: 3, max_players: 6, first_storyteller: "dice",
    board: { name: "pictoric-track", length: 40, loops: false, specials: {} } },
  { name: "pictoric-gallery", title: "Pictoric: the storyteller's gallery", min_players: 3, max_players: 12,
    first_storyteller: "dice", board: { name: "pictoric-track", length: 40, loops: false, specials: {} } },
  { name: "visual", title: "Visual Game", family: "visual", min_players: 4, max_players: 12,
    teams: { min: 2, max: 6, colors: [] } },
];

let cache = null;

export async function loadVariants() {
  if (cache) return cache;
  try {
    const res = await getJSON("/api/variants");
    // The protocol doc shows a bare list; the server sends {"palette", "variants"}.
    const list = Array.isArray(res) ? res : res && Array.isArray(res.variants) ? res.variants : null;
    cache = list && list.length ? list : FALLBACK_VARIANTS;
  } catch {
    cache = FALLBACK_VARIANTS;
  }
  return cache;
}

export function variantInfo(name) {
  const list = cache || FALLBACK_VARIANTS;
  return list.find((v) => v.name === name) || FALLBACK_VARIANTS.find((v) => v.name === name) || FALLBACK_VARIANTS[0];
}

export const isVisualVariant = (name) => name === "visual";
export const isPictoric = (name) => String(name).startsWith("pictoric");
export const isGallery = (name) => name === "pictoric-gallery";
export const isImaginarium = (name) => String(name).startsWith("imaginarium");
export const RESTRICTIONS = ["four_words", "three_words", "question", "brand", "film", "story"];
