// The service worker of the HTML edition: after one visit over http(s) every page of the site is
// cached, so a director without a network at the tournament still has the laws. Pages are fetched
// from the server when it answers (so a new build is seen at once) and from the cache when it does
// not. The cache is named after the build's files: a new build replaces it.
"use strict";
const CACHE = "lawbook-{{ version }}";
const FILES = {{ files|tojson }};

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
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
  event.respondWith(fetch(request).then((response) => {
    if (response.ok) {
      const copy = response.clone();  // the search index too, as it is used
      caches.open(CACHE).then((cache) => cache.put(request, copy));
    }
    return response;
  }).catch(() => caches.match(request, { ignoreSearch: true }).then((hit) =>
    hit || Response.error())));
});
