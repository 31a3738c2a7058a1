// Chips that move: when a betting round ends each seat's bet slides into the pot, and
// when the showdown is over (its hands turned over, its results up) the pot slides to
// each winner. The table is drawn again whole at each change, so nothing in it can
// hold an animation: a flying stack of chips is an element of its own, absolutely
// positioned in a layer over the page, from where the bet (or the pot) was drawn to
// where the pot (or the winner's plate) is, moved by a CSS animation (table.css,
// .chip-fly). With prefers-reduced-motion nothing moves: no chip is made at all.

import { showdownDone } from "./showdown.js";

export const FLY_MS = 450; // table.css's chip-fly takes as long
export const MOVES_KEPT = 100; // the last moves a table remembers (the tests read them)
const REDUCED = "(prefers-reduced-motion: reduce)";

/** The middle of an element, in the page's coordinates. */
function middle(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2 + window.scrollX, y: r.top + r.height / 2 + window.scrollY };
}

/** What each seat has put in the hand so far: seat -> chips. */
function contributions(hand) {
  return Object.fromEntries(Object.entries(hand.seats).map(([seat, hs]) => [seat, hs.contributed]));
}

/** Watches the table as it is drawn; `onPaid(hand)` when a pot it saw played is paid
 * (the table plays the win's sound then, moving or not). A round's bets are what each
 * seat put in since the round before (not the bets drawn: a call and the next street
 * may come in one batch, the call never drawn); one returned uncalled does not fly. */
export class ChipMotion {
  constructor({ onPaid = () => {} } = {}) {
    this.onPaid = onPaid;
    this.handId = null; // the hand of the last drawing
    this.round = null; // its betting round: street, or "over"
    this.before = {}; // what each seat had put in when that round began
    this.betAt = {}; // where each seat's bet was drawn last: seat -> {x, y}
    this.paid = null; // the hand whose pot went to its winners
    this.layer = null;
    this.flights = 0; // chips sent flying (the tests read it)
    this.moves = []; // the last MOVES_KEPT that moved, "3:2" (seat 2's bets of 3rd street) or "won:2" (the tests read it)
  }

  /** After each drawing of the table in `root`: move what went since the last one. */
  drawn(state, root) {
    const hand = state.hand;
    if (!hand) { this.handId = null; return; }
    const same = hand.id === this.handId; // seen played, not a page opened on it
    const round = hand.over ? "over" : hand.street;
    const pot = root.querySelector(".felt .pot");
    let delay = 0;
    if (same && round !== this.round) {
      const now = contributions(hand);
      for (const [seat, chips] of Object.entries(now)) {
        if (!(chips > (this.before[seat] || 0)) || !pot) continue;
        const plate = root.querySelector(`.seat[data-seat="${seat}"] .plate`);
        const from = this.betAt[seat] || (plate ? middle(plate) : null);
        if (!from) continue;
        this.moved(`${this.round}:${seat}`);
        this.fly(from, middle(pot), 0);
        delay = FLY_MS; // the pot is paid once they are in
      }
    }
    if (!same || round !== this.round) this.before = contributions(hand);
    if (showdownDone(hand) && hand.awards.length && this.paid !== hand.id) {
      this.paid = hand.id;
      if (same) {
        this.onPaid(hand);
        const from = pot ? middle(pot) : null;
        for (const seat of new Set(hand.awards.map((a) => a.seat))) {
          const plate = root.querySelector(`.seat[data-seat="${seat}"] .plate`);
          if (!from || !plate) continue;
          this.moved(`won:${seat}`);
          this.fly(from, middle(plate), delay);
        }
      }
    }
    this.handId = hand.id;
    this.round = round;
    this.betAt = {};
    for (const bet of root.querySelectorAll(".felt .seat .bet")) this.betAt[bet.closest(".seat").dataset.seat] = middle(bet);
  }

  /** Remember a move (the last MOVES_KEPT: a table open for hours keeps no more). */
  moved(move) {
    this.moves.push(move);
    if (this.moves.length > MOVES_KEPT) this.moves.splice(0, this.moves.length - MOVES_KEPT);
  }

  /** A stack of three chips flying from `from` to `to` (page coordinates), after `delay` ms. */
  fly(from, to, delay) {
    if (window.matchMedia && window.matchMedia(REDUCED).matches) return;
    if (!this.layer || !this.layer.isConnected) {
      this.layer = document.createElement("div");
      this.layer.className = "chip-layer";
      this.layer.setAttribute("aria-hidden", "true");
      document.body.append(this.layer);
    }
    const chip = document.createElement("div");
    chip.className = "chip-fly";
    chip.append(document.createElement("i"), document.createElement("i"), document.createElement("i"));
    // the CSSOM, not a style attribute: the page's Content-Security-Policy allows it
    chip.style.left = `${from.x}px`;
    chip.style.top = `${from.y}px`;
    chip.style.setProperty("--dx", `${to.x - from.x}px`);
    chip.style.setProperty("--dy", `${to.y - from.y}px`);
    chip.style.animationDelay = `${delay}ms`;
    const done = () => chip.remove();
    chip.addEventListener("animationend", done, { once: true });
    setTimeout(done, delay + FLY_MS + 300); // gone even if the animation never ran (a hidden tab)
    this.layer.append(chip);
    this.flights += 1;
  }

  stop() {
    if (this.layer) this.layer.remove();
    this.layer = null;
  }
}
