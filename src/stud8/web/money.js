// Amounts as a player reads them, in one place: play chips as a count ("12"), and the
// real money of a hand history file (its chips are cents of its currency) as the site
// prints it: "$0.12", "€1.50", "$1" (src/stud8/formats/pokerstars/write.py,
// format_money, prints the file's own text the same way).

const SYMBOLS = { USD: "$", EUR: "€", GBP: "£" };

/** `chips` (an integer) in `currency` ("" or absent: play chips). */
export function amountText(chips, currency) {
  if (!currency) return String(chips);
  const sign = chips < 0 ? "-" : "";
  const cents = Math.abs(chips);
  const whole = Math.floor(cents / 100);
  const rest = cents % 100;
  const body = rest ? `${whole}.${String(rest).padStart(2, "0")}` : String(whole);
  const symbol = SYMBOLS[currency];
  return symbol ? `${sign}${symbol}${body}` : `${sign}${body} ${currency}`;
}

/** An amount of the table or replay `state` (its rules say the currency, if any). */
export function money(state, chips) {
  return amountText(chips, state && state.rules ? state.rules.currency : "");
}

/** "chips" at a table, nothing when the amount carries its currency ("$1.46"). */
export function chipsWord(state) {
  return state && state.rules && state.rules.currency ? "" : " chips";
}
