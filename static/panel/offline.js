// The phone without the server. "Offline" shows while the phone has no network, or has one
// that does not reach us. The service worker (templates/offline/sw.js, at the data-worker
// address on the page's script) keeps the pages, so that a sheet also opens offline.
//
// Interface: reachable(answered) (the server answered just now, or could not be reached);
// keepCopy() (the worker keeps the page as it is now).
export function reachable(answered) {
  const note = document.querySelector("[data-offline-note]");
  if (note) note.hidden = navigator.onLine && answered;
}

window.addEventListener("offline", () => reachable(false));
window.addEventListener("online", () => reachable(true));

// The service worker keeps each page a visit fetches; a sheet that changed on the page
// (a save, another phone's hand) is kept again, so the copy offline is the last one seen.
export function keepCopy() {
  const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (worker && (document.getElementById("sheet") || !location.search)) {
    worker.postMessage({ keep: location.pathname });
  }
}

const worker = document.querySelector("script[data-worker]");
if (worker && "serviceWorker" in navigator) {
  // The first visit is not yet looked after when it loads: it is kept once it is.
  navigator.serviceWorker.addEventListener("controllerchange", keepCopy);
  navigator.serviceWorker.register(worker.dataset.worker).catch(() => { /* the app works without it */ });
}
document.addEventListener("htmx:afterSwap", (event) => {
  if (event.detail.target && event.detail.target.id === "sheet") keepCopy();
});
