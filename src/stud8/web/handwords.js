// The hand a player holds, in words, from the cards he can see of his own (three to
// seven), for the table's game: Stud Hi/Lo "Two pair, kings and fours; 7-6-4-2-A low"
// (or "no low yet" / "no low"), Seven Card Stud the high hand only, Razz the low only.
// From five cards on, the words are the engine's (stud8.core.evaluate's str() of
// best_high, best_low and best_razz_low): tests/web/test_hud.py checks them against it
// on many random hands.

import { highName, lowName } from "./cards.js";

const ORDER = "23456789TJQKA";
const NAMES = ["", "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"];
const plural = (v) => (v === 6 ? "sixes" : `${NAMES[v]}s`);
const lowValue = (card) => (card[0] === "A" ? 1 : ORDER.indexOf(card[0]) + 2);
const spell = (v) => (v === 1 || v === 14 ? "A" : ORDER[v - 2]);

/** The 5-card combinations of `items` (5 to 7 of them). */
function fives(items) {
  const out = [];
  const pick = (start, chosen) => {
    if (chosen.length === 5) { out.push(chosen); return; }
    for (let i = start; i <= items.length - (5 - chosen.length); i++) pick(i + 1, [...chosen, items[i]]);
  };
  pick(0, []);
  return out;
}

// a razz hand's category by how it pairs (the engine's HighCategory numbers)
const PATTERNS = { "11111": 0, "2111": 1, "221": 2, "311": 3, "32": 6, "41": 7 };

/** Ace-to-five value of five low ranks: [category, ranks in order of significance]. */
function razzKey(values) {
  const counts = new Map();
  for (const v of values) counts.set(v, (counts.get(v) || 0) + 1);
  const groups = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const pattern = groups.map((g) => g[1]).join("");
  const ranks = groups.flatMap(([v, n]) => Array(n).fill(v));
  return [PATTERNS[pattern], ranks];
}

function lessThan(a, b) {
  if (a[0] !== b[0]) return a[0] < b[0];
  for (let i = 0; i < 5; i++) if (a[1][i] !== b[1][i]) return a[1][i] < b[1][i];
  return false;
}

function describe(category, ranks) {
  const first = plural(ranks[0]);
  switch (category) {
    case 7: return `Four of a kind, ${first}`;
    case 6: return `Full house, ${first} full of ${plural(ranks[4])}`;
    case 3: return `Three of a kind, ${first}`;
    case 2: return `Two pair, ${first} and ${plural(ranks[2])}`;
    default: return `A pair of ${first}`;
  }
}

/** The best Razz hand of five to seven cards, as the engine says it: "7-5-4-2-A low",
 * "A pair of threes, 7-5-3-3-A". Fewer cards: what they make so far ("9-6-A so far"). */
export function razzWords(cards) {
  const values = cards.map(lowValue);
  if (values.length < 5) return `${[...values].sort((a, b) => b - a).map(spell).join("-")} so far`;
  let best = null;
  for (const five of fives(values)) {
    const key = razzKey(five);
    if (best === null || lessThan(key, best)) best = key;
  }
  const [category, ranks] = best;
  const spelled = [...ranks].sort((a, b) => b - a).map(spell).join("-");
  return category === 0 ? `${spelled} low` : `${describe(category, ranks)}, ${spelled}`;
}

/** The 8-or-better low part of a Stud Hi/Lo hand: "7-6-4-2-A low", or "no low" once
 * none can be made (too few cards to come), else "no low yet". */
export function lowWords(cards) {
  const made = cards.length >= 5 ? lowName(cards) : null;
  if (made) return made;
  const lows = new Set(cards.map(lowValue).filter((v) => v <= 8)).size;
  return lows + (7 - cards.length) >= 5 ? "no low yet" : "no low";
}

/** The words for a player's own cards (card strings, none null) at a table of `game`. */
export function handWords(game, cards) {
  if (!cards.length) return "";
  if (game === "razz") return razzWords(cards);
  if (game === "stud_high") return highName(cards);
  return `${highName(cards)}; ${lowWords(cards)}`;
}
