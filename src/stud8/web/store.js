// The table as this client sees it, built from a snapshot and the events after it.

import { timeoutText, leaveText, topUpText } from "./words.js";
import { money } from "./money.js";
import { countCap } from "./raisecap.js";
import { streetLine, upCardsLine, bringInReason, firstToActLine, potsLine } from "./dealer.js";

export const ACTIONS = new Set(["bring_in", "complete", "bet", "raise", "call", "check", "fold", "timeout"]);

export function emptyTable(tableId) {
  return {
    tableId,
    rules: null, // the table's rules (the welcome's table): game, structure, stakes, buy_in, seats, clock, rake
    seq: null, // the last event number seen
    mySeat: null,
    player: null,
    seats: {}, // seat -> {player, chips, bot, sitting_out, connected, leaving}
    hand: null,
    turn: null, // {v, seat, legal}
    lastActionSeq: -1,
    timer: null, // {seat, phase, endsAt, seconds}
    waiting: [], // names on the waiting list, first first
    offer: null, // {seat, player, endsAt}: a seat held for a waiting player
    preAction: null, // the pre-action box ticked (preactions.js): {kind, label, hand, street, current}
    preCleared: null, // the box the bet cleared, said in the bar: {hand, street, text}
    sentFor: null, // the turn my last action was sent for (its buttons stay disabled)
    notice: null, // the last time-out, said plainly: {seat, text}; a hand cancelled by a restart
    log: [],
    logDropped: 0, // lines dropped off the log's top (it keeps 200): a line's place is logDropped + index
    lastHand: null, // the hand this client saw dealt and not yet finished (a restart may cancel it)
    offline: false, // the connection is lost: no action may be sent, the clock is stopped
    unknownKinds: [], // kinds of event this client does not know (each said once on the console)
    mixed: null, // a mixed table's last mixed_game: this hand's game, the next, hands left
  };
}

export function maxSeats(state) {
  return (state.rules && state.rules.seats) || 8;
}

function newHand(id) {
  return {
    id, street: 0, pot: 0, to_act: null, bring_in_seat: null, community: null, seats: {},
    awards: [], rake: 0, showdown: [], revealed: 0, over: false, finished: false, cancelled: false,
    told: false, after: [], // its lines all said; the seating lines waiting for them (noteSeating)
  };
}

// `player` and `bot`: who plays the seat in this hand (the seating as the hand was
// dealt), kept with the hand: a player who leaves at its end keeps his name on its
// cards and in its lines until the next hand clears them
function newHandSeat(stack, seated) {
  return { stack, player: seated ? seated.player : null, bot: !!(seated && seated.bot),
    bet: 0, contributed: 0, folded: false, all_in: false, up: [], down: [],
    shown: null, low: null, showIndex: -1, muck: false, timedOut: null };
}

export function note(state, text) {
  if (!text) return;
  state.log.push(text);
  if (state.log.length > 200) { state.log.shift(); state.logDropped = (state.logDropped || 0) + 1; }
}

/** A hand's number as every place names it: its id, PokerStars' hand number (an id of
 * an older server, not a number, is shortened). */
export function handLabel(id) {
  const text = String(id ?? "");
  return /^\d+$/.test(text) ? text : text.slice(0, 8);
}

/** The line (and notice) of a hand a restart or a failover cancelled: said once, to a
 * client that saw it dealt and not finished (its lastHand). True if said. */
export function tellRefunded(state, ev) {
  if (!ev || !state.lastHand || ev.hand_id !== state.lastHand) return false;
  state.lastHand = null;
  const text = `Hand #${ev.number ?? handLabel(ev.hand_id)} was cancelled: every chip returned`;
  const hand = state.hand;
  if (hand && hand.id === ev.hand_id) Object.assign(hand, { over: true, cancelled: true, to_act: null, told: true });
  state.turn = null;
  state.timer = null;
  note(state, text);
  state.notice = { seat: null, text, refunded: ev.hand_id };
  return true;
}

/** Whether the hand on the table is over but has not said all its lines yet: its
 * hands are turned over one at a time after its end, and its results said after
 * them (table.js), while the seating may already have changed (a player busted or
 * stood up at the hand's end). */
export function handTelling(state) {
  const hand = state.hand;
  return !!hand && hand.over && !hand.told;
}

