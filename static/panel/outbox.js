// New hands that wait on the phone to be sent. A new hand whose save finds no server (no
// network, no answer, a server that cannot store it just now) is kept here, in order, per
// match, in localStorage, and the panel moves on to the next hand at once; the sheet's
// history shows each waiting hand greyed, "Not sent yet". When the server answers again
// they go out one after another, each with the key and version it was made with: the
// server stores a hand sent twice once, and refuses one made on a sheet that has moved on
// (409) or that a rule refuses (422). A refusal is swapped in like any answer, with its
// usual choice, and the hands after it wait until the player has chosen. Corrections and
// undo do not queue (save.js keeps a single one of those in its panel).
//
// Interface: connect({swap, blank, onItsWay}) lends what it uses of the page (live.js puts
// an answer's sheet in place and holds the news while a hand is on its way; main.js empties
// the panel for the next hand). mustWait(form): a new hand about to be sent goes behind the
// waiting ones instead. take(form, fields): a new hand that was not sent waits, and the
// panel moves on. arrange(form): a panel's number, version, key and kept entry follow the
// hands that wait. show() draws the waiting hands; send() sends the next. newKey() makes
// an idempotency key.
// A new hand's panel is form[data-queue="TOKEN"]; the sheet's [data-queue-note] holds the
// texts (templates/matches/_sheet.html, waiting_note).
import { describe, wordsOf } from "./controls.js";
import { moveDraft } from "./drafts.js";
import { scoresOf } from "./preview.js";

const PREFIX = "tablemate:queue:";
let lent = null;
let sending = false;
// The hand the server refused, until the player has chosen ({token, key, choice}; with
// choice false the refusal offered none, e.g. an expired form, and "Try again" resumes).
let held = null;

// --- Kept on the phone ----------------------------------------------------------------

// Per match: the hands in order ({action, fields, label}) and the key of the entry typed
// for the hand after them. A store that refuses keeps them for this page only.
const unstored = new Map();

function load(token) {
  try {
    const kept = JSON.parse(localStorage.getItem(PREFIX + token));
    if (kept && Array.isArray(kept.hands)) return kept;
  } catch (unreadable) { /* as if nothing were kept */ }
  return unstored.get(token) || { hands: [], draft: null };
}

function store(token, kept) {
  unstored.delete(token);
  try {
    if (kept.hands.length || kept.draft) localStorage.setItem(PREFIX + token, JSON.stringify(kept));
    else localStorage.removeItem(PREFIX + token);
  } catch (full) {
    unstored.set(token, kept);
  }
}

const valueIn = (hand, name) => (hand.fields.find(([field]) => field === name) || [name, ""])[1];
const keyOf = (hand) => valueIn(hand, "key");

function drop(token, key) {
  const kept = load(token);
  kept.hands = kept.hands.filter((hand) => keyOf(hand) !== key);
  store(token, kept);
}

const noteOn = (root) => root && root.querySelector("[data-queue-note]");
const shownNote = () => noteOn(document.getElementById("sheet"));
const isHeld = (token) => Boolean(held && held.token === token);

export const connect = (page) => { lent = page; };

// 96 random bits, as the server makes them (crypto.randomUUID needs https; a laptop on
// the table's wifi serves plain http).
export const newKey = () => Array.from(crypto.getRandomValues(new Uint8Array(12)),
                                       (byte) => byte.toString(16).padStart(2, "0")).join("");

// --- A hand that was not sent ----------------------------------------------------------

// A hand in the panel's words, for the history while it waits: its preview's scores if
// they answer it, else what was chosen and tapped.
function label(form, fields) {
  const scores = scoresOf(form);
  return scores.length ? scores.map(wordsOf).join(" · ") : describe(form, fields);
}

export function mustWait(form) {
  if (!form.dataset.queue || form.dataset.holds) return false;
  return !navigator.onLine || load(form.dataset.queue).hands.length > 0;
}

