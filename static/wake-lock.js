// "Keep the screen on" under a sheet: the phone's screen stays lit through the match while
// this phone chose so (remembered on the phone). The button shows only where the browser
// has the Screen Wake Lock API; the phone lets the lock go when the page is hidden, and it is
// taken again when the page comes back.
(function () {
  "use strict";

  const CHOICE = "tablemate:keep-screen-on";
  const supported = "wakeLock" in navigator;
  let lock = null;

  const wanted = () => localStorage.getItem(CHOICE) === "on";
  const buttons = () => document.querySelectorAll("[data-wake-lock]");

  function say(text) {
    for (const status of document.querySelectorAll("[data-wake-refused]")) status.textContent = text;
  }

  async function hold() {
    if (!wanted() || document.hidden || lock || !buttons().length) return;
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", () => { lock = null; });
      say("");
    } catch (refused) {
      // A phone in battery saving mode may refuse: say so, and keep the choice for later.
      for (const status of document.querySelectorAll("[data-wake-refused]")) {
        status.textContent = status.dataset.wakeRefused;
      }
    }
  }

  function letGo() {
    if (lock) lock.release();
    lock = null;
    say("");
  }

  function show() {
    for (const button of buttons()) {
      button.hidden = !supported;
      button.setAttribute("aria-pressed", String(wanted()));
    }
    // Only a sheet keeps the screen on: leaving it for the rules lets the screen dim.
    if (supported && buttons().length) hold();
    else letGo();
  }

  document.addEventListener("click", (event) => {
    if (!event.target.closest("[data-wake-lock]")) return;
    try {
      localStorage.setItem(CHOICE, wanted() ? "off" : "on");
    } catch (full) { /* private mode: the choice lasts as long as the page */ }
    if (!wanted()) letGo();
    show();
  });
  document.addEventListener("visibilitychange", hold);
  document.addEventListener("htmx:load", show);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", show);
  else show();
})();
