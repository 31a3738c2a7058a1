// Drawing the table: seats around an oval, cards, pot, clock, bets, the showdown.

import { esc } from "./util.js";
import { cardSVG } from "./cards.js";
import { maxSeats, who } from "./store.js";
import { STREETS, potName, namesList } from "./words.js";
import { handPots } from "./pots.js";
import { revealed, showdownDone, handNames, winsOf } from "./showdown.js";
import { bigBets } from "./hud.js";
import { money, chipsWord } from "./money.js";

/** Where seat number `seat` sits: its place around the oval, counted from the
 * viewer's seat at the bottom (table.css turns the place into an angle: classes,
 * never a style attribute, for a Content-Security-Policy without inline styles). */
function place(seat, anchor, count) {
  return (seat - anchor + count) % count;
}

function emptySeatHTML(state, seat) {
  const offer = state.offer;
  const held = offer && offer.seat === seat;
  const canSit = state.player && state.mySeat === null && !state.tournament; // a tournament seats its players
  const inner = held && offer.player !== state.player
    ? `<span class="muted">held for ${esc(offer.player)}</span>`
    : canSit
      ? `<button class="sit-here" data-seat="${seat}" data-focus="sit-${seat}" aria-label="Sit in seat ${seat}">Sit</button>`
      : `<span class="muted">Seat ${seat}</span>`;
  return `<div class="seat empty" data-seat="${seat}">${inner}</div>`;
}

function cardsHTML(state, hs, opts) {
  const hand = state.hand;
  const four = { fourColor: opts.fourColor };
  if (hs.folded) return `<div class="cards folded-note">folded</div>`;
  if (revealed(hand, hs) && hs.shown) {
    // the hand just turned over turns on the screen (a replay says when it is not new)
    const fresh = hs.showIndex === hand.revealed - 1 && !hand.still ? " just-shown" : "";
    return `<div class="cards shown${fresh}" aria-label="cards shown">${hs.shown.map((c) => cardSVG(c, four)).join("")}</div>`;
  }
  const mucked = revealed(hand, hs) && hs.muck ? " mucked" : "";
  // a down card shown to all (a replay's voluntary show) is drawn as shown, not as mine
  const shownDown = (c) => !!hs.volunteered && hs.volunteered.includes(c);
  const downs = hs.down.map((c) => cardSVG(c, { down: c !== null && !shownDown(c), fourColor: opts.fourColor }));
  const ups = hs.up.map((c) => cardSVG(c, four));
  // dealing order: two down, the up cards, the last down
  const ordered = [...downs.slice(0, 2), ...ups, ...downs.slice(2)];
  return `<div class="cards${mucked}" aria-label="cards">${ordered.join("")}</div>`;
}

function namesHTML(state, hs, seat) {
  const hand = state.hand;
  if (!hs.shown || !revealed(hand, hs)) return revealed(hand, hs) && hs.muck ? `<div class="hand-name">mucked</div>` : "";
  const names = handNames(state, hs);
  const done = showdownDone(hand);
  const wins = done ? winsOf(state, seat) : { high: false, low: false };
  const part = (text, won, cls) =>
    text ? `<span class="${cls}${won ? " win" : ""}">${esc(text)}${won ? ' <span class="sr-only">(wins)</span>' : ""}</span>` : "";
  return `<div class="hand-name">${part(names.high, wins.high, "hi")}${part(names.low, wins.low, "lo")}</div>`;
}

