// htmx from the pinned CDN when it arrives within 1.5 s, else the bundled copy: one of
// them runs, never both, and neither holds up the first paint.
(function () {
  const CDN_PATIENCE_MS = 1500;
  const { cdn, integrity, bundled } = document.currentScript.dataset;

  const addScript = (attributes) =>
    document.head.append(Object.assign(document.createElement("script"), attributes));
  const runBundled = () => addScript({ src: bundled });
  const runCdn = () =>
    addScript({ src: cdn, integrity, crossOrigin: "anonymous", onerror: runBundled });

  function load() {
    let decided = false;
    const decide = (run) => () => {
      if (decided) return;
      decided = true;
      clearTimeout(timer);
      run();
    };
    const timer = setTimeout(decide(runBundled), CDN_PATIENCE_MS);
    // A script element runs whenever its file arrives, even once removed: the CDN copy is
    // only preloaded, and becomes a script if it arrived in time. A late one stays unused.
    document.head.append(Object.assign(document.createElement("link"), {
      rel: "preload", as: "script", href: cdn, integrity, crossOrigin: "anonymous",
      onload: decide(runCdn), onerror: decide(runBundled),
    }));
  }

  // htmx sets itself up on DOMContentLoaded, or at once in a complete document, but not in
  // between: after the load event it is always in time, and the load never waits on the CDN.
  window.addEventListener("load", load);

  // A field typed in before htmx came is typed in again for it once it is set up (its
  // first htmx:load), so that what answers typing (the rules search, a sheet's preview)
  // answers what is there without waiting for another keystroke.
  const typedEarly = new Set();
  const noteTyping = (event) => typedEarly.add(event.target);
  document.addEventListener("input", noteTyping, true);
  document.addEventListener("htmx:load", () => {
    document.removeEventListener("input", noteTyping, true);
    for (const field of typedEarly) {
      if (field.isConnected) field.dispatchEvent(new Event("input", { bubbles: true }));
    }
    typedEarly.clear();
  }, { once: true });
})();
