// The new-match form offers an option only where the rules make it apply: a
// [data-players="3"] choice shows while exactly three player rows hold a name (an empty
// row is a player not there). Without this script the server decides from the rows it sent.
(function () {
  "use strict";

  function follow(form) {
    const named = [...form.querySelectorAll("input[name=players]")]
      .filter((field) => field.value.trim()).length;
    const rows = form.querySelectorAll("input[name=players]").length;
    const count = named || rows;
    for (const choice of form.querySelectorAll("[data-players]")) {
      const applies = Number(choice.dataset.players) === count;
      choice.hidden = !applies;
      for (const field of choice.querySelectorAll("input")) field.disabled = !applies;
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
