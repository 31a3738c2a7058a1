// The fixed-limit raise cap as this client counts it (RULES.md 3), so that the
// Bet/Raise pre-action box is not offered once the street is capped (preactions.js).
// The table tells no count: the client counts the street's bets from its events (a
// reload replays the hand's log, so the count is the same after one), with the
// table's rules (the welcome's `rules`: raise_cap, heads_up_cap, big_bet_street):
// - a round allows one bet (or completion) and `raise_cap` raises; null: no cap;
// - a bring-in of a full bet is the round's bet;
// - an all-in counts when it adds at least half a bet over the last full bet (or the
//   bring-in); a player with chips left can only make full ones;
// - heads-up (two players who can still act): lifted when the action is heads-up
//   before the cap is reached, or only if the round starts heads-up, or never.
// The server's legal actions stay the truth: a box whose raise is not legal when the
// turn comes sends nothing (preActionChoice); this only keeps it from being offered.

const ACTED = new Set(["bring_in", "complete", "bet", "raise", "call", "check", "fold", "timeout"]);
const RAISES = new Set(["complete", "bet", "raise"]);

function optionsOf(state) {
  const t = state.rules || {};
  const r = t.rules || {};
  const cap = r.raise_cap === undefined ? 3 : r.raise_cap;
  const level = state.tournament && state.tournament.small_bet ? state.tournament : null;
  return {
    limit: t.structure === "fixed_limit",
    most: cap === null ? null : cap + 1, // the bet and its raises
    headsUp: r.heads_up_cap || "lifted_when_heads_up",
    bigStreet: r.big_bet_street || 5,
    // at a tournament's table the level's (the table's own are its first level's)
    stakes: level ? level : t.stakes || { bring_in: 0, small_bet: 0, big_bet: 0 },
  };
}

/** The players of the hand who can still act: not folded, not all-in. */
function acting(hand) {
  return Object.values(hand.seats).filter((s) => !s.folded && !s.all_in).length;
}

/** Take event `ev` (already applied to the hand) into the street's count. */
export function countCap(state, ev) {
  const hand = state.hand;
  if (!hand) return;
  const o = optionsOf(state);
  if (ev.k === "street") {
    hand.cap = { bets: 0, full: 0, base: 0, bigMade: false, lifted: o.headsUp !== "never_lifted" && acting(hand) <= 2 };
    return;
  }
  const c = hand.cap;
  if (!c || !ACTED.has(ev.k)) return;
  const size = c.bigMade || hand.street >= o.bigStreet ? o.stakes.big_bet : o.stakes.small_bet;
  if (ev.k === "bring_in") {
    c.base = Math.max(o.stakes.bring_in, ev.amount);
    if (o.stakes.bring_in >= o.stakes.small_bet) { c.full = c.base; c.bets = 1; }
  } else if (RAISES.has(ev.k)) {
    if (ev.k === "complete" && hand.street === 3 && !c.base) c.base = o.stakes.bring_in; // instead of bringing in
    const full = !ev.all_in || (ev.to - c.base) * 2 >= c.full + size - c.base;
    if (full) {
      if (hand.street === 4 && ev.to - c.full >= o.stakes.big_bet && o.stakes.big_bet > o.stakes.small_bet) c.bigMade = true; // an open pair's big bet
      c.full = c.base = ev.to;
      c.bets += 1;
    }
  }
  if (o.headsUp === "lifted_when_heads_up" && !c.lifted && acting(hand) <= 2 && (o.most === null || c.bets < o.most)) c.lifted = true;
}

/** Whether no bet or raise is left on this street: fixed limit, the cap reached and
 * not lifted heads-up. */
export function streetCapped(state) {
  const hand = state.hand;
  const o = optionsOf(state);
  if (!hand || !hand.cap || !o.limit || o.most === null) return false;
  return !hand.cap.lifted && hand.cap.bets >= o.most;
}
