// The pre-action boxes (issue 28, item 4): while it is somebody else's turn, a player
// ticks what he will do when his turn comes, as a PokerStars regular does: Fold,
// Check/Fold, Check/Call, Call N, Call any, Bet/Raise. Only the boxes that make
// sense for the bet he would face now are shown, and one box at most is ticked.
//
// A box is never sent as an action he did not choose:
// - Call N, Check/Call and Bet/Raise are tied to the bet he faced when he ticked it:
//   any bet or raise after that clears them (he did not see it). So Check/Call only
//   ever checks: a bet arriving after it was ticked clears it.
// - Fold, Check/Fold and Call any survive bets and raises within the street (Check/
//   Fold folds to a bet, Call any calls whatever it is).
// - Every box is cleared at a new street and a new hand, and once it has acted.
// - Bet/Raise sends the smallest bet, raise or completion the table allows: the only
//   one in fixed limit, the minimum in pot limit and no limit (a box has no slider).
// - The bring-in is never pre-selected: the low card on third street acts himself
//   (PokerStars offers him no box), and no box acts at a bring-in turn.
// - Bet/Raise is not offered once a fixed-limit street is capped (raisecap.js: the
//   client counts the street's bets), and a ticked one is cleared, and said, when
//   the cap is reached; at the turn only a legal raise is ever sent.
// - On third street before the bring-in is posted the bet he will face is not known
//   yet: only Fold, Check/Fold (folds to the bring-in) and Call any are offered.

import { esc } from "./util.js";
import { betting, SIZED } from "./sizing.js";
import { streetCapped } from "./raisecap.js";

export const PRE_LABELS = {
  fold: "Fold", check_fold: "Check/Fold", check_call: "Check/Call", call: "Call", call_any: "Call any", bet_raise: "Bet/Raise",
};
/** The boxes tied to the bet faced when ticked: any change of it clears them. */
const TIED = new Set(["check_call", "call", "bet_raise"]);
const DONE = { fold: "folded", check: "checked", call: "called", bet: "bet", raise: "raised", complete: "completed" };

/** What I would face now: the street, the highest bet on it, what I must add to call
 * (at most my stack), my stack, and whether the bring-in is still to be posted. */
export function facing(state) {
  const h = state.hand;
  const b = betting(state);
  const street = h.street || 3; // the antes come before third street is named
  return {
    street, current: b.current, toCall: b.toCall, call: Math.min(b.toCall, b.stack), stack: b.stack,
    pending: street === 3 && b.current === 0, capped: streetCapped(state),
  };
}

/** The boxes that make sense for `f` (facing), in the order they are shown. */
export function preBoxes(f) {
  if (f.pending) return ["fold", "check_fold", "call_any"];
  const raise = f.capped ? [] : ["bet_raise"]; // no bet or raise is left on a capped street
  if (f.toCall === 0) return f.stack > 0 ? ["fold", "check_fold", "check_call", ...raise] : ["fold", "check_fold", "check_call"];
  return f.stack > f.toCall ? ["fold", "call", "call_any", ...raise] : ["fold", "call"];
}

function boxLabel(kind, f) {
  if (kind !== "call") return PRE_LABELS[kind];
  return `Call ${f.call}${f.call === f.stack ? " all-in" : ""}`;
}

/** The pre-action ticked, if it still holds now (the same hand and street, and for a
 * box tied to the bet, the same bet); else null. */
export function livePreAction(state) {
  const p = state.preAction;
  const h = state.hand;
  if (!p || !h || p.hand !== h.id || !h.seats[state.mySeat]) return null;
  const f = facing(state);
  if (p.street !== f.street) return null;
  if (TIED.has(p.kind) && p.current !== f.current) return null;
  if (p.kind === "bet_raise" && f.capped) return null;
  return p;
}

/** Tick (or untick) a box: it replaces any other. */
export function tickPreAction(state, kind, checked) {
  state.preCleared = null;
  if (!checked || !state.hand) { state.preAction = null; return; }
  const f = facing(state);
  state.preAction = { kind, label: boxLabel(kind, f), hand: state.hand.id, street: f.street, current: f.current };
}

/** Drop a box that no longer holds (after an event): a box the bet cleared is said
 * (its text, for the page to announce); a new street or hand clears silently. */
export function prunePreAction(state) {
  const p = state.preAction;
  if (!p || livePreAction(state)) return null;
  state.preAction = null;
  const h = state.hand;
  const f = h && facing(state);
  if (!h || p.hand !== h.id || !h.seats[state.mySeat] || p.street !== f.street) return null;
  const why = p.kind === "bet_raise" && f.capped ? "the betting is capped" : "the bet changed";
  const text = `Your ${p.label} box was cleared: ${why}`;
  state.preCleared = { hand: h.id, street: p.street, text };
  return text;
}

/** What the ticked box does now that my turn has come: {kind, amount?}, or null
 * (nothing: it does not apply, or it was cleared). A real room never folds a free
 * check under Check/Fold; the plain Fold box folds. */
export function preActionChoice(state) {
  const t = state.turn;
  if (!t || t.seat !== state.mySeat) return null;
  const p = livePreAction(state);
  if (!p) return null;
  const legal = new Map(t.legal.map((a) => [a.kind, a]));
  if (legal.has("bring_in")) return null; // never pre-selected
  const one = (...kinds) => {
    const kind = kinds.find((k) => legal.has(k));
    return kind ? { kind } : null;
  };
  switch (p.kind) {
    case "fold": return one("fold");
    case "check_fold": return legal.has("check") ? { kind: "check" } : one("fold");
    case "check_call": return one("check"); // a bet since would have cleared it
    case "call": return one("call"); // the same bet as ticked (else cleared)
    case "call_any": return one("call", "check");
    case "bet_raise": {
      const a = [...SIZED].map((k) => legal.get(k)).find(Boolean);
      return a ? { kind: a.kind, amount: a.min_to } : null;
    }
    default: return null;
  }
}

/** The line said when a box acted: "Your Call 20 box: called". */
export function preActedText(p, choice) {
  return `Your ${p.label} box: ${DONE[choice.kind] || choice.kind}`;
}

/** The boxes while it is somebody else's turn (none when mine is coming: the low
 * card's bring-in is his own to make). */
export function preHTML(state, waitingFor) {
  const h = state.hand;
  if (h.to_act === state.mySeat) {
    return `<div class="pre-actions" role="group" aria-label="act in advance"><span class="hint">Your turn is coming</span></div>`;
  }
  const f = facing(state);
  const p = livePreAction(state);
  const ticked = p ? p.kind : "";
  const boxes = preBoxes(f).map((kind) =>
    `<label class="pre"><input type="checkbox" class="pre-box" data-pre="${kind}"${ticked === kind ? " checked" : ""}> <span>${esc(boxLabel(kind, f))}</span></label>`);
  const c = state.preCleared;
  const cleared = c && c.hand === h.id && c.street === f.street && !p ? `<span class="pre-cleared" role="status">${esc(c.text)}</span>` : "";
  return `<div class="pre-actions" role="group" aria-label="act in advance">
  <span class="hint">${esc(waitingFor)}</span>${cleared}${boxes.join("")}</div>`;
}

/** The bar's key in pre mode: it is drawn again when any of this changes. */
export function preKey(state) {
  const h = state.hand;
  const f = facing(state);
  const p = livePreAction(state);
  const c = state.preCleared ? state.preCleared.text : "";
  return `pre:${h.id}:${f.street}:${f.current}:${f.toCall}:${f.stack}:${f.capped}:${p ? p.kind : ""}:${h.to_act}:${c}`;
}
