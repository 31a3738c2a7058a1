// The table as this client sees it, built from a snapshot and the events after it.

const ACTIONS = new Set(["bring_in", "complete", "bet", "raise", "call", "check", "fold", "timeout"]);

export function emptyTable(tableId) {
  return {
    tableId,
    seq: null, // the last event number seen
    mySeat: null,
    player: null,
    seats: {}, // seat -> {player, chips, bot, sitting_out, connected}
    hand: null,
    turn: null, // {v, seat, legal}
    lastActionSeq: -1,
    timer: null, // {seat, phase, endsAt}
    log: [],
  };
}

function newHandSeat(stack) {
  return { stack, bet: 0, folded: false, all_in: false, up: [], down: [], shown: null, muck: false };
}

function note(state, text) {
  state.log.push(text);
  if (state.log.length > 60) state.log.shift();
}

function who(state, seat) {
  const s = state.seats[seat];
  return s ? s.player : `seat ${seat}`;
}

export function applySnapshot(state, snap, v) {
  state.seq = v;
  state.mySeat = snap.viewer_seat;
  state.seats = {};
  for (const s of snap.seats) state.seats[s.seat] = { ...s };
  state.turn = null;
  state.timer = null;
  state.hand = null;
  const h = snap.hand;
  if (h) {
    const hand = {
      id: h.hand_id,
      street: h.street,
      pot: h.pot,
      to_act: h.to_act,
      bring_in_seat: h.bring_in_seat,
      community: h.community_card,
      seats: {},
      awards: [],
      over: h.is_over,
      finished: false,
    };
    for (const s of h.seats) {
      hand.seats[s.seat] = {
        ...newHandSeat(s.stack),
        bet: s.bet,
        folded: s.folded,
        all_in: s.all_in,
        up: [...s.up_cards],
        down: [...s.down_cards],
      };
    }
    state.hand = hand;
  }
  if (snap.turn && snap.turn.k === "timer") setTimer(state, snap.turn);
}

function setTimer(state, ev) {
  state.timer = { seat: ev.seat, phase: ev.phase, endsAt: Date.now() + ev.seconds * 1000 };
  if (state.hand) state.hand.to_act = ev.seat;
}

function pay(hand, seat, amount) {
  const s = hand.seats[seat];
  s.stack -= amount;
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
  switch (ev.k) {
    case "hand_start": {
      const h = { id: ev.hand_id, street: 0, pot: 0, to_act: null, bring_in_seat: null,
        community: null, seats: {}, awards: [], over: false, finished: false };
      for (const [seat, chips] of ev.stacks) h.seats[seat] = newHandSeat(chips);
      state.hand = h;
      state.turn = null;
      state.timer = null;
      note(state, `Hand #${String(ev.hand_id).slice(0, 8)} starts`);
      break;
    }
    case "ante":
      if (hs) pay(hand, ev.seat, ev.amount);
      break;
    case "street":
      if (hand) {
        hand.street = ev.street;
        for (const s of Object.values(hand.seats)) s.bet = 0;
        hand.to_act = null;
        state.turn = null;
        state.timer = null;
      }
      break;
    case "deal":
      if (hs) (ev.face_up ? hs.up : hs.down).push(ev.card);
      break;
    case "community":
      if (hand) hand.community = ev.card;
      note(state, `Community card ${ev.card}`);
      break;
    case "first_to_act":
      if (hand) {
        hand.to_act = ev.seat;
        if (ev.street === 3) hand.bring_in_seat = ev.seat;
      }
      break;
    case "bring_in":
      if (hs) { pay(hand, ev.seat, ev.amount); hs.bet += ev.amount; hs.all_in = !!ev.all_in; }
      note(state, `${who(state, ev.seat)} brings in for ${ev.amount}`);
      break;
    case "complete":
    case "bet":
    case "raise":
    case "call":
      if (hs) { pay(hand, ev.seat, ev.adds); hs.bet = ev.to; hs.all_in = !!ev.all_in; }
      note(state, `${who(state, ev.seat)} ${ev.k === "call" ? "calls" : ev.k === "bet" ? "bets" : ev.k === "raise" ? "raises to" : "completes to"} ${ev.k === "call" ? ev.adds : ev.to}`);
      break;
    case "check":
      note(state, `${who(state, ev.seat)} checks`);
      break;
    case "fold":
      if (hs) hs.folded = true;
      note(state, `${who(state, ev.seat)} folds`);
      break;
    case "timeout":
      if (hs && ev.outcome === "fold") hs.folded = true;
      note(state, `${who(state, ev.seat)} ran out of time: ${ev.outcome.replaceAll("_", " ")}`);
      break;
    case "uncalled":
      if (hs) { hs.stack += ev.amount; hs.bet -= ev.amount; hand.pot -= ev.amount; }
      break;
    case "show":
      if (hs) {
        const cards = ev.cards.split(" ").filter(Boolean);
        hs.shown = cards;
        const up = new Set(hs.up);
        hs.down = cards.filter((c) => !up.has(c));
      }
      break;
    case "muck":
      if (hs) hs.muck = true;
      break;
    case "rake":
      if (hand) hand.pot -= ev.amount;
      break;
    case "award":
      if (hs) { hs.stack += ev.amount; hand.awards.push(ev); } // the pot stays shown whole
      note(state, `${who(state, ev.seat)} wins ${ev.amount}${ev.half === "whole" ? "" : ` (${ev.half})`}${ev.pot ? ` from side pot ${ev.pot}` : ""}`);
      break;
    case "end":
      if (hand) {
        hand.over = true;
        hand.to_act = null;
        for (const [seat, chips] of ev.stacks) {
          if (hand.seats[seat]) hand.seats[seat].stack = chips;
          if (state.seats[seat]) state.seats[seat].chips = chips;
        }
      }
      break;
    case "cancel":
      if (hand) { hand.over = true; hand.cancelled = true; hand.to_act = null; }
      note(state, `The hand was cancelled${ev.reason ? ": " + ev.reason : ""}; every chip goes back`);
      break;
    case "hand_finish":
      if (hand) hand.finished = true;
      state.timer = null;
      break;
    case "timer":
      setTimer(state, ev);
      break;
    case "sit":
      state.seats[ev.seat] = { seat: ev.seat, player: ev.player, chips: ev.chips, bot: !!ev.bot,
        sitting_out: false, connected: true, in_hand: false };
      if (ev.player === state.player) state.mySeat = ev.seat;
      note(state, `${ev.player} sits in seat ${ev.seat} with ${ev.chips}`);
      break;
    case "leave":
      delete state.seats[ev.seat];
      if (ev.seat === state.mySeat) state.mySeat = null;
      note(state, `${ev.player} leaves`);
      break;
    case "top_up":
      if (state.seats[ev.seat]) state.seats[ev.seat].chips = ev.chips;
      break;
    case "sit_out":
      if (state.seats[ev.seat]) state.seats[ev.seat].sitting_out = true;
      break;
    case "come_back":
      if (state.seats[ev.seat]) state.seats[ev.seat].sitting_out = false;
      break;
    case "disconnected":
      if (state.seats[ev.seat]) state.seats[ev.seat].connected = false;
      break;
    case "reconnected":
      if (state.seats[ev.seat]) state.seats[ev.seat].connected = true;
      break;
    default:
      break;
  }
}

/** A turn message: kept unless an action came after it (a stale turn). */
export function applyTurn(state, d, v) {
  if (v !== null && v !== undefined && v < state.lastActionSeq) return;
  state.turn = { v, seat: d.seat, legal: d.legal };
  if (state.hand) state.hand.to_act = d.seat;
}
