// Chips that move: when a betting round ends each seat's bet slides into the pot, and
// when the showdown is over (its hands turned over, its results up) the pot slides to
// each winner. The table is drawn again whole at each change, so nothing in it can
// hold an animation: a flying stack of chips is an element of its own, absolutely
// positioned in a layer over the page, from where the bet (or the pot) was drawn to
// where the pot (or the winner's plate) is, moved by a CSS animation (table.css,
// .chip-fly). With prefers-reduced-motion nothing moves: no chip is made at all.

import { showdownDone } from "./showdown.js";

export const FLY_MS = 450; // table.css's chip-fly takes as long
const REDUCED = "(prefers-reduced-motion: reduce)";

/** The middle of an element, in the page's coordinates. */
function middle(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2 + window.scrollX, y: r.top + r.height / 2 + window.scrollY };
}

/** Watches the table as it is drawn; `onPaid(hand)` when a pot it saw played is paid
 * (the table plays the win's sound then, moving or not). */
export class ChipMotion {
  constructor({ onPaid = () => {} } = {}) {
    this.onPaid = onPaid;
    this.handId = null; // the hand of the last drawing
    this.street = null;
    this.bets = []; // the bets of the last drawing: where each was
    this.paid = null; // the hand whose pot went to its winners
    this.layer = null;
    this.flights = 0; // chips sent flying (the tests read it)
  }

  /** After each drawing of the table in `root`: move what went since the last one. */
  drawn(state, root) {
    const hand = state.hand;
    if (!hand) { this.handId = null; this.bets = []; return; }
    const same = hand.id === this.handId; // seen played, not a page opened on it
    const pot = root.querySelector(".felt .pot");
    let delay = 0;
    if (same && pot && this.bets.length && (hand.street !== this.street || hand.over)) {
      const to = middle(pot);
      for (const from of this.bets) this.fly(from, to, 0);
      delay = FLY_MS; // the pot is paid once the last bets are in it
    }
    if (showdownDone(hand) && hand.awards.length && this.paid !== hand.id) {
      this.paid = hand.id;
      if (same) {
        this.onPaid(hand);
        const from = pot ? middle(pot) : null;
        for (const seat of new Set(hand.awards.map((a) => a.seat))) {
          const plate = root.querySelector(`.seat[data-seat="${seat}"] .plate`);
          if (from && plate) this.fly(from, middle(plate), delay);
        }
      }
    }
    this.handId = hand.id;
    this.street = hand.street;
    this.bets = hand.over ? [] : [...root.querySelectorAll(".felt .seat .bet")].map(middle);
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
