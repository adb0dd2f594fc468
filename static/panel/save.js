// A panel's save, which htmx sends, when the network loses it. A new hand waits in the
// outbox (outbox.js) and the panel moves on; any other entry (a correction) waits in its
// panel, whole, with the key and version it was made with, says "Not sent yet", and goes
// out again by itself when the server answers ("Try again" sends it at once): the server
// knows it (stored once) or finds the sheet moved on (the stale-sheet flow).
//
// A tap on a panel shows at once that its save is on its way (the button pressed, the panel
// busy); a one-tap choice made meanwhile (another player's button) is not lost: it is
// pressed again on the panel the answer brings, or goes behind a save the network lost.
//
// Interface: pendingOf(form) (the entry a lost save left, or null); takeUp(form) (a panel
// being set up gets that entry back: true if it did); clearFailed(form) (a panel emptied
// says nothing of a failure); sendPending() (the server answers: whatever waits goes out).
import { PANEL, render, setValue } from "./controls.js";
import { forget, remember } from "./drafts.js";
import { mustWait, send, take } from "./outbox.js";

// Kept among the entries of drafts.js, where phones have it already.
const pendingKey = (form) => "tablemate:entry:pending:" + form.getAttribute("action");

export function pendingOf(form) {
  const kept = localStorage.getItem(pendingKey(form));
  return kept ? JSON.parse(kept) : null;
}

function failed(form, shown) {
  const notice = form.querySelector("[data-save-failed]");
  if (notice) notice.hidden = !shown;
}

// The button a waiting entry was sent with (a Burro player's) stays marked.
function markWaiting(form, pending) {
  const [name, value] = (pending && pending.submitter) || [];
  for (const button of form.querySelectorAll("button[name]")) {
    button.classList.toggle("waiting", button.name === name && button.value === value);
  }
}

export function clearFailed(form) {
  failed(form, false);
  markWaiting(form, null);
}

const isSave = (event) => event.detail.elt && event.detail.elt.matches && event.detail.elt.matches(PANEL);

// What a request sends (the button pressed among it), as htmx made it up.
const sentFields = (event) => (event.detail.requestConfig ? [...event.detail.requestConfig.formData] : null);

// The button a panel was last sent with, to send it again.
const lastSubmitter = new WeakMap();

function keepPending(form, sent) {
  // A new hand waits with the others, and the panel moves on.
  if (sent && take(form, sent)) return;
  const submitter = lastSubmitter.get(form);
  const pending = {
    fields: [...new FormData(form)].filter(([name]) => name !== "csrf_token"),
    submitter: submitter && submitter.name ? [submitter.name, submitter.value] : null,
  };
  try {
    localStorage.setItem(pendingKey(form), JSON.stringify(pending));
  } catch (full) { /* the entry stays on screen, with its "Try again" */ }
  failed(form, true);
  markWaiting(form, pending);
}

// The pending entry back in its panel (after a reload, or on the copy kept offline).
export function takeUp(form) {
  const pending = pendingOf(form);
  if (!pending) return false;
  for (let pass = 0; pass < 2; pass += 1) {
    for (const [name, value] of pending.fields) setValue(form, name, value);
    render(form);
  }
  failed(form, true);
  markWaiting(form, pending);
  if (form.dataset.queue) {
    // A new hand an older version of this script kept here joins the others.
    localStorage.removeItem(pendingKey(form));
    take(form, [...pending.fields, ...(pending.submitter ? [pending.submitter] : [])]);
  } else {
    remember(form);
  }
  return true;
}

function resend(form) {
  if (form.dataset.sending || !window.htmx) return;
  failed(form, false);
  const pending = pendingOf(form);
  const [name, value] = (pending && pending.submitter) || [];
  const remembered = lastSubmitter.get(form);
  // The same button again, clicked, so that htmx sends its value (a player's button
  // carries the player).
  const again = remembered && remembered.isConnected ? remembered
    : [...form.querySelectorAll("button")].find((button) => name && button.name === name && button.value === value);
  if (again && !again.disabled) again.click();
  else form.requestSubmit();
}

export function sendPending() {
  send();
  if (!navigator.onLine) return;
  for (const form of document.querySelectorAll(PANEL)) {
    if (pendingOf(form)) resend(form);
  }
}

// A server that answered but could not store the entry (503), or one the stream still
// reaches while saves fail, is asked again now and then.
const RESEND_MS = 4000;
setInterval(() => { if (!document.hidden) sendPending(); }, RESEND_MS);
window.addEventListener("online", sendPending);

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-retry]");
  const form = button && button.closest(PANEL);
  if (!form) return;
  event.preventDefault();
  resend(form);
});

// --- A save on its way ----------------------------------------------------------------

