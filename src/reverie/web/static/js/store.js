// What this browser remembers about rooms: the seat token per room code.
export const tokenKey = (code) => `reverie:token:${code}`;

export function normaliseCode(text) {
  let s = String(text || "").trim();
  const m = /\/r\/([A-Za-z0-9]+)/.exec(s); // a pasted invite link
  if (m) s = m[1];
  return s.toUpperCase().replace(/[^A-Z0-9]/g, "");
}

export function loadToken(code) {
  try {
    return localStorage.getItem(tokenKey(code));
  } catch {
    return null;
  }
}

export function saveToken(code, token) {
  try {
    if (token) localStorage.setItem(tokenKey(code), token);
    else localStorage.removeItem(tokenKey(code));
  } catch {
    /* private mode: the seat lasts as long as the page */
  }
}
