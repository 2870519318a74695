// Progressive enhancement only: every page works without this file.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // Keep the screen on while a game is open (Screen Wake Lock, where the browser has it).
  let wakeLock = null;
  async function keepAwake() {
    if (!document.body.hasAttribute("data-wake-lock") || !("wakeLock" in navigator)) return;
    if (document.visibilityState !== "visible" || wakeLock) return;
    try {
      wakeLock = await navigator.wakeLock.request("screen");
      document.body.dataset.awake = "yes";
      wakeLock.addEventListener("release", () => { wakeLock = null; document.body.dataset.awake = "no"; });
    } catch (err) {
      document.body.dataset.awake = "refused"; // battery saver or permissions: nothing to do
    }
  }
  document.addEventListener("visibilitychange", keepAwake);

  // Card picker: a tap adds one card (or removes one in remove mode).
  function showCount(cell) {
    const input = cell.querySelector("input");
    const n = parseInt(input.value || "0", 10) || 0;
    cell.querySelector(".count").textContent = n > 0 ? "×" + n : "";
    cell.classList.toggle("picked", n > 0);
  }
  function changed(input) {
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }
  function onPickerClick(event) {
    const tool = event.target.closest("[data-remove-mode], [data-clear]");
    if (tool) {
      const fieldset = tool.closest("fieldset");
      if (tool.hasAttribute("data-clear")) {
        fieldset.querySelectorAll(".cell input").forEach((input) => { input.value = ""; showCount(input.closest(".cell")); });
        const last = fieldset.querySelector(".cell input");
        if (last) changed(last);
      } else {
        const on = tool.getAttribute("aria-pressed") !== "true";
        tool.setAttribute("aria-pressed", String(on));
        fieldset.classList.toggle("removing", on);
      }
      return;
    }
    const cell = event.target.closest(".cell");
    if (!cell) return;
    event.preventDefault(); // the label would otherwise focus the hidden input
    const input = cell.querySelector("input");
    const max = parseInt(cell.dataset.max, 10);
    const n = parseInt(input.value || "0", 10) || 0;
    const removing = cell.closest("fieldset").classList.contains("removing");
    const next = removing ? Math.max(0, n - 1) : Math.min(max, n + 1);
    if (next === n) { cell.classList.add("at-limit"); setTimeout(() => cell.classList.remove("at-limit"), 300); return; }
    input.value = next === 0 ? "" : String(next);
    showCount(cell);
    changed(input);
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

  function setUp(root) {
    root.querySelectorAll(".cell").forEach(showCount);
    setUpSeats(root);
  }

  document.addEventListener("DOMContentLoaded", () => {
    setUp(document);
    document.addEventListener("click", onPickerClick);
    document.addEventListener("keydown", onNameEnter);
    keepAwake();
  });
  document.addEventListener("htmx:load", (event) => setUp(event.target));
  document.addEventListener("htmx:afterSettle", onVariantSwapped);
})();
