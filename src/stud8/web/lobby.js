// The lobby: the open tables (watch, sit, or wait for a seat) and, for operators,
// the form that opens a new table.

import { $, $$, esc, api, session, toast } from "./util.js";
import { go, header, bindLogout, tabsHTML } from "./nav.js";
import { createTableHTML, bindCreateTable, mayOpenTables } from "./create_table.js";
import { downloadHands } from "./history.js";
import { rulesBrief } from "./words.js";
import { refreshBank, rememberBuyIn, rememberedBuyIn } from "./hud.js";
import { privateMark, inviteButton, openInvitation, showInvitation } from "./invite.js";
import { watchMyTournaments } from "./tournaments.js";
import { setRoomMessage } from "./roommessage.js";
import { tableOptions, rulesDetailsHTML } from "./tableoptions.js";
import { arrange, filtersHTML, lobbyColumns, lobbyFilters, watchingHTML } from "./lobbyfilters.js";
import { openBeside, openFromLobby } from "./tables.js";

export const GAMES = { stud_hi_lo: "Stud Hi/Lo", stud_high: "7 Card Stud", razz: "Razz" };
export const STRUCTURES = { fixed_limit: "Limit", pot_limit: "Pot Limit", no_limit: "No Limit" };

/** "Stud Hi/Lo Limit"; a mixed table's says so and the game it plays now: "Triple Stud: Razz Limit". */
export function gameName(t) {
  const mixed = t.mixed ? `${t.mixed}: ` : "";
  return `${mixed}${GAMES[t.game] || t.game} ${STRUCTURES[t.structure] || t.structure}`;
}

/** How many are waiting for a seat (the lobby gives a count or the names). */
export function waitingCount(t) {
  const w = t.waiting;
  return Array.isArray(w) ? w.length : Number(w) || 0;
}

/** A mixed table's games in their order, the one it deals now marked: "Mixed stud:
 * Stud Hi/Lo → 7 Card Stud → Razz (now)" ("" at a table of one game). */
export function mixedHTML(t) {
  const rotation = t.mixed && t.rules && t.rules.rotation;
  if (!rotation || rotation === "off") return "";
  const games = String(rotation).split("+").map((g) => {
    const name = esc(GAMES[g] || g);
    return g === t.game ? `<b class="now" title="it deals ${name} now">${name} (now)</b>` : name;
  });
  return `<small class="mixed-games">Mixed stud: ${games.join(" → ")}</small>`;
}

// a table's options of RULES.md, folded under its game (open ones stay open when
// the rows are drawn again)
function rulesHTML(t, options, opened) {
  if (!options.length || !t.rules) return "";
  const open = opened.has(t.table_id) ? " open" : "";
  return `<details class="table-rules" data-table="${esc(t.table_id)}"${open}><summary>Rules</summary>${rulesDetailsHTML(t, options)}</details>`;
}

// the columns (their headers sort the rows: lobbyfilters.js), and each cell's label
// on a phone, where a row is a card without the header above it
const COLUMNS = lobbyColumns(gameName, waitingCount);
const COLSPAN = COLUMNS.length;
const LABEL = Object.fromEntries(COLUMNS.map(([key, label]) => [key, ` data-label="${label}"`]));

