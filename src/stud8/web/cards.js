// Cards drawn as SVG, and the names of Stud Hi/Lo hands for the showdown.

const SUITS = {
  s: { glyph: "\u2660", name: "spades", two: "#111", four: "#111" },
  h: { glyph: "\u2665", name: "hearts", two: "#c8102e", four: "#c8102e" },
  d: { glyph: "\u2666", name: "diamonds", two: "#c8102e", four: "#1760c4" },
  c: { glyph: "\u2663", name: "clubs", two: "#111", four: "#17803a" },
};
const RANK_NAMES = {
  A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight",
  7: "seven", 6: "six", 5: "five", 4: "four", 3: "three", 2: "two",
};
const PLURAL = { six: "sixes" };

export function cardLabel(card) {
  const r = RANK_NAMES[card[0]];
  return `${r} of ${SUITS[card[1]].name}`;
}

/** What a screen reader says of a card: "King of spades, face up"; my own down
 * card "King of spades, face down (down card, only you see it)". */
export function cardSpoken(card, down = false) {
  const name = cardLabel(card);
  const said = name[0].toUpperCase() + name.slice(1);
  return `${said}, ${down ? "face down (down card, only you see it)" : "face up"}`;
}

// Your own down cards carry a band like the back of a card, "DOWN": only you see them
// (not a tint alone: it reads in any colours, on any screen). The word keeps to the
// card's left half (fitted to it): the next card of the hand covers the right half.
const DOWN_MARK = `<path class="down-mark" d="M2.5 64 H57.5 V76 Q57.5 81.5 52 81.5 H8 Q2.5 81.5 2.5 76 Z" fill="#1d3f8f"/>
<text class="down-tag" x="3.5" y="77.5" textLength="25" lengthAdjust="spacingAndGlyphs" font-family="Arial,Helvetica,sans-serif" font-weight="700" font-size="13" fill="#fff">DOWN</text>`;

/** One card as an SVG string. card: "Td" or null (a back). opts: {down, fourColor}. */
export function cardSVG(card, opts = {}) {
  if (!card) {
    return `<svg class="card back" viewBox="0 0 60 84" role="img" aria-label="A face-down card">
<rect x="1" y="1" width="58" height="82" rx="6" fill="#1d3f8f" stroke="#0c1f4a" stroke-width="1.5"/>
<rect x="6" y="6" width="48" height="72" rx="4" fill="none" stroke="#8fb0ff" stroke-width="1.2"/>
<path d="M6 20 L30 6 L54 20 M6 40 L30 26 L54 40 M6 60 L30 46 L54 60 M6 78 L30 66 L54 78" stroke="#4f74cf" fill="none" stroke-width="1.2"/>
</svg>`;
  }
  const suit = SUITS[card[1]];
  const colour = opts.fourColor ? suit.four : suit.two;
  const rank = card[0] === "T" ? "10" : card[0];
  const label = cardSpoken(card, !!opts.down);
  return `<svg class="card face${opts.down ? " own-down" : ""}" viewBox="0 0 60 84" role="img" aria-label="${label}">
<rect x="1" y="1" width="58" height="82" rx="6" fill="${opts.down ? "#fff7dd" : "#fff"}" stroke="${opts.down ? "#1d3f8f" : "#555"}" stroke-width="${opts.down ? 3 : 1.2}"/>
<text x="6" y="22" font-family="Arial,Helvetica,sans-serif" font-weight="700" font-size="${rank.length > 1 ? 17 : 20}" fill="${colour}">${rank}</text>
<text x="7" y="40" font-family="Arial,Helvetica,sans-serif" font-size="16" fill="${colour}">${suit.glyph}</text>
<text x="36" y="${opts.down ? 60 : 72}" text-anchor="middle" font-family="Arial,Helvetica,sans-serif" font-size="${opts.down ? 26 : 34}" fill="${colour}">${suit.glyph}</text>${opts.down ? DOWN_MARK : ""}
</svg>`;
}

// ------------------------------------------------------------------ hand names

const ORDER = "23456789TJQKA";
const rv = (c) => ORDER.indexOf(c[0]) + 2;
const name = (v) => RANK_NAMES[ORDER[v - 2]];
const plural = (v) => PLURAL[name(v)] || name(v) + "s";

function straightTop(values) {
  const set = new Set(values);
  if (set.has(14)) set.add(1);
  for (let top = 14; top >= 5; top--) {
    let ok = true;
    for (let v = top; v > top - 5; v--) if (!set.has(v)) { ok = false; break; }
    if (ok) return top;
  }
  return 0;
}

/** The name of the best high hand in the cards ("Flush, ace high"). */
export function highName(cards) {
  const values = cards.map(rv);
  const bySuit = {};
  for (const c of cards) (bySuit[c[1]] = bySuit[c[1]] || []).push(rv(c));
  let flush = null;
  for (const vs of Object.values(bySuit)) if (vs.length >= 5) flush = vs;
  if (flush) {
    const sf = straightTop(flush);
    if (sf === 14) return "Royal flush";
    if (sf) return `Straight flush, ${name(sf)} high`;
  }
  const counts = {};
  for (const v of values) counts[v] = (counts[v] || 0) + 1;
  const groups = Object.entries(counts)
    .map(([v, n]) => [Number(v), n])
    .sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const [[v1, n1], [v2, n2] = [0, 0]] = groups;
  if (n1 === 4) return `Four of a kind, ${plural(v1)}`;
  if (n1 === 3 && n2 >= 2) return `Full house, ${plural(v1)} full of ${plural(v2)}`;
  if (flush) return `Flush, ${name(Math.max(...flush))} high`;
  const st = straightTop(values);
  if (st) return `Straight, ${name(st)} high`;
  if (n1 === 3) return `Three of a kind, ${plural(v1)}`;
  if (n1 === 2 && n2 === 2) return `Two pair, ${plural(v1)} and ${plural(v2)}`;
  if (n1 === 2) return `A pair of ${plural(v1)}`;
  return `High card, ${name(v1)}`;
}

/** The best 8-or-better low ("7-5-4-3-2 low"), or null when there is none. */
export function lowName(cards) {
  const lows = [...new Set(cards.map((c) => (c[0] === "A" ? 1 : rv(c))))]
    .filter((v) => v <= 8)
    .sort((a, b) => a - b);
  if (lows.length < 5) return null;
  const five = lows.slice(0, 5).reverse();
  return five.map((v) => (v === 1 ? "A" : String(v))).join("-") + " low";
}

/** The Razz hand (ace-to-five low, pairs count against it): "9-6-4-3-A" or "A pair of twos". */
export function razzName(cards) {
  const low = (c) => (c[0] === "A" ? 1 : rv(c));
  const distinct = [...new Set(cards.map(low))].sort((a, b) => a - b);
  const face = (v) => (v === 1 ? "A" : v === 10 ? "T" : ORDER[v - 2]);
  if (distinct.length >= 5) return distinct.slice(0, 5).reverse().map(face).join("-");
  const counts = {};
  for (const v of cards.map(low)) counts[v] = (counts[v] || 0) + 1;
  const pair = Math.min(...Object.keys(counts).map(Number).filter((v) => counts[v] >= 2));
  return `A pair of ${pair === 1 ? "aces" : plural(pair)}`;
}
