// The new-match form offers an option only where the rules make it apply: a
// [data-three-players] choice shows while exactly three player rows hold a name (an empty
// row is a player not there). Without this script the server decides from the rows it sent.
(function () {
  "use strict";

  function follow(form) {
    const named = [...form.querySelectorAll("input[name=players]")]
      .filter((field) => field.value.trim()).length;
    const rows = form.querySelectorAll("input[name=players]").length;
    const three = (named || rows) === 3;
    for (const choice of form.querySelectorAll("[data-three-players]")) {
      choice.hidden = !three;
      for (const field of choice.querySelectorAll("input")) field.disabled = !three;
    }
  }

  const followAll = () => document.querySelectorAll("form.new-match").forEach(follow);

  document.addEventListener("input", (event) => {
    const form = event.target.closest("form.new-match");
    if (form && event.target.name === "players") follow(form);
  });
  // A row added or removed comes in a swap; a boosted visit brings a new form.
  document.addEventListener("htmx:afterSettle", followAll);
  followAll();
})();
