// The service worker of the installable app (issue 26). The server serves this file at /sw.js with the two
// placeholders filled in (src/dicepoker/server/shell.py): the shell's version, a hash of its files, and the
// list of those files. It keeps the client shell (the page, its CSS and scripts, the vendor code, the icons)
// in a cache named after that version, so the lobby opens at once, with or without the server.
//
// It NEVER caches anything else: not /api/* (answers, tables, seats), not the WebSocket (a service worker
// never sees one), not /healthz, not any path outside the list. Those always go to the network.
const VERSION = "__SHELL_VERSION__";
const SHELL = ["__SHELL_FILES__"];
const PREFIX = "dicepoker-shell-";
const CACHE = PREFIX + VERSION;

self.addEventListener("install", (event) => {
  // cache: "reload": the files come from the server, not from the browser's HTTP cache (an older release).
  const requests = SHELL.map((url) => new Request(url, { cache: "reload" }));
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(requests)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  // A new release: drop the old shells, and take over the open pages.
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

function shellKey(request) {
  if (request.method !== "GET") return null;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return null;
  if (url.pathname.startsWith("/api/") || url.pathname === "/api") return null; // never cached
  if (request.mode === "navigate") return url.pathname === "/" || url.pathname === "/index.html" ? "/" : null;
  return SHELL.includes(url.pathname) ? url.pathname : null;
}

self.addEventListener("fetch", (event) => {
  const key = shellKey(event.request);
  if (key === null) return; // the network, untouched
  event.respondWith(
    caches.open(CACHE).then((cache) => cache.match(key).then((hit) => hit || fetch(event.request))),
  );
});
