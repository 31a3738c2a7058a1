// What the client says: action labels, streets, pots, the time-out rule.

export const STREETS = ["", "", "", "3rd street", "4th street", "5th street", "6th street", "7th street"];

export function potName(index) {
  return index ? `Side pot ${index}` : "Main pot";
}

/** Names in a sentence: "ann", "ann and bob", "ann, bob and carol". */
export function namesList(names) {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** A hand's name in the middle of a sentence: "bob shows a pair of kings", "a flush,
 * ace high", "ace high" (the seat's label keeps "A pair of kings", "Flush, ace high"). */
export function handInSentence(name) {
  if (!name) return name;
  const high = name.match(/^High card, (\w+)$/);
  if (high) return `${high[1]} high`;
  const lower = name[0].toLowerCase() + name.slice(1);
  return /^(flush|straight|full house|royal flush)/.test(lower) ? `a ${lower}` : lower;
}

/** The label of an action button (fixed amounts, or the sized amount `to`). */
export function actionLabel(a, to = a.min_to, allIn = a.all_in) {
  const tail = allIn ? " all-in" : "";
  switch (a.kind) {
    case "fold": return "Fold";
    case "check": return "Check";
    case "call": return `Call ${a.adds}${tail}`;
    case "bring_in": return `Bring in ${a.adds}${tail}`;
    case "complete": return `Complete to ${to}${tail}`;
    case "bet": return `Bet ${to}${tail}`;
    case "raise": return `Raise to ${to}${tail}`;
    default: return a.kind;
  }
}

/** A time-out said plainly, with the rule that decided it (RULES.md section 6), of
 * "the player" (never "he"). The table's timeout policy is all-in protection unless
 * its rules say otherwise; `sitsOut`: the table sits out a player who times out. */
export function timeoutText(name, outcome, contributed, policy = "all_in_protection", sitsOut = false) {
  const head = `Time ran out for ${name}`;
  const tail = sitsOut ? "; the player sits out from the next hand until back" : "";
  switch (outcome) {
    case "fold":
      return (policy === "check_or_fold"
        ? `${head}: folded (the player could not check)`
        : `${head}: folded, as the player had put nothing in beyond the ante`) + tail;
    case "check":
      return `${head}: checked for the player (check if possible, else fold)${tail}`;
    case "bring_in":
      return `${head}: the bring-in is posted for the player${tail}`;
    case "all_in_protection":
      return `${head}: all-in protection, the player stays in for the ${contributed} chips put in and takes no further action${tail}`;
    default:
      return `${head}: ${String(outcome).replaceAll("_", " ")}${tail}`;
  }
}

// ------------------------------------------------------------ the table's rules
// (the `table` of the websocket's welcome; the lobby lists the same for each table)

export const POLICIES = { all_in_protection: "all-in protection", check_or_fold: "check or fold" };

/** What a time-out does at this table, said plainly (RULES.md section 6). */
export function timeoutRuleText(policy = "all_in_protection") {
  return policy === "check_or_fold"
    ? "If your time runs out, you check if you can, else you fold."
    : "If your time runs out, you fold if you have put nothing in beyond your ante; " +
      "otherwise you stay in for the pot as it stands, all-in for what you have put in " +
      "(all-in protection), and take no further action.";
}

/** "10 minutes", "90 seconds", "1 minute". */
export function duration(seconds) {
  const s = Number(seconds);
  if (s >= 60 && s % 60 === 0) return s === 60 ? "1 minute" : `${s / 60} minutes`;
  return s === 1 ? "1 second" : `${s} seconds`;
}

/** A rake percentage as the lobby gives it ("5", "5/2") as a number (2.5). */
export function ratePercent(text) {
  const [top, bottom = "1"] = String(text ?? "0").split("/");
  const n = Number(top) / Number(bottom);
  return Number.isFinite(n) ? Math.round(n * 1000) / 1000 : 0;
}

export function rakeText(t) {
  const rate = ratePercent(t.rake_percent);
  if (!rate || t.rake_cap === 0) return "No rake";
  const cap = t.rake_cap === null || t.rake_cap === undefined ? "" : `, at most ${t.rake_cap}`;
  return `Rake: ${rate}% of each pot${cap}`;
}

/** One line for the lobby and the rules panel's title: "10+20 s · all-in protection · no rake". */
export function rulesBrief(t) {
  const rate = ratePercent(t.rake_percent);
  const rake = rate && t.rake_cap !== 0 ? `rake ${rate}%` : "no rake";
  const policy = POLICIES[t.timeout_policy] || POLICIES.all_in_protection;
  return `${t.action_seconds}+${t.time_bank_seconds} s · ${policy} · ${rake}`;
}

/** The table's rules, each said in a sentence (the table view's rules panel). */
export function rulesLines(t) {
  const lines = [
    t.time_bank_seconds
      ? `You have ${duration(t.action_seconds)} to act, then a ${t.time_bank_seconds}-second time bank.`
      : `You have ${duration(t.action_seconds)} to act.`,
    timeoutRuleText(t.timeout_policy),
  ];
  if (t.sit_out_on_timeout) lines.push("If your time runs out, you sit out from the next hand until you click I'm back.");
  if (t.reconnect_seconds) {
    lines.push(`If you lose your connection during your turn, you get ${duration(t.reconnect_seconds)} more when you come back, once a turn.`);
  }
  lines.push(
    `Buy-in ${t.buy_in.min} to ${t.buy_in.max} chips.`,
    `${rakeText(t)}.`,
  );
  if (t.sit_out_seconds) {
    lines.push(`Sit out (or stay away) for ${duration(t.sit_out_seconds)} and you are stood up: your chips go back to your account.`);
  }
  return lines;
}

/** A top-up said: his own ("ann tops up 50 to 200"), or the table's auto top-up in
 * PokerStars' words for chips added between hands ("ann adds 50 chips"), with what a
 * short or empty bank left undone. */
export function topUpText(name, ev) {
  if (!ev.auto) return `${name} tops up ${ev.amount} to ${ev.chips}`;
  if (!ev.amount) return `Auto top-up for ${name}: the bank is empty, no chips added (${ev.short} short)`;
  const short = ev.short ? `; the bank held only ${ev.amount}, ${ev.short} short` : "";
  return `${name} adds ${ev.amount} chip${ev.amount === 1 ? "" : "s"} (auto top-up to ${ev.chips}${short})`;
}

/** A `leave` event for the log: why the player left. */
export function leaveText(ev) {
  switch (ev.reason) {
    case "sat_out": return `${ev.player} sat out too long and is stood up (${ev.chips} chips back to the account)`;
    case "no_chips": return `${ev.player} has no chips left and leaves`;
    case "table_closed": return `${ev.player} leaves with ${ev.chips}: the table is closing`;
    case "busted": return `${ev.player} is out of the tournament`;
    case "moved": return `${ev.player} moves to another table with ${ev.chips}`;
    case "closed": return `${ev.player} leaves: the table is closing`;
    default: return `${ev.player} leaves with ${ev.chips}`;
  }
}

/** The toast when I leave the table. */
export function myLeaveText(ev) {
  const back = `${ev.chips} chips went back to your account`;
  if (ev.reason === "sat_out") return `You sat out too long and were stood up: ${back}`;
  if (ev.reason === "table_closed") return `The table closed: ${back}`;
  return `You left the table: ${back}`;
}