/** A line about the seating (who sits, leaves, tops up, is moved): said after the
 * lines of the hand it follows, so a bust-out never reads before the showdown that
 * caused it. */
export function noteSeating(state, text) {
  if (!text) return;
  if (handTelling(state)) state.hand.after.push(text);
  else note(state, text);
}

/** The hand on the table has said its last line (its shows and results): the
 * seating lines that waited for it follow. */
export function handTold(state) {
  const hand = state.hand;
  if (!hand || hand.told) return;
  hand.told = true;
  for (const line of hand.after.splice(0)) note(state, line);
}

/** The name of whoever plays in `seat`: the hand's player while a hand is on the
 * table (he may have left at its end: his cards and lines still name him), else
 * the seat's, else "seat N". */
export function who(state, seat) {
  const hs = state.hand && state.hand.seats[seat];
  if (hs && hs.player) return hs.player;
  const s = state.seats[seat];
  return s ? s.player : `seat ${seat}`;
}

/** The name of whoever sits in `seat` now (not the hand's: a top-up is the seat's). */
function seated(state, seat) {
  const s = state.seats[seat];
  return s ? s.player : `seat ${seat}`;
}

/** My seat at the table: the seat my name is in (null: I am not seated). */
export function seatOf(state, player) {
  if (!player) return null;
  for (const s of Object.values(state.seats)) if (s.player === player) return s.seat;
  return null;
}

export function applySnapshot(state, snap, v) {
  // the hand I saw dealt, cancelled by a restart (or a failover): said before the new lines
  const refunded = (snap.refunded || []).find((r) => r.hand_id === state.lastHand);
  const same = !!(state.hand && snap.log && snap.log.length && snap.log[0].d.k === "hand_start"
    && snap.log[0].d.hand_id === state.hand.id && state.hand.logAt !== undefined);
  if (refunded) tellRefunded(state, refunded);
  state.seq = v;
  const seats = {};
  for (const s of snap.seats) seats[s.seat] = { ...s, leaving: false };
  state.seats = seats;
  // the snapshot's viewer_seat is my table seat; the seats list says it too (a server
  // that gave only the hand's seat, null between hands, lost a seated player his buttons)
  state.mySeat = snap.viewer_seat ?? seatOf(state, state.player);
  state.turn = null;
  state.timer = null;
  if (same) {
    // the same hand again (back after missing too much): its lines are said anew from its start
    const keep = Math.max(0, state.hand.logAt - (state.logDropped || 0));
    state.log.splice(keep);
  } else {
    handTold(state); // the hand shown before is gone: what waited for it is said
  }
  state.hand = null;
  const told = refunded ? state.notice : null;
  state.notice = null;
  replayLog(state, snap, seats);
  if (told) state.notice = told; // the cancelled hand is what the player must read first
  state.seq = v;
  // the waiting list and the offer as they are now (the log's were as they were then)
  if (Array.isArray(snap.waiting_list)) state.waiting = [...snap.waiting_list];
  if (snap.offer !== undefined) setOffer(state, snap.offer && { ...snap.offer, seconds: snap.offer.seconds_left });
  const h = snap.hand;
  if (h && !(state.hand && state.hand.id === h.hand_id)) state.hand = newHand(h.hand_id);
  if (h) {
    const hand = state.hand;
    // the hand in play as the table has it now (the log told the same: this is the truth)
    Object.assign(hand, { street: h.street, pot: h.pot, to_act: h.to_act, bring_in_seat: h.bring_in_seat,
      community: h.community_card, over: h.is_over });
    for (const s of h.seats) {
      hand.seats[s.seat] = {
        // nobody leaves a hand in play: its players are the table's seats
        ...(hand.seats[s.seat] || newHandSeat(s.stack, state.seats[s.seat])),
        stack: s.stack, bet: s.bet, contributed: s.contributed || 0, folded: s.folded, all_in: s.all_in,
        up: [...s.up_cards], down: [...s.down_cards],
      };
    }
  }
  state.lastHand = state.hand && !state.hand.finished && !state.hand.cancelled ? state.hand.id : null;
  if (snap.turn && snap.turn.k === "timer") setTimer(state, snap.turn);
  if (snap.mixed) playing(state, snap.mixed);
}

