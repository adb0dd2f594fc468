// The rules search asks the server as the reader types: a question the wifi cannot carry
// says so under the field, instead of leaving the old results as if they answered it.
(function () {
  "use strict";

  const noteOf = (event) => {
    const form = event.detail && event.detail.elt && event.detail.elt.closest("form.rules-search");
    return form && form.querySelector("[data-search-offline]");
  };

  document.addEventListener("htmx:sendError", (event) => {
    const note = noteOf(event);
    if (!note) return;
    note.hidden = false;
    const results = document.getElementById("results");
    if (results) results.hidden = true;
  });

  document.addEventListener("htmx:afterRequest", (event) => {
    const note = noteOf(event);
    if (note && event.detail.successful) note.hidden = true;
  });
})();
