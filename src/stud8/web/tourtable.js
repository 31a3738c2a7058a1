// At a tournament's table: the strip (the level, its stakes, the time to the next
// level and its stakes, players left, the average stack, my place, the prize pool), the
// notice when I am moved (the client follows me to my new table), my end (busted: my
// place; the tournament over: every place and prize), and the seat controls (no
// buy-in, top-up or leaving with chips: only sitting out, which deals me in and times
// me out). The table sends the `tournament` event (also in its snapshot) and `moved`.

import { esc, api, session, announce } from "./util.js";
import { ordinal, chips, clockText, stakesText, placeText, MOVE_REASONS } from "./tourwords.js";
import { myEntry } from "./tournaments.js";

export { tableName } from "./tourwords.js"; // the table view names a tournament's table by it

const PHASES = { registering: "Registering", finished: "Finished", cancelled: "Cancelled" };
const MOVED_NOTICE_MS = 20000; // how long "you were moved here" stays
export const FOLLOW_MS = 1500; // the notice is read before the client goes to the new table

/** Take a `tournament` event (or the snapshot's): the info, and when it came. */
export function setTournament(state, info) {
  const before = state.tournament;
  state.tournament = info ? { ...info, receivedAt: Date.now() } : null;
  return before || null;
}

/** Seconds to the next level (or the end of the break); null: levels by hands, or none. */
export function secondsToNext(t) {
  if (!t || t.seconds_left < 0) return null;
  return Math.max(0, t.seconds_left - (Date.now() - t.receivedAt) / 1000);
}

/** My place now (by chips among the players left), or null if I am not in: the event
 * gives the place of each seat at this table (the whole standings are the lobby's). */
export function myPlace(state) {
  const t = state.tournament;
  if (!t || !state.player || state.mySeat === null || state.mySeat === undefined) return null;
  const mine = (t.places || []).find(([seat]) => seat === state.mySeat);
  return mine ? mine[1] : null;
}

/** Whether my place is shared: another seat here has it too (equal stacks share the
 * better place; a tie with a player at another table is not known here). */
export function placeTied(state) {
  const t = state.tournament;
  const place = myPlace(state);
  return place !== null && (t.places || []).some(([seat, p]) => seat !== state.mySeat && p === place);
}

/** My result once it is over: {place, prize}, or null. */
export function myResult(state) {
  const t = state.tournament;
  if (!t || !t.results || !t.results.length) return null;
  const i = t.results.indexOf(state.player);
  if (i < 0) return null;
  const [place, prize] = t.result_prizes[i];
  return { place, prize };
}

function nextText(t) {
  const secs = secondsToNext(t);
  const clock = secs === null ? "" : ` in <b class="t-clock">${clockText(secs)}</b>`;
  if (t.on_break) return `<span class="t-next">Play resumes${clock}</span>`;
  if (!t.next_big_bet) return `<span class="t-next">Last level</span>`;
  const what = `${stakesText(t.next_small_bet, t.next_big_bet, t.next_ante, t.next_bring_in)}`;
  return `<span class="t-next">Next level${clock || " <small>(by hands)</small>"}: <span class="t-next-stakes">${what}</span></span>`;
}

/** The strip above the table (empty at a cash table). */
export function stripHTML(state) {
  const t = state.tournament;
  if (!t) return "";
  const place = myPlace(state);
  const level = t.on_break
    ? `<span class="t-level"><b>Break</b></span>`
    : `<span class="t-level">Level <b>${t.level}</b></span> <span class="t-stakes">${stakesText(t.small_bet, t.big_bet, t.ante, t.bring_in)}</span>`;
  const parts = [
    // the table's name is the header's (tableName): here the tournament's, to its lobby
    `<a class="t-name" href="#/tournament/${t.tournament_id}" title="the tournament's lobby">${esc(t.name)}</a>`,
    level,
    t.phase === "running" ? nextText(t) : `<span class="t-phase">${esc(PHASES[t.phase] || t.phase)}</span>`,
    `<span class="t-left">Players left <b>${t.players_left}</b>/${t.entries}</span>`,
    `<span class="t-avg">Avg stack <b>${chips(t.average_stack)}</b></span>`,
    place ? `<span class="t-place">Your place <b>${placeText(place, placeTied(state))}</b></span>` : "",
    `<span class="t-pool">Prize pool <b>${chips(t.prize_pool)}</b></span>`,
  ];
  return parts.filter(Boolean).join("");
}

/** The notice line under the strip: my move, or what just happened. */
export function noticeHTML(state) {
  const m = state.tournamentMove;
  if (m && m.until > Date.now()) return `<p class="t-notice moved" role="alert">${esc(m.text)}</p>`;
  const t = state.tournament;
  if (t && t.notice && t.phase === "running") return `<p class="t-notice">${esc(noticeText(t.notice))}</p>`;
  return "";
}

function noticeText(notice) {
  return notice.charAt(0).toUpperCase() + notice.slice(1);
}

