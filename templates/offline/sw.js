// Tablemate's service worker: the app opens with the wifi gone. The static files (under
// versioned names) and the page saying what works offline are kept when it installs; each
// page is fetched from the server when it can be and kept, so the last sheet seen of each
// match still opens offline, and a page never opened here shows what works offline. Saves are not
// its business: an entry that could not be sent waits on the page (static/panel/save.js,
// outbox.js).
"use strict";

const ASSETS = {{ assets|tojson }};
// The page for a page not kept, by language: {"en": "/offline/en", …}.
const OFFLINE_PAGES = {{ offline_pages|tojson }};
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
    .then((cache) => cache.addAll([...ASSETS, ...Object.values(OFFLINE_PAGES)]))
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
    return kept || notKept(request, offline);
  }
}

// The language of the pages read here: the one of the page kept last, else the browser's.
async function language(request) {
  const kept = await (await caches.open(PAGES_CACHE)).keys();
  const last = kept.length && await caches.match(kept[kept.length - 1], { cacheName: PAGES_CACHE });
  const named = last && /<html lang="([a-z]+)"/.exec(await last.text());
  const asked = named ? named[1] : (request.headers.get("Accept-Language") || "").slice(0, 2);
  return OFFLINE_PAGES[asked] ? asked : Object.keys(OFFLINE_PAGES)[0];
}

// Offline, a page this phone has not kept: what works offline and what does not, at the
// address asked for (so "Try again" asks for it again).
async function notKept(request, offline) {
  const page = await caches.match(OFFLINE_PAGES[await language(request)], { cacheName: STATIC_CACHE });
  if (!page) throw offline;
  return page;
}

// A visit with a query (a search sent without JavaScript) is never kept, but offline it
// says so rather than leaving the browser's error page.
async function asked(request) {
  try {
    return await fetch(request);
  } catch (offline) {
    return notKept(request, offline);
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
  } else if (event.request.mode === "navigate" && url.origin === self.location.origin
             && !url.pathname.startsWith("/api/")) {
    event.respondWith(asked(event.request));
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
