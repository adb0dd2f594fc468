// The unsaved entry kept on the phone (localStorage): it survives a reload, a language
// switch and a "Why?" visit. A panel's data-draft-key names its entry; data-remember="NAME
// NAME" the choices a table keeps from one hand to the next, for the whole match (under
// data-match-key), e.g. "Total only" for a side that counts on paper.
//
// Interface: remember(form), forget(form), restore(form) (true if an entry came back),
// hasDraft(form); applyKeptChoices(form), forgetOlder(form) (for a panel being set up);
// moveDraft(from, to) (an entry that follows its hand's number); entryOf(form) (the entry
// as kept, to compare). It keeps the entry after every change the player makes.
import { PANEL, render, setValue, valueOf, whole } from "./controls.js";

const STORE_PREFIX = "tablemate:entry:";
const NOT_STORED = new Set(["csrf_token", "version", "key", "press"]);

const storeKey = (form) => form.dataset.draftKey && STORE_PREFIX + form.dataset.draftKey;

export const entryOf = (form) => JSON.stringify([...new FormData(form)].filter(([name]) => !NOT_STORED.has(name)));

export function remember(form) {
  const key = storeKey(form);
  if (!key) return;
  try {
    localStorage.setItem(key, entryOf(form));
  } catch (full) { /* private mode or a full store: the entry stays on screen only */ }
}

export function forget(form) {
  const key = storeKey(form);
  if (key) localStorage.removeItem(key);
}

export const hasDraft = (form) => Boolean(storeKey(form) && localStorage.getItem(storeKey(form)));

export function restore(form) {
  const key = storeKey(form);
  const saved = key && localStorage.getItem(key);
  if (!saved) return false;
  const entries = JSON.parse(saved);
  // Twice: the first pass makes the choices that decide which fields are enabled.
  for (let pass = 0; pass < 2; pass += 1) {
    for (const [name, value] of entries) setValue(form, name, value);
    render(form);
  }
  return true;
}

// An entry kept under one hand's number moves to another, unless one is kept there already.
export function moveDraft(from, to) {
  const typed = localStorage.getItem(STORE_PREFIX + from);
  if (typed && !localStorage.getItem(STORE_PREFIX + to)) localStorage.setItem(STORE_PREFIX + to, typed);
  localStorage.removeItem(STORE_PREFIX + from);
}

// An entry saved as the next hand is not wanted once the sheet has moved past it.
export function forgetOlder(form) {
  const match = /^(.*):next-(\d+)$/.exec(form.dataset.draftKey || "");
  if (!match) return;
  const prefix = STORE_PREFIX + match[1] + ":next-";
  for (let index = localStorage.length - 1; index >= 0; index -= 1) {
    const key = localStorage.key(index);
    if (key && key.startsWith(prefix) && whole(key.slice(prefix.length)) < whole(match[2])) {
      localStorage.removeItem(key);
    }
  }
}

// --- The choices kept for the match ---------------------------------------------------

const keptKey = (form) => form.dataset.matchKey && STORE_PREFIX + form.dataset.matchKey + ":kept";

function keepChoices(form) {
  const key = keptKey(form);
  if (!key || !form.dataset.remember) return;
  const kept = Object.fromEntries(form.dataset.remember.split(" ").map((name) => [name, valueOf(form, name)]));
  try {
    localStorage.setItem(key, JSON.stringify(kept));
  } catch (full) { /* as above */ }
}

export function applyKeptChoices(form) {
  const key = keptKey(form);
  const kept = key && localStorage.getItem(key);
  if (!kept) return;
  for (const [name, value] of Object.entries(JSON.parse(kept))) setValue(form, name, value);
}

// --- After every change -------------------------------------------------------------

// A tap or a choice; typing, once controls.js (imported first, so listening first) has
// redrawn the panel and so enabled the fields that follow the choices.
document.addEventListener("panel-changed", (event) => {
  remember(event.target);
  keepChoices(event.target);
});
document.addEventListener("input", (event) => {
  const form = event.target.closest && event.target.closest(PANEL);
  if (form) remember(form);
});

// "Discard mine" drops the entry the sheet sent back, and whatever else the phone kept of
// the match; but not an entry typed for a later hand, behind hands that wait to be sent.
document.addEventListener("click", (event) => {
  const discard = event.target.closest("[data-discard]");
  if (!discard) return;
  for (const form of document.querySelectorAll(PANEL)) forget(form);
  const note = document.querySelector("#sheet [data-queue-note]");
  const next = note ? whole(note.dataset.next) : Infinity;
  const prefix = STORE_PREFIX + discard.dataset.discard + ":";
  for (const key of Object.keys(localStorage)) {
    const later = /:next-(\d+)$/.exec(key);
    if (key.startsWith(prefix) && !(later && whole(later[1]) > next)) localStorage.removeItem(key);
  }
});
