// The language switch returns to the page as the reader has it now. The server writes the
// page's address into the switch, but it never sees the section in view (#pozzetti), nor a
// search typed since the page came (htmx replaced the address).
(function () {
  "use strict";

  const nextField = () => document.querySelector("form.language input[name=next]");

  document.addEventListener("htmx:replacedInHistory", (event) => {
    const next = nextField();
    if (next) next.value = event.detail.path;
  });

  document.addEventListener("submit", (event) => {
    if (!event.target.matches("form.language")) return;
    const next = nextField();
    next.value = next.value.split("#")[0] + location.hash;
  });
})();
