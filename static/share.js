// "Share" on a score sheet: copy a match link, or hand it to the phone's share sheet. Each
// button shows only where the browser can do what it offers; the link field works without.
(function () {
  "use strict";

  const canCopy = Boolean(navigator.clipboard && window.isSecureContext);
  const canShare = typeof navigator.share === "function";

  function showButtons() {
    document.querySelectorAll("[data-copy]").forEach((button) => { button.hidden = !canCopy; });
    document.querySelectorAll("[data-share]").forEach((button) => { button.hidden = !canShare; });
  }

  document.addEventListener("click", (event) => {
    const copy = event.target.closest("[data-copy]");
    const share = event.target.closest("[data-share]");
    if (copy) {
      const link = document.getElementById(copy.dataset.copy).value;
      const status = copy.parentElement.querySelector("[data-copied]");
      navigator.clipboard.writeText(link).then(() => { status.textContent = status.dataset.copied; });
    } else if (share) {
      const link = document.getElementById(share.dataset.share).value;
      // Closing the share sheet without choosing rejects the promise: nothing to report.
      navigator.share({ title: share.dataset.shareTitle, url: link }).catch(() => {});
    }
  });

  showButtons();
  document.addEventListener("htmx:load", showButtons);
})();
