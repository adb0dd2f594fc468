// The match's news: when another phone changed the match, the new sheet takes this one's
// place, keeping a panel with an unsaved entry as it is (its save then meets the
// stale-sheet flow). A sheet names its news on [data-seen]: the version it shows, its
// stream (data-events: /m/<token>/events, or /v/<view>/events for a watcher) and the
// address a phone asks instead where a stream keeps failing (data-news).
//
// Interface: connect({setUp}) (main.js sets up what a new sheet brings); listen() (the
// news of the sheet on the page, and no other); takeOver(html, keepUnsaved) (a sheet in an
// answer takes the page's place); onItsWay(promise) (news waits until this change of the
// phone's own is done).
import { PANEL } from "./controls.js";
import { hasDraft } from "./drafts.js";
import { keepCopy, reachable } from "./offline.js";
import { newKey } from "./outbox.js";
import { pendingOf, sendPending } from "./save.js";

let lent = null;
export const connect = (page) => { lent = page; };

// Changes this phone sends, by their request: news that comes while one is on its way
// may be of it, so it waits until the answer has brought the sheet, and is then heard
// only if it is newer still.
const changesOnTheirWay = new Set();
let heldNews = null;

// Forms change the match (save, undo, restore); the preview's questions do not. Only what
// is sent counts: a save the outbox takes instead never is.
document.addEventListener("htmx:beforeSend", (event) => {
  const sheet = document.getElementById("sheet");
  if (sheet && sheet.contains(event.detail.elt) && event.detail.elt.tagName === "FORM") {
    changesOnTheirWay.add(event.detail.xhr);
  }
});
function settled(change) {
  if (changesOnTheirWay.delete(change) && !changesOnTheirWay.size && heldNews) {
    const [html, id] = heldNews;
    heldNews = null;
    heard(html, id);
  }
}
// After htmx has told of a failure (it does so just after this event): a sheet the news
// brought must not take the form off the page before the failure is heard of.
document.addEventListener("htmx:afterRequest", (event) => queueMicrotask(() => settled(event.detail.xhr)));

// A change the outbox sends (a fetch, not htmx) holds the news back in the same way.
export function onItsWay(change) {
  const mark = {};
  changesOnTheirWay.add(mark);
  change.finally(() => settled(mark));
}

const unsaved = (form) => hasDraft(form) || Boolean(pendingOf(form));
const newsOf = () => document.querySelector("#sheet [data-seen]");
const versionOf = (id) => parseInt(id, 10);

// The sheet the news brings, for every phone alike: this phone's own token goes into
// its forms, and each entry form gets a key of its own.
function madeOurs(fresh) {
  const token = document.querySelector("input[name=csrf_token]");
  for (const input of fresh.querySelectorAll("input[name=csrf_token]")) {
    if (!input.value && token) input.value = token.value;
  }
  for (const input of fresh.querySelectorAll("input[name=key]")) {
    if (!input.value) input.value = newKey();
  }
}

// What is typed outside the panel into a form marked to keep it (a pair's code for the
// result) is in the new sheet's twin of that form too; the field typed into, if any.
function keepTyped(sheet, fresh) {
  let focused = null;
  for (const form of sheet.querySelectorAll("form[data-keep-typed]")) {
    const twin = fresh.querySelector(`form[data-keep-typed="${CSS.escape(form.dataset.keepTyped)}"]`);
    for (const input of twin ? form.querySelectorAll("input[name]:not([type=hidden])") : []) {
      const kept = twin.querySelector(`input[name="${CSS.escape(input.name)}"]`);
      if (!kept) continue;
      kept.value = input.value;
      if (input === document.activeElement) focused = kept;
    }
  }
  return focused;
}

// The new sheet takes this one's place, but a panel with an unsaved entry stays as it is
// (its save then meets the stale-sheet flow) unless the new sheet brings back an entry
// of its own (``keepUnsaved`` false: a waiting hand refused).
export function takeOver(html, keepUnsaved = true) {
  const sheet = document.getElementById("sheet");
  const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("sheet");
  if (!sheet || !fresh) return;
  madeOurs(fresh);
  const panel = sheet.querySelector(PANEL);
  const freshPanel = fresh.querySelector(PANEL);
  if (keepUnsaved && panel && freshPanel && unsaved(panel)) freshPanel.replaceWith(panel);
  const focused = keepTyped(sheet, fresh);
  const adopted = document.adoptNode(fresh);
  sheet.replaceWith(adopted);
  if (focused) focused.focus();
  if (window.htmx) window.htmx.process(adopted);
  lent.setUp(adopted.parentElement || document);
  keepCopy();
}

function heard(html, id) {
  const shown = newsOf();
  if (!shown || id === shown.dataset.seen) return;
  if (changesOnTheirWay.size) {
    heldNews = [html, id];
    return;
  }
  // Older news than the sheet shows (this phone's own change answered first) is no news.
  if (versionOf(id) < versionOf(shown.dataset.seen)) return;
  takeOver(html);
}

// --- Heard by stream, or by asking ------------------------------------------------------

// One stream of news while the page is open; a phone whose stream keeps failing (a proxy
// that holds the answer back) asks every few seconds instead, and tries the stream again
// now and then.
const ASK_EVERY_MS = 5000;
const STREAM_AGAIN_MS = 60000;
const FAILED_STREAMS = 3;
let stream = null;
let failures = 0;
let asking = null;
let listeningTo = null;

export function listen() {
  const shown = newsOf();
  // Another page (hx-boost) or another match: its stream is no longer this page's.
  if (stream && (!shown || listeningTo !== shown.dataset.events)) {
    stream.close();
    stream = null;
  }
  if (!shown || stream || asking || !window.EventSource) return;
  const address = new URL(shown.dataset.events, location.href);
  address.searchParams.set("seen", shown.dataset.seen);
  listeningTo = shown.dataset.events;
  stream = new EventSource(address);
  stream.addEventListener("open", () => {
    failures = 0;
    reachable(true);
    // The server is there again: an entry waiting to be sent goes now.
    sendPending();
  });
  stream.addEventListener("sheet", (event) => heard(event.data, event.lastEventId));
  // Deleted on another phone: the page says so (and offers Restore to the players).
  stream.addEventListener("gone", () => location.reload());
  stream.addEventListener("error", () => {
    failures += 1;
    if (failures >= FAILED_STREAMS || stream.readyState === EventSource.CLOSED) askInstead();
  });
}

function askInstead() {
  if (stream) stream.close();
  stream = null;
  if (asking) return;
  asking = setInterval(ask, ASK_EVERY_MS);
  setTimeout(() => {
    clearInterval(asking);
    asking = null;
    failures = 0;
    listen();
  }, STREAM_AGAIN_MS);
}

async function ask() {
  const shown = newsOf();
  if (!shown || document.hidden || !navigator.onLine) return;
  try {
    const answer = await fetch(shown.dataset.news, {
      cache: "no-store", headers: { "If-None-Match": `W/"${shown.dataset.seen}"` } });
    reachable(true);
    sendPending();
    if (answer.status !== 200) return;
    if (answer.headers.get("X-News") === "gone") location.reload();
    const id = (answer.headers.get("ETag") || "").replace(/^W\/"|"$/g, "");
    heard(await answer.text(), id);
  } catch (offline) {
    reachable(false);
  }
}

// A stream open when the wifi went may never hear that it did: it is opened afresh
// (with the news the sheet shows) when the wifi is back.
window.addEventListener("offline", () => {
  if (stream) stream.close();
  stream = null;
});
window.addEventListener("online", listen);