function rowHTML(t, typed, operator, options, opened) {
  const s = t.stakes;
  const id = esc(t.table_id);
  const full = t.seats_taken >= t.seats;
  const waiting = waitingCount(t);
  const value = typed[t.table_id] || rememberedBuyIn(t);
  const seatCell = `${t.seats_taken}/${t.seats}`;
  const join = full
    ? `<button class="wait" data-table="${id}" aria-label="Join waiting list of table ${id}">Join waiting list</button>`
    : `<span class="join-pair"><input class="buyin" data-table="${id}" type="number" min="${t.buy_in.min}" max="${t.buy_in.max}" value="${esc(value)}" aria-label="buy-in for table ${id} (${t.buy_in.min} to ${t.buy_in.max})">
       <button class="sit" data-table="${id}" aria-label="Sit at table ${id}">Sit</button></span>`;
  const name = (t.name && t.name !== t.table_id ? `${esc(t.name)} <small>${id}</small>` : id) + privateMark(t);
  const brief = t.action_seconds === undefined ? "" : ` <small class="rules-brief">${esc(rulesBrief(t))}</small>`;
  return `<tr data-table="${id}"><td class="tid"${LABEL.table}>${name}</td><td class="game"${LABEL.game}>${esc(gameName(t))}${mixedHTML(t)}${brief}${rulesHTML(t, options, opened)}</td>
    <td class="stakes"${LABEL.stakes}>${s.small_bet}/${s.big_bet} <small>ante ${s.ante}, <span class="nobr">bring-in ${s.bring_in}</span></small></td>
    <td class="seats"${LABEL.players}>${seatCell}</td><td class="waiting${waiting ? " waiting-count" : ""}"${LABEL.waiting}>${waiting}</td>
    <td class="players"${LABEL.names}>${t.players.map(esc).join(", ") || "—"}</td>
    <td class="num"${LABEL.hands_per_hour}>${Math.round(t.hands_per_hour)}</td><td class="num"${LABEL.average_pot}>${Math.round(t.average_pot)}</td>
    <td class="observers"${LABEL.observers}>${watchingHTML(t)}</td>
    <td class="go"><button class="observe" data-table="${id}" aria-label="Observe table ${id}">Observe</button>${join}<button class="beside" data-table="${id}" aria-label="Open beside your tables: table ${id}">Open beside</button>${inviteButton(t)}${operator ? closeHTML(id) : ""}</td></tr>`;
}

// Operators close a table from its row: a first click asks, a second (within a few
// seconds) closes it (DELETE /api/v1/tables/ID: a hand in play is refunded, everyone
// cashes out, and the table does not come back after a restart).
const CONFIRM_MS = 4000;

function closeHTML(id) {
  return `<button class="close-table" data-table="${id}" aria-label="close table ${id}">Close</button>`;
}

