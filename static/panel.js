// Entry panels that answer at once. A tap on a counter, stepper, toggle or choice changes
// the form's own inputs on the phone, with no request; only the preview and the save go to
// the server. Without this script every such button posts the form and the server does the
// same, so the state always lives in the inputs and the plain form keeps working.
//
// The markup says what each control does:
//   data-add="NAME" data-step="1" [data-max="60"]  add to a whole-number input
//   data-sign="NAME"                                turn a typed total's sign around
//   data-set="NAME" data-value="V"                  set an input (e.g. a side's mode)
//   data-clear="NAME"                               empty a pile: its typed points and taps
//   data-append="NAME" data-value="A♠" [data-once]  add a card to a typed list of cards
//                                                   (once: greyed out while in the list)
//   data-pop="NAME"                                 take the last card off that list
//   data-check                                      ask for the preview (Enter in a field)
//   data-complement="NAME" data-total="120"         fill the other side in: 120 − this
//   data-when="A=1&B=2|C=3" / data-unless="…"       shown (and enabled) only while one of the
//                                                   "|" groups holds (each "&" part of it)
//   data-count-of="NAME"                            shows an input's value
//   data-pile-sum="NAME"                            "185 + 3×10 + 1×30 = 245" for a pile
//   data-label-by="NAME" data-labels='{"V": "…"}'   a name that follows a choice
// A panel is form[data-local-panel]; data-draft-key names its unsaved entry on this phone,
// data-remember="NAME NAME" the choices kept for the whole match (under data-match-key).
// Elsewhere, Enter in a field with enterkeyhint="next" moves to the next field of its name,
// and a <time datetime> the server wrote in UTC shows the phone's own time.
// A sheet listens to its match's news ([data-seen], [data-events]): when another phone
// changed the match, the new sheet takes this one's place, keeping a panel with an unsaved
// entry as it is (its save then meets the stale-sheet flow).
// A new hand whose save the network lost waits on the phone with the others (static/
// queue.js, which this script hands it over to) and the panel moves on; a correction the
// network lost waits in its panel, with the key and version it was made with. Either goes
// out by itself when the connection returns. The service worker (data-worker on this
// script) keeps the pages, so that a sheet also opens offline.
(function () {
  "use strict";

  const WORKER = document.currentScript && document.currentScript.dataset.worker;
  const queue = window.TablemateQueue || null;

  const PANEL = "form[data-local-panel]";
  // Controls only a page without this script needs (e.g. "OK" after a choice) step aside.
  document.documentElement.classList.add("js");
  const STORE_PREFIX = "tablemate:entry:";
  const NOT_STORED = new Set(["csrf_token", "version", "key", "press"]);

  const field = (form, name) => form.elements.namedItem(name);

  function valueOf(form, name) {
    const found = field(form, name);
    if (!found) return "";
    if (found instanceof RadioNodeList || found.type === "radio") {
      const checked = [...(found.length ? found : [found])].find((input) => input.checked);
      return checked ? checked.value : "";
    }
    return found.value;
  }

  const whole = (text) => (/^-?\d+$/.test(String(text).trim()) ? parseInt(text, 10) : 0);

  function setValue(form, name, value) {
    const found = field(form, name);
    if (!found) return;
    const inputs = found.length && !(found instanceof HTMLSelectElement) ? [...found] : [found];
    // A choice's name may also stand on a fixed hidden field (Burraco's "nobody ran out"
    // pozzetto): setting the choice ticks a box and leaves that field alone.
    const choices = inputs.filter((input) => input.type === "radio" || input.type === "checkbox");
    for (const input of choices.length ? choices : inputs) {
      if (input.type === "radio" || input.type === "checkbox") {
        input.checked = input.value === value;
      } else {
        input.value = value;
      }
    }
  }

  // --- What a button does -------------------------------------------------------------

  function press(form, button) {
    const data = button.dataset;
    if (data.add) {
      const max = data.max ? whole(data.max) : Infinity;
      const next = Math.min(Math.max(whole(valueOf(form, data.add)) + whole(data.step), 0), max);
      setValue(form, data.add, String(next));
    } else if (data.sign) {
      const total = valueOf(form, data.sign).trim();
      setValue(form, data.sign, total.startsWith("-") ? total.slice(1) : "-" + total);
    } else if (data.set) {
      setValue(form, data.set, data.value);
    } else if (data.clear) {
      setValue(form, data.clear, "");
      for (const input of form.querySelectorAll(`[data-pile="${data.clear}"]`)) input.value = "0";
    } else if (data.append) {
      setValue(form, data.append, [valueOf(form, data.append).trim(), data.value].join(" ").trim());
    } else if (data.pop) {
      setValue(form, data.pop, valueOf(form, data.pop).trim().split(/[\s,]+/).slice(0, -1).join(" "));
    } else if (button.matches("[data-check]")) {
      return true;
    } else {
      return false;
    }
    return true;
  }

  // --- What the panel shows, derived from its inputs ----------------------------------

  const holds = (form, conditions) =>
    conditions.split("|").some((group) => group.split("&").every((condition) => {
      const [name, value] = condition.split("=");
      return valueOf(form, name) === value;
    }));

  const tapsOf = (form, pile) => [...form.querySelectorAll(`[data-pile="${pile}"]`)]
    .filter((input) => whole(input.value) > 0);
  const pileTotal = (form, pile) => tapsOf(form, pile).reduce(
    (sum, input) => sum + whole(input.value) * whole(input.dataset.cardValue), whole(valueOf(form, pile)));

  function pileSum(form, pile) {
    const typed = valueOf(form, pile).trim();
    const taps = tapsOf(form, pile);
    if (!taps.length) return "";
    const parts = taps.map((input) => `${whole(input.value)}×${input.dataset.cardValue}`);
    return [...(typed && whole(typed) ? [typed] : []), ...parts].join(" + ") + " = " + pileTotal(form, pile);
  }

  function render(form) {
    for (const element of form.querySelectorAll("[data-when], [data-unless]")) {
      const shown = (!element.dataset.when || holds(form, element.dataset.when))
        && (!element.dataset.unless || !holds(form, element.dataset.unless));
      element.hidden = !shown;
      // A hidden alternative sends nothing: a fieldset disables every control inside it.
      if (element instanceof HTMLFieldSetElement) element.disabled = !shown;
    }
    for (const output of form.querySelectorAll("[data-count-of]")) {
      const count = valueOf(form, output.dataset.countOf);
      output.textContent = output.dataset.prefix ? output.dataset.prefix + count : count;
      if (output.dataset.prefix) output.hidden = whole(count) === 0;
    }
    for (const button of form.querySelectorAll("[data-add][data-step^='-']")) {
      button.disabled = whole(valueOf(form, button.dataset.add)) === 0;
    }
    for (const line of form.querySelectorAll("[data-pile-sum]")) {
      const sum = pileSum(form, line.dataset.pileSum);
      line.hidden = !sum;
      const text = line.querySelector(".sum-text");
      if (text) text.textContent = sum;
    }
    for (const label of form.querySelectorAll("[data-label-by]")) {
      const labels = JSON.parse(label.dataset.labels);
      const chosen = valueOf(form, label.dataset.labelBy);
      label.textContent = chosen in labels ? labels[chosen] : labels[""];
    }
    for (const card of form.querySelectorAll("[data-append][data-once]")) {
      const listed = valueOf(form, card.dataset.append).trim().toUpperCase().split(/[\s,]+/);
      card.disabled = listed.includes(card.dataset.value.toUpperCase());
    }
    for (const toggle of form.querySelectorAll("[data-set][data-value][aria-pressed]")) {
      toggle.setAttribute("aria-pressed", String(valueOf(form, toggle.dataset.set) === toggle.dataset.value));
    }
  }

  // --- The unsaved entry survives a reload, a language switch and a "Why?" visit --------

  const storeKey = (form) => form.dataset.draftKey && STORE_PREFIX + form.dataset.draftKey;

  function remember(form) {
    const key = storeKey(form);
    if (!key) return;
    const entries = [...new FormData(form)].filter(([name]) => !NOT_STORED.has(name));
    try {
      localStorage.setItem(key, JSON.stringify(entries));
    } catch (full) { /* private mode or a full store: the entry stays on screen only */ }
  }

  // Choices a table keeps from one hand to the next ("Total only" for a side on paper).
  const keptKey = (form) => form.dataset.matchKey && STORE_PREFIX + form.dataset.matchKey + ":kept";

  function keepChoices(form) {
    const key = keptKey(form);
    if (!key || !form.dataset.remember) return;
    const kept = Object.fromEntries(form.dataset.remember.split(" ").map((name) => [name, valueOf(form, name)]));
    try {
      localStorage.setItem(key, JSON.stringify(kept));
    } catch (full) { /* as above */ }
  }

  function applyKeptChoices(form) {
    const key = keptKey(form);
    const kept = key && localStorage.getItem(key);
    if (!kept) return;
    for (const [name, value] of Object.entries(JSON.parse(kept))) setValue(form, name, value);
  }

  function forget(form) {
    const key = storeKey(form);
    if (key) localStorage.removeItem(key);
  }

  function restore(form) {
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

  // An entry saved as the next hand is not wanted once the sheet has moved past it.
  function forgetOlder(form) {
    const match = /^(.*):next-(\d+)$/.exec(form.dataset.draftKey || "");
    if (!match) return;
    for (let index = localStorage.length - 1; index >= 0; index -= 1) {
      const key = localStorage.key(index);
      const older = key && key.startsWith(STORE_PREFIX + match[1] + ":next-")
        && whole(key.slice((STORE_PREFIX + match[1] + ":next-").length)) < whole(match[2]);
      if (older) localStorage.removeItem(key);
    }
  }

  // --- After every change -------------------------------------------------------------

  // The preview answers the entry as it was when asked (after a pause): a hand that waits to
  // be sent is told by its preview's scores only if the entry is still that one.
  const entryOf = (form) => JSON.stringify([...new FormData(form)].filter(([name]) => !NOT_STORED.has(name)));
  const previewed = new WeakMap();
  const previewCurrent = (form) => previewed.get(form) === entryOf(form);

  function changed(form) {
    render(form);
    remember(form);
    keepChoices(form);
    // A refusal is about the entry as it was: once the entry changes it no longer applies.
    for (const refusal of document.querySelectorAll("#sheet > .error")) refusal.remove();
    form.dispatchEvent(new CustomEvent("panel-changed", { bubbles: true }));
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    const form = button && button.closest(PANEL);
    if (!form) return;
    if (button.matches("[data-retry]")) {
      event.preventDefault();
      resend(form);
    } else if (press(form, button)) {
      event.preventDefault();
      changed(form);
    }
  });

  // Two sides' card points add up to a fixed total: the other side's follow, until typed.
  function complement(form, input) {
    delete input.dataset.filled;
    const other = field(form, input.dataset.complement);
    const typed = input.value.trim();
    if (!other || (other.value && other.dataset.filled !== "auto")) return;
    const total = whole(input.dataset.total);
    const rest = /^\d+$/.test(typed) && whole(typed) <= total ? String(total - whole(typed)) : "";
    other.value = rest;
    other.dataset.filled = rest ? "auto" : "";
  }

  document.addEventListener("input", (event) => {
    const form = event.target.closest && event.target.closest(PANEL);
    if (form && event.target.dataset.complement) complement(form, event.target);
    else if (form && event.target.dataset) delete event.target.dataset.filled;
    if (form) {
      render(form);
      remember(form);
      for (const refusal of document.querySelectorAll("#sheet > .error")) refusal.remove();
    }
  });
  document.addEventListener("change", (event) => {
    const form = event.target.closest && event.target.closest(PANEL);
    if (form) changed(form);
  });

  document.addEventListener("keydown", (event) => {
    const input = event.target;
    if (event.key !== "Enter" || !(input instanceof HTMLInputElement)) return;
    if (input.enterKeyHint !== "next" || !input.form) return;
    const same = [...input.form.elements].filter((other) => other.name === input.name);
    const next = same[same.indexOf(input) + 1];
    if (next) {
      event.preventDefault();
      next.focus();
    }
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

  // --- The save: kept on screen when the network fails ----------------------------------

  function failed(form, shown) {
    const notice = form.querySelector("[data-save-failed]");
    if (notice) notice.hidden = !shown;
  }

  const isSave = (event) => event.detail.elt && event.detail.elt.matches && event.detail.elt.matches(PANEL);

  // A save that got no answer is kept whole, its key and version among its fields: sent
  // again, the server knows it (stored once) or finds the sheet moved on (the stale flow).
  const pendingKey = (form) => STORE_PREFIX + "pending:" + form.getAttribute("action");

  function pendingOf(form) {
    const kept = localStorage.getItem(pendingKey(form));
    return kept ? JSON.parse(kept) : null;
  }

  // The button a waiting entry was sent with (a Burro player's) stays marked.
  function markWaiting(form, pending) {
    const [name, value] = (pending && pending.submitter) || [];
    for (const button of form.querySelectorAll("button[name]")) {
      button.classList.toggle("waiting", button.name === name && button.value === value);
    }
  }

  // What a request sends (the button pressed among it), as htmx made it up.
  const sentFields = (event) => (event.detail.requestConfig ? [...event.detail.requestConfig.formData] : null);

  function keepPending(form, sent) {
    // A new hand waits with the others, and the panel moves on.
    if (queue && sent && queue.take(form, sent)) return;
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
  function takeUpPending(form) {
    const pending = pendingOf(form);
    if (!pending) return false;
    for (let pass = 0; pass < 2; pass += 1) {
      for (const [name, value] of pending.fields) setValue(form, name, value);
      render(form);
    }
    failed(form, true);
    markWaiting(form, pending);
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

  function sendPending(root) {
    if (queue) queue.send();
    if (!navigator.onLine) return;
    for (const form of root.querySelectorAll(PANEL)) {
      if (pendingOf(form)) resend(form);
    }
  }

  // A server that answered but could not store the entry (503), or one the stream still
  // reaches while saves fail, is asked again now and then.
  const RESEND_MS = 4000;
  setInterval(() => { if (!document.hidden) sendPending(document); }, RESEND_MS);

  // The sheet's forms whose change is on its way (a save, an undo, a restore), by their
  // request: once the answer has replaced the sheet, htmx tells of the request on what is
  // left of the page, not on the form. Kept up to date under "Other phones' changes".
  const changesOnTheirWay = new Map();
  const savedBy = (event) => {
    const form = changesOnTheirWay.get(event.detail.xhr);
    return form && form.matches(PANEL) ? form : null;
  };

  document.addEventListener("htmx:beforeRequest", (event) => {
    if (!isSave(event)) return;
    // Hands wait already, or the phone is offline: this one goes behind them, at once.
    if (queue && queue.mustWait(event.detail.elt)) {
      event.preventDefault();
      queue.take(event.detail.elt, sentFields(event));
      return;
    }
    event.detail.elt.dataset.sending = "true";
  });
  // Told on the sheet, the target, before the answer replaces it.
  document.addEventListener("htmx:beforeSwap", (event) => {
    const form = savedBy(event);
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
  // A preview that could not be asked must not go on showing the answer to an older entry.
  function unchecked(target) {
    const note = document.querySelector("[data-offline-note]");
    if (!target || !note) return;
    target.textContent = note.dataset.unchecked;
    target.classList.add("unchecked");
  }

  for (const trouble of ["htmx:sendError", "htmx:timeout"]) {
    document.addEventListener(trouble, (event) => {
      if (isSave(event)) keepPending(event.detail.elt, sentFields(event));
      else if (event.detail.elt.closest && event.detail.elt.closest(PANEL)) unchecked(event.detail.target);
    });
  }
  document.addEventListener("htmx:beforeRequest", (event) => {
    const wrap = event.detail.elt;
    const form = wrap.matches && wrap.matches(".preview-wrap") && wrap.closest(PANEL);
    if (form) previewed.set(wrap, entryOf(form));
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    const wrap = event.detail.elt;
    const form = wrap.matches && wrap.matches(".preview-wrap") && wrap.closest(PANEL);
    if (form && event.detail.successful) previewed.set(form, previewed.get(wrap));
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    const form = savedBy(event);
    if (!form) return;
    delete form.dataset.sending;
    if (event.detail.successful) forget(form);
  });
  const lastSubmitter = new WeakMap();
  // A plain form (no htmx yet) leaves the page: what it sends is saved or refused there.
  document.addEventListener("submit", (event) => {
    if (!event.target.matches(PANEL)) return;
    if (event.submitter && event.submitter.isConnected) lastSubmitter.set(event.target, event.submitter);
    if (!window.htmx) {
      forget(event.target);
      localStorage.removeItem(pendingKey(event.target));
    }
  });

  // --- Every panel on the page, now and after each swap ---------------------------------

  // A restored entry asks for its preview once htmx listens (it may come after this script).
  function askPreview(form) {
    if (!window.htmx) return;
    delete form.dataset.restored;
    form.dispatchEvent(new CustomEvent("panel-changed", { bubbles: true }));
  }

  function localTimes(root) {
    for (const time of root.querySelectorAll("time[datetime]")) {
      const when = new Date(time.dateTime);
      if (Number.isNaN(when.getTime())) continue;
      time.textContent = when.toLocaleTimeString(document.documentElement.lang,
                                                 { hour: "2-digit", minute: "2-digit" });
    }
  }

  function setUp(root) {
    localTimes(root);
    for (const form of root.querySelectorAll(PANEL)) {
      if (form.dataset.ready) {
        if (form.dataset.restored) askPreview(form);
        continue;
      }
      // A new hand's panel as the server sent it, blank: the next hand starts from a copy.
      if (form.dataset.queue && form.dataset.fresh !== undefined) blanks.set(form.dataset.queue, form.cloneNode(true));
      form.dataset.ready = "true";
      // The preview the server sent answers the entry it sent.
      previewed.set(form, entryOf(form));
      if (queue) queue.arrange(form);
      forgetOlder(form);
      if (form.dataset.fresh !== undefined) applyKeptChoices(form);
      // A new hand an older version of this script kept here joins the others.
      if (queue && form.dataset.queue && pendingOf(form)) {
        const pending = pendingOf(form);
        takeUpPending(form);
        localStorage.removeItem(pendingKey(form));
        queue.take(form, [...pending.fields, ...(pending.submitter ? [pending.submitter] : [])]);
        continue;
      }
      if (takeUpPending(form)) {
        remember(form);
        continue;
      }
      if (form.dataset.fresh !== undefined && restore(form)) form.dataset.restored = "true";
      render(form);
      // An entry the server sent back (refused, or from an outdated sheet) is kept too.
      if (form.dataset.fresh === undefined) remember(form);
      if (form.dataset.restored) askPreview(form);
    }
    if (queue) queue.show();
  }

  // --- The next hand, while the ones before it wait to be sent ---------------------------

  // The blank panel of each match's next hand, as the server last sent it.
  const blanks = new Map();

  // The panel emptied for the next hand: a copy of the blank one, set up afresh (a panel
  // with no copy, Burro's player buttons, is reset). Returns the panel now on the page.
  function blank(form) {
    forget(form);
    const copy = blanks.get(form.dataset.queue);
    if (!copy) {
      form.reset();
      failed(form, false);
      markWaiting(form, null);
      render(form);
      if (queue) queue.arrange(form);
      return form;
    }
    const next = copy.cloneNode(true);
    form.replaceWith(next);
    if (window.htmx) window.htmx.process(next);
    setUp(next.parentElement);
    return next;
  }

  const wordsOf = (element) => (element.innerText || element.textContent).replace(/\s+/g, " ").trim();

  // One part of an entry in words ([data-describe]): a button that sent the hand or is
  // pressed, a chosen choice's label, or a count with its label ("Cards on the table 50").
  // A part in a disabled or hidden alternative does not count; a side folded up does.
  function partOf(form, element, fields) {
    if (element.closest("fieldset:disabled, [hidden]:not(.side-body)")) return "";
    if (element instanceof HTMLButtonElement) {
      const sent = fields.some(([name, value]) => name === element.name && value === element.value);
      return sent || element.getAttribute("aria-pressed") === "true" ? wordsOf(element) : "";
    }
    if (element instanceof HTMLLabelElement) {
      const choice = element.querySelector("input");
      return choice && choice.checked ? wordsOf(element) : "";
    }
    const input = element.matches("input") ? element : element.querySelector("input:not([data-pile])");
    const count = input ? pileTotal(form, input.name) : 0;
    return count ? `${element.dataset.describe} ${count}` : "";
  }

  // A hand in the panel's words, for the history while it waits to be sent: its preview's
  // scores if they answer it, else what was chosen and tapped, side by side.
  function describe(form, fields) {
    const preview = form.querySelector("#preview");
    const scores = preview && previewCurrent(form) ? [...preview.querySelectorAll(".preview-side")] : [];
    if (scores.length) return scores.map(wordsOf).join(" · ");
    const loose = [];
    const sides = new Map();
    for (const element of form.querySelectorAll("[data-describe]")) {
      const part = partOf(form, element, fields);
      const side = element.closest("fieldset.side");
      if (part && side) sides.set(side, [...(sides.get(side) || []), part]);
      else if (part) loose.push(part);
    }
    const named = [...sides].map(([side, parts]) => `${wordsOf(side.querySelector("legend"))}: ${parts.join(", ")}`);
    return [...loose, ...named].join(" · ");
  }

  // Side names stick just under the scoreboard, whose height follows the screen and names.
  function followBoard() {
    const board = document.querySelector(".scoreboard");
    if (!board || board.dataset.followed) return;
    board.dataset.followed = "true";
    new ResizeObserver(() => document.documentElement.style.setProperty(
      "--board-height", board.getBoundingClientRect().height + "px")).observe(board);
  }

  // --- Other phones' changes: the match's news ------------------------------------------

  // Changes this phone sends, by their request: news that comes while one is on its way
  // may be of it, so it waits until the answer has brought the sheet, and is then heard
  // only if it is newer still.
  let heldNews = null;

  document.addEventListener("htmx:beforeRequest", (event) => {
    const sheet = document.getElementById("sheet");
    // Forms change the match (save, undo, restore); the preview's questions do not.
    if (!event.defaultPrevented && sheet && sheet.contains(event.detail.elt) && event.detail.elt.tagName === "FORM") {
      changesOnTheirWay.set(event.detail.xhr, event.detail.elt);
    }
  });
  function settled(change) {
    if (changesOnTheirWay.delete(change) && !changesOnTheirWay.size && heldNews) {
      const [html, id] = heldNews;
      heldNews = null;
      heard(html, id);
    }
  }
  // After the save's own handling of the answer (above), which looks its form up here; and
  // after htmx has told of a failure (it does so just after this event): a sheet the news
  // brought must not take the form off the page before the failure is heard of.
  document.addEventListener("htmx:afterRequest", (event) => queueMicrotask(() => settled(event.detail.xhr)));

  // A change the queue sends (a fetch, not htmx) holds the news back in the same way.
  function onItsWay(change) {
    const mark = {};
    changesOnTheirWay.set(mark, null);
    change.finally(() => settled(mark));
  }

  const unsaved = (form) => Boolean((storeKey(form) && localStorage.getItem(storeKey(form)))
                                    || pendingOf(form));
  const newsOf = () => document.querySelector("#sheet [data-seen]");
  const versionOf = (id) => parseInt(id, 10);

  // 96 random bits, as the server makes them (crypto.randomUUID needs https; a laptop on
  // the table's wifi serves plain http).
  const newKey = () => Array.from(crypto.getRandomValues(new Uint8Array(12)),
                                  (byte) => byte.toString(16).padStart(2, "0")).join("");

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

  // The new sheet takes this one's place, but a panel with an unsaved entry stays as it is
  // (its save then meets the stale-sheet flow) unless the new sheet brings back an entry
  // of its own (``keepUnsaved`` false: a waiting hand refused).
  function takeOver(html, keepUnsaved = true) {
    const sheet = document.getElementById("sheet");
    const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("sheet");
    if (!sheet || !fresh) return;
    madeOurs(fresh);
    const panel = sheet.querySelector(PANEL);
    const freshPanel = fresh.querySelector(PANEL);
    if (keepUnsaved && panel && freshPanel && unsaved(panel)) freshPanel.replaceWith(panel);
    const adopted = document.adoptNode(fresh);
    sheet.replaceWith(adopted);
    if (window.htmx) window.htmx.process(adopted);
    setUp(adopted.parentElement || document);
    followBoard();
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

  function listen() {
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
      sendPending(document);
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
      sendPending(document);
      if (answer.status !== 200) return;
      if (answer.headers.get("X-News") === "gone") location.reload();
      const id = (answer.headers.get("ETag") || "").replace(/^W\/"|"$/g, "");
      heard(await answer.text(), id);
    } catch (offline) {
      reachable(false);
    }
  }

  // --- Offline --------------------------------------------------------------------------

  // "Offline" shows while the phone has no network, or has one that does not reach us.
  let unreachable = false;

  function reachable(answered) {
    unreachable = !answered;
    const note = document.querySelector("[data-offline-note]");
    if (note) note.hidden = navigator.onLine && !unreachable;
  }

  // A stream open when the wifi went may never hear that it did: it is opened afresh
  // (with the news the sheet shows) when the wifi is back.
  window.addEventListener("offline", () => {
    reachable(false);
    if (stream) stream.close();
    stream = null;
  });
  window.addEventListener("online", () => {
    reachable(true);
    sendPending(document);
    listen();
  });

  // The service worker keeps each page a visit fetches; a sheet that changed on the page
  // (a save, another phone's hand) is kept again, so the copy offline is the last one seen.
  function keepCopy() {
    const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker && (document.getElementById("sheet") || !location.search)) {
      worker.postMessage({ keep: location.pathname });
    }
  }

  if (WORKER && "serviceWorker" in navigator) {
    // The first visit is not yet looked after when it loads: it is kept once it is.
    navigator.serviceWorker.addEventListener("controllerchange", keepCopy);
    navigator.serviceWorker.register(WORKER).catch(() => { /* the app works without it */ });
  }
  document.addEventListener("htmx:afterSwap", (event) => {
    if (event.detail.target && event.detail.target.id === "sheet") keepCopy();
  });

  // Back restores htmx's copy of the page, which holds neither typed values nor choices:
  // the entry kept on the phone puts them back.
  document.addEventListener("htmx:historyRestore", () => {
    for (const form of document.querySelectorAll(PANEL)) delete form.dataset.ready;
    setUp(document);
  });

  document.addEventListener("htmx:load", (event) => {
    setUp(event.detail.elt.parentElement || document);
    followBoard();
    listen();
    // htmx has just arrived (a page opened offline, or while the wifi was away).
    if (event.detail.elt === document.body) sendPending(document);
    // An answer came, or a new sheet: the hands that wait may go (after a choice on one).
    else if (queue) queue.send();
  });

  if (queue) queue.connect({ swap: takeOver, blank, describe, newKey, onItsWay });

  function start() {
    setUp(document);
    followBoard();
    listen();
    reachable(navigator.onLine);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
