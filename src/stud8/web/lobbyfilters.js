// The lobby's sort and filters (issue 28, item 6): its column headers sort the
// tables (a click or Enter/Space on the header's button; the sorted header says
// aria-sort), and the filters above them keep only the games, stakes and seats asked
// for. The choice is kept with the account's settings (settings.js: lobbyChoice),
// so it survives a reload and follows the account to another browser.

import { esc } from "./util.js";
import { keepLobbyChoice, lobbyChoice, NO_LOBBY_CHOICE } from "./settings.js";

/** The games a filter may ask for (the server's Game values), as the filter names them. */
export const FILTER_GAMES = [["stud_hi_lo", "Hi/Lo"], ["stud_high", "Stud"], ["razz", "Razz"]];
// a mixed table (its `rotation`) is found by its own choice, not by the game it deals
// this orbit: a regular who asks for Razz wants a Razz table, not one that leaves it
// for Hi/Lo in a few hands; one who wants the rotation asks for it
const MIXED_LABEL = "Mixed stud";
const MOST_PLAYERS = 8; // the filter's "at least N players" (a stud table seats 8)

// an eye: the observers' column and count (drawn, not an emoji: every font has it)
export const EYE = `<svg class="eye" viewBox="0 0 24 16" width="18" height="12" aria-hidden="true" focusable="false"><path d="M12 1C6.5 1 2.4 4.6 1 8c1.4 3.4 5.5 7 11 7s9.6-3.6 11-7c-1.4-3.4-5.5-7-11-7z" fill="none" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="8" r="3.2" fill="currentColor"/></svg>`;

/** How many watch a table without a seat: an eye and the count, its name "N watching". */
export function watchingHTML(t) {
  const n = Number(t.observers) || 0;
  return `<span class="watching" role="img" aria-label="${n} watching">${EYE}<span aria-hidden="true">${n}</span></span>`;
}

/** The stakes a filter names: small bet / big bet. */
export function stakesKey(t) {
  return `${t.stakes.small_bet}/${t.stakes.big_bet}`;
}

/** The lobby's columns, in order: [key, header, what it sorts by (null: not sortable)].
 * `named` is the game's name as the rows show it. */
export function lobbyColumns(named, waiting) {
  return [
    ["table", "Table", (t) => (t.name || t.table_id).toLowerCase()],
    ["game", "Game", named],
    ["stakes", "Stakes", (t) => [t.stakes.big_bet, t.stakes.small_bet, t.stakes.ante]],
    ["players", "Seats", (t) => [t.seats_taken, -t.seats]],
    ["waiting", "Waiting", waiting],
    ["names", "Players", null],
    ["hands_per_hour", "Hands/h", (t) => t.hands_per_hour],
    ["average_pot", "Avg pot", (t) => t.average_pot],
    ["observers", "Watching", (t) => Number(t.observers) || 0],
    ["go", "", null],
  ];
}

function compare(a, b) {
  if (Array.isArray(a)) {
    for (let i = 0; i < a.length; i++) { const c = compare(a[i], b[i]); if (c) return c; }
    return 0;
  }
  if (typeof a === "string") return a.localeCompare(b);
  return a - b;
}

/** Whether table `t` passes the filters of `choice`. */
export function shown(t, choice, waiting) {
  if (choice.games.length || choice.mixed) {
    const wanted = t.mixed ? choice.mixed : choice.games.includes(t.game);
    if (!wanted) return false;
  }
  if (choice.stakes && stakesKey(t) !== choice.stakes) return false;
  if (choice.hide_full && t.seats_taken >= t.seats) return false;
  if (choice.hide_empty && t.seats_taken === 0 && waiting(t) === 0) return false;
  return t.seats_taken >= choice.min_players;
}

/** The tables `choice` keeps, in its order (ties, and no sort: as the room lists them). */
export function arrange(tables, choice, columns, waiting) {
  const kept = tables.filter((t) => shown(t, choice, waiting));
  const column = columns.find(([key, , by]) => key === choice.sort && by);
  if (!column) return kept;
  const by = column[2];
  const sign = choice.descending ? -1 : 1;
  const order = new Map(tables.map((t, i) => [t.table_id, i]));
  return kept
    .map((t) => [by(t), t])
    .sort(([a, ta], [b, tb]) => sign * compare(a, b) || order.get(ta.table_id) - order.get(tb.table_id))
    .map(([, t]) => t);
}

/** The header row: each sortable column's header a button; the sorted one says aria-sort. */
export function headHTML(columns, choice) {
  return `<tr>${columns.map(([key, label, by]) => {
    const text = key === "observers" ? `${EYE}<span class="sr-only">${label}</span>` : esc(label);
    if (!by) return `<th scope="col" class="col-${key}">${label ? text : '<span class="sr-only">Actions</span>'}</th>`;
    const sorted = choice.sort === key;
    const way = sorted ? (choice.descending ? "descending" : "ascending") : null;
    const mark = way ? `<span class="sort-mark" aria-hidden="true">${way === "ascending" ? "▲" : "▼"}</span>` : "";
    return `<th scope="col" class="col-${key}${sorted ? " sorted" : ""}"${way ? ` aria-sort="${way}"` : ""}>`
      + `<button type="button" class="sort" data-sort="${key}" title="sort by ${esc(label.toLowerCase())}">${text}${mark}</button></th>`;
  }).join("")}</tr>`;
}

