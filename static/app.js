// Progressive enhancement only: every page works without this file.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // htmx comes after the page has loaded (templates/base.html names it): until then a tap
  // goes to the server as a plain link or form, as it does without JavaScript.
  const me = document.currentScript;
  const htmxSrc = me && me.dataset.htmx;
  // A choice htmx sends on change (the new-game form's variant), made before htmx came,
  // is sent once it has: else the form would show one variant's settings under another.
  const missed = new Set();
  function noteMissed(event) {
    const trigger = event.target.getAttribute && event.target.getAttribute("hx-trigger");
    if (!window.htmx && trigger && trigger.split(/[\s,]+/).includes("change")) missed.add(event.target);
  }
  document.addEventListener("change", noteMissed, true);
  function bringHtmx() {
    const script = document.createElement("script");
    script.src = htmxSrc;
    script.onload = () => {
      document.removeEventListener("change", noteMissed, true);
      missed.forEach((el) => window.htmx.trigger(el, "change"));
    };
    document.head.appendChild(script);
  }
  // A first page carries this script and the stylesheet inline (data-keep names their
  // files): once it has loaded, both are fetched into the cache, and the cookie tells the
  // app to link them from the next page on.
  function keepFiles() {
    if (!me || !me.dataset.keep) return;
    Promise.all(me.dataset.keep.split(" ").map((url) => fetch(url).then((response) => {
      if (!response.ok) throw new Error(url + ": " + response.status);
      return response.arrayBuffer(); // read whole, so that the cache holds all of it
    }))).then(() => {
      document.cookie = "kept=" + me.dataset.kept + "; path=/; max-age=31536000; samesite=lax";
    }, () => {}); // offline: the next page carries them inline again
  }
  // static/phone.js (the service worker, hands kept offline, the screen kept on) comes
  // after the load event too: none of it is needed to draw the page.
  function bringPhone() {
    const script = document.createElement("script");
    script.src = me.dataset.phone;
    script.dataset.worker = me.dataset.worker;
    document.head.appendChild(script);
  }
  function afterLoad() {
    if (htmxSrc) bringHtmx();
    if (me && me.dataset.phone) bringPhone();
    keepFiles();
  }
  if (document.readyState === "complete") afterLoad();
  else window.addEventListener("load", afterLoad, { once: true });

  // Card picker: each opponent's cards are one text field ("red-7 red-7 wild"); the deck's
  // grid of buttons (one template, copied into each opponent's slot) adds or takes back
  // one card per tap, and shows how many of each are picked.
  function listOf(input) { return input.value.split(/[\s,]+/).filter(Boolean); }
  function fieldOf(slot) { return document.getElementById(slot.dataset.field); }
  function showCounts(slot) {
    const picked = listOf(fieldOf(slot));
    slot.querySelectorAll(".cell").forEach((cell) => {
      const n = picked.filter((c) => c === cell.dataset.card).length;
      cell.dataset.count = n > 0 ? "×" + n : "";
      cell.classList.toggle("picked", n > 0);
      cell.setAttribute("aria-label", cell.dataset.name + (n > 0 ? ", " + n + " picked" : ""));
    });
  }
  function changed(input) { input.dispatchEvent(new Event("change", { bubbles: true })); }
  function pick(cell, removing) {
    const slot = cell.closest(".grid-slot");
    const input = fieldOf(slot);
    const picked = listOf(input);
    const n = picked.filter((c) => c === cell.dataset.card).length;
    if (removing ? n === 0 : n >= parseInt(cell.dataset.max, 10)) {
      cell.classList.add("at-limit");
      setTimeout(() => cell.classList.remove("at-limit"), 300);
      return;
    }
    if (removing) picked.splice(picked.lastIndexOf(cell.dataset.card), 1);
    else picked.push(cell.dataset.card);
    input.value = picked.join(" ");
    showCounts(slot);
    changed(input);
  }
  function fillSlot(slot) {
    const template = document.getElementById("card-grid");
    if (!template || slot.firstElementChild) return;
    slot.appendChild(template.content.cloneNode(true));
    const cells = slot.querySelectorAll(".cell");
    cells.forEach((cell) => { cell.dataset.name = cell.getAttribute("aria-label"); });
    if (cells.length) cells[0].tabIndex = 0; // one Tab stop per grid; arrows move inside
    showCounts(slot);
  }
  function onPickerClick(event) {
    const tool = event.target.closest("[data-remove-mode], [data-clear]");
    if (tool) {
      const fieldset = tool.closest("fieldset");
      if (tool.hasAttribute("data-clear")) {
        const slot = fieldset.querySelector(".grid-slot");
        const input = fieldOf(slot);
        input.value = "";
        showCounts(slot);
        changed(input);
      } else {
        const on = tool.getAttribute("aria-pressed") !== "true";
        tool.setAttribute("aria-pressed", String(on));
        fieldset.classList.toggle("removing", on);
      }
      return;
    }
    const cell = event.target.closest(".grid-slot .cell");
    if (cell) pick(cell, cell.closest("fieldset").classList.contains("removing"));
  }
  // Keyboard: arrows move across the grid (left and right along the cards, up and down to
  // the card nearest below or above, wherever the rows wrap), Enter or Space adds the
  // focused card (a button's own click), Delete or Backspace takes one back.
  function nextRowCell(cells, cell, down) {
    const at = cell.getBoundingClientRect();
    const x = at.left + at.width / 2;
    let best = null;
    let bestKey = null;
    cells.forEach((other) => {
      const r = other.getBoundingClientRect();
      const dy = down ? r.top - at.bottom : at.top - r.bottom;
      if (dy < -1) return;
      const key = [Math.round(dy), Math.abs(r.left + r.width / 2 - x)];
      if (!bestKey || key[0] < bestKey[0] || (key[0] === bestKey[0] && key[1] < bestKey[1])) {
        best = other;
        bestKey = key;
      }
    });
    return best;
  }
  function onPickerKey(event) {
    const cell = event.target.closest && event.target.closest(".grid-slot .cell");
    if (!cell) return;
    if (event.key === "Delete" || event.key === "Backspace") {
      event.preventDefault();
      pick(cell, true);
      return;
    }
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key)) return;
    event.preventDefault();
    const cells = Array.from(cell.closest(".grid").querySelectorAll(".cell"));
    const i = cells.indexOf(cell);
    let next = null;
    if (event.key === "Home") next = cells[0];
    else if (event.key === "End") next = cells[cells.length - 1];
    else if (event.key === "ArrowLeft") next = cells[i - 1];
    else if (event.key === "ArrowRight") next = cells[i + 1];
    else next = nextRowCell(cells, cell, event.key === "ArrowDown");
    if (!next) return;
    cell.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  }

  // New game: show a few seats, reveal more on demand, never more than the variant seats
  // (the variant's part of the form, swapped in by htmx, says how many: data-max-players).
  function seatsOf(list) {
    const seats = Array.from(list.querySelectorAll(".seat"));
    const max = parseInt(list.dataset.max, 10) || seats.length;
    const named = (seat) => seat.querySelector("input[type=text]").value.trim() !== "";
    return { seats, open: seats.filter((seat, i) => i < max || named(seat)), named };
  }
  function refreshAddSeat(list) {
    const add = list.parentElement.querySelector("[data-add-seat]");
    if (add) add.hidden = !seatsOf(list).open.some((s) => s.hidden);
  }
  function setUpSeats(root) {
    root.querySelectorAll(".seat-list").forEach((list) => {
      // Once a list: set up again when htmx arrives (after the page loaded), it would
      // hide a seat a quick thumb had already added.
      if (list.dataset.ready) return;
      list.dataset.ready = "1";
      const { seats, open, named } = seatsOf(list);
      const show = parseInt(list.dataset.show, 10) || seats.length;
      seats.forEach((seat, i) => { seat.hidden = !open.includes(seat) || (i >= show && !named(seat)); });
      const add = list.parentElement.querySelector("[data-add-seat]");
      if (add) {
        add.onclick = () => {
          const next = seatsOf(list).open.find((s) => s.hidden);
          if (next) { next.hidden = false; next.querySelector("input[type=text]").focus(); }
          refreshAddSeat(list);
        };
      }
      refreshAddSeat(list);
    });
  }
  function onVariantSwapped() {
    const settings = document.getElementById("variant-settings");
    const list = document.querySelector(".seat-list");
    if (!settings || !list || list.dataset.max === settings.dataset.maxPlayers) return;
    list.dataset.max = settings.dataset.maxPlayers;
    const { seats, open, named } = seatsOf(list);
    seats.forEach((seat) => { if (!open.includes(seat)) seat.hidden = true; });
    // A smaller variant hides its extra empty seats; a bigger one lets "Add a player" show more.
    seats.forEach((seat) => { if (open.includes(seat) && named(seat)) seat.hidden = false; });
    refreshAddSeat(list);
  }

  // Totals only (the hand picker without card grids): Enter, the keyboard's Next, moves
  // on to the next opponent's total; on the last one it goes to Review, as a form does.
  function onTotalEnter(event) {
    const input = event.target;
    if (event.key !== "Enter" || !input.matches || !input.matches(".totals .pts-input")) return;
    const all = Array.from(document.querySelectorAll(".totals .pts-input"));
    const next = all[all.indexOf(input) + 1];
    if (!next) return;
    event.preventDefault();
    next.focus();
  }

  // New game: Enter in a name moves on to the next name (showing its seat) instead of
  // submitting; starting the game is a deliberate tap on its button.
  function onNameEnter(event) {
    const input = event.target;
    if (event.key !== "Enter" || !input.matches || !input.matches(".seat input[type=text]")) return;
    event.preventDefault();
    const list = input.closest(".seat-list");
    const { open } = seatsOf(list);
    const next = open[open.indexOf(input.closest(".seat")) + 1];
    if (!next) return;
    next.hidden = false;
    next.querySelector("input[type=text]").focus();
    refreshAddSeat(list);
  }

  // Times are kept in UTC (<time class="local-time" datetime="...">, reading "... UTC"
  // without this file): shown in the phone's own time zone, in its own words.
  const timeWords = window.Intl ? new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }) : null;
  function localTimes(root) {
    if (!timeWords) return;
    root.querySelectorAll("time.local-time:not([data-local])").forEach((time) => {
      const moment = new Date(time.getAttribute("datetime"));
      if (isNaN(moment.getTime())) return;
      time.textContent = timeWords.format(moment);
      time.dataset.local = "yes";
    });
  }

  // A growing text box (a rule card): as tall as what is written in it. CSS does it where
  // the browser knows field-sizing; elsewhere, this.
  const sizesItself = window.CSS && CSS.supports && CSS.supports("field-sizing", "content");
  function fitText(box) {
    if (sizesItself) return;
    box.style.height = "auto";
    box.style.height = box.scrollHeight + 4 + "px";
  }
  function onTextInput(event) {
    if (event.target.matches && event.target.matches("textarea.grows")) fitText(event.target);
  }

  function setUp(root) {
    root.querySelectorAll(".grid-slot").forEach(fillSlot);
    setUpSeats(root);
    localTimes(root);
    root.querySelectorAll("textarea.grows").forEach(fitText);
  }

  document.addEventListener("DOMContentLoaded", () => {
    setUp(document);
    document.addEventListener("click", onPickerClick);
    document.addEventListener("keydown", onPickerKey);
    document.addEventListener("keydown", onNameEnter);
    document.addEventListener("keydown", onTotalEnter);
    document.addEventListener("input", onTextInput);
  });
  document.addEventListener("htmx:load", (event) => setUp(event.target));
  document.addEventListener("htmx:afterSettle", onVariantSwapped);
})();

