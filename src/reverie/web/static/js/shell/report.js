// Reporting a player, or the whole table, to the site's operator: a modal <dialog>
// (room.html's #report) with the reasons the server takes, an optional note, and the
// server's answer told inside it (the ack, or why the report was refused). The page's
// renderer draws it with everything else, so a change of language reaches it too; the
// button that opened it has the focus back when it closes.
import { h, byId } from "../dom.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { errorText, toast } from "../common.js";
import { nameOf, send, rerender } from "./app.js";

/** The reasons the server takes (store/moderation.py REPORT_REASONS), in this order. */
export const REASONS = ["abuse", "hate", "sexual", "spam", "cheating", "name", "other"];
/** The longest note the server takes (REPORT_TEXT_MAX). */
const TEXT_MAX = 500;

/**
 * The open dialog's state; `open` false while it is closed.
 * `seat`: the reported seat, null for the whole table. `sent`: the request's id while its
 * answer is awaited. `done`: the report was taken. `error`: why it was not, as shown.
 */
const form = {
  open: false,
  /** @type {number | null} */
  seat: null,
  /** which member of a team seat (0: its first person, or a solo seat's) */
  member: 0,
  name: "",
  reason: "",
  text: "",
  /** @type {number | null} */
  sent: null,
  done: false,
  error: "",
  /** @type {string} the id of the button that opened the dialog (the renderer may replace the element) */
  opener: "",
};

const dialog = () => /** @type {HTMLDialogElement} */ (byId("report"));

/**
 * Open the dialog about the player in `seat` (null: the whole table).
 * @param {number | null} seat
 * @param {Element | null} opener the button that opened it: the focus goes back there
 * @param {{member: number, name: string}} [person] one member of a team seat
 */
export function openReport(seat, opener, person) {
  Object.assign(form, {
    open: true, seat, member: person?.member || 0, name: person?.name || (seat === null ? "" : nameOf(seat)), reason: "", text: "", sent: null, done: false, error: "", opener: opener?.id || "",
  });
  wire();
  rerender();
  const dlg = dialog();
  if (!dlg.open) dlg.showModal();
  /** @type {HTMLElement | null} */ (dlg.querySelector("input[name='report-reason']"))?.focus();
}

/** Close the dialog (its focus goes back where it came from). */
export function closeReport() {
  const dlg = dialog();
  if (dlg.open) dlg.close(); // the close event does the rest
}

let wired = false;

/** The dialog's own listeners, added once: Escape and close() both end in `close`. */
function wire() {
  if (wired) return;
  wired = true;
  const dlg = dialog();
  dlg.addEventListener("close", () => {
    form.open = false;
    rerender();
    const back = form.opener ? document.getElementById(form.opener) : null;
    (back || document.getElementById("people-title"))?.focus();
  });
}

/** @param {SubmitEvent} e */
function onSubmit(e) {
  e.preventDefault();
  if (form.sent !== null) return;
  if (!REASONS.includes(form.reason)) {
    // The server would say the same (bad_reason): said here without a round trip.
    form.error = errorText("bad_reason", "");
    rerender();
    /** @type {HTMLElement | null} */ (dialog().querySelector("input[name='report-reason']"))?.focus();
    return;
  }
  form.error = "";
  form.sent = send({ type: "report", seat: form.seat, member: form.member, reason: form.reason, text: form.text.trim() });
  rerender();
}

/**
 * The server took a report: true when the ack was this dialog's.
 * @param {Record<string, any>} f
 */
export function reportAcked(f) {
  if (f.request?.frame?.type !== "report") return false;
  if (form.open && f.ref === form.sent) {
    form.sent = null;
    form.done = true;
    rerender();
    /** @type {HTMLElement | null} */ (dialog().querySelector("#report-close"))?.focus();
  } else {
    toast(t("report.sent"), { kind: "info" });
  }
  return true;
}

/**
 * The server refused a report: true when the error was about one (told in the dialog
 * while it is open, else as a toast).
 * @param {Record<string, any>} f
 */
export function reportFailed(f) {
  if (f.request?.frame?.type !== "report") return false;
  const text = f.code === "rate_limited" ? t("report.rate_limited") : errorText(f.code, f.message, f.params);
  if (form.open && f.ref === form.sent) {
    form.sent = null;
    form.error = text;
    rerender();
  } else {
    toast(text);
  }
  return true;
}

/** @param {string} reason */
function reasonOption(reason) {
  const id = `report-reason-${reason}`;
  return h(
    "div",
    { class: "report-reason", key: reason },
    h("input", {
      type: "radio", name: "report-reason", id, value: reason, checked: form.reason === reason,
      onchange: () => { form.reason = reason; form.error = ""; rerender(); },
    }),
    h("label", { for: id }, t(`report.reason.${reason}`)),
  );
}

/** The dialog's content: null while it is closed. */
export function reportView() {
  if (!form.open) return null;
  const title = form.seat === null ? t("report.title_table") : t("report.title", { name: form.name });
  const closeButton = h(
    "button",
    { type: "button", class: ["btn", !form.done && "btn-quiet"], id: "report-close", onclick: closeReport },
    icon("close", { size: 18 }),
    t(form.done ? "common.close" : "report.cancel"),
  );
  if (form.done) {
    return h(
      "div",
      { class: "report-inner" },
      h("h2", { id: "report-title" }, icon("check", { size: 20 }), " ", title),
      h("p", { id: "report-done", role: "status" }, t("report.sent")),
      h("div", { class: "actions" }, closeButton),
    );
  }
  return h(
    "form",
    { class: "report-inner", id: "report-form", novalidate: true, onsubmit: onSubmit },
    h("h2", { id: "report-title" }, icon("warn", { size: 20 }), " ", title),
    h("p", { class: "small muted", id: "report-about" }, t(form.seat === null ? "report.about_table" : "report.about")),
    h(
      "fieldset",
      { class: "report-reasons", "aria-describedby": form.error ? "report-error" : null },
      h("legend", {}, t("report.reason_legend")),
      REASONS.map(reasonOption),
    ),
    h(
      "div",
      { class: "field" },
      h("label", { for: "report-text" }, t("report.text_label")),
      h("textarea", {
        id: "report-text", rows: 3, maxlength: TEXT_MAX, value: form.text, "aria-describedby": "report-text-hint",
        oninput: (/** @type {InputEvent} */ e) => { form.text = /** @type {HTMLTextAreaElement} */ (e.currentTarget).value; },
      }),
      h("p", { class: "hint", id: "report-text-hint" }, t("report.text_hint")),
    ),
    // Always there, so that a screen reader hears the error the moment it is written in.
    h("p", { class: "report-error", id: "report-error", role: "alert" }, form.error ? [icon("warn", { size: 18 }), " ", form.error] : null),
    h(
      "div",
      { class: "actions" },
      h("button", { type: "submit", class: "btn", id: "report-send", "aria-disabled": form.sent !== null ? "true" : null }, icon("send", { size: 18 }), t(form.sent !== null ? "report.sending" : "report.send")),
      closeButton,
    ),
  );
}
