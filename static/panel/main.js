// The entry panels' script, wired: every panel on the page set up now and after each htmx
// swap, and what each module lends another. The modules, one job each: controls.js (what
// a tap does), drafts.js (the unsaved entry kept on the phone), preview.js (which entry
// the preview answers), outbox.js (new hands waiting to be sent), save.js (a save the
// network lost), live.js (the match's news), offline.js (the offline note and the service
// worker). Every page loads it (templates/base.html): htmx runs no script a swap brings,
// and a sheet may come by a tap.
// A panel is form[data-local-panel]; a <time datetime> the server wrote in UTC shows the
// phone's own time.
import { PANEL, render } from "./controls.js";
import { applyKeptChoices, forget, forgetOlder, remember, restore } from "./drafts.js";
import { reachable } from "./offline.js";
import * as outbox from "./outbox.js";
import { previewed } from "./preview.js";
import { clearFailed, sendPending, takeUp } from "./save.js";
import * as live from "./live.js";

// Controls only a page without this script needs (e.g. "OK" after a choice) step aside.
document.documentElement.classList.add("js");

// A restored entry asks for its preview once htmx listens (it may come after this script).
// Not bubbling: the preview hears it on its form, and there is nothing new to keep.
function askPreview(form) {
  if (!window.htmx) return;
  delete form.dataset.restored;
  form.dispatchEvent(new CustomEvent("panel-changed"));
}

function localTimes(root) {
  for (const time of root.querySelectorAll("time[datetime]")) {
    const when = new Date(time.dateTime);
    if (Number.isNaN(when.getTime())) continue;
    time.textContent = when.toLocaleTimeString(document.documentElement.lang,
                                               { hour: "2-digit", minute: "2-digit" });
  }
}

// Side names stick just under the scoreboard, whose height follows the screen and names;
// a control scrolled to lands between it and the save bar at the foot (--bar-height).
function follow(selector, property) {
  const sticky = document.querySelector(selector);
  if (!sticky || sticky.dataset.followed) return;
  sticky.dataset.followed = "true";
  // A replaced panel's old bar (now 0 px tall) must not overwrite the new one's height.
  new ResizeObserver(() => sticky.isConnected && document.documentElement.style.setProperty(
    property, sticky.getBoundingClientRect().height + "px")).observe(sticky);
}

function followBoard() {
  follow(".scoreboard", "--board-height");
  follow(".save-bar", "--bar-height");
}

// The blank panel of each match's next hand, as the server last sent it.
const blanks = new Map();

function setUp(root) {
  localTimes(root);
  followBoard();
  for (const form of root.querySelectorAll(PANEL)) {
    if (form.dataset.ready) {
      if (form.dataset.restored) askPreview(form);
      continue;
    }
    // A new hand's panel as the server sent it, blank: the next hand starts from a copy.
    if (form.dataset.queue && form.dataset.fresh !== undefined) blanks.set(form.dataset.queue, form.cloneNode(true));
    form.dataset.ready = "true";
    // The preview the server sent answers the entry it sent.
    previewed(form);
    outbox.arrange(form);
    forgetOlder(form);
    if (form.dataset.fresh !== undefined) applyKeptChoices(form);
    if (takeUp(form)) continue;
    if (form.dataset.fresh !== undefined && restore(form)) form.dataset.restored = "true";
    render(form);
    // An entry the server sent back (refused, or from an outdated sheet) is kept too.
    if (form.dataset.fresh === undefined) remember(form);
    if (form.dataset.restored) askPreview(form);
  }
  outbox.show();
}

// The panel emptied for the next hand: a copy of the blank one, set up afresh (a panel
// with no copy, Burro's player buttons, is reset). Returns the panel now on the page.
function blank(form) {
  forget(form);
  const copy = blanks.get(form.dataset.queue);
  if (!copy) {
    form.reset();
    clearFailed(form);
    render(form);
    outbox.arrange(form);
    return form;
  }
  const next = copy.cloneNode(true);
  form.replaceWith(next);
  if (window.htmx) window.htmx.process(next);
  setUp(next.parentElement);
  return next;
}

outbox.connect({ swap: live.takeOver, blank, onItsWay: live.onItsWay });
live.connect({ setUp });

// Back restores htmx's copy of the page, which holds neither typed values nor choices:
// the entry kept on the phone puts them back.
document.addEventListener("htmx:historyRestore", () => {
  for (const form of document.querySelectorAll(PANEL)) delete form.dataset.ready;
  setUp(document);
});

document.addEventListener("htmx:load", (event) => {
  setUp(event.detail.elt.parentElement || document);
  live.listen();
  // htmx has just arrived (a page opened offline, or while the wifi was away).
  if (event.detail.elt === document.body) sendPending();
  // An answer came, or a new sheet: the hands that wait may go (after a choice on one).
  else outbox.send();
});

// A module runs once the page is parsed, before htmx comes (static/htmx-loader.js).
setUp(document);
live.listen();
reachable(navigator.onLine);
