// Tablemate's service worker: the app opens with the wifi gone. The static files (under
// versioned names) are kept when it installs; each page is fetched from the server when it
// can be and kept, so the last sheet seen of each match still opens offline. Saves are not
// its business: an entry that could not be sent waits on the page (static/panel/save.js,
// outbox.js).
"use strict";

const ASSETS = {{ assets|tojson }};
const STATIC_CACHE = "tablemate-static-{{ version }}";
const PAGES_CACHE = "tablemate-pages";
const PAGES_KEPT = 40;
const VERSIONED = new RegExp("^(.+)\\.[0-9a-f]{" + {{ digest_length }} + "}(\\.[^./]+)$");

// An old page names the static files of its day: offline, today's copy of the same file.
// A module asked for by its plain name (a browser without import maps) gets it too.
const plainName = (path) => path.replace(VERSIONED, "$1$2");
const currentAsset = new Map(ASSETS.map((path) => [plainName(path), path]));

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(STATIC_CACHE)
    .then((cache) => cache.addAll(ASSETS))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names
      .filter((name) => name.startsWith("tablemate-static-") && name !== STATIC_CACHE)
      .map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

// A whole page: a visit, a boosted link (htmx asks for the whole page) or Back.
function isPage(request, url) {
  if (request.method !== "GET" || url.origin !== self.location.origin || url.search) return false;
  if (url.pathname.startsWith("/static/") || url.pathname.startsWith("/api/")) return false;
  return request.mode === "navigate" || request.headers.get("HX-Boosted") === "true"
    || request.headers.get("HX-History-Restore-Request") === "true";
}

async function keepPage(path, response) {
  const cache = await caches.open(PAGES_CACHE);
  // A put replaces the old copy and files the new one last, in one step: the oldest go first,
  // and a reload offline never falls between a delete and a put.
  await cache.put(path, response);
  const kept = await cache.keys();
  await Promise.all(kept.slice(0, Math.max(kept.length - PAGES_KEPT, 0)).map((old) => cache.delete(old)));
}

const keepable = (response) => response.ok && !response.redirected
  && (response.headers.get("Content-Type") || "").startsWith("text/html");

async function page(request, url) {
  try {
    const response = await fetch(request);
    if (keepable(response)) await keepPage(url.pathname, response.clone());
    return response;
  } catch (offline) {
    const kept = await caches.match(url.pathname, { cacheName: PAGES_CACHE, ignoreVary: true });
    if (kept) return kept;
    throw offline;
  }
}

async function asset(request, url) {
  const cache = await caches.open(STATIC_CACHE);
  const kept = await cache.match(request)
    || await cache.match(currentAsset.get(plainName(url.pathname)) || url.pathname);
  return kept || fetch(request);
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (isPage(event.request, url)) {
    event.respondWith(page(event.request, url));
  } else if (event.request.method === "GET" && url.origin === self.location.origin
             && url.pathname.startsWith("/static/")) {
    event.respondWith(asset(event.request, url));
  }
});

// A sheet changed on the page (a save, another phone's hand): keep the page as it is now.
self.addEventListener("message", (event) => {
  const path = event.data && event.data.keep;
  if (typeof path !== "string" || !path.startsWith("/")) return;
  event.waitUntil(fetch(path, { credentials: "same-origin" })
    .then((response) => (keepable(response) ? keepPage(path, response) : null))
    .catch(() => null));
});
