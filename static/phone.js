// What makes the companion a phone's app (progressive enhancement, like app.js): the
// service worker (static/sw.js) that keeps a game going without the network, the hands
// recorded offline kept on the phone until they can be sent, and the screen kept awake.
// app.js brings it in once the page has loaded (templates/base.html, data-phone).
(function () {
  "use strict";
  const me = document.currentScript;
  const GAME = /^\/games\/(\d+)(\/|$)/;
  const SCOREBOARD = /^\/games\/(\d+)$/;
  const SAVE = /^\/games\/(\d+)\/hands$/;
  const QUEUE = "uno-queue";
  const AWAKE = "uno-awake";
  const timeWords = window.Intl ? new Intl.DateTimeFormat(undefined, { timeStyle: "short" }) : null;
  function clock(moment) { return timeWords ? timeWords.format(new Date(moment)) : new Date(moment).toISOString(); }

  // A notice at the top of the page (under the trouble notice), made once, by id.
  function notice(id, warning) {
    let box = document.getElementById(id);
    if (!box) {
      box = document.createElement("div");
      box.id = id;
      box.className = "notice" + (warning ? " warning" : "");
      box.setAttribute("role", "status");
      const main = document.querySelector("main");
      const trouble = document.getElementById("trouble");
      if (!main) return null;
      main.insertBefore(box, trouble ? trouble.nextSibling : main.firstChild);
    }
    return box;
  }
  function say(box, lines) {
    if (!box) return;
    if (lines.length === 1) { box.textContent = lines[0]; return; }
    box.replaceChildren(...lines.map((line) => {
      const p = document.createElement("p");
      p.textContent = line;
      return p;
    }));
  }

  // -- The link's page answered in place of a redirect (companion/sharing.py): its own
  // address in the bar, so the link's token leaves it and a reload asks for the page.
  function settleAddress() {
    const address = document.body.dataset.address;
    if (address && address.startsWith("/")) history.replaceState(history.state, "", address);
  }

  // -- The service worker, and what this page needs from it offline.
  function pageFiles() {
    const found = [];
    document.querySelectorAll("script[src], link[rel=stylesheet], link[rel=manifest], link[rel~=icon], link[rel=apple-touch-icon]")
      .forEach((el) => found.push(el.getAttribute("src") || el.getAttribute("href")));
    document.querySelectorAll("script[data-keep]").forEach((el) => found.push(...el.dataset.keep.split(" ")));
    document.querySelectorAll("script[data-htmx]").forEach((el) => found.push(el.dataset.htmx));
    return found.filter(Boolean);
  }
  // A scoreboard: the game's history and, on a scorekeeper's, the "who went out" page and
  // each card picker of the next hand, fetched now and kept, so that they can be read and
  // a hand recorded offline. Once per version of the game (the live poller's tag). The page
  // itself too, when the worker did not see it come (the phone's first page), and the
  // phone's list of games (where the installed app opens).
  function pagesToKeep(controlled) {
    const record = document.querySelector('a[href$="/hands/new"]');
    const history = document.querySelector('.bar a[href$="/hands"]');
    const live = document.getElementById("live");
    if (!live || !SCOREBOARD.test(location.pathname)) return controlled ? [] : [location.pathname];
    const key = "uno-kept:" + location.pathname;
    if (controlled && localStorage.getItem(key) === live.dataset.etag) return [];
    localStorage.setItem(key, live.dataset.etag);
    const pages = ["/", ...(controlled ? [] : [location.pathname]),
                   ...(history ? [history.getAttribute("href")] : [])];
    if (!record) return pages;
    const base = record.getAttribute("href");
    const seats = [...document.querySelectorAll("#standings tr[data-seat]:not(.out)")];
    return [...pages, base, ...seats.map((row) => base + "?out=" + row.dataset.seat)];
  }
  function register() {
    if (!("serviceWorker" in navigator) || !me || !me.dataset.worker) return;
    const controlled = Boolean(navigator.serviceWorker.controller);
    navigator.serviceWorker.register(me.dataset.worker, { scope: "/" }).catch(() => {});
    navigator.serviceWorker.ready.then((worker) => {
      if (!navigator.onLine || !worker.active || document.body.dataset.copyTaken) return;
      worker.active.postMessage({ files: pageFiles(), pages: pagesToKeep(controlled) });
    });
  }

  // -- A page shown from the phone's copy (sw.js marks it): say so, and when it was taken.
  function markCopy() {
    const taken = document.body.dataset.copyTaken;
    if (!taken) return;
    say(notice("copy", true), [
      "No network: this is this page as this phone last saw it, at " + clock(taken) +
      ". It is not live: what other phones did since is not in it."]);
  }

  // -- Hands recorded offline: kept on the phone (localStorage) with the form's one-time
  // key, sent when the network is back. The app records a key once, however often it is
  // sent (companion/hands.py), so a hand sent twice is recorded once.
  function queued() {
    try { return JSON.parse(localStorage.getItem(QUEUE) || "[]"); } catch (broken) { return []; }
  }
  function setQueued(list) { localStorage.setItem(QUEUE, JSON.stringify(list)); }
  function token() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRF-Token"]; } catch (broken) { return null; }
  }
  function gameOf(path) { const found = GAME.exec(path); return found ? found[1] : null; }

  function showWaiting() {
    const found = SCOREBOARD.exec(location.pathname);
    if (!found) return;
    const mine = queued().filter((hand) => hand.game === found[1]);
    const box = document.getElementById("waiting");
    if (!mine.length) { if (box) box.remove(); return; }
    say(notice("waiting", true), mine.map((hand) =>
      "Hand " + hand.number + " (" + hand.out + " went out), saved on this phone at " +
      clock(hand.at) + ": waiting to be sent. It is sent when this phone is back on the " +
      "network; the standings count it then."));
  }

  // What the picker holds, in words: who holds which cards (or typed how many points).
  function heldLines(form) {
    const names = {};
    document.querySelectorAll("#card-grid") .forEach((t) => t.content.querySelectorAll(".cell")
      .forEach((cell) => { names[cell.dataset.card] = cell.getAttribute("aria-label"); }));
    return [...form.querySelectorAll("fieldset.opponent")].map((set) => {
      const name = set.querySelector("legend bdi").textContent;
      const seat = set.dataset.seat;
      const typed = form.querySelector('[name="pts-' + seat + '"]').value.trim();
      const cards = (form.querySelector('[name="cards-' + seat + '"]').value || "").split(/[\s,]+/).filter(Boolean);
      if (typed) return name + ": " + typed + " points (typed)";
      return name + ": " + (cards.length ? cards.map((c) => names[c] || c).join(", ") : "no cards");
    });
  }
  function entryOf(form) {
    const fields = [...new FormData(form).entries()].map(([k, v]) => [k, String(v)]);
    const get = (name) => (fields.find(([k]) => k === name) || [])[1] || "";
    return {
      game: gameOf(form.dataset.save), url: form.dataset.save, fields: fields,
      number: get("number"), out: form.dataset.out || "", key: get("entry"),
      at: new Date().toISOString(),
    };
  }
  function queue(entry, scoreboard) {
    const list = queued().filter((hand) => hand.key !== entry.key);
    list.push(entry);
    setQueued(list);
    location.assign(scoreboard);
  }
  // The picker's Review, offline: what was entered, in words, and a Save that keeps the
  // hand on the phone. The points are counted by the app when it gets the hand.
  function reviewOffline(form) {
    const entry = entryOf(form);
    const main = document.querySelector("main");
    const section = document.createElement("section");
    section.id = "offline-review";
    const h1 = document.createElement("h1");
    h1.textContent = "Review hand " + entry.number + " (offline)";
    h1.tabIndex = -1;
    const lead = document.createElement("p");
    lead.className = "lead";
    lead.textContent = entry.out + " went out.";
    const list = document.createElement("ul");
    list.className = "held";
    heldLines(form).forEach((line) => { const li = document.createElement("li"); li.textContent = line; list.appendChild(li); });
    const why = document.createElement("p");
    why.className = "notice warning";
    why.textContent = "This phone cannot reach the app now (no network, or the app's network " +
      "is out of reach). Saved now, the hand is kept on this phone and sent as soon as the app " +
      "can be reached; the app counts its points then.";
    const actions = document.createElement("div");
    actions.className = "actions column";
    const save = document.createElement("button");
    save.type = "button";
    save.className = "big";
    save.id = "save-offline";
    save.textContent = "Save hand on this phone";
    save.addEventListener("click", () => queue(entryOf(form), form.dataset.scoreboard));
    const back = document.createElement("button");
    back.type = "button";
    back.className = "secondary";
    back.textContent = "Change something";
    actions.append(save, back);
    section.append(h1, lead, list, why, actions);
    // In the picker's place: its heading, its form and the notice that the running points
    // could not be reached (said here, in the review's own words) put away meanwhile.
    const hidden = [form, main.querySelector("h1"), document.getElementById("trouble")]
      .filter((el) => el && !el.hidden);
    hidden.forEach((el) => { el.hidden = true; });
    form.before(section);
    back.addEventListener("click", () => { section.remove(); hidden.forEach((el) => { el.hidden = false; }); });
    h1.focus();
  }
  function keepOnPhone(form) {
    if (form.id === "hand-form") reviewOffline(form);
    else queue(entryOf(form), form.dataset.scoreboard);
  }
  // Whether the app answers now. A phone "online" may still not reach it (the Wi-Fi is up
  // but the app's machine asleep or on another network): the form would end on the
  // browser's own error page, the hand entered lost. A HEAD of the service worker's
  // script goes to the network (the worker leaves HEAD alone) and costs the app nothing.
  async function reachable() {
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), 5000);
    try {
      await fetch("/sw.js", { method: "HEAD", cache: "no-store", signal: stop.signal });
      return true;
    } catch (unreachable) {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form.matches("form[data-save]")) return;
    if (event.submitter && event.submitter.hasAttribute("formaction")) return; // needs the app
    if (form.dataset.reached) { delete form.dataset.reached; return; } // sent as any form
    event.preventDefault();
    if (!navigator.onLine) { keepOnPhone(form); return; }
    const submitter = event.submitter;
    reachable().then((yes) => {
      if (!yes) { keepOnPhone(form); return; }
      form.dataset.reached = "1";
      form.requestSubmit(submitter && submitter.form === form ? submitter : undefined);
    });
  }, true);

  // Send what is waiting, one hand at a time, oldest first. Recorded (the app led to the
  // game's scoreboard): taken off. Refused because this phone may no longer change the
  // game (403, 404: a renewed link, a deleted game): taken off, and said; never sent again.
  // Any other refusal (a clash with a hand another phone saved meanwhile, a form out of
  // date, already saved): taken off and sent once more as the form itself, so that the
  // app's answer is the page shown, as it would have been online. No answer, or a server
  // error: kept for the next try.
  let sending = false;
  async function sendOne(hand) {
    const at = new URL(hand.url, location.origin);
    const target = SAVE.exec(at.pathname);
    if (at.origin !== location.origin || !target || target[1] !== hand.game) return "drop";
    const body = new URLSearchParams(hand.fields);
    const headers = {};
    if (token()) headers["X-CSRF-Token"] = token();
    let response;
    try {
      response = await fetch(at.pathname, { method: "POST", body, headers, credentials: "same-origin" });
    } catch (offline) { return "later"; }
    if (response.ok && response.redirected && gameOf(new URL(response.url).pathname) === hand.game) return "sent";
    if (response.status === 403 || response.status === 404) return "refused";
    if (response.status >= 400 && response.status < 500) return "answer";
    return "later";
  }
  function sendAsForm(hand) {
    const form = document.createElement("form");
    form.method = "post";
    form.action = hand.url;
    form.hidden = true;
    const fields = hand.fields.filter(([k]) => k !== "csrf_token");
    fields.push(["csrf_token", token() || (hand.fields.find(([k]) => k === "csrf_token") || [])[1] || ""]);
    fields.forEach(([name, value]) => {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      form.appendChild(input);
    });
    document.body.appendChild(form);
    form.submit();
  }
  async function sendWaiting() {
    if (sending || !navigator.onLine) return;
    sending = true;
    let sent = false;
    try {
      for (const hand of queued()) {
        const outcome = await sendOne(hand);
        if (outcome === "later") break;
        setQueued(queued().filter((other) => other.key !== hand.key));
        if (outcome === "refused") {
          say(notice("not-sent", true), ["Hand " + hand.number + " (" + hand.out + " went out), " +
            "saved on this phone offline, was not sent: this phone can no longer change that " +
            "game (its link was renewed, or the game deleted). Ask the scorekeeper."]);
        } else if (outcome === "answer") {
          sendAsForm(hand);
          return;
        } else if (outcome === "sent" && document.body.dataset.copyTaken) {
          sent = true;
        } else if (outcome === "sent" && SCOREBOARD.exec(location.pathname) &&
                   gameOf(location.pathname) === hand.game) {
          say(notice("sent", false), ["Hand " + hand.number + ", saved on this phone offline, " +
            "was sent: the standings count it."]);
        }
      }
    } finally {
      sending = false;
      showWaiting();
    }
    // A copy shown while the network was out: the page itself, now that it is back.
    if (sent) location.reload();
  }

  // -- The screen kept on (Screen Wake Lock) on a game's pages, said at the foot of the
  // page with a button to let it sleep, remembered on this phone; taken again when the
  // page comes back to the front (the browser lets go of it when the page is hidden), let
  // go when the page is left.
  let lock = null;
  let control = null;
  function wanted() { return localStorage.getItem(AWAKE) !== "off"; }
  function showAwake() {
    if (!control) return;
    const [words, button] = control.children;
    const state = document.body.dataset.awake;
    if (!wanted()) {
      words.textContent = "The screen may go dark as usual on this phone.";
      button.textContent = "Keep the screen on";
    } else if (state === "refused") {
      words.textContent = "This phone would not keep the screen on (a battery saver?).";
      button.textContent = "Let the screen sleep";
    } else {
      words.textContent = "The screen stays on while this game is open.";
      button.textContent = "Let the screen sleep";
    }
    button.setAttribute("aria-pressed", String(!wanted()));
  }
  async function keepAwake() {
    if (!wanted() || lock || document.visibilityState !== "visible") return;
    try {
      lock = await navigator.wakeLock.request("screen");
      document.body.dataset.awake = "yes";
      lock.addEventListener("release", () => { lock = null; document.body.dataset.awake = "no"; showAwake(); });
    } catch (refused) {
      document.body.dataset.awake = "refused"; // battery saver or permissions
    }
    showAwake();
  }
  function letSleep() {
    if (lock) { const held = lock; lock = null; held.release().catch(() => {}); }
    document.body.dataset.awake = "no";
  }
  function setUpAwake() {
    if (!document.body.hasAttribute("data-wake-lock") || !("wakeLock" in navigator)) return;
    // The control is shown on the scoreboard (data-wake-lock="control"); the game's other
    // pages keep the screen on as this phone chose there, without taking room from a form.
    if (document.body.dataset.wakeLock === "control") addControl();
    showAwake();
    keepAwake();
    document.addEventListener("visibilitychange", keepAwake);
    window.addEventListener("pagehide", letSleep);
    window.addEventListener("pageshow", (event) => { if (event.persisted) keepAwake(); });
  }
  function addControl() {
    const main = document.querySelector("main");
    control = document.createElement("p");
    control.id = "awake";
    control.className = "awake small";
    const words = document.createElement("span");
    words.setAttribute("role", "status");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary small";
    button.addEventListener("click", () => {
      if (wanted()) { localStorage.setItem(AWAKE, "off"); letSleep(); } else { localStorage.removeItem(AWAKE); keepAwake(); }
      showAwake();
    });
    control.append(words, " ", button);
    main.appendChild(control);
  }

  settleAddress();
  register();
  markCopy();
  showWaiting();
  setUpAwake();
  sendWaiting();
  setInterval(() => { if (queued().length) sendWaiting(); }, 10000);
  // Back on the network: a copy gives way to the page itself, once the app answers (a
  // phone may say it is online before it can reach anything, and a reload then would only
  // interrupt a tap).
  window.addEventListener("online", async () => {
    if (!navigator.onLine) return;
    if (queued().length || !document.body.dataset.copyTaken) { sendWaiting(); return; }
    try {
      const answer = await fetch(location.href, { method: "HEAD", cache: "no-store", credentials: "same-origin" });
      if (answer.ok) location.reload();
    } catch (offline) { /* still no network: the copy stays */ }
  });
  window.addEventListener("offline", showWaiting);
})();
