// Cues for a player whose phone is in a pocket or on the table: a short beep and a
// vibration when it becomes their move (muted with a toggle kept in localStorage), and
// a screen wake lock while a game is on, taken again when the page comes back.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";

const MUTE_KEY = "reverie:mute";

let muted = (() => {
  try {
    return localStorage.getItem(MUTE_KEY) === "1";
  } catch {
    return false;
  }
})();

/** @type {AudioContext | null} */
let audio = null;
let wasMove = false;
let started = false;

/** The audio context is made (or woken) by a tap: browsers start it only then. */
function unlockAudio() {
  const Ctx = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
  if (!Ctx) return;
  try {
    audio = audio || new Ctx();
    if (audio.state === "suspended") audio.resume().catch(() => {});
  } catch {
    audio = null;
  }
}

/** Two short soft tones. */
function beep() {
  const ctx = audio;
  if (!ctx || ctx.state !== "running") return;
  const now = ctx.currentTime;
  [[660, 0], [990, 0.14]].forEach(([freq, at]) => {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + at);
    gain.gain.exponentialRampToValueAtTime(0.12, now + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.13);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + at);
    osc.stop(now + at + 0.15);
  });
}

/**
 * A sand timer's sounds: a short tick in its last seconds, a falling alarm when it runs
 * out. Each alarm is also counted on the page (`body[data-alarms]`), since a test cannot
 * hear; nothing sounds while muted or before a first tap.
 * @param {"tick" | "alarm"} kind
 */
export function sandCue(kind) {
  if (kind === "alarm") document.body.dataset.alarms = String(Number(document.body.dataset.alarms || 0) + 1);
  if (muted || !audio || audio.state !== "running") return;
  const now = audio.currentTime;
  const notes = kind === "tick" ? [[1200, 0, 0.05, 0.06]] : [[880, 0, 0.3, 0.2], [660, 0.32, 0.3, 0.2], [440, 0.64, 0.6, 0.22]];
  for (const [freq, at, length, level] of notes) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = kind === "tick" ? "square" : "triangle";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + at);
    gain.gain.exponentialRampToValueAtTime(level, now + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + at + length);
    osc.connect(gain).connect(audio.destination);
    osc.start(now + at);
    osc.stop(now + at + length + 0.02);
  }
}

/** Whether sounds can play now (the browser allows them only after a first tap). */
export const soundOn = () => !muted && Boolean(audio && audio.state === "running");

/**
 * Every draw: a cue when my move begins (not for the move the page opened on).
 * @param {boolean} move
 */
export function cueMove(move) {
  if (move && !wasMove && started && !muted) {
    beep();
    try {
      // Before a first tap the browser refuses (and complains in the console).
      if (/** @type {any} */ (navigator).userActivation?.hasBeenActive !== false) navigator.vibrate?.([90, 60, 90]);
    } catch {
      /* not allowed here */
    }
  }
  wasMove = move;
  started = true;
}

/** @param {() => void} redraw */
export function muteButton(redraw) {
  const label = t(muted ? "cues.unmute" : "cues.mute");
  return h(
    "button",
    {
      type: "button", class: ["btn btn-quiet btn-icon cue-toggle", muted && "muted"], id: "cue-toggle", "aria-pressed": String(muted), "aria-label": label, title: label,
      onclick: () => {
        muted = !muted;
        try {
          localStorage.setItem(MUTE_KEY, muted ? "1" : "0");
        } catch {
          /* private mode */
        }
        if (!muted) {
          unlockAudio();
          beep();
        }
        redraw();
      },
    },
    icon(muted ? "bell_off" : "bell", { size: 18 }),
  );
}

/** @type {any} the screen wake lock, while held */
let lock = null;
let wantLock = false;

async function acquire() {
  const wl = /** @type {any} */ (navigator).wakeLock;
  if (!wl || lock || !wantLock || document.visibilityState !== "visible") return;
  try {
    lock = await wl.request("screen");
    lock.addEventListener("release", () => {
      lock = null;
    });
  } catch {
    lock = null; // refused (battery saver, no permission): the screen may sleep
  }
}

/**
 * Keep the screen on while a game is played.
 * @param {boolean} on
 */
export function keepAwake(on) {
  if (on === wantLock) return;
  wantLock = on;
  if (on) acquire();
  else if (lock) {
    lock.release().catch(() => {});
    lock = null;
  }
}

/** Listeners: a tap unlocks the sound; a page shown again takes the wake lock again. */
export function initCues() {
  for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, unlockAudio, { passive: true });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") acquire();
  });
}

/** For the tests: whether the lock is wanted and held. */
export const wakeState = () => ({ wanted: wantLock, held: Boolean(lock) });
