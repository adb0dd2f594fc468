// The API docs page: Swagger UI on the OpenAPI document, its calls sent to this server.
// Here and not inline, so the page keeps the strict Content-Security-Policy.
(function () {
  "use strict";

  const viewer = document.getElementById("api-viewer");
  const dark = window.matchMedia("(prefers-color-scheme: dark)");
  // Swagger UI has its own dark colours; it takes them from a class on <html>.
  const followScheme = () => document.documentElement.classList.toggle("dark-mode", dark.matches);
  followScheme();
  dark.addEventListener("change", followScheme);

  window.SwaggerUIBundle({
    url: viewer.dataset.document,
    domNode: viewer,
    deepLinking: true,
    // The default sends the document's address to validator.swagger.io for a badge.
    validatorUrl: null,
    // Swagger UI lists the operations in a <main> of its own, inside the page's: one main
    // landmark for a screen reader, the operations a named region within it.
    onComplete: () => {
      const operations = viewer.querySelector("main#operations");
      if (!operations) return;
      operations.setAttribute("role", "region");
      operations.setAttribute("aria-label", "Operations");
    },
  });
})();
