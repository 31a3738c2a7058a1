// Drawing the table: seats around an oval, cards, pot, clock, showdown, action buttons.

import { cardSVG, highName, lowName } from "./cards.js";

const esc = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

/** Where seat number `seat` sits (percentages), the viewer's seat at the bottom. */
function position(seat, anchor, count) {
  const i = (seat - anchor + count) % count;
  const angle = Math.PI / 2 + (i * 2 * Math.PI) / count;
  return { c: Math.cos(angle).toFixed(4), s: Math.sin(angle).toFixed(4) };
}

function seatHTML(state, seat, opts) {
  const s = state.seats[seat];
  const hand = state.hand;
  const hs = hand ? hand.seats[seat] : null;
  const mine = seat === state.mySeat;
  if (!s && !hs) {
    const canSit = state.player && state.mySeat === null;
    return `<div class="seat empty" data-seat="${seat}">${
      canSit
        ? `<button class="sit-here" data-seat="${seat}" aria-label="Sit in seat ${seat}">Sit</button>`
        : `<span class="muted">Seat ${seat}</span>`
    }</div>`;
  }
  const name = s ? s.player : `Seat ${seat}`;
  const stack = hs ? hs.stack : s.chips;
  const toAct = hand && !hand.over && hand.to_act === seat;
  const won = hand && hand.over ? hand.awards.filter((a) => a.seat === seat) : [];
  const classes = ["seat"];
  if (mine) classes.push("mine");
  if (toAct) classes.push("to-act");
  if (hs && hs.folded) classes.push("folded");
  if (won.length) classes.push("winner");
  if (s && s.sitting_out) classes.push("away");
  let cards = "";
  if (hs && !hs.folded) {
    const downs = hs.down.map((c) => cardSVG(c, { down: c !== null && !hs.shown, fourColor: opts.fourColor }));
    const ups = hs.up.map((c) => cardSVG(c, { fourColor: opts.fourColor }));
    // dealing order: two down, the up cards, the last down
    const ordered = [...downs.slice(0, 2), ...ups, ...downs.slice(2)];
    cards = `<div class="cards" aria-label="cards">${ordered.join("")}</div>`;
  } else if (hs && hs.folded) {
    cards = `<div class="cards folded-note">folded</div>`;
  }
  const badges = [];
  if (hand && hand.bring_in_seat === seat && hand.street === 3) badges.push(`<span class="badge bring-in" title="bring-in">B</span>`);
  if (s && s.bot) badges.push(`<span class="badge bot" title="a bot">bot</span>`);
  if (s && !s.connected) badges.push(`<span class="badge away">offline</span>`);
  if (s && s.sitting_out) badges.push(`<span class="badge away">sitting out</span>`);
  if (hs && hs.all_in) badges.push(`<span class="badge allin">all in</span>`);
  let showdown = "";
  if (hs && hs.shown && hand.over) {
    const lo = lowName(hs.shown);
    showdown = `<div class="hand-name">${esc(highName(hs.shown))}${lo ? `<br>${esc(lo)}` : ""}</div>`;
  }
  const wins = won.length
    ? `<div class="won">wins ${won.map((a) => `${a.amount}${a.half === "whole" ? "" : " " + a.half}`).join(" + ")}</div>`
    : "";
  const clock = toAct ? `<div class="clock" role="timer" aria-live="off"><div class="bar"></div><span class="secs"></span></div>` : "";
  const bet = hs && hs.bet > 0 && !hand.over ? `<div class="bet" aria-label="bet ${hs.bet}">${hs.bet}</div>` : "";
  const label = `${name}${mine ? " (you)" : ""}, seat ${seat}, ${stack} chips${toAct ? ", to act" : ""}`;
  return `<div class="${classes.join(" ")}" data-seat="${seat}" role="group" aria-label="${esc(label)}">
  ${cards}
  <div class="plate"><div class="name">${esc(name)}${badges.join("")}</div><div class="stack">${stack}</div>${clock}</div>
  ${showdown}${wins}${bet}
</div>`;
}