// The panels whose save is on its way, by their request: once the answer has replaced the
// sheet, htmx tells of the request on what is left of the page, not on the form.
const saving = new WeakMap();

// The choice tapped while a panel's save was on its way, by the panel's action: [name,
// value, ready], ready once the answer that brings the next panel has come.
const tapsAfter = new Map();

function showSaving(form, button) {
  form.setAttribute("aria-busy", "true");
  if (button && form.contains(button)) button.classList.add("saving");
}

function clearSaving(form) {
  form.removeAttribute("aria-busy");
  for (const button of form.querySelectorAll("button.saving, button.queued")) {
    button.classList.remove("saving", "queued");
  }
}

// The tap again, on the panel now on the page: it saves the next hand, or waits behind.
// A panel not set up yet (main.js) is waited for; with none (the match ended) it lapses.
function pressAgain(action) {
  const [name, value] = tapsAfter.get(action);
  const form = [...document.querySelectorAll(PANEL)].find(
    (panel) => panel.getAttribute("action") === action && !panel.dataset.sending);
  if (form && !form.dataset.ready) return;
  tapsAfter.delete(action);
  const button = form && [...form.querySelectorAll("button[name]")].find(
    (candidate) => candidate.name === name && candidate.value === value);
  if (button && !button.disabled) button.click();
}

// Before htmx hears the submit (capture): shown at once, and a tap while the save is on its
// way is kept here, since htmx would send it from the panel its answer has replaced.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!form.matches(PANEL) || !window.htmx) return;
  if (!form.dataset.sending) {
    showSaving(form, event.submitter);
    return;
  }
  event.preventDefault();
  event.stopPropagation();
  const button = event.submitter;
  // A repeated Save of the same entry is the same hand, which is on its way already.
  if (!button || !button.name) return;
  for (const queued of form.querySelectorAll("button.queued")) queued.classList.remove("queued");
  button.classList.add("queued");
  tapsAfter.set(form.getAttribute("action"), [button.name, button.value, false]);
}, true);

// A save htmx does not send after all (a field it finds invalid) is not on its way.
document.addEventListener("htmx:validation:halted", (event) => {
  if (isSave(event)) clearSaving(event.detail.elt);
});

document.addEventListener("htmx:beforeRequest", (event) => {
  if (!isSave(event)) return;
  // Hands wait already, or the phone is offline: this one goes behind them, at once.
  if (mustWait(event.detail.elt)) {
    event.preventDefault();
    clearSaving(event.detail.elt);
    take(event.detail.elt, sentFields(event));
    return;
  }
  event.detail.elt.dataset.sending = "true";
  saving.set(event.detail.xhr, event.detail.elt);
});

// The answer's panel is set up (htmx:load) before the swap has settled.
document.addEventListener("htmx:afterSettle", () => {
  for (const [action, [, , ready]] of [...tapsAfter]) if (ready) pressAgain(action);
});

// Told on the sheet, the target, before the answer replaces it.
document.addEventListener("htmx:beforeSwap", (event) => {
  const form = saving.get(event.detail.xhr);
  if (!form) return;
  if (event.detail.xhr.status >= 500) {
    event.detail.shouldSwap = false;
    keepPending(form, sentFields(event));
  } else {
    // Answered: saved, or refused with the entry sent back on the sheet. Either way it
    // no longer waits here, nor in the sheet the answer brings: sent again, it would
    // bring that sheet again, over whatever the player tapped meanwhile.
    localStorage.removeItem(pendingKey(form));
  }
});
for (const trouble of ["htmx:sendError", "htmx:timeout"]) {
  document.addEventListener(trouble, (event) => {
    if (isSave(event)) keepPending(event.detail.elt, sentFields(event));
  });
}
document.addEventListener("htmx:afterRequest", (event) => {
  const form = saving.get(event.detail.xhr);
  if (!form) return;
  delete form.dataset.sending;
  clearSaving(form);
  if (event.detail.successful) forget(form);
  const action = form.getAttribute("action");
  const tap = tapsAfter.get(action);
  if (!tap) return;
  const status = event.detail.xhr.status;
  if (event.detail.successful) tap[2] = true;
  // Lost on the network: the hand before it waits on the phone, and this one behind it.
  else if (status === 0 || status >= 500) pressAgain(action);
  // Refused: the player reads why before tapping again.
  else tapsAfter.delete(action);
});

// A plain form (no htmx yet) leaves the page: what it sends is saved or refused there.
document.addEventListener("submit", (event) => {
  if (!event.target.matches(PANEL)) return;
  if (event.submitter && event.submitter.isConnected) lastSubmitter.set(event.target, event.submitter);
  if (!window.htmx) {
    forget(event.target);
    localStorage.removeItem(pendingKey(event.target));
  }
});