// The referee's pages (companion/referee.py).
(function () {
  "use strict";

  // A card field that takes one card (.grid-slot[data-single], copied from the same deck
  // template): a tap chooses the card, a second tap on it takes it back. It runs before the
  // card picker's own click handler (capture), which would add the card to a list instead.
  function markSingle(slot) {
    const input = document.getElementById(slot.dataset.field);
    const value = input ? input.value.trim() : "";
    slot.querySelectorAll(".cell").forEach((cell) => {
      const on = cell.dataset.card === value;
      cell.classList.toggle("picked", on);
      cell.dataset.count = on ? "✓" : "";
      cell.setAttribute("aria-pressed", String(on));
      if (cell.dataset.name) cell.setAttribute("aria-label", cell.dataset.name);
    });
  }
  function markAll(root) {
    root.querySelectorAll(".grid-slot[data-single]").forEach(markSingle);
  }
  document.addEventListener("click", (event) => {
    const cell = event.target.closest && event.target.closest(".grid-slot[data-single] .cell");
    if (!cell) return;
    event.stopPropagation();
    const slot = cell.closest(".grid-slot");
    const input = document.getElementById(slot.dataset.field);
    if (!input) return;
    input.value = input.value.trim() === cell.dataset.card ? "" : cell.dataset.card;
    markSingle(slot);
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }, true);

  // A refusal (400: a card not in the deck, no such seat...; 409: a choice already made) is
  // an answer too: show it in place, as a page without JavaScript does. htmx leaves 4xx
  // unswapped unless the server marks the response as meant to be shown (X-Answer).
  document.addEventListener("htmx:beforeSwap", (event) => {
    const xhr = event.detail.xhr;
    if (xhr && xhr.status >= 400 && xhr.status < 500 && xhr.getResponseHeader("X-Answer") === "in-place") {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  // A request htmx sent in the background (live points, a pull, an answer) that got no
  // answer, or an error nobody marked to be shown in place: say so at the top of the page,
  // in the server's own words where it sent some, rather than leave the page quietly
  // showing what it showed before. The next request that works takes the notice away.
  function sayTrouble(text) {
    const notice = document.getElementById("trouble");
    if (!notice) return;
    notice.textContent = text;
    notice.hidden = false;
  }
  function serverWords(xhr) {
    const page = new DOMParser().parseFromString(xhr.responseText || "", "text/html");
    const title = page.querySelector("main h1");
    const said = page.querySelector("main h1 ~ p");
    const words = [title, said].filter(Boolean).map((el) => el.textContent.trim());
    return words.length ? words.join(": ") : "The app could not answer (error " + xhr.status + ").";
  }
  document.addEventListener("htmx:responseError", (event) => {
    sayTrouble(serverWords(event.detail.xhr) + " What is on this page is not lost: try again.");
  });
  document.addEventListener("htmx:sendError", () => {
    sayTrouble("The app could not be reached: check that this phone is still on the " +
               "network, then try again. What is on this page is not lost.");
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    const notice = document.getElementById("trouble");
    if (notice && event.detail.successful) notice.hidden = true;
  });

  // Replay: the share link's "Copy" button.
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-copy]");
    if (!button) return;
    const input = document.getElementById(button.dataset.copy);
    if (!input) return;
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(() => {});
    button.textContent = "Copied";
  });

  document.addEventListener("DOMContentLoaded", () => markAll(document));
  document.addEventListener("htmx:load", (event) => markAll(event.target));
})();

