// The pots as they stand during a hand: the main pot and the side pots, from what
// is public (each seat's chips put in, folded or all-in), built as the engine
// builds them (src/stud8/core/pots.py, build_pots).
//
// A pot closes at each all-in player's total: he wins from each opponent no more
// than he put in. Folded players' chips count toward the pots they reach, but
// they win none. The chips above the last all-in total make a pot of the players
// still betting (a player who has not called yet is in every pot: he may still
// call). When a street's betting is over these are exactly the engine's pots.

const sum = (xs) => xs.reduce((n, x) => n + x, 0);

/** The pots of a hand (the store's `hand`): [{index, amount, eligible: [seats]}],
 * the main pot first; [] before any chip is in. */
export function handPots(hand) {
  const seats = Object.entries(hand.seats).map(([seat, s]) => ({
    seat: Number(seat), put: s.contributed, folded: s.folded, allIn: s.all_in && !s.folded,
  }));
  const live = seats.filter((s) => !s.folded);
  const levels = [...new Set(live.filter((s) => s.allIn && s.put > 0).map((s) => s.put))].sort((a, b) => a - b);
  const pots = [];
  let previous = 0;
  for (const level of levels) {
    pots.push({
      amount: sum(seats.map((s) => Math.min(s.put, level) - Math.min(s.put, previous))),
      eligible: live.filter((s) => !s.allIn || s.put >= level).map((s) => s.seat),
    });
    previous = level;
  }
  const rest = sum(seats.map((s) => Math.max(0, s.put - previous)));
  const betting = live.filter((s) => !s.allIn).map((s) => s.seat);
  if (rest > 0) {
    // nobody left betting: the folded players' chips above go to the last pot
    if (betting.length) pots.push({ amount: rest, eligible: betting });
    else if (pots.length) pots[pots.length - 1].amount += rest;
    else pots.push({ amount: rest, eligible: live.map((s) => s.seat) });
  }
  return pots.map((p, index) => ({ index, ...p }));
}
