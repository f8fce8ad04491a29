// The service worker of the HTML edition: after one visit over http(s) every page of the site and the
// search index are cached, so a director without a network at the tournament still has the laws and
// can search them. A page is fetched from the server when it answers within a second (so a new build
// is seen at once) and from the cache when it does not: slow venue Wi-Fi never stalls a page that is
// cached (the late answer still refreshes the cache). The cache is named after the build's files: a
// new build replaces it.
"use strict";
const CACHE = "lawbook-{{ version }}";
const FILES = {{ files|tojson }};
// pagefind's index: its file names are hashes, listed by the build once the index is made.
const SEARCH_FILES = "pagefind/files.json";
const PATIENCE = 1000;  // ms to wait for the network before the cache answers

function cacheSearchIndex(cache) {
  return fetch(SEARCH_FILES).then((response) => (response.ok ? response.json() : []))
    .then((files) => cache.addAll(files))
    .catch(() => {});  // a site without its index (opened from disk, built without search) still installs
}

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll(FILES).then(() => cacheSearchIndex(cache)))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("lawbook-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) {
    return;
  }
  const network = fetch(request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(request, copy));
    }
    return response;
  });
  const cached = () => caches.match(request, { ignoreSearch: true });
  event.respondWith(new Promise((resolve) => {
    let done = false;
    const answer = (response) => { if (!done && response) { done = true; resolve(response); } };
    // No network: the cache, or an error when the file was never cached.
    network.then(answer, () => cached().then((hit) => answer(hit || Response.error())));
    // A slow network: the cache after PATIENCE, if it has the file; else the network's late answer.
    setTimeout(() => cached().then(answer), PATIENCE);
  }));
  event.waitUntil(network.then(() => {}, () => {}));
});