/** The filters' form (its stakes filled by `fillStakes` as the tables come). */
export function filtersHTML() {
  const games = FILTER_GAMES.map(([game, label]) =>
    `<label class="chip"><input type="checkbox" name="f-game" value="${game}"> ${label}</label>`).join("")
    + `<label class="chip"><input type="checkbox" id="f-mixed" title="tables that rotate the games: Stud Hi/Lo, Seven Card Stud, Razz"> ${MIXED_LABEL}</label>`;
  const least = Array.from({ length: MOST_PLAYERS + 1 }, (_, n) =>
    `<option value="${n}">${n ? `${n}+` : "Any"}</option>`).join("");
  return `<form class="lobby-filters" id="lobby-filters" aria-label="filter the tables">
    <fieldset class="f-games"><legend>Game</legend>${games}</fieldset>
    <label class="f-field">Stakes <select id="f-stakes"><option value="">Any</option></select></label>
    <label class="f-field">Players <select id="f-min-players">${least}</select></label>
    <label class="chip"><input type="checkbox" id="f-hide-full"> Hide full</label>
    <label class="chip"><input type="checkbox" id="f-hide-empty"> Hide empty</label>
    <button type="button" id="f-clear">Clear filters</button>
    <span id="f-count" class="f-count" role="status"></span></form>`;
}

/**
 * The sort and filters of the lobby in `root` (its form and its table's thead):
 * `changed()` is called after each change (the rows are drawn again).
 */
export function lobbyFilters(root, columns, changed) {
  let choice = lobbyChoice();
  const form = root.querySelector("#lobby-filters");
  const head = root.querySelector("table.tables thead");
  const stakes = form.querySelector("#f-stakes");

  function show() {
    for (const box of form.querySelectorAll('input[name="f-game"]')) box.checked = choice.games.includes(box.value);
    form.querySelector("#f-mixed").checked = !!choice.mixed;
    form.querySelector("#f-hide-full").checked = choice.hide_full;
    form.querySelector("#f-hide-empty").checked = choice.hide_empty;
    form.querySelector("#f-min-players").value = String(choice.min_players);
    stakes.value = choice.stakes;
    head.innerHTML = headHTML(columns, choice);
  }

  function keep(next) {
    choice = next;
    keepLobbyChoice(choice);
    show();
    changed();
  }

  form.onchange = () => keep({
    ...choice,
    games: [...form.querySelectorAll('input[name="f-game"]:checked')].map((b) => b.value),
    mixed: form.querySelector("#f-mixed").checked,
    stakes: stakes.value,
    hide_full: form.querySelector("#f-hide-full").checked,
    hide_empty: form.querySelector("#f-hide-empty").checked,
    min_players: Number(form.querySelector("#f-min-players").value) || 0,
  });
  form.onsubmit = (e) => e.preventDefault();
  form.querySelector("#f-clear").onclick = () => keep({ ...NO_LOBBY_CHOICE, sort: choice.sort, descending: choice.descending });
  head.onclick = (e) => {
    const b = e.target.closest("button.sort");
    if (!b) return;
    const key = b.dataset.sort;
    keep({ ...choice, sort: key, descending: choice.sort === key ? !choice.descending : false });
    const again = head.querySelector(`button.sort[data-sort="${key}"]`);
    if (again) again.focus(); // the header was drawn again: the keyboard stays on it
  };
  show();

  return {
    get choice() { return choice; },
    /** The stakes of the tables listed now (and the one chosen, listed or not). */
    fillStakes(tables) {
      const keys = new Map(tables.map((t) => [stakesKey(t), t.stakes.big_bet]));
      if (choice.stakes && !keys.has(choice.stakes)) keys.set(choice.stakes, Number(choice.stakes.split("/")[1]));
      const wanted = ["", ...[...keys].sort((a, b) => a[1] - b[1]).map(([key]) => key)];
      const have = [...stakes.options].map((o) => o.value);
      if (wanted.join() === have.join()) return;
      stakes.innerHTML = wanted.map((key) => `<option value="${esc(key)}">${key ? esc(key) : "Any"}</option>`).join("");
      stakes.value = choice.stakes;
    },
    /** Say how many tables the filters show. */
    counted(shownCount, listed) {
      form.querySelector("#f-count").textContent = shownCount === listed ? `${listed} tables` : `${shownCount} of ${listed} tables`;
    },
    clear() { form.querySelector("#f-clear").click(); },
  };
}
