// The checks a machine can make on a clue, as the server makes them
// (src/reverie/rules/association/clues.py). The server stays the judge.

export const MAX_CLUE_LENGTH = 200;
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;
const CLOSERS = " \t\n\"'»”’)]….";

export function normaliseClue(text) {
  return String(text || "").split(/\s+/).filter(Boolean).join(" ");
}

export function countWords(text) {
  return (String(text).match(WORD) || []).length;
}

export function isQuestion(text) {
  let s = String(text);
  let end = s.length;
  while (end > 0 && CLOSERS.includes(s[end - 1])) end--;
  s = s.slice(0, end);
  return s.endsWith("?") || s.endsWith("？") || s.endsWith("¿");
}

/** null when the clue passes, else {key, params} for t(). */
export function checkClue(text, restriction) {
  const clue = normaliseClue(text);
  if (!clue) return { key: "error.empty_clue", params: {} };
  if (clue.length > MAX_CLUE_LENGTH) return { key: "error.clue_too_long", params: { max: MAX_CLUE_LENGTH } };
  const want = restriction === "four_words" ? 4 : restriction === "three_words" ? 3 : 0;
  if (want) {
    const got = countWords(clue);
    if (got !== want) return { key: "clue.wrong_words", params: { want, n: got } };
  } else if (restriction === "question" && !isQuestion(clue)) {
    return { key: "clue.not_question", params: {} };
  }
  return null;
}
