// What a player keeps seeing (issue 16, item 8): his bank balance in the header, the
// buy-in he chose last time at these stakes, his stack in big bets, his clock and
// time bank, the pot odds when facing a bet, his hand in words (the sound when it is
// his turn, and its mute switch: sounds.js). Each is a small function the views call.

import { $$, api, esc } from "./util.js";
import { betting } from "./sizing.js";
import { handWords } from "./handwords.js";

// ------------------------------------------------------------------ the bank

/** The header's bank balance (filled in by refreshBank). */
export function bankHTML() {
  return `<span class="bank" title="your bank: the chips not at a table">Bank <strong class="bank-balance" aria-live="polite">…</strong></span>`;
}

/** Read the balance again (GET /api/v1/me) and show it in every .bank-balance. */
export async function refreshBank() {
  const r = await api("GET", "/api/v1/me");
  if (r.status !== 200 || typeof r.data.balance !== "number") return null;
  for (const el of $$(".bank-balance")) el.textContent = r.data.balance.toLocaleString("en-US");
  return r.data.balance;
}

// ------------------------------------------------------------------ the buy-in

/** The stakes a buy-in is remembered for: game, structure and bets. */
function stakesKey(t) {
  const s = t.stakes;
  return `stud8.buyin.${t.game}:${t.structure}:${s.ante}/${s.bring_in}/${s.small_bet}/${s.big_bet}`;
}

/** The buy-in chosen last time at these stakes, in this table's range (else its maximum). */
export function rememberedBuyIn(t) {
  const saved = Number(localStorage.getItem(stakesKey(t)));
  const { min, max } = t.buy_in;
  return Number.isInteger(saved) && saved > 0 ? Math.min(max, Math.max(min, saved)) : max;
}

export function rememberBuyIn(t, amount) {
  if (t && Number.isInteger(amount) && amount > 0) {
    localStorage.setItem(stakesKey(t), String(amount));
    window.dispatchEvent(new Event("stud8:settings")); // kept with the account (settings.js)
  }
}

// ------------------------------------------------------------------ numbers

/** "12.5 big bets", "1 big bet" (a stack measured in the table's big bets). */
export function bigBets(chips, rules) {
  const big = rules && rules.stakes ? rules.stakes.big_bet : 0;
  if (!big) return "";
  const n = Math.round((chips / big) * 10) / 10;
  return `${n} big bet${n === 1 ? "" : "s"}`;
}

/** "Pot odds 4.5 : 1" when I face a bet (the pot as it stands : what I must add), else "". */
export function potOddsText(state) {
  if (!state.hand) return "";
  const b = betting(state);
  if (!b.toCall) return "";
  const odds = Math.round((state.hand.pot / b.toCall) * 10) / 10;
  return `Pot odds ${odds} : 1`;
}

/** My clock: "8s + 20s time bank" while the action time runs, then "Time bank 14s";
 * "9s (extra time)" after a reconnection. The room's time bank is a turn's: it comes
 * after the action time of every turn, whole again at the next turn. */
export function clockText(timer, rules, now = Date.now()) {
  const secs = Math.max(0, Math.ceil((timer.endsAt - now) / 1000));
  if (timer.phase === "time_bank") return `Time bank ${secs}s`;
  if (timer.phase === "reconnect") return `${secs}s (extra time)`;
  const bank = rules ? rules.time_bank_seconds : 0;
  return bank ? `${secs}s + ${bank}s time bank` : `${secs}s left`;
}

// ------------------------------------------------------------------ my hand

/** My hand in words, from the cards I hold (my down cards and my up cards). */
export function myHandText(state) {
  const h = state.hand;
  const me = h && state.mySeat !== null ? h.seats[state.mySeat] : null;
  if (!me || me.folded) return "";
  const cards = [...me.down, ...me.up].filter(Boolean);
  return handWords((state.rules && state.rules.game) || "stud_hi_lo", cards);
}

export function myHandHTML(state) {
  const text = myHandText(state);
  return text ? `<span class="label">Your hand</span> <strong>${esc(text)}</strong>` : "";
}
