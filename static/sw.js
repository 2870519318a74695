// The service worker (served at /sw.js, scope "/"): what lets a game already opened on
// this phone go on without the network. docs/decisions.md ("Offline: the service worker")
// says what it keeps, for how long, and why.
//
// - Pages: network first, always. A page the network answers is shown as it came; a copy
//   of a game's pages (its scoreboard, history, "who went out" and card pickers) and of the
//   home page is kept, dated, to be shown only when the network fails. A game that answers
//   403 or 404 (a renewed link, a deleted game) loses its copies.
// - Static files: a content-hashed name never changes, so its copy is used first; a plain
//   name goes to the network first.
// - Anything else (htmx's requests, polls, the POSTs) goes to the network untouched; a
//   form sent while the phone is offline gets a page saying that nothing was sent.
"use strict";

const PAGES = "pages-1";
const FILES = "files-1";
//: How long a page's copy is kept: a game's evening, and the next one.
const KEEP_MS = 2 * 24 * 3600 * 1000;
//: The pages of a game worth a copy: its scoreboard, history, and a new hand's pickers.
const GAME_PAGE = /^\/games\/(\d+)(\/hands(\/new)?)?$/;
//: A static file named with a hash of its content (companion/assets.py).
const HASHED = /\.[0-9a-f]{10}\.[A-Za-z0-9]+$/;
//: The query fields a copy is kept under (the picker's "who went out"); the rest (a "saved"
//: notice, a history page) only changes what a live page says once.
const KEY_FIELDS = ["out", "page"];
const POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; " +
  "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== PAGES && name !== FILES) await caches.delete(name);
    }
    await forgetOldCopies();
    await self.clients.claim();
  })());
});

// The address a page's copy is kept under: its path, and only the fields that change it.
function copyKey(url) {
  const key = new URL(url.pathname, url.origin);
  KEY_FIELDS.forEach((field) => {
    if (url.searchParams.has(field)) key.searchParams.set(field, url.searchParams.get(field));
  });
  return key.href;
}

function keepsCopy(url) {
  return url.pathname === "/" || GAME_PAGE.test(url.pathname);
}

async function keepCopy(url, response) {
  const headers = new Headers(response.headers);
  headers.set("X-Copy-Taken", new Date().toISOString());
  const body = await response.text();
  const cache = await caches.open(PAGES);
  await cache.put(copyKey(url), new Response(body, { status: 200, headers }));
}

async function forgetGame(gameId) {
  const cache = await caches.open(PAGES);
  for (const request of await cache.keys()) {
    const found = GAME_PAGE.exec(new URL(request.url).pathname);
    if (found && found[1] === gameId) await cache.delete(request);
  }
}

async function forgetOldCopies() {
  const cache = await caches.open(PAGES);
  const now = Date.now();
  for (const request of await cache.keys()) {
    const copy = await cache.match(request);
    const taken = copy && Date.parse(copy.headers.get("X-Copy-Taken") || "");
    if (!taken || now - taken > KEEP_MS) await cache.delete(request);
  }
}

// A kept copy as the page it was, marked on its <body> with when it was taken (static/
// phone.js says so at the top of the page).
async function markedCopy(url) {
  const copy = await (await caches.open(PAGES)).match(copyKey(url));
  if (!copy) return null;
  const taken = copy.headers.get("X-Copy-Taken") || "";
  const body = (await copy.text()).replace("<body ", `<body data-copy-taken="${taken}" `);
  return new Response(body, { status: 200, headers: copy.headers });
}

async function stylesheet() {
  const keys = await (await caches.open(FILES)).keys();
  const found = keys.map((r) => new URL(r.url).pathname).find((p) => /^\/static\/app\.[0-9a-f]{10}\.css$/.test(p));
  return found || "/static/app.css";
}

// Said when a page needs the server and there is neither network nor a copy.
async function offlinePage(url, sent) {
  const game = GAME_PAGE.exec(url.pathname) || /^\/games\/(\d+)\//.exec(url.pathname);
  const back = game
    ? `<a class="button" href="/games/${game[1]}">This game's scoreboard, as last seen</a>`
    : `<a class="button" href="/">The games on this phone</a>`;
  const what = sent
    ? "What this page sent did not reach the app: nothing was changed. Send it again once this phone is back on the network."
    : "This page needs the app itself (the Wild Jackpot lever, the referee, a new game, the rules... all ask it), and this phone cannot reach the app now: it is offline, or the app's network is out of reach.";
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">
<title>Offline · UNO companion</title><link rel="stylesheet" href="${await stylesheet()}"></head>
<body><header class="bar"><a class="home" href="/">UNO companion</a></header><main>
<h1>No network</h1><p class="notice warning" role="status" id="offline">${what}</p>
<p>A game already opened on this phone still shows its scoreboard and history as last seen, and a hand recorded now is kept on the phone and sent when the network is back.</p>
<div class="actions column">${back}</div></main></body></html>`;
  return new Response(html, {
    status: 503,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store",
               "Content-Security-Policy": POLICY },
  });
}

async function page(event, url) {
  try {
    const response = await fetch(event.request);
    const game = GAME_PAGE.exec(url.pathname);
    if (game && (response.status === 403 || response.status === 404)) {
      await forgetGame(game[1]);
    } else if (response.status === 200 && keepsCopy(url) && !response.redirected &&
               (response.headers.get("Content-Type") || "").startsWith("text/html")) {
      event.waitUntil(keepCopy(url, response.clone()));
    }
    return response;
  } catch (offline) {
    return (await markedCopy(url)) || offlinePage(url, false);
  }
}

async function file(request, url) {
  const cache = await caches.open(FILES);
  if (HASHED.test(url.pathname)) {
    const kept = await cache.match(request);
    if (kept) return kept;
  }
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (offline) {
    const kept = await cache.match(request, { ignoreSearch: true });
    if (kept) return kept;
    throw offline;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "GET" && url.pathname.startsWith("/static/")) {
    event.respondWith(file(request, url));
  } else if (request.method === "GET" && request.mode === "navigate") {
    event.respondWith(page(event, url));
  } else if (request.method === "POST" && request.mode === "navigate" && !self.navigator.onLine) {
    // Only offline: online, the browser keeps its own ways with a form's answer (Back to it
    // asks before sending it again, rather than a page saying nothing reached the app).
    event.respondWith(fetch(request).catch(() => offlinePage(url, true)));
  }
});

// A page asks for what it links to be kept (its script, stylesheet, htmx, icons), and for
// the pages it leads to offline (a game's pickers) to be fetched and kept now.
self.addEventListener("message", (event) => {
  const said = event.data || {};
  const own = (list) => (Array.isArray(list) ? list : [])
    .map((href) => new URL(href, self.location.origin))
    .filter((url) => url.origin === self.location.origin);
  event.waitUntil((async () => {
    const cache = await caches.open(FILES);
    for (const url of own(said.files)) {
      if (url.pathname.startsWith("/static/") && !(await cache.match(url.href))) {
        try { await file(new Request(url.href), url); } catch (offline) { return; }
      }
    }
    for (const url of own(said.pages)) {
      if (!keepsCopy(url)) continue;
      try {
        const response = await fetch(url.href, { credentials: "same-origin", cache: "no-store" });
        if (response.status === 200 && !response.redirected) await keepCopy(url, response);
      } catch (offline) { return; }
    }
  })());
});
