// The table clock's service worker: a clock page, and the files it uses, answered from
// the phone's cache when the network does not answer (the page puts them there when it
// loads). Every other request goes to the network untouched.
"use strict";
const CACHE = "meldtour-clock";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  const page = url.pathname.startsWith("/score/") && url.pathname.endsWith("/clock");
  const file = url.pathname.startsWith("/static/") && url.searchParams.has("v");
  if (!page && !file) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    if (file) {
      const kept = await cache.match(request);
      if (kept) return kept;
    }
    try {
      const answer = await fetch(request);
      if (answer.ok) cache.put(request, answer.clone());
      return answer;
    } catch (error) {
      const kept = await cache.match(request);
      if (kept) return kept;
      throw error;
    }
  })());
});
