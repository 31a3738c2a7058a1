// The showdown: hands turned over one at a time in the engine's show order, the
// winning high and low hands named, and each pot's halves paid to their seats.

import { esc } from "./util.js";
import { highName, lowName, razzName } from "./cards.js";
import { potName, handInSentence } from "./words.js";
import { who } from "./store.js";
import { money } from "./money.js";

export const REVEAL_MS = 650; // between two hands turned over (the table's reveal_seconds says)

/** The table's pace of turning hands over, in ms (the server waits for it before the next deal). */
export function revealMs(state) {
  const r = state.rules && state.rules.reveal_seconds;
  return typeof r === "number" && r >= 0 ? r * 1000 : REVEAL_MS;
}

export function game(state) {
  return (state.rules && state.rules.game) || "stud_hi_lo";
}

/** Whether this seat's show (or muck) has been turned over on the screen yet. */
export function revealed(hand, hs) {
  return hs.showIndex >= 0 && hs.showIndex < hand.revealed;
}

/** Every show and muck turned over, and the hand settled: the results may show. */
export function showdownDone(hand) {
  return hand.over && hand.revealed >= hand.showdown.length;
}

/** The names of a shown hand: {high, low} (either may be null), by the game. */
export function handNames(state, hs) {
  const hand = state.hand;
  let cards = hs.shown;
  if (cards.length < 7 && hand.community) cards = [...cards, hand.community];
  const g = game(state);
  if (g === "razz") return { high: null, low: razzName(cards) };
  if (g === "stud_high") return { high: highName(cards), low: null };
  return { high: highName(cards), low: hs.low === null ? "no low" : lowName(cards) || "no low" };
}

/** Which halves this seat won: {high, low}. In Razz the whole pot goes to the low. */
export function winsOf(state, seat) {
  const awards = state.hand.awards.filter((a) => a.seat === seat);
  const razz = game(state) === "razz";
  return {
    high: !razz && awards.some((a) => a.half === "high" || a.half === "whole"),
    low: awards.some((a) => a.half === "low" || (razz && a.half === "whole")),
    total: awards.reduce((n, a) => n + a.amount, 0),
  };
}

function handWord(state, seat, half) {
  const hs = state.hand.seats[seat];
  if (!hs || !hs.shown) return "";
  const names = handNames(state, hs);
  const name = half === "low" || game(state) === "razz" ? names.low : names.high;
  return name && name !== "no low" ? `, ${name}` : "";
}

function halfLine(state, label, awards, half) {
  const paid = awards
    .map((a) => `<span class="payee">${esc(who(state, a.seat))}${esc(handWord(state, a.seat, half))}: <strong>${money(state, a.amount)}</strong></span>`)
    .join(" ");
  return `<div class="half half-${half}"><span class="half-name">${label}${awards.length > 1 ? " (split)" : ""}</span> ${paid}</div>`;
}

/** The results, pot by pot: who is paid which half, and why. */
export function resultsHTML(state) {
  const hand = state.hand;
  const showdown = hand.showdown.some((s) => s.kind === "show");
  const pots = new Map();
  for (const a of hand.awards) {
    if (!pots.has(a.pot)) pots.set(a.pot, []);
    pots.get(a.pot).push(a);
  }
  const items = [...pots.entries()].sort((x, y) => x[0] - y[0]).map(([pot, awards]) => {
    const total = awards.reduce((n, a) => n + a.amount, 0);
    const high = awards.filter((a) => a.half === "high");
    const low = awards.filter((a) => a.half === "low");
    const whole = awards.filter((a) => a.half === "whole");
    const lines = [];
    if (high.length) lines.push(halfLine(state, "High", high, "high"));
    if (low.length) lines.push(halfLine(state, "Low", low, "low"));
    if (whole.length) {
      const label = !showdown ? "Uncontested" : game(state) === "razz" ? "Low" : "Whole pot";
      lines.push(halfLine(state, label, whole, "whole"));
      if (showdown && game(state) === "stud_hi_lo") lines.push(`<div class="no-low">No low: no hand qualifies (8 or better)</div>`);
    }
    return `<li class="pot-result" data-pot="${pot}"><div class="pot-head">${potName(pot)} <strong>${money(state, total)}</strong></div>${lines.join("")}</li>`;
  });
  const rake = hand.rake ? `<li class="rake">Rake ${money(state, hand.rake)}</li>` : "";
  return `<div class="results" role="status" aria-label="results"><ul>${items.join("")}${rake}</ul></div>`;
}

/** The results in one sentence, for screen readers. */
export function resultsText(state) {
  return state.hand.awards
    .map((a) => `${who(state, a.seat)} wins ${money(state, a.amount)}${a.half === "whole" ? "" : ` for ${a.half}`} from the ${potName(a.pot).toLowerCase()}`)
    .join("; ");
}

/** What a turned-over hand says, for the log and screen readers: "bob shows a pair
 * of kings; 7-5-4-3-2 low". */
export function stepText(state, step) {
  const hs = state.hand.seats[step.seat];
  if (step.kind === "muck") return `${who(state, step.seat)} mucks`;
  const names = handNames(state, hs);
  const said = [handInSentence(names.high), names.low].filter(Boolean);
  return `${who(state, step.seat)} shows ${said.join("; ")}`;
}

/** Turns the shown hands over one at a time, in the order the events came; `delay`:
 * ms between two, or a function giving it. */
export class Reveal {
  constructor(onStep, delay = REVEAL_MS) {
    this.onStep = onStep;
    this.delay = delay;
    this.hand = null;
    this.timer = null;
  }

  update(hand) {
    if (hand !== this.hand) {
      clearTimeout(this.timer);
      this.timer = null;
      this.hand = hand;
    }
    if (!hand || this.timer !== null || hand.revealed >= hand.showdown.length) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.hand !== hand) return;
      const step = hand.showdown[hand.revealed];
      hand.revealed += 1;
      this.onStep(step);
    }, hand.revealed === 0 ? 0 : typeof this.delay === "function" ? this.delay() : this.delay);
  }

  stop() {
    clearTimeout(this.timer);
  }
}
