// The preview on the phone. The server answers the entry as it was when asked (after a
// pause), so the preview shown may answer an entry changed since; and one that could not
// be asked says "Not checked" rather than go on showing the answer to an older entry.
//
// Interface: previewed(form) (the preview the server sent with a panel answers its entry);
// scoresOf(form) (the preview's scores, one element a side, if they answer the entry as
// it is now; else none).
import { PANEL } from "./controls.js";
import { entryOf } from "./drafts.js";

// The entry each preview answers: by panel once answered, by preview while asked.
const answers = new WeakMap();

export const previewed = (form) => answers.set(form, entryOf(form));

export function scoresOf(form) {
  const preview = form.querySelector("#preview");
  const current = preview && answers.get(form) === entryOf(form);
  return current ? [...preview.querySelectorAll(".preview-side")] : [];
}

const panelOf = (event) => {
  const asker = event.detail.elt;
  return asker.matches && asker.matches(".preview-wrap") ? asker.closest(PANEL) : null;
};
document.addEventListener("htmx:beforeRequest", (event) => {
  const form = panelOf(event);
  if (form) answers.set(event.detail.elt, entryOf(form));
});
document.addEventListener("htmx:afterRequest", (event) => {
  const form = panelOf(event);
  if (form && event.detail.successful) answers.set(form, answers.get(event.detail.elt));
});

// A question from a panel that could not be asked (a save that could not be sent is
// save.js's): its answer says so, in the offline note's words.
for (const trouble of ["htmx:sendError", "htmx:timeout"]) {
  document.addEventListener(trouble, (event) => {
    const asker = event.detail.elt;
    const target = event.detail.target;
    const note = document.querySelector("[data-offline-note]");
    if (!asker.closest || !asker.closest(PANEL) || asker.matches(PANEL) || !target || !note) return;
    target.textContent = note.dataset.unchecked;
    target.classList.add("unchecked");
  });
}
