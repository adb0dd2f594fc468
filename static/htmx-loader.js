// When the pinned CDN copy of htmx did not arrive (a table's wifi without internet),
// load the bundled copy in its place, still before the page body is parsed.
if (!window.htmx) {
  document.write('<script src="' + document.currentScript.dataset.htmx + '"><\/script>');
}
