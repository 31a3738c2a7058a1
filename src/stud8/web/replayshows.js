// A hand's voluntary shows in the replayer (the winner of an uncontested pot shows his
// cards, on any site): the replay's `shows`, each {seat, cards}, become the hand's last
// steps, one a show, where that seat's hidden down cards turn over.

import { who } from "./store.js";

export const SHOW_STEP = "voluntary_show"; // a replayer-only event: no table sends it

/** The replay with its voluntary shows after its events, as events of their own. */
export function withShows(r) {
  const shows = Array.isArray(r.shows) ? r.shows : [];
  if (!shows.length) return r;
  return { ...r, events: [...r.events, ...shows.map((s) => ({ k: SHOW_STEP, seat: s.seat, cards: [...s.cards] }))] };
}

/** Apply a show: the seat's down cards nobody saw take the cards shown that are not on
 * the table already (a show may name the up cards too, or only some cards). */
export function applyShow(state, ev) {
  const hs = state.hand && state.hand.seats[ev.seat];
  if (!hs) return;
  const seen = new Set([...hs.up, ...hs.down].filter(Boolean));
  const fresh = ev.cards.filter((c) => !seen.has(c));
  hs.down = hs.down.map((c) => (c === null && fresh.length ? fresh.shift() : c));
  hs.volunteered = [...ev.cards];
}

/** What the step says. */
export function showLine(state, ev) {
  return `${who(state, ev.seat)} shows [${ev.cards.join(" ")}] (not called: a voluntary show)`;
}