function seatHTML(state, seat, opts) {
  const hand = state.hand;
  let s = state.seats[seat];
  let hs = hand ? hand.seats[seat] : null;
  // the hand on the table keeps its players: one who left at its end (busted, stood
  // up) keeps his name on its cards; a player who sits in his seat meanwhile takes
  // it once the showdown is over (no cards of the hand he did not play)
  if (s && hs && hs.player && s.player !== hs.player) {
    if (showdownDone(hand)) hs = null;
    else s = undefined;
  }
  if (!s && !hs) return emptySeatHTML(state, seat);
  const mine = !!s && seat === state.mySeat;
  const name = s ? s.player : hs.player || `Seat ${seat}`;
  const stack = hs && !(hand.finished && s) ? hs.stack : s.chips; // top-ups come between hands
  const toAct = hand && !hand.over && hand.to_act === seat;
  const done = hand && showdownDone(hand);
  const won = done && hs ? winsOf(state, seat).total : 0;
  const classes = ["seat"];
  if (mine) classes.push("mine");
  if (toAct) classes.push("to-act");
  if (hs && hs.folded) classes.push("folded");
  if (won) classes.push("winner");
  if (s && (s.sitting_out || s.leaving)) classes.push("away");
  const badges = [];
  if (hand && hand.bring_in_seat === seat && hand.street === 3) badges.push(`<span class="badge bring-in" title="bring-in">B</span>`);
  if (s ? s.bot : hs.bot) badges.push(`<span class="badge bot" title="a bot">bot</span>`);
  if (s && !s.connected) badges.push(`<span class="badge away">offline</span>`);
  if (s && s.leaving) badges.push(`<span class="badge away">leaving</span>`);
  else if (s && s.sitting_out) badges.push(`<span class="badge away">sitting out</span>`);
  if (hs && hs.all_in) badges.push(`<span class="badge allin">all in</span>`);
  if (hs && hs.timedOut) badges.push(`<span class="badge timed-out" title="time ran out">timed out</span>`);
  const clock = toAct ? `<div class="clock" role="timer" aria-live="off"><div class="bar"><i></i></div><span class="secs"></span></div>` : "";
  const bet = hs && hs.bet > 0 && !hand.over ? `<div class="bet" data-chips="${hs.bet}" aria-label="bet ${money(state, hs.bet)}">${money(state, hs.bet)}</div>` : "";
  const wins = won ? `<div class="won">+${money(state, won)}</div>` : "";
  const bb = bigBets(stack, state.rules);
  const said = `${money(state, stack)}${chipsWord(state)}`;
  const label = `${name}${mine ? " (you)" : ""}, seat ${seat}, ${said}${bb ? ` (${bb})` : ""}${toAct ? ", to act" : ""}`;
  // the stack in big bets on hover and on focus (table.js keeps the focus across redraws),
  // in a tip under the plate: never over the seat's cards, which are above it
  const stackAttrs = bb ? ` tabindex="0" data-focus="stack-${seat}" data-bb="${bb}" title="${said}: ${bb}" aria-label="${said}, ${bb}"` : "";
  return `<div class="${classes.join(" ")}" data-seat="${seat}" role="group" aria-label="${esc(label)}">
  ${hs ? cardsHTML(state, hs, opts) : ""}
  <div class="plate-row"><div class="plate"><div class="name">${esc(name)}</div><div class="stack" data-chips="${stack}"${stackAttrs}>${money(state, stack)}</div>${bb ? `<span class="bb-tip" aria-hidden="true">${bb}</span>` : ""}${badges.length ? `<div class="badges">${badges.join("")}</div>` : ""}${clock}</div>${bet}</div>
  ${hs ? namesHTML(state, hs, seat) : ""}${wins}
</div>`;
}

/** The pot; with side pots, each pot with its amount and who may win it, and the total. */
function potsHTML(state) {
  const hand = state.hand;
  const pots = handPots(hand);
  if (pots.length < 2) return `<div class="pot" aria-live="polite">Pot <strong data-chips="${hand.pot}">${money(state, hand.pot)}</strong></div>`;
  const items = pots.map((p) => {
    const names = namesList(p.eligible.map((seat) => who(state, seat)));
    return `<li class="side-pot" data-pot="${p.index}" title="${esc(names)}">${potName(p.index)} <strong data-chips="${p.amount}">${money(state, p.amount)}</strong><span class="sr-only">, for ${esc(names)}</span></li>`;
  });
  return `<div class="pot" aria-live="polite">Total <strong data-chips="${hand.pot}">${money(state, hand.pot)}</strong></div>
  <ol class="pots" aria-label="pots">${items.join("")}</ol>`;
}

function centreHTML(state, opts) {
  const hand = state.hand;
  if (!hand) {
    const n = Object.keys(state.seats).length;
    return `<div class="centre"><div class="waiting">${n < 2 ? "Waiting for players" : "Next hand soon"}</div></div>`;
  }
  const community = hand.community
    ? `<div class="community" aria-label="community card">${cardSVG(hand.community, { fourColor: opts.fourColor })}<span>community</span></div>`
    : "";
  return `<div class="centre">
  ${potsHTML(state)}
  <div class="street">${STREETS[hand.street] || ""}</div>
  ${community}
</div>`;
}

export function tableHTML(state, opts) {
  const count = maxSeats(state);
  const anchor = state.mySeat || 1;
  const seats = [];
  for (let seat = 1; seat <= count; seat++) {
    const at = place(seat, anchor, count);
    seats.push(`<div class="spot at-${at}${at === 0 ? " bottom" : ""}">${seatHTML(state, seat, opts)}</div>`);
  }
  return `<div class="felt seats-${count}" aria-label="the table">${centreHTML(state, opts)}${seats.join("")}</div>`;
}
