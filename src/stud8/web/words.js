// What the client says: action labels, streets, pots, the time-out rule.

export const STREETS = ["", "", "", "3rd street", "4th street", "5th street", "6th street", "7th street"];

export function potName(index) {
  return index ? `Side pot ${index}` : "Main pot";
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

/** A time-out said plainly, with the rule that decided it (RULES.md section 6). The
 * table's timeout policy is all-in protection unless the lobby entry says otherwise. */
export function timeoutText(name, outcome, contributed, policy = "all_in_protection") {
  const head = `Time ran out for ${name}`;
  switch (outcome) {
    case "fold":
      return policy === "check_or_fold"
        ? `${head}: folded (he could not check)`
        : `${head}: folded, as he had put nothing in beyond the ante`;
    case "check":
      return `${head}: checked for him (check if he can, else fold)`;
    case "bring_in":
      return `${head}: the bring-in is posted for him`;
    case "all_in_protection":
      return `${head}: all-in protection, he stays in for the ${contributed} chips he has put in and takes no further action`;
    default:
      return `${head}: ${String(outcome).replaceAll("_", " ")}`;
  }
}