export function take(form, fields) {
  const token = form.dataset.queue;
  if (!token || !lent) return false;
  const kept = load(token);
  const hand = { action: form.getAttribute("action"), label: label(form, fields),
                 fields: fields.filter(([name]) => name !== "csrf_token") };
  if (form.dataset.holds && isHeld(token) && form.dataset.holds === held.key) {
    // The refused hand sent again from the panel it came back in: it takes its place.
    const at = kept.hands.findIndex((waiting) => keyOf(waiting) === held.key);
    if (at < 0) kept.hands.unshift(hand);
    else kept.hands.splice(at, 1, hand);
    held = null;
  } else if (!kept.hands.some((waiting) => keyOf(waiting) === keyOf(hand))) {
    kept.hands.push(hand);
  }
  store(token, kept);
  const next = lent.blank(form);
  show();
  // As after a save: the top of the sheet, with the line saying what waits, and the
  // next hand's heading.
  const sheet = next.closest("#sheet");
  if (sheet) sheet.scrollIntoView({ block: "start" });
  return true;
}

// --- The next hand's panel -------------------------------------------------------------

export function arrange(form) {
  const token = form.dataset.queue;
  const note = token && noteOn(form.closest("#sheet"));
  if (!note) return;
  // A panel the server sent back with a refused hand in it is that hand's: left as sent.
  if (isHeld(token) && held.choice && form.dataset.fresh === undefined && form.dataset.draftKey) {
    form.dataset.holds = held.key;
  }
  if (form.dataset.holds) return;
  const kept = load(token);
  const number = parseInt(note.dataset.next, 10) + kept.hands.length;
  for (const shown of form.querySelectorAll("[data-next-number]")) shown.textContent = String(number);
  const last = kept.hands[kept.hands.length - 1];
  const version = form.elements.namedItem("version");
  if (last && version) version.value = String(parseInt(valueIn(last, "version"), 10) + 1);
  // A key of its own: a page kept offline carries the key of a hand sent since.
  const key = form.elements.namedItem("key");
  if (key && (!form.dataset.arranged || kept.hands.some((hand) => keyOf(hand) === key.value))) {
    key.value = newKey();
  }
  form.dataset.arranged = "true";
  followEntry(form, token, kept, number);
}

// The entry typed for the next hand is kept under that hand's number: when the number
// moves (a hand another phone saved, one discarded), the entry moves with it.
function followEntry(form, token, kept, number) {
  const draft = /^(.*):next-\d+$/.exec(form.dataset.draftKey || "");
  if (!draft) return;
  const now = `${draft[1]}:next-${number}`;
  form.dataset.draftKey = now;
  if (kept.draft && kept.draft !== now) moveDraft(kept.draft, now);
  const draftNow = kept.hands.length ? now : null;
  if (kept.draft !== draftNow) store(token, { ...kept, draft: draftNow });
}

// --- On the sheet ----------------------------------------------------------------------

export function show() {
  const note = shownNote();
  if (!note) return;
  const token = note.dataset.queueNote;
  const hands = load(token).hands;
  const choosing = isHeld(token) && held.choice;
  // The refused hand is the server's answer's to show; in the history it points there.
  drawRows(note, hands, choosing);
  const greyed = choosing ? hands.slice(1) : hands;
  const text = choosing ? (greyed.length === 1 ? note.dataset.heldOne : note.dataset.heldMany)
    : (greyed.length === 1 ? note.dataset.one : note.dataset.many);
  note.querySelector(".queue-text").textContent = greyed.length ? text.replace("{num}", greyed.length) : "";
  // A refusal without the stale notice's "Discard mine" (a rule, an expired form).
  const noChoice = isHeld(token) && !document.querySelector("#sheet .stale");
  note.querySelector("[data-queue-send]").hidden = choosing;
  note.querySelector("[data-queue-drop]").hidden = !noChoice;
  note.hidden = !greyed.length && !noChoice;
}

function drawRows(note, hands, choosing) {
  const sheet = note.closest("#sheet");
  const table = sheet.querySelector("table.history");
  if (!table) return;
  for (const row of table.querySelectorAll("tr.waiting")) row.remove();
  const columns = table.tHead ? table.tHead.rows[0].cells.length : 2;
  hands.forEach((hand, index) => {
    const row = table.tBodies[0].insertRow();
    const refused = choosing && index === 0;
    row.className = refused ? "waiting refused" : "waiting";
    const number = document.createElement("th");
    number.scope = "row";
    number.textContent = String(parseInt(note.dataset.next, 10) + index);
    const cell = document.createElement("td");
    cell.colSpan = columns - 1;
    const mark = document.createElement("span");
    mark.className = "waiting-mark";
    mark.textContent = refused ? note.dataset.heldRow : note.dataset.row;
    cell.append(mark, " ", hand.label);
    row.append(number, cell);
  });
  for (const part of sheet.querySelectorAll("[data-waiting-only]")) part.hidden = !hands.length;
}

