// What a tap on an entry panel does, at once and on the phone: a counter, stepper, toggle or
// choice changes the form's own inputs, with no request. Without this module every such
// button posts the form and the server does the same, so the state always lives in the
// inputs and the plain form keeps working.
//
// The markup says what each control does:
//   data-add="NAME" data-step="1" [data-max="60"]  add to a whole-number input
//   data-sign="NAME"                                turn a typed total's sign around
//   data-set="NAME" data-value="V"                  set an input (e.g. a side's mode)
//   data-clear="NAME"                               empty a pile: its typed points and taps
//   data-append="NAME" data-value="A♠" [data-once]  add a card to a typed list of cards
//                                                   (once: greyed out while in the list);
//                                                   a "/" in a list of melds starts a meld
//   data-pop="NAME"                                 take the last card off that list
//   data-lay="NAME" data-cards="K♠ K♥ …"            lay a set of three as a new meld; right
//                                                   after it, its next card instead
//   data-into="CHOICE"                              with data-append, -pop or -clear: the
//                                                   list is the one CHOICE names instead
//   data-check                                      ask for the preview (Enter in a field)
//   data-complement="NAME" data-total="120"         fill the other side in: 120 − this
//   data-when="A=1&B=2|C=3" / data-unless="…"       shown (and enabled) only while one of the
//                                                   "|" groups holds (each "&" part of it)
//   data-count-of="NAME"                            shows an input's value
//   data-pile-sum="NAME"                            "185 + 3×10 + 1×30 = 245" for a pile; its
//                                                   .sum-hint shows before the first tap, its
//                                                   [data-clear] after
//   data-label-by="NAME" data-labels='{"V": "…"}'   a name that follows a choice
// Elsewhere, Enter in a field with enterkeyhint="next" moves to the next field of its name.
//
// Interface: PANEL (a panel's selector); valueOf, setValue and whole (a form's inputs);
// render(form) (what the panel shows, from its inputs); tapSum (a pile's points);
// describe(form, fields) and wordsOf(element) (an entry in words). After a tap or a choice
// the form is told "panel-changed": its preview asks the server, drafts.js keeps the entry.

export const PANEL = "form[data-local-panel]";

const field = (form, name) => form.elements.namedItem(name);

export function valueOf(form, name) {
  const found = field(form, name);
  if (!found) return "";
  if (found instanceof RadioNodeList || found.type === "radio") {
    const checked = [...(found.length ? found : [found])].find((input) => input.checked);
    return checked ? checked.value : "";
  }
  return found.value;
}

// A whole number as the server reads one (parse_int in scoring/values.py), else null.
const number = (text) => (/^-?[0-9]{1,9}$/.test(String(text).trim()) ? parseInt(text, 10) : null);
export const whole = (text) => number(text) ?? 0;

