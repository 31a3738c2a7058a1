// The dealer's words: each street, the up cards dealt, who brings in and why, who is
// high (or low) on board and acts first. Built only from the events this viewer
// receives (an up card is public; a down card is never named here).

import { handPots } from "./pots.js";
import { potName, namesList } from "./words.js";
import { money } from "./money.js";

const ORDER = "23456789TJQKA";
const SUIT_ORDER = "cdhs"; // clubs lowest (RULES.md section 2)
const GLYPH = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
const RANK = { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight",
  7: "seven", 6: "six", 5: "five", 4: "four", 3: "three", 2: "two" };
const PLURAL = { six: "sixes" };
const STREET_NAMES = { 3: "Third street", 4: "Fourth street", 5: "Fifth street", 6: "Sixth street", 7: "Seventh street" };

/** "2♣", "10♥": a card as a player reads it. */
export function cardText(card) {
  if (!card || card.length < 2) return "?";
  return `${card[0] === "T" ? "10" : card[0]}${GLYPH[card[1]] || card[1]}`;
}

function game(state) {
  return (state.rules && state.rules.game) || "stud_hi_lo";
}

const rankName = (r) => RANK[r];
const plural = (r) => PLURAL[RANK[r]] || `${RANK[r]}s`;

/** The street's heading: "Third street", ..., "Seventh street". */
export function streetLine(street) {
  const name = STREET_NAMES[street] || `Street ${street}`;
  return street === 7 ? `${name} (the last card, face down)` : name;
}

/** The up cards just dealt on this street: "Up cards: ann K♠, bob 2♣". */
export function upCardsLine(state, street, who) {
  const hand = state.hand;
  if (!hand || street === 7) return null;
  const shown = [];
  for (const [seat, hs] of Object.entries(hand.seats).sort((a, b) => a[0] - b[0])) {
    if (hs.folded || !hs.up.length) continue;
    shown.push(`${who(state, Number(seat))} ${cardText(hs.up[hs.up.length - 1])}`);
  }
  return shown.length ? `Up cards: ${shown.join(", ")}` : null;
}

// ------------------------------------------------------------ the bring-in
function bringInValue(card, razz) {
  // Stud and Stud/8: the lowest card brings in, the ace high; Razz: the highest, the ace low
  let r = ORDER.indexOf(card[0]) + 2;
  if (razz && card[0] === "A") r = 1;
  return r * 4 + SUIT_ORDER.indexOf(card[1]);
}

/** The door card that brings in, and whose: the lowest (Razz: the highest) of those dealt. */
function bringInCard(state) {
  const hand = state.hand;
  const razz = game(state) === "razz";
  let best = null;
  for (const [seat, hs] of Object.entries(hand.seats)) {
    const card = hs.up[0];
    if (!card) continue;
    const v = bringInValue(card, razz);
    if (!best || (razz ? v > best.v : v < best.v)) best = { seat: Number(seat), card, v };
  }
  return best;
}

/** Why this seat brings in: "lowest up card 2♣" (Razz: "highest up card K♠"); if the
 * lowest card is all-in for the ante, the player on his left brings in instead. */
export function bringInReason(state, seat, who) {
  const hand = state.hand;
  const hs = hand && hand.seats[seat];
  if (!hs || !hs.up[0]) return "";
  const word = game(state) === "razz" ? "highest" : "lowest";
  const low = bringInCard(state);
  if (low && low.seat !== seat) {
    return `${who(state, low.seat)}, with the ${word} up card ${cardText(low.card)}, is all-in`;
  }
  return `${word} up card ${cardText(hs.up[0])}`;
}

// ------------------------------------------------------------ the board
/** The up cards as a hand showing, in words: "a pair of kings", "two pair, aces and
 * fours", "three of a kind, sevens", "ace-king high" (straights and flushes do not
 * count on board: RULES.md section 3). */
export function boardHigh(cards) {
  const counts = {};
  for (const c of cards) counts[c[0]] = (counts[c[0]] || 0) + 1;
  const groups = Object.entries(counts).sort((a, b) => b[1] - a[1] || ORDER.indexOf(b[0]) - ORDER.indexOf(a[0]));
  const [[r1, n1], [r2, n2] = [null, 0]] = groups;
  if (n1 === 4) return `four of a kind, ${plural(r1)}`;
  if (n1 === 3) return `three of a kind, ${plural(r1)}`;
  if (n1 === 2 && n2 === 2) return `two pair, ${plural(r1)} and ${plural(r2)}`;
  if (n1 === 2) return `a pair of ${plural(r1)}`;
  const ranks = groups.map(([r]) => rankName(r));
  return ranks.length === 1 ? `${ranks[0]} high` : `${ranks.slice(0, 2).join("-")} high`;
}

/** Razz: the lowest hand showing, "7-5-3" (the ace low), or "a pair of fives". */
export function boardLow(cards) {
  const counts = {};
  for (const c of cards) counts[c[0]] = (counts[c[0]] || 0) + 1;
  const pair = Object.entries(counts).find(([, n]) => n >= 2);
  if (pair) return `a pair of ${plural(pair[0])}`;
  const low = (r) => (r === "A" ? 1 : ORDER.indexOf(r) + 2);
  const face = (v) => (v === 1 ? "A" : v === 10 ? "10" : ORDER[v - 2]);
  return Object.keys(counts).map(low).sort((a, b) => b - a).map(face).join("-");
}

/** Who acts first on 4th to 7th street, and why: "bob is high with a pair of kings
 * (K♠ K♦), first to act" (Razz: "low with 7-5-3"). */
export function firstToActLine(state, seat, street, who) {
  const hand = state.hand;
  const hs = hand && hand.seats[seat];
  if (!hs) return null;
  const name = who(state, seat);
  const cards = hs.up.map(cardText).join(" ");
  if (street === 7) return `${name} acts first, as on sixth street`;
  if (game(state) === "razz") return `${name} is low with ${boardLow(hs.up)} (${cards}), first to act`;
  return `${name} is high with ${boardHigh(hs.up)} (${cards}), first to act`;
}

/** The pots once a player is all-in and a side pot opens: "Main pot 30: ann, bob and
 * carol; Side pot 1 12: ann and bob" (null while there is one pot). */
export function potsLine(state, who) {
  const pots = handPots(state.hand);
  if (pots.length < 2) return null;
  return pots
    .map((p) => `${potName(p.index)} ${money(state, p.amount)}: ${namesList(p.eligible.map((s) => who(state, s)))}`)
    .join("; ");
}
