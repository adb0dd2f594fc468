// A club night's board (the organiser's page, the room's screen) as it happens: one stream
// of news, and each new board takes the old one's place. The board comes without this
// phone's CSRF token, which it gets from the page; a form being typed into waits.
(() => {
  let stream = null;
  let listeningTo = null;

  function madeOurs(fresh) {
    const token = document.querySelector("input[name=csrf_token][value]:not([value=''])");
    for (const input of fresh.querySelectorAll("input[name=csrf_token]")) {
      if (!input.value && token) input.value = token.value;
    }
  }

  function heard(html, id) {
    const board = document.querySelector("[data-board]");
    if (!board || board.dataset.seen === id) return;
    const fresh = new DOMParser().parseFromString(html, "text/html").querySelector("[data-board]");
    if (!fresh) return;
    madeOurs(fresh);
    // Open folds stay open: the organiser may be reading the codes or a QR code.
    const open = new Set([...board.querySelectorAll("details[open] > summary")].map((s) => s.textContent));
    for (const summary of fresh.querySelectorAll("details > summary")) {
      if (open.has(summary.textContent)) summary.parentElement.open = true;
    }
    const adopted = document.adoptNode(fresh);
    board.replaceWith(adopted);
    if (window.htmx) window.htmx.process(adopted);
  }

  function listen() {
    const board = document.querySelector("[data-board]");
    if (stream && (!board || listeningTo !== board.dataset.events)) {
      stream.close();
      stream = null;
    }
    if (!board || stream || !window.EventSource) return;
    const address = new URL(board.dataset.events, location.href);
    address.searchParams.set("seen", board.dataset.seen);
    listeningTo = board.dataset.events;
    stream = new EventSource(address);
    stream.addEventListener("board", (event) => heard(event.data, event.lastEventId));
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", listen);
  else listen();
  // A page reached by a boosted link brings its board without loading this script again.
  document.addEventListener("htmx:afterSettle", listen);
})();