export function lobbyView(app) {
  app.innerHTML = `${header()}${tabsHTML("cash")}<main class="lobby">
  <div id="t-calls"></div><div class="lobby-head"><h2>Tables</h2>
    <span class="lobby-links"><a href="#/replay" id="open-replayer" class="download">Hand replayer</a>
    <a href="#" id="download-hands" class="download">Download my hand histories</a></span></div>
  ${filtersHTML()}
  <table class="tables" aria-label="tables"><thead></thead>
  <tbody id="tables"><tr><td colspan="${COLSPAN}">Loading…</td></tr></tbody></table>
  <div id="invite-slot" hidden></div><div id="create-slot"></div></main>`;
  bindLogout();
  $("#download-hands").onclick = (e) => { e.preventDefault(); downloadHands(); };
  let stopped = false;
  let arming = null; // {table, until}: the close button asked, waiting for the second click
  let tables = new Map(); // table id -> its lobby entry (its stakes: the buy-in remembered)
  let listed = null; // the last answer's tables and options, drawn again as the filters change
  const filters = lobbyFilters(app, COLUMNS, () => draw());

  async function load() {
    const [r, options] = await Promise.all([api("GET", "/api/v1/tables"), tableOptions()]);
    if (stopped) return;
    const body = $("#tables");
    if (r.status !== 200) { body.innerHTML = `<tr><td colspan="${COLSPAN}">Could not load the tables</td></tr>`; return; }
    tables = new Map(r.data.tables.map((t) => [t.table_id, t]));
    setRoomMessage(r.data.message); // the operator's message to everyone, until withdrawn
    listed = { tables: r.data.tables, options };
    filters.fillStakes(r.data.tables);
    draw();
    if (r.data.may_open_private && !$("#create-table")) offerCreate(!mayOpenTables());
  }

  function draw() {
    if (!listed) return;
    const { options } = listed;
    const body = $("#tables");
    const typed = {}; // keep what the player is typing in a buy-in box
    for (const input of $$("input.buyin", body)) typed[input.dataset.table] = input.value;
    // the rows are drawn again: the focus stays where the keyboard left it
    const el = document.activeElement;
    const focused = el && el.closest("#tables") && el.dataset.table
      ? `${el.tagName.toLowerCase()}.${el.classList[0]}[data-table="${el.dataset.table}"]` : null;
    const opened = new Set($$("details.table-rules[open]", body).map((d) => d.dataset.table));
    const rows = arrange(listed.tables, filters.choice, COLUMNS, waitingCount);
    filters.counted(rows.length, listed.tables.length);
    body.innerHTML = rows.map((t) => rowHTML(t, typed, mayOpenTables(), options, opened)).join("")
      || (listed.tables.length
        ? `<tr><td colspan="${COLSPAN}" class="none">No table matches the filters. <button class="clear-filters">Clear filters</button></td></tr>`
        : `<tr><td colspan="${COLSPAN}">No tables open</td></tr>`);
    if (arming && Date.now() < arming.until) armed($(`button.close-table[data-table="${arming.table}"]`, body));
    if (focused) { const again = $(focused, body); if (again) again.focus(); }
  }

  // one delegated handler: the rows are redrawn every few seconds
  $("#tables").onclick = (e) => {
    const b = e.target.closest("button");
    if (!b) return;
    if (b.classList.contains("clear-filters")) { filters.clear(); return; }
    if (b.classList.contains("close-table")) closeTable(b);
    else if (b.classList.contains("invite")) openInvitation($("#invite-slot"), b.dataset.table, load);
    else if (b.classList.contains("observe")) openFromLobby(b.dataset.table, {}, playsAt);
    else if (b.classList.contains("beside")) openBeside(b.dataset.table); // with the tables open (tables.js)
    else if (b.classList.contains("wait")) openFromLobby(b.dataset.table, { wait: "1" }, playsAt);
    else if (b.classList.contains("sit")) {
      const amount = Number($(`input.buyin[data-table="${b.dataset.table}"]`).value);
      rememberBuyIn(tables.get(b.dataset.table), amount);
      openFromLobby(b.dataset.table, { buyin: String(amount) }, playsAt); // beside my tables (tables.js)
    }
  };
  // whether I play at a table: the lobby lists me seated there, or it is not a cash
  // table the lobby lists (a tournament's): its tile is never closed to make room
  const playsAt = (tableId) => { const t = tables.get(tableId); return !t || t.players.includes(session.name); };

  function armed(b) {
    if (!b) return;
    b.classList.add("armed");
    b.textContent = "Really close?";
  }

  async function closeTable(b) {
    const table = b.dataset.table;
    if (!arming || arming.table !== table || Date.now() > arming.until) {
      arming = { table, until: Date.now() + CONFIRM_MS };
      armed(b);
      return;
    }
    arming = null;
    b.disabled = true;
    const r = await api("DELETE", `/api/v1/tables/${encodeURIComponent(table)}`);
    if (r.status === 200) toast(`Table ${table} is closed: everyone was paid out`);
    else toast((r.data && r.data.error) || `the table could not be closed (${r.status})`);
    load();
  }

  // operators, and players where the room lets them open private tables (the lobby says)
  function offerCreate(privateOnly) {
    $("#create-slot").innerHTML = createTableHTML(privateOnly);
    bindCreateTable($("#create-slot"), (table, invitation) => {
      if (invitation) showInvitation($("#invite-slot"), invitation, load);
      load();
    });
  }
  if (mayOpenTables()) offerCreate(false);

  load();
  refreshBank();
  const timer = setInterval(load, 5000);
  const unwatch = watchMyTournaments($("#t-calls")); // a tournament of mine that has started
  return { stop() { stopped = true; clearInterval(timer); unwatch(); } };
}