export function setValue(form, name, value) {
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

// Melds as a picker leaves them (tidy_melds in views/games/counted.py): one slash between
// two, none in front; a slash at the end starts the next meld.
const tidy = (text) => text.replace(/(\s*\/)+/g, " /").replace(/^\s*\/\s*/, "").trim();

// Melds after a set's tap (laid_set in views/games/counted.py): three of its cards as a new
// meld, or, when the meld just laid is that set, its next card.
function laid(text, cards) {
  const melds = tidy(text).split("/").map((meld) => meld.trim().split(/\s+/).filter(Boolean));
  // A slash at the end: the last meld is finished, and it may be this set.
  const last = melds.length > 1 && !melds.at(-1).length ? melds.at(-2) : [];
  const grows = last.length >= 3 && last.length < cards.length
    && last.every((card, place) => card === cards[place]);
  if (grows) melds.splice(-2, 2, cards.slice(0, last.length + 1));
  else melds.push(cards.slice(0, 3));
  return tidy(`${melds.map((meld) => meld.join(" ")).join(" / ")} /`);
}

function press(form, button) {
  const data = button.dataset;
  const list = (name) => (data.into && valueOf(form, data.into)) || name;
  if (data.add) {
    const max = data.max ? whole(data.max) : Infinity;
    const before = whole(valueOf(form, data.add));
    const next = Math.min(Math.max(before + whole(data.step), 0), max);
    // A tapped card adds to its pile's field, which thus always shows the pile's points.
    const pile = field(form, data.add)?.dataset?.pile;
    const points = pile && pileTotal(form, pile);
    setValue(form, data.add, String(next));
    if (pile) {
      const card = whole(field(form, data.add).dataset.cardValue);
      setValue(form, pile, tappedOn(points ?? valueOf(form, pile), (next - before) * card));
    }
  } else if (data.sign) {
    const total = valueOf(form, data.sign).trim();
    setValue(form, data.sign, total.startsWith("-") ? total.slice(1) : "-" + total);
  } else if (data.set) {
    setValue(form, data.set, data.value);
  } else if (data.clear) {
    setValue(form, list(data.clear), "");
    for (const input of form.querySelectorAll(`[data-pile="${data.clear}"]`)) input.value = "0";
  } else if (data.append) {
    const name = list(data.append);
    setValue(form, name, tidy([valueOf(form, name), data.value].join(" ")));
  } else if (data.lay) {
    setValue(form, data.lay, laid(valueOf(form, data.lay), data.cards.split(" ")));
  } else if (data.pop) {
    const name = list(data.pop);
    setValue(form, name, valueOf(form, name).trim().split(/[\s,]+/).slice(0, -1).join(" "));
  } else if (!button.matches("[data-check]")) {
    return false;
  }
  return true;
}

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

// --- The tap counter ----------------------------------------------------------------

// A pile's points: the number in its field, which every tap adds its card to; with nothing
// typed, the tapped cards; null when the text is no number. The pair of tap_sum in
// views/games/counted.py: the server counts a pile the same way.
const tapped = (taps, values) =>
  Object.entries(taps).reduce((sum, [name, count]) => sum + count * values[name], 0);

export function tapSum(typed, taps, values) {
  if (String(typed).trim()) return number(typed);
  return tapped(taps, values);
}

// A pile's field after a tap worth ``points`` (tapped_on in views/games/counted.py): text
// that is no number stays; nothing left is an empty field again.
function tappedOn(typed, points) {
  const base = number(String(typed).trim() || "0");
  if (base === null) return typed;
  const total = Math.max(base + points, 0);
  return total ? String(total) : "";
}

// The classes tapped on a pile, as tapSum takes them: counts and card values by name.
function tapsOf(form, pile) {
  const taps = {};
  const values = {};
  for (const input of form.querySelectorAll(`[data-pile="${pile}"]`)) {
    if (whole(input.value) <= 0) continue;
    taps[input.name] = whole(input.value);
    values[input.name] = whole(input.dataset.cardValue);
  }
  return { taps, values };
}

function pileTotal(form, pile) {
  const { taps, values } = tapsOf(form, pile);
  return tapSum(valueOf(form, pile).trim(), taps, values);
}

// The running line as tap_summary in views/games/counted.py writes it: what was typed
// besides the taps, the taps, and the field's number (text that is none stays after "=").
function pileSum(form, pile) {
  const typed = valueOf(form, pile).trim();
  const { taps, values } = tapsOf(form, pile);
  const names = Object.keys(taps);
  if (!names.length) return "";
  const total = tapSum(typed, taps, values);
  const rest = total === null ? 0 : total - tapped(taps, values);
  const line = names.map((name) => `${taps[name]}×${values[name]}`).join(" + ");
  const shown = rest > 0 ? `${rest} + ${line}` : rest < 0 ? `${line} \u2212 ${-rest}` : line;
  return `${shown} = ${total ?? typed}`;
}

// --- What the panel shows, derived from its inputs ----------------------------------

const holds = (form, conditions) =>
  conditions.split("|").some((group) => group.split("&").every((condition) => {
    const [name, value] = condition.split("=");
    return valueOf(form, name) === value;
  }));

export function render(form) {
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
    const text = line.querySelector(".sum-text");
    if (text) text.textContent = sum;
    for (const untapped of line.querySelectorAll(".sum-hint, [data-clear]")) {
      untapped.hidden = untapped.matches(".sum-hint") === Boolean(sum);
    }
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

// --- An entry in words ([data-describe]) ----------------------------------------------

export const wordsOf = (element) => (element.innerText || element.textContent).replace(/\s+/g, " ").trim();

// One part: a button that sent the hand or is pressed, a chosen choice's label, a count
// with its label ("Cards on the table 50"), or typed cards ("Melds 7♥ 8♥ 9♥"). A part in
// a disabled or hidden alternative does not count; a side folded up does.
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
  // Typed cards (a side by meld) read as typed; a number reads as its pile's points.
  if (input && input.type === "text" && input.inputMode !== "numeric") {
    return input.value.trim() ? `${element.dataset.describe} ${input.value.trim()}` : "";
  }
  const count = input ? pileTotal(form, input.name) : 0;
  return count ? `${element.dataset.describe} ${count}` : "";
}

// What was chosen and tapped, side by side ("Anna: Cards on the table 50 · Ben: …"), for a
// hand sent with ``fields`` ([name, value] pairs, the button pressed among them).
export function describe(form, fields) {
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

// --- After every change ---------------------------------------------------------------

// A refusal is about the entry as it was: once the entry changes it no longer applies.
const dismissRefusals = () => {
  for (const refusal of document.querySelectorAll("#sheet > .error")) refusal.remove();
};

function changed(form) {
  render(form);
  dismissRefusals();
  form.dispatchEvent(new CustomEvent("panel-changed", { bubbles: true }));
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  const form = button && button.closest(PANEL);
  if (form && press(form, button)) {
    event.preventDefault();
    changed(form);
  }
});

document.addEventListener("input", (event) => {
  const form = event.target.closest && event.target.closest(PANEL);
  if (!form) return;
  if (event.target.dataset.complement) complement(form, event.target);
  else delete event.target.dataset.filled;
  render(form);
  dismissRefusals();
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
