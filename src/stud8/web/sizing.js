// Bet sizes in pot limit and no limit: half the pot, the pot, all-in.
//
// A pot-sized raise is the call plus the pot after the call: to = current bet +
// (pot + what I must add to call). Half the pot is the call plus half of that pot,
// rounded down to the chip, clamped to what the table allows.

const clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x));

/** The actions that take an amount (one of them at most is legal at a time). */
export const SIZED = new Set(["complete", "bet", "raise"]);

/** The bet facing me and the pot as they stand now. */
export function betting(state) {
  const hand = state.hand;
  const seats = Object.values(hand.seats);
  const current = Math.max(0, ...seats.map((s) => s.bet));
  const me = hand.seats[state.mySeat] || { bet: 0, stack: 0 };
  const toCall = Math.max(0, current - me.bet);
  return { current, mine: me.bet, stack: me.stack, toCall, potAfterCall: hand.pot + toCall };
}

/**
 * The preset amounts for a sized action `a` ({kind, min_to, max_to}): a list of
 * {name, label, to}. In pot limit "Pot" is the maximum the table offers (the pot, or
 * all he has); in no limit "All-in" is the maximum.
 */
export function presets(state, a, structure) {
  const b = betting(state);
  const lo = a.min_to;
  const hi = a.max_to;
  const half = clamp(b.current + Math.floor(b.potAfterCall / 2), lo, hi);
  const pot = structure === "pot_limit" ? hi : clamp(b.current + b.potAfterCall, lo, hi);
  const allInTo = b.mine + b.stack;
  const out = [
    { name: "half", label: "½ pot", to: half },
    { name: "pot", label: "Pot", to: pot },
  ];
  if (allInTo === hi) out.push({ name: "all-in", label: "All-in", to: hi });
  return out;
}

/** Whether putting in `to` leaves me with no chips. */
export function isAllIn(state, to) {
  const b = betting(state);
  return to === b.mine + b.stack;
}

/** A typed amount checked against the range: {to} or {error}. */
export function checkAmount(raw, a) {
  const text = String(raw).trim();
  if (!/^\d+$/.test(text)) return { error: `Type a whole number of chips, ${a.min_to} to ${a.max_to}` };
  const to = Number(text);
  if (to < a.min_to || to > a.max_to) return { error: `The amount is ${a.min_to} to ${a.max_to}` };
  return { to };
}