// Live pages (companion/live.py): the poller (#live) asks for its page every two seconds,
// sending the ETag it was given. A 304 means nothing changed (no swap: base.html's
// htmx-config); a 200 swaps in the page's live regions (its hx-select-oob) and brings the
// new tag. The poll's own outcome stays with the poller: the page-wide trouble notice is
// for the requests a person made, and a poll must neither say its failure every two
// seconds nor take away the notice of a failed pull.
(function () {
  "use strict";
  const UNREACHABLE = "The app could not be reached, so this page may be behind the game: " +
    "check that this phone is still on the network. It catches up by itself.";
  const GONE = "This game can no longer be opened on this phone (its link was renewed, or " +
    "the game deleted): ask the scorekeeper for the new link.";
  let said = null; // what a failing poll put on the notice, said once until a poll works

  function say(text) {
    const notice = document.getElementById("trouble");
    if (!notice || said !== null) return;
    notice.textContent = text;
    notice.hidden = false;
    said = text;
  }
  function unsay() {
    const notice = document.getElementById("trouble");
    if (notice && said !== null && notice.textContent === said) notice.hidden = true;
    said = null;
  }
  function tagOf(xhr) { // the tag's text, as the page carries it (no quotes, no W/)
    return (xhr.getResponseHeader("ETag") || "").replace(/^W\//, "").replace(/"/g, "");
  }

  function follow(poller) {
    poller.addEventListener("htmx:configRequest", (event) => {
      // A phone in a pocket or another tab asks nothing: the first tick after it is
      // shown again (within two seconds) catches up.
      if (document.hidden) { event.preventDefault(); return; }
      if (poller.dataset.etag) event.detail.headers["If-None-Match"] = '"' + poller.dataset.etag + '"';
    });
    // Kept from the page-wide handlers (see above); a refusal is never swapped in.
    ["htmx:responseError", "htmx:sendError"].forEach((name) => {
      poller.addEventListener(name, (event) => event.stopPropagation());
    });
    poller.addEventListener("htmx:beforeSwap", (event) => {
      event.stopPropagation();
      if (event.detail.xhr.status !== 200) event.detail.shouldSwap = false;
    });
    // A poll that swaps a region whole (what waits for this phone, #for-you, a live
    // region; htmx asks the region itself before the swap) leaves it alone when nothing in
    // it changed: a screen reader hears it once.
    const region = poller.getAttribute("hx-target") &&
      document.querySelector(poller.getAttribute("hx-target"));
    if (region) {
      region.addEventListener("htmx:beforeSwap", (event) => {
        if (event.detail.requestConfig.elt !== poller || !event.detail.shouldSwap) return;
        const fresh = document.createElement("template");
        fresh.innerHTML = event.detail.xhr.responseText;
        if (fresh.innerHTML.trim() === region.innerHTML.trim()) event.detail.shouldSwap = false;
      });
    }
    poller.addEventListener("htmx:afterRequest", (event) => {
      event.stopPropagation();
      const xhr = event.detail.xhr;
      if (xhr.status === 200 || xhr.status === 304) {
        if (xhr.status === 200 && tagOf(xhr)) poller.dataset.etag = tagOf(xhr);
        unsay();
      } else if (xhr.status === 403 || xhr.status === 404) {
        unsay();
        say(GONE);
        poller.remove(); // htmx stops polling an element no longer on the page
      } else if (xhr.status === 0) {
        say(UNREACHABLE);
      } else {
        say("The app could not say what changed in this game (error " + xhr.status +
            "): this page may be behind. It tries again every two seconds.");
      }
    });
  }

  // A rule card the lever dealt to this phone's player (templates/_for_you.html, polled
  // into #for-you on every page of the game): the phone vibrates, where it can, once per
  // card (kept for the tab, so going from page to page does not buzz again).
  function buzz() {
    const banner = document.querySelector("#for-you [data-dealt]");
    if (!banner) return;
    // The lever's own answer on this page offers that card already (the phone that
    // pulled, passed round): said once, not twice.
    const read = banner.querySelector("a[href]");
    const offered = read && Array.from(document.querySelectorAll("main a[href]")).some(
      (a) => a !== read && !banner.contains(a) && a.getAttribute("href") === read.getAttribute("href"));
    banner.hidden = Boolean(offered);
    if (offered || !("vibrate" in navigator)) return;
    const key = "buzzed-" + banner.dataset.dealt;
    try {
      if (sessionStorage.getItem(key)) return;
      sessionStorage.setItem(key, "1");
    } catch (err) { /* storage refused: buzz all the same */ }
    navigator.vibrate([200, 100, 200]);
  }

  document.addEventListener("DOMContentLoaded", () => {
    // The page's own poller, and the one for what waits for this phone (its banner).
    ["live", "for-you-live"].forEach((id) => {
      const poller = document.getElementById(id);
      if (poller) follow(poller);
    });
    buzz();
  });
  document.addEventListener("htmx:afterSettle", buzz);
})();

// No replays: a page the browser brings back from its back-forward cache (Back, Forward)
// is the page as it was, one-time keys already spent included; load it afresh instead,
// so that what is tapped next is a new action. (Pages are sent no-store, htmx keeps no
// history snapshots, and the server refuses a spent key with other content anyway.)
(() => {
  "use strict";
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) window.location.reload();
  });
})();