// --- Sent in order ---------------------------------------------------------------------

export function send() {
  const note = shownNote();
  if (!note || !lent || sending || !navigator.onLine) return;
  const token = note.dataset.queueNote;
  const hand = load(token).hands[0];
  // A correction on the page is not swapped away under the player's hands.
  if (!hand || isHeld(token) || document.querySelector("#sheet form.panel:not([data-queue])")) return;
  sending = true;
  const exchanged = exchange(token, hand);
  lent.onItsWay(exchanged);
  exchanged.then((next) => {
    sending = false;
    if (next) send();
  });
}

// One hand to the server and its answer on the sheet; true if the next may follow.
async function exchange(token, hand) {
  const body = new URLSearchParams(hand.fields);
  const csrf = document.querySelector("input[name=csrf_token]");
  if (csrf) body.set("csrf_token", csrf.value);
  let answer;
  let html;
  try {
    answer = await fetch(hand.action, { method: "POST", body, credentials: "same-origin",
                                        headers: { "HX-Request": "true", "HX-Current-URL": location.href } });
    html = await answer.text();
  } catch (offline) {
    return false;
  }
  // No server behind the wifi, or one that cannot store it just now: later.
  if (answer.status >= 500) return false;
  // Meanwhile the phone may have gone to another page.
  const here = Boolean(shownNote() && shownNote().dataset.queueNote === token);
  if (answer.ok) {
    // Stored (or stored before, its answer lost: the key says so).
    drop(token, keyOf(hand));
    if (!here) return true;
    lent.swap(html, true);
    // A panel kept for what is typed in it follows too.
    const form = document.querySelector("#sheet form[data-queue]");
    if (form) arrange(form);
    show();
    return true;
  }
  if (!here) return false;
  held = { token, key: keyOf(hand), choice: answer.status === 409 || answer.status === 422 };
  if (held.choice) {
    lent.swap(html, false);
    document.getElementById("sheet").scrollIntoView({ block: "start" });
  } else {
    said(html);
    show();
  }
  return false;
}

// Any other refusal comes as a message for the page's flash line.
function said(html) {
  const flash = document.getElementById("flash");
  if (flash) flash.replaceChildren(...new DOMParser().parseFromString(html, "text/html").body.childNodes);
}

// --- The player's choice on a refused hand ---------------------------------------------

// Saved after all, from the stale notice or from the panel it came back in.
document.addEventListener("htmx:beforeSwap", (event) => {
  const asked = event.detail.requestConfig;
  if (!held || !held.choice || !asked || asked.verb !== "post") return;
  const status = event.detail.xhr.status;
  const hand = load(held.token).hands.find((waiting) => keyOf(waiting) === held.key);
  const path = (address) => new URL(address, location.href).pathname;
  if (status >= 200 && status < 300 && hand && path(asked.path) === path(hand.action)) {
    drop(held.token, held.key);
    held = null;
  }
});

document.addEventListener("click", (event) => {
  const note = shownNote();
  const token = note && note.dataset.queueNote;
  if (event.target.closest("[data-discard]") && isHeld(token)) {
    // "Discard mine": that hand only; the sheet it opens sends the next.
    drop(token, held.key);
    held = null;
  } else if (event.target.closest("[data-queue-drop]") && isHeld(token)) {
    drop(token, held.key);
    held = null;
    show();
    send();
  } else if (event.target.closest("[data-queue-send]") && note) {
    if (isHeld(token) && !held.choice) held = null;
    send();
  }
});

// Another tab of this phone changed the queue: this page reads it again.
window.addEventListener("storage", (event) => {
  if (event.key && event.key.startsWith(PREFIX)) show();
});

