// The operators' form that opens a table (POST /api/v1/tables; the fields of the
// server's TableSpec): the room's settings here, the options of RULES.md made from
// the room's own definition of them (tableoptions.js).

import { $, esc, session, api, toast } from "./util.js";
import { fieldHTML, formBody } from "./formfields.js";
import { tableOptions, optionFields, optionValues } from "./tableoptions.js";

// [field, label, kind, default, extra attributes]; kinds: int, num, text, select, bool
const FIELDS = [
  ["private", "Private: only players with its invitation link", "bool", false, ""],
  ["table_id", "Table id (optional)", "text", "", 'pattern="[A-Za-z_][A-Za-z0-9_]{0,31}" placeholder="e.g. pl1"'],
  ["name", "Name (optional)", "text", "", 'maxlength="40" placeholder="e.g. Low stakes PL"'],
  ["ante", "Ante", "int", 1, 'min="0"'],
  ["bring_in", "Bring-in", "int", 2, 'min="1"'],
  ["small_bet", "Small bet", "int", 4, 'min="1"'],
  ["big_bet", "Big bet", "int", 8, 'min="1"'],
  ["seats", "Seats", "int", 8, 'min="2" max="8"'],
  ["min_buy_in", "Min buy-in", "int", 40, 'min="1"'],
  ["max_buy_in", "Max buy-in", "int", 400, 'min="1"'],
  ["reconnect_seconds", "Reconnect seconds", "int", 20, 'min="0"'],
  ["bots", "Bots", "int", 0, 'min="0" max="8"'],
  ["bot_policy", "Bot policy", "select", "rules", ""],
  ["between_hands", "Seconds between hands", "num", 2, 'min="0" step="0.1"'],
  ["showdown_seconds", "Showdown shown (s)", "num", 5, 'min="0" step="0.5" title="how long the results of a showdown stay before the next deal"'],
  ["bot_delay", "Bot delay (s)", "num", 0.5, 'min="0" step="0.1"'],
  ["offer_seconds", "Seat offer (s)", "num", 30, 'min="1" step="1" title="how long a freed seat is held for the first on the waiting list"'],
  ["sit_out_on_timeout", "Sit out a player who times out", "bool", true, 'title="until the player clicks I\'m back"'],
  ["sit_out_seconds", "Stand up after sitting out (s)", "num", 600, 'min="1" step="1" title="a player dealt out this long leaves the table, his chips back to his account"'],
  ["observer_chat", "Observers may chat", "bool", false, 'title="viewers who are not seated may chat too"'],
];
const OPTIONS = {
  bot_policy: [["rules", "rules"], ["calling-station", "calling station"], ["random", "random"], ["equity", "equity"]],
};

/** Whether to offer the form: to operators only (the log-in says who is one). */
export function mayOpenTables() {
  return session.operator;
}

function fieldOf(field, privateOnly) {
  const [name, label, , value] = field;
  if (name === "private") {
    // a player (not an operator) may open private tables only
    const id = `ct-${name}`;
    const attrs = privateOnly ? " checked disabled" : value ? " checked" : "";
    return `<label for="${id}" class="check"><input id="${id}" name="${name}" type="checkbox"${attrs}> ${esc(label)}</label>`;
  }
  return fieldHTML(field, "ct", OPTIONS);
}

/** The form; `privateOnly` (a player in a room that lets players open private
 * tables): no Private choice to make, the table is private. */
export function createTableHTML(privateOnly = false) {
  const title = privateOnly ? "Create a private table" : "Create a table";
  const fields = FIELDS.filter(([name]) => !(privateOnly && name === "table_id")); // the room names a player's table
  return `<details class="create-table"><summary>${title}</summary>
  <form id="create-table" aria-label="${title.toLowerCase()}">
    <div class="fields">${fields.map((f) => fieldOf(f, privateOnly)).join("")}</div>
    <h3 class="rule-options-head">Rules</h3>
    <div class="fields" id="ct-rules"><p>Loading the rules…</p></div>
    <div class="row"><button type="submit" id="create-submit">Open the table</button>
    <p class="error" id="create-error" role="alert"></p></div>
  </form></details>`;
}

/** The body to POST: every field filled in, with its type (blank ones are left out;
 * a blank option that may be null is null). */
export function tableBody(form, options) {
  const { fields } = optionFields(options);
  return optionValues(form, options, formBody(form, [...FIELDS, ...fields]));
}

export function bindCreateTable(root, onCreated) {
  const form = $("#create-table", root);
  const error = $("#create-error", root);
  let options = [];
  tableOptions().then((found) => {
    options = found;
    const { fields, choices } = optionFields(found);
    $("#ct-rules", root).innerHTML = found.length
      ? fields.map((f) => fieldHTML(f, "ct", choices)).join("")
      : "<p>The rules could not be loaded: the table gets the rule book's defaults.</p>";
  });
  form.onsubmit = async (e) => {
    e.preventDefault();
    error.textContent = "";
    let body;
    try { body = tableBody(form, options); } catch (exc) { error.textContent = exc.message; return; }
    const r = await api("POST", "/api/v1/tables", body);
    if (r.status !== 201) {
      error.textContent = r.data.error || `the table could not be opened (${r.status})`;
      return;
    }
    toast(`Table ${r.data.table.name || r.data.table.table_id} is open`);
    if (form.elements.table_id) form.elements.table_id.value = "";
    form.elements.name.value = "";
    onCreated(r.data.table, r.data.invitation || null);
  };
}