// The table's story: a game's result to send (templates/story.html). The phone's own share
// sheet where it has one (Web Share API), with the race as a PNG where the sheet takes
// files (a chat shows a PNG; few show an SVG); else a copy to the clipboard. Without this
// script the text is there to select, and the button stays hidden.
(() => {
  "use strict";
  // The picture drawn from the app's own SVG (same origin: the canvas may be read), made
  // when the page loads, so that the tap shares at once (a share sheet needs the tap's
  // moment). None where it cannot be made: the text goes alone.
  const pictureFile = async (url, name) => {
    try {
      const image = new Image();
      image.src = url;
      await image.decode();
      const canvas = document.createElement("canvas");
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      canvas.getContext("2d").drawImage(image, 0, 0);
      const blob = await new Promise((done) => canvas.toBlob(done, "image/png"));
      return blob ? new File([blob], name, { type: "image/png" }) : null;
    } catch (failed) {
      return null;
    }
  };
  const setUp = (root) => {
    for (const button of root.querySelectorAll("[data-share]")) {
      if (navigator.share || (navigator.clipboard && window.isSecureContext)) {
        button.textContent = navigator.share ? "Share the result" : "Copy the result";
        button.hidden = false;
      }
      if (navigator.share && navigator.canShare && button.dataset.sharePicture && !button.picture) {
        button.picture = pictureFile(button.dataset.sharePicture, button.dataset.shareName);
      }
    }
  };
  document.addEventListener("DOMContentLoaded", () => setUp(document));
  document.addEventListener("htmx:load", (event) => setUp(event.target));
  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-share]");
    if (!button) return;
    const text = document.querySelector(button.dataset.share).value;
    const status = button.closest("section").querySelector("[data-share-status]");
    try {
      if (navigator.share) {
        const shared = { title: button.dataset.shareTitle, text };
        const picture = await button.picture;
        if (picture && navigator.canShare({ ...shared, files: [picture] })) shared.files = [picture];
        await navigator.share(shared);
      } else {
        await navigator.clipboard.writeText(text);
        if (status) status.textContent = "Copied: paste it in the group chat.";
      }
    } catch (error) {
      // Closing the share sheet is no failure; anything else, say so.
      if (error.name !== "AbortError" && status) status.textContent = "Could not share: select the text and copy it.";
    }
  });
})();
