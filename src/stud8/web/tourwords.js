// Words for tournaments: places, chip counts, the clock, the level's stakes.

/** 1 -> "1st", 2 -> "2nd", 11 -> "11th". */
export function ordinal(n) {
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${s}`;
}

/** A place in the standings: "6th", or "tied for 1st" when equal stacks share it. */
export function placeText(place, tied = false) {
  return tied ? `tied for ${ordinal(place)}` : ordinal(place);
}

/** A tournament's table, named one way everywhere (the header, the page's title):
 * "Sunday SNG · table 3". */
export function tableName(t) {
  return `${t.name} · table ${t.table_number}`;
}

/** A chip count with thousands separators. */
export function chips(n) {
  return Number(n).toLocaleString("en-US");
}

/** Seconds as m:ss (h:mm:ss past an hour). */
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/** A level's stakes: "20/40, ante 5, bring-in 10". */
export function stakesText(small, big, ante, bringIn) {
  return `${chips(small)}/${chips(big)}, ante ${chips(ante)}, bring-in ${chips(bringIn)}`;
}

export const MOVE_REASONS = { balance: "to balance the tables", break: "your table was broken" };