/** A mixed table's game now: the dealer's words (who brings in) and the title follow it. */
function playing(state, mixed) {
  state.mixed = mixed;
  if (state.rules) state.rules = { ...state.rules, game: mixed.game };
}

/** The snapshot's log: the events of the hand on the table, as they came to me live,
 * applied again (the same lines, the same table); the seats as the hand was dealt
 * (log_seats: a player who left at its end still names his cards), then as they are. */
function replayLog(state, snap, seats) {
  const log = snap.log || [];
  if (!log.length || log[0].d.k !== "hand_start") return;
  // copies: the log's events change the seats as they were then, never the snapshot's
  const dealt = Object.fromEntries(Object.entries(seats).map(([n, s]) => [n, { ...s }]));
  for (const [seat, player] of snap.log_seats || []) {
    if (!dealt[seat] || dealt[seat].player !== player) {
      dealt[seat] = { seat, player, chips: 0, bot: false, sitting_out: false, connected: false, in_hand: true, leaving: false };
    }
  }
  state.seats = dealt;
  for (const { v, d } of log) applyEvent(state, d, v);
  state.seats = seats;
  state.mySeat = snap.viewer_seat ?? seatOf(state, state.player);
  state.turn = null;
  state.timer = null;
}

function setTimer(state, ev) {
  state.timer = { seat: ev.seat, phase: ev.phase, endsAt: Date.now() + ev.seconds * 1000, seconds: ev.seconds };
  if (state.hand) state.hand.to_act = ev.seat;
}

function setOffer(state, offer) {
  state.offer = offer ? { seat: offer.seat, player: offer.player, endsAt: Date.now() + offer.seconds * 1000 } : null;
}

function pay(hs, hand, amount) {
  hs.stack -= amount;
  hs.contributed += amount;
  hand.pot += amount;
}

/** Apply one event (d) numbered v. */
export function applyEvent(state, ev, v) {
  state.seq = v;
  const hand = state.hand;
  const hs = hand && ev.seat !== undefined ? hand.seats[ev.seat] : null;
  if (ACTIONS.has(ev.k)) {
    state.lastActionSeq = v;
    state.turn = null;
    state.timer = null;
    if (hand) hand.to_act = null;
  }
  const handler = HANDLERS[ev.k];
  if (!handler && !ELSEWHERE.has(ev.k)) unknownKind(state, ev);
  else if (handler && (hand || !HAND_ONLY.has(ev.k))) handler(state, ev, hand, hs);
  if (hand) countCap(state, ev); // the street's bets toward a fixed-limit cap (raisecap.js)
}

/** The kinds of event the table's page takes itself (table.js), not the store. */
export const ELSEWHERE = new Set(["chat", "tournament", "moved"]);

/** An event of a kind this client does not know (a newer server?): said, not dropped
 * silently; the table goes on with the events it knows. */
function unknownKind(state, ev) {
  if (!state.unknownKinds) state.unknownKinds = [];
  if (state.unknownKinds.includes(ev.k)) return;
  state.unknownKinds.push(ev.k);
  console.warn(`stud8: an event of an unknown kind ${JSON.stringify(ev.k)} (seq ${state.seq}) was not shown`);
}

/** Every kind of event this client takes (the store's handlers and the page's). */
export function knownKinds() {
  return [...Object.keys(HANDLERS), ...ELSEWHERE].sort();
}

export const HAND_ONLY = new Set(["ante", "street", "deal", "community", "first_to_act", "bring_in", "complete", "bet",
  "raise", "call", "check", "fold", "timeout", "uncalled", "show", "muck", "rake", "award", "end", "cancel"]);

function bet(state, ev, hand, hs) {
  if (hs) { pay(hs, hand, ev.adds); hs.bet = ev.to; hs.all_in = !!ev.all_in; }
  const verb = { call: "calls", bet: "bets", raise: "raises to", complete: "completes to" }[ev.k];
  // the bring-in's seat may complete instead of bringing in: say why it was his to open
  const opens = ev.k === "complete" && hand.street === 3 && hand.bring_in_seat === ev.seat && !hand.broughtIn;
  const why = opens ? ` instead of bringing in (${bringInReason(state, ev.seat, who)})` : "";
  hand.broughtIn = hand.broughtIn || opens;
  note(state, `${who(state, ev.seat)} ${verb} ${money(state, ev.k === "call" ? ev.adds : ev.to)}${ev.all_in ? " (all-in)" : ""}${why}`);
}

