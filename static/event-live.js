// A club night's board (the organiser's page, the room's screen) as it happens: one stream
// of news, and each new board takes the old one's place. The board comes without this
// phone's CSRF token, which it gets from the page. And a pair's confirmation that could not
// be sent says so beside its button ([data-send-failed]).
(() => {
  let stream = null;
  let listeningTo = null;
  // How long a stream the server closed for good waits before it is opened again.
  const AGAIN_MS = 3000;

  function madeOurs(fresh) {
    const token = document.querySelector("input[name=csrf_token][value]:not([value=''])");
    for (const input of fresh.querySelectorAll("input[name=csrf_token]")) {
      if (!input.value && token) input.value = token.value;
    }
  }

  // Open folds stay open through a new board: the organiser may be reading the codes or a
  // QR code.
  const openFolds = (board) => new Set([...board.querySelectorAll("details[open] > summary")]
    .map((summary) => summary.textContent));

  function reopen(board, open) {
    for (const summary of board.querySelectorAll("details > summary")) {
      if (open.has(summary.textContent)) summary.parentElement.open = true;
    }
  }

  function heard(html, id) {
    const board = document.querySelector("[data-board]");
    if (!board || board.dataset.seen === id) return;
    const fresh = new DOMParser().parseFromString(html, "text/html").querySelector("[data-board]");
    if (!fresh) return;
    madeOurs(fresh);
    reopen(fresh, openFolds(board));
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
    const opened = new EventSource(address);
    stream = opened;
    opened.addEventListener("board", (event) => heard(event.data, event.lastEventId));
    // The browser tries a dropped stream again by itself, but not one answered with an
    // error (a server still starting behind its proxy): that one is opened anew.
    opened.addEventListener("error", () => {
      if (opened.readyState !== EventSource.CLOSED || stream !== opened) return;
      stream = null;
      setTimeout(listen, AGAIN_MS);
    });
  }

  // The room's screen stays lit all night where the browser lets a page ask for it; the
  // lock goes when the page is hidden, and is asked for again when it is back.
  async function keepLit() {
    if (!document.body.classList.contains("screen-page") || !("wakeLock" in navigator)) return;
    if (document.hidden) return;
    try {
      await navigator.wakeLock.request("screen");
    } catch (refused) { /* battery saving: the screen dims as it would anyway */ }
  }

  function start() {
    listen();
    keepLit();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  document.addEventListener("visibilitychange", keepLit);
  // A page reached by a boosted link, or by Back from htmx's history (a swap too), brings
  // its board without loading this script again.
  document.addEventListener("htmx:afterSettle", listen);
  // The board the organiser's own confirming or reopening brings keeps the folds too.
  let openBeforeSwap = null;
  document.addEventListener("htmx:beforeSwap", (event) => {
    const target = event.detail.target;
    openBeforeSwap = target && target.matches("[data-board]") ? openFolds(target) : null;
  });
  // A confirmation lost on the way: said where it was tapped, the code kept as typed.
  const failedNote = (event) => event.detail.elt && event.detail.elt.querySelector
    && event.detail.elt.querySelector("[data-send-failed]");
  for (const trouble of ["htmx:sendError", "htmx:timeout"]) {
    document.addEventListener(trouble, (event) => {
      const note = failedNote(event);
      if (note) note.hidden = false;
    });
  }
  document.addEventListener("htmx:beforeRequest", (event) => {
    const note = failedNote(event);
    if (note) note.hidden = true;
  });
  document.addEventListener("htmx:afterSwap", () => {
    const board = document.querySelector("[data-board]");
    if (openBeforeSwap && board) reopen(board, openBeforeSwap);
    openBeforeSwap = null;
  });
})();