function centreHTML(state, opts) {
  const hand = state.hand;
  if (!hand) {
    const n = Object.keys(state.seats).length;
    return `<div class="centre"><div class="waiting">${n < 2 ? "Waiting for players" : "Next hand soon"}</div></div>`;
  }
  const street = hand.street ? `${["", "", "", "3rd", "4th", "5th", "6th", "7th"][hand.street]} street` : "";
  const community = hand.community
    ? `<div class="community" aria-label="community card">${cardSVG(hand.community, { fourColor: opts.fourColor })}<span>community</span></div>`
    : "";
  let results = "";
  if (hand.over && hand.awards.length) {
    const shown = Object.values(hand.seats).some((s) => s.shown);
    const lowPaid = hand.awards.some((a) => a.half === "low");
    const lines = hand.awards.map((a) => {
      const who = state.seats[a.seat] ? state.seats[a.seat].player : `seat ${a.seat}`;
      const pot = a.pot ? `side pot ${a.pot}` : "the pot";
      const half = a.half === "whole" ? "" : ` (${a.half})`;
      return `<li>${esc(who)} wins ${a.amount} from ${pot}${half}</li>`;
    });
    const hands = Object.entries(hand.seats)
      .filter(([, s]) => s.shown)
      .map(([seat, s]) => {
        const who = state.seats[seat] ? state.seats[seat].player : `seat ${seat}`;
        const lo = lowName(s.shown);
        return `<li class="shown-hand">${esc(who)}: ${esc(highName(s.shown))}${lo ? `; ${esc(lo)}` : ""}</li>`;
      });
    results = `<div class="results" role="status"><ul>${hands.join("")}${lines.join("")}</ul>${shown && !lowPaid ? `<div class="no-low">No low</div>` : ""}</div>`;
  } else if (hand.cancelled) {
    results = `<div class="results" role="status">Hand cancelled, chips returned</div>`;
  }
  return `<div class="centre">
  <div class="pot" aria-live="polite">Pot <strong>${hand.pot}</strong></div>
  <div class="street">${street}</div>
  ${community}${results}
</div>`;
}

export function tableHTML(state, opts) {
  const count = 8;
  const anchor = state.mySeat || 1;
  const seats = [];
  for (let seat = 1; seat <= count; seat++) {
    const p = position(seat, anchor, count);
    seats.push(`<div class="spot" style="--c:${p.c};--s:${p.s}">${seatHTML(state, seat, opts)}</div>`);
  }
  return `<div class="felt" aria-label="the table">${centreHTML(state, opts)}${seats.join("")}</div>`;
}

const KEYS = { fold: "f", check: "c", call: "c", bring_in: "b", complete: "r", bet: "r", raise: "r" };

export function actionLabel(a) {
  switch (a.kind) {
    case "fold": return "Fold";
    case "check": return "Check";
    case "call": return `Call ${a.adds}`;
    case "bring_in": return `Bring in ${a.adds}`;
    case "complete": return `Complete to ${a.min_to}`;
    case "bet": return `Bet ${a.min_to}`;
    case "raise": return `Raise to ${a.min_to}`;
    default: return a.kind;
  }
}

/** The action buttons, exactly the legal actions of the turn. */
export function actionsHTML(state) {
  const t = state.turn;
  if (!t || !state.hand || state.hand.over || t.seat !== state.mySeat) return "";
  const used = new Set();
  const buttons = t.legal.map((a) => {
    let key = KEYS[a.kind] || "";
    if (used.has(key)) key = "";
    if (key) used.add(key);
    const sized = ["complete", "bet", "raise"].includes(a.kind) && a.max_to > a.min_to;
    const box = sized
      ? `<input type="number" class="amount" data-kind="${a.kind}" min="${a.min_to}" max="${a.max_to}" value="${a.min_to}" aria-label="${a.kind} to">`
      : "";
    return `<span class="act-group">${box}<button class="act act-${a.kind}" data-kind="${a.kind}" data-to="${a.min_to}"${key ? ` data-key="${key}" aria-keyshortcuts="${key}"` : ""}><span class="label">${esc(actionLabel(a))}</span>${key ? `<kbd aria-hidden="true">${key}</kbd>` : ""}</button></span>`;
  });
  return `<div class="actions" role="toolbar" aria-label="your actions">${buttons.join("")}</div>`;
}