/** The up cards of the street, once they are all dealt (before its first action, or
 * when the next street or the showdown comes with nobody left to act). */
function sayUpCards(state, hand) {
  sayPots(state, hand);
  if (!hand.street || hand.upSaid === hand.street) return;
  hand.upSaid = hand.street;
  note(state, upCardsLine(state, hand.street, who));
}

/** The side pots, when they change (said as each betting round ends). */
function sayPots(state, hand) {
  const line = potsLine(state, who);
  if (!line || line === hand.potsSaid) return;
  hand.potsSaid = line;
  note(state, line);
}

const HANDLERS = {
  hand_start(state, ev) {
    handTold(state);
    const h = newHand(ev.hand_id);
    for (const [seat, chips] of ev.stacks) h.seats[seat] = newHandSeat(chips, state.seats[seat]);
    state.hand = h;
    state.turn = null;
    state.timer = null;
    state.notice = null;
    state.preAction = null; // pre-action boxes are for one hand
    state.lastHand = ev.hand_id;
    h.logAt = (state.logDropped || 0) + state.log.length; // where its lines start
    note(state, `Hand #${handLabel(ev.hand_id)} starts`);
  },
  ante(state, ev, hand, hs) {
    if (hs) { pay(hs, hand, ev.amount); hs.all_in = !!ev.all_in; }
    if (ev.all_in) note(state, `${who(state, ev.seat)} is all-in for the ante (${money(state, ev.amount)})`);
  },
  street(state, ev, hand) {
    sayUpCards(state, hand);
    note(state, streetLine(ev.street));
    hand.street = ev.street;
    for (const s of Object.values(hand.seats)) s.bet = 0;
    hand.to_act = null;
    state.turn = null;
    state.timer = null;
  },
  deal(state, ev, hand, hs) { if (hs) (ev.face_up ? hs.up : hs.down).push(ev.card); },
  community(state, ev, hand) { hand.community = ev.card; note(state, `Community card ${ev.card}`); },
  first_to_act(state, ev, hand) {
    hand.to_act = ev.seat;
    sayUpCards(state, hand);
    if (ev.street === 3) hand.bring_in_seat = ev.seat;
    else note(state, firstToActLine(state, ev.seat, ev.street, who));
  },
  bring_in(state, ev, hand, hs) {
    if (hs) { pay(hs, hand, ev.amount); hs.bet += ev.amount; hs.all_in = !!ev.all_in; }
    hand.broughtIn = true;
    const reason = bringInReason(state, ev.seat, who);
    note(state, `${who(state, ev.seat)} brings in for ${money(state, ev.amount)}${ev.all_in ? " (all-in)" : ""}${reason ? ` — ${reason}` : ""}`);
  },
  complete: bet, bet, raise: bet, call: bet,
  check(state, ev) { note(state, `${who(state, ev.seat)} checks`); },
  fold(state, ev, hand, hs) { if (hs) hs.folded = true; note(state, `${who(state, ev.seat)} folds`); },
  timeout(state, ev, hand, hs) {
    if (hs) {
      hs.timedOut = ev.outcome;
      if (ev.outcome === "fold") hs.folded = true;
      if (ev.outcome === "all_in_protection") hs.all_in = true;
    }
    const rules = state.rules || {};
    const human = !(state.seats[ev.seat] && state.seats[ev.seat].bot);
    const text = timeoutText(who(state, ev.seat), ev.outcome, hs ? hs.contributed : 0,
      rules.timeout_policy || undefined, !!rules.sit_out_on_timeout && human);
    state.notice = { seat: ev.seat, text };
    note(state, text);
  },
  uncalled(state, ev, hand, hs) {
    if (hs) {
      hs.stack += ev.amount; hs.bet -= ev.amount; hs.contributed -= ev.amount; hand.pot -= ev.amount;
      if (hs.timedOut !== "all_in_protection") hs.all_in = false; // he has chips again
    }
    note(state, `The uncalled ${money(state, ev.amount)} goes back to ${who(state, ev.seat)}`);
  },
  // the showdown: kept in show order; the table view turns the hands over one by one
  show(state, ev, hand, hs) {
    sayUpCards(state, hand);
    if (!hs) return;
    hs.shown = ev.cards.split(" ").filter(Boolean);
    hs.low = ev.low;
    hs.showIndex = hand.showdown.length;
    hand.showdown.push({ kind: "show", seat: ev.seat });
  },
  muck(state, ev, hand, hs) {
    if (!hs) return;
    hs.muck = true;
    hs.showIndex = hand.showdown.length;
    hand.showdown.push({ kind: "muck", seat: ev.seat });
  },
  rake(state, ev, hand) { hand.rake += ev.amount; },
  award(state, ev, hand, hs) { if (hs) hand.awards.push(ev); }, // stacks change at "end"
  end(state, ev, hand) {
    sayUpCards(state, hand);
    hand.over = true;
    hand.to_act = null;
    for (const [seat, chips] of ev.stacks) {
      if (hand.seats[seat]) hand.seats[seat].stack = chips;
      if (state.seats[seat]) state.seats[seat].chips = chips;
    }
  },
  cancel(state, ev, hand) {
    Object.assign(hand, { over: true, cancelled: true, to_act: null });
    note(state, `The hand was cancelled${ev.reason ? ": " + ev.reason : ""}; every chip goes back`);
  },
  hand_finish(state, ev) {
    if (state.hand) state.hand.finished = true;
    if (state.lastHand === ev.hand_id) state.lastHand = null;
    state.timer = null;
  },
  hand_refunded(state, ev) { tellRefunded(state, ev); },
  mixed_game(state, ev) { playing(state, ev); note(state, ev.notice); },
  timer(state, ev) { setTimer(state, ev); },
  sit(state, ev) {
    state.seats[ev.seat] = { seat: ev.seat, player: ev.player, chips: ev.chips, bot: !!ev.bot,
      sitting_out: false, connected: true, in_hand: false, leaving: false };
    if (ev.player === state.player) state.mySeat = ev.seat;
    if (state.offer && (state.offer.seat === ev.seat || state.offer.player === ev.player)) state.offer = null;
    state.waiting = state.waiting.filter((n) => n !== ev.player);
    noteSeating(state, `${ev.player} sits in seat ${ev.seat} with ${ev.chips}`);
  },
  leave(state, ev) {
    delete state.seats[ev.seat];
    if (ev.seat === state.mySeat) state.mySeat = null;
    noteSeating(state, leaveText(ev));
  },
  top_up(state, ev) {
    if (state.seats[ev.seat]) state.seats[ev.seat].chips = ev.chips;
    const text = topUpText(seated(state, ev.seat), ev);
    noteSeating(state, text);
    // an auto top-up his bank could not pay in full: said to him plainly too
    if (ev.auto && ev.short && ev.seat === state.mySeat) state.notice = { seat: ev.seat, text };
  },
  sit_out(state, ev) {
    const s = state.seats[ev.seat];
    if (!s) return;
    if (ev.reason === "leaving") s.leaving = true;
    else { s.sitting_out = true; s.out_reason = ev.reason; }
  },
  come_back(state, ev) { if (state.seats[ev.seat]) Object.assign(state.seats[ev.seat], { sitting_out: false, out_reason: "" }); },
  disconnected(state, ev) { if (state.seats[ev.seat]) state.seats[ev.seat].connected = false; },
  reconnected(state, ev) { if (state.seats[ev.seat]) state.seats[ev.seat].connected = true; },
  waiting_list(state, ev) {
    state.waiting = [...(ev.players || [])];
    // an offered player stays listed until he sits: off the list, his offer is over
    if (state.offer && !state.waiting.includes(state.offer.player)) state.offer = null;
  },
  seat_offered(state, ev) {
    setOffer(state, ev);
    noteSeating(state, `Seat ${ev.seat} is held for ${ev.player} (${ev.seconds} s)`);
  },
};

/** A turn message: kept unless an action came after it (a stale turn). */
export function applyTurn(state, d, v) {
  if (v !== null && v !== undefined && v < state.lastActionSeq) return false;
  state.turn = { v, seat: d.seat, legal: d.legal };
  if (state.hand) state.hand.to_act = d.seat;
  return true;
}

/** Whether I am seated and dealt into the hand that is being played (no top-up now). */
export function inPlayingHand(state) {
  const h = state.hand;
  return state.mySeat !== null && !!h && !h.finished && !!h.seats[state.mySeat];
}
