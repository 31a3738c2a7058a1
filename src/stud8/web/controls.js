// The seat controls: sit (with a buy-in), sit out / come back, top up (between hands
// only), the auto top-up (an account setting: the table tops him up to his buy-in
// between hands), leave; the waiting list (join, your place, the seat offered to you).

import { $, toast } from "./util.js";
import { inPlayingHand, maxSeats } from "./store.js";
import { rememberBuyIn, rememberedBuyIn } from "./hud.js";
import { tournamentControlsHTML } from "./tourtable.js";
import { autoTopUpOn, setAutoTopUp } from "./settings.js";

export const DIALOG_HTML = `<dialog id="money-dialog" aria-labelledby="md-title">
<form method="dialog" id="md-form"><h2 id="md-title"></h2>
<label>Chips <input type="number" id="md-amount" inputmode="numeric" step="1"></label>
<p class="hint" id="md-range"></p><p class="error" id="md-error" role="alert"></p>
<div class="row"><button type="button" id="md-cancel">Cancel</button><button type="submit" id="md-ok">OK</button></div>
</form></dialog>`;

/** Ask for an amount of chips between min and max: a promise of the number, or null. */
export function askChips({ title, min, max, value, ok = "OK" }) {
  const dialog = $("#money-dialog");
  const input = $("#md-amount");
  $("#md-title").textContent = title;
  $("#md-range").textContent = `${min} to ${max} chips`;
  $("#md-error").textContent = "";
  $("#md-ok").textContent = ok;
  Object.assign(input, { min: String(min), max: String(max), value: String(value) });
  return new Promise((resolve) => {
    const done = (result) => {
      $("#md-form").onsubmit = null;
      $("#md-cancel").onclick = null;
      dialog.onclose = null;
      if (dialog.open) dialog.close();
      resolve(result);
    };
    $("#md-form").onsubmit = (e) => {
      e.preventDefault();
      const n = Number(input.value);
      if (!Number.isInteger(n) || n < min || n > max) {
        $("#md-error").textContent = `Choose ${min} to ${max} chips`;
        return;
      }
      done(n);
    };
    $("#md-cancel").onclick = () => done(null);
    dialog.onclose = () => done(null);
    dialog.showModal();
    input.select();
  });
}

function buyIn(state) {
  return state.rules ? state.rules.buy_in : { min: 1, max: 1000000 };
}

function full(state) {
  return Object.keys(state.seats).length >= maxSeats(state);
}

/** The controls in the header, by what I am at this table now. */
export function controlsHTML(state) {
  if (!state.player) return "";
  if (state.tournament) return tournamentControlsHTML(state); // no buy-in, top-up, leaving or waiting list
  const me = state.mySeat !== null ? state.seats[state.mySeat] : null;
  if (me) {
    if (me.leaving) return `<span class="status">Leaving after this hand</span>`;
    const topUpOk = !inPlayingHand(state);
    const away = me.sitting_out
      ? `<button data-cmd="come_back" class="im-back">I'm back</button>`
      : `<button data-cmd="sit_out">Sit out</button>`;
    const auto = `<label class="auto-top-up" title="Between hands, top up to the buy-in you chose here from your bank"><input type="checkbox" class="auto-top-up-box"${autoTopUpOn() ? " checked" : ""}> Auto top-up</label>`;
    return `${away}<button data-cmd="top_up" ${topUpOk ? "" : 'disabled title="between hands only"'}>Top up</button>${auto}<button data-cmd="leave">Leave seat</button>`;
  }
  const place = state.waiting.indexOf(state.player);
  const status = `<span class="status watching">Watching</span>`;
  if (place >= 0) {
    return `${status}<span class="status wait-place">You are ${ordinal(place + 1)} on the waiting list</span><button data-cmd="leave_waitlist">Leave waiting list</button>`;
  }
  if (full(state) || state.waiting.length) {
    const n = state.waiting.length ? ` <small>(${state.waiting.length} waiting)</small>` : "";
    return `${status}<button data-cmd="join_waitlist">Join waiting list</button>${n}`;
  }
  return status;
}

function ordinal(n) {
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${s}`;
}

/** The prompt when a seat is held for me: "Seat 3 is yours for 12 s: Sit". */
export function offerHTML(state) {
  const o = state.offer;
  if (!o || o.player !== state.player || state.mySeat !== null) return "";
  const b = buyIn(state);
  const value = state.rules ? rememberedBuyIn(state.rules) : b.min;
  return `<div class="offer" role="alert"><span class="offer-text">Seat ${o.seat} is yours for <span class="offer-secs">${secondsLeft(o)}</span> s:</span>
  <input type="number" class="offer-buyin" min="${b.min}" max="${b.max}" value="${value}" aria-label="buy-in (${b.min} to ${b.max})">
  <button class="offer-sit" data-seat="${o.seat}">Sit</button></div>`;
}

export function secondsLeft(offer) {
  return Math.max(0, Math.ceil((offer.endsAt - Date.now()) / 1000));
}

/** Bind the header controls, the empty seats' Sit buttons and the offer prompt. */
export function bindControls({ state, send, toolsRoot, tableRoot, offerRoot }) {
  toolsRoot.addEventListener("click", async (e) => {
    const b = e.target.closest("button[data-cmd]");
    if (!b || b.disabled) return;
    const cmd = b.dataset.cmd;
    if (cmd === "top_up") {
      const me = state.seats[state.mySeat];
      const room = buyIn(state).max - (me ? me.chips : 0);
      if (room <= 0) { toast(`You have the most this table allows (${buyIn(state).max})`); return; }
      const amount = await askChips({ title: "Top up", min: 1, max: room, value: room, ok: "Top up" });
      if (amount !== null) send("top_up", { amount });
    } else {
      send(cmd, {});
    }
  });
  toolsRoot.addEventListener("change", (e) => {
    if (e.target.classList.contains("auto-top-up-box")) setAutoTopUp(e.target.checked);
  });
  tableRoot.addEventListener("click", async (e) => {
    const b = e.target.closest("button.sit-here");
    if (!b) return;
    const seat = Number(b.dataset.seat);
    const range = buyIn(state);
    const value = state.rules ? rememberedBuyIn(state.rules) : range.min;
    const amount = await askChips({ title: `Sit in seat ${seat}`, min: range.min, max: range.max, value, ok: "Sit" });
    if (amount !== null) { rememberBuyIn(state.rules, amount); send("sit", { seat, amount }); }
  });
  offerRoot.addEventListener("click", (e) => {
    const b = e.target.closest("button.offer-sit");
    if (!b) return;
    const amount = Number($("input.offer-buyin", offerRoot).value);
    rememberBuyIn(state.rules, amount);
    send("sit", { seat: Number(b.dataset.seat), amount });
  });
}