/** The card at my end: busted (my place) or the tournament over (every place). */
export function endHTML(state) {
  const t = state.tournament;
  if (!t) return "";
  const link = `<a href="#/tournament/${t.tournament_id}" class="t-lobby-link">Tournament lobby</a>`;
  if (t.phase === "finished" && t.results && t.results.length) {
    const mine = myResult(state);
    const line = mine
      ? `<p class="t-mine">You finished <b>${ordinal(mine.place)}</b> of ${t.entries}${mine.prize ? `: prize <b>${chips(mine.prize)}</b> chips` : ""}.</p>`
      : "";
    const rows = t.results.map((name, i) => {
      const [place, prize] = t.result_prizes[i];
      return `<li class="${name === state.player ? "me" : ""}"><span class="place">${ordinal(place)}</span> ${esc(name)}${prize ? ` <b>${chips(prize)}</b>` : ""}</li>`;
    });
    return `<section class="t-end" aria-label="results"><h2>The tournament is over</h2>${line}<ol class="results-list">${rows.join("")}</ol>${link}</section>`;
  }
  if (t.phase === "cancelled") {
    return `<section class="t-end"><h2>The tournament was cancelled</h2><p>Every buy-in and fee went back.</p>${link}</section>`;
  }
  const out = state.tournamentOut;
  if (out) {
    const place = out.place
      ? `You finished <b>${ordinal(out.place)}</b> of ${t.entries}${out.prize ? `: prize <b>${chips(out.prize)}</b> chips` : ""}.`
      : "Your place is known when late registration closes.";
    return `<section class="t-end out"><h2>You are out of the tournament</h2><p class="t-mine">${place}</p>${link}</section>`;
  }
  if (state.tableClosed) return `<section class="t-end"><h2>This table is closed</h2>${link}</section>`;
  return "";
}

/** The seat controls at a tournament's table: sit out (dealt in, timing out) or come back. */
export function tournamentControlsHTML(state) {
  if (!state.player) return "";
  const me = state.mySeat !== null ? state.seats[state.mySeat] : null;
  if (!me) return `<span class="status watching">Watching</span>`;
  if (state.tournament.phase !== "running") return "";
  return me.sitting_out
    ? `<button data-cmd="come_back">Come back</button>`
    : `<button data-cmd="sit_out" title="you stay dealt in: your antes are paid and your turns time out">Sit out</button>`;
}

/** The lines of the rules panel at a tournament's table (no buy-in, rake or standing up). */
export function tournamentRules(lines) {
  return [
    ...lines.filter((l) => !/^Buy-in|rake|stood up/i.test(l)),
    "Tournament chips: no buy-in, top-up or cashing out; the tournament seats and moves the players.",
    "Sitting out, you stay dealt in: your antes are paid and your turns time out.",
  ];
}

/** A `moved` event: mine says where I go (then the client follows me there); `say`
 * speaks for this table (a tile of several says which table it is). */
export function onMoved(state, ev, follow, say = announce) {
  if (ev.player !== state.player) return `${ev.player} moves to table ${ev.to_table}`;
  const why = MOVE_REASONS[ev.reason] || ev.reason;
  const text = `You are moved to table ${ev.to_table}, seat ${ev.to_seat} (${why})`;
  state.tournamentMove = { text, until: Date.now() + MOVED_NOTICE_MS };
  say(text);
  setTimeout(() => follow(ev), FOLLOW_MS);
  return text;
}

/** At the new table: the notice that I was moved here (from the query the move left). */
export function arrivedFrom(state, query, say = announce) {
  if (!query.moved) return;
  const why = MOVE_REASONS[query.reason] || query.reason || "";
  const text = `You were moved here from table ${query.moved}${why ? ` (${why})` : ""}`;
  state.tournamentMove = { text, until: Date.now() + MOVED_NOTICE_MS };
  say(text);
}

/** I am out (busted), or my table closed: my place from the tournament's lobby, or
 * my new table if I am still in (a move I missed). Calls back with a table to go to. */
export async function lookUpMyEntry(state, goTo) {
  const t = state.tournament;
  if (!t) return;
  const r = await api("GET", `/api/v1/tournaments/${t.tournament_id}`);
  if (r.status !== 200) return;
  const mine = myEntry(r.data);
  if (!mine) return;
  if (!mine.out && mine.table_id && mine.table_id !== state.tableId) { goTo(mine.table_id); return; }
  if (!mine.out) return;
  // a place in the money is paid at the end: its prize is the payouts' (unless shared)
  const paid = mine.place && mine.shared === 1 ? r.data.payouts.find((p) => p.place === mine.place) : null;
  state.tournamentOut = { place: mine.place, prize: mine.prize || (paid ? paid.prize : 0), shared: mine.shared };
}

/** The clock in the strip, once a quarter second. */
export function tickStrip(state, root) {
  const el = root.querySelector(".t-clock");
  const secs = secondsToNext(state.tournament);
  if (el && secs !== null) el.textContent = clockText(secs);
}

export function isMe(state, name) {
  return !!name && name === (state.player || session.name);
}
