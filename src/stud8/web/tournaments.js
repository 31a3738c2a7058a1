// The tournament lobby (a tab beside the cash tables): the tournaments scheduled,
// registering, running and finished; one tournament whole (its structure, entrants,
// prize pool, payouts, places and tables); register and unregister with the buy-in and
// fee shown against the bank balance; for operators: create, cancel, register bots.
// The REST API is /api/v1/tournaments (docs/protocol.md).

import { $, esc, session, api, toast } from "./util.js";
import { go, header, bindLogout, tabsHTML } from "./nav.js";
import { GAMES } from "./lobby.js";
import { ordinal, chips } from "./tourwords.js";
import { refreshBank } from "./hud.js";
import { fieldHTML, formBody } from "./formfields.js";

const PHASES = { registering: "Registering", running: "Running", finished: "Finished", cancelled: "Cancelled" };
const GROUPS = [
  ["registering", "Registering and scheduled", (t) => t.phase === "registering"],
  ["running", "Running", (t) => t.phase === "running"],
  ["finished", "Finished", (t) => t.phase === "finished" || t.phase === "cancelled"],
];
const POLL_MS = 2000;
const CONFIRM_MS = 4000;

// The tournaments I registered in from this browser: when one starts, the lobbies
// (cash and tournaments) offer my seat.
const MINE_KEY = "stud8.myTournaments";

export const mine = {
  ids() {
    try { return JSON.parse(localStorage.getItem(MINE_KEY) || "[]").filter((n) => Number.isInteger(n)); } catch { return []; }
  },
  add(id) { mine.save([...new Set([...mine.ids(), Number(id)])]); },
  drop(id) { mine.save(mine.ids().filter((n) => n !== Number(id))); },
  save(ids) { localStorage.setItem(MINE_KEY, JSON.stringify(ids.slice(-20))); },
};

/** Watch my tournaments (every few seconds) and, once one has seated me, offer my
 * seat in `root`. Returns the function that stops watching. */
export function watchMyTournaments(root) {
  let stopped = false;
  async function look() {
    const calls = [];
    for (const id of mine.ids()) {
      const r = await api("GET", `/api/v1/tournaments/${id}`);
      if (stopped) return;
      if (r.status === 404) { mine.drop(id); continue; }
      if (r.status !== 200) continue;
      const d = r.data;
      const entry = myEntry(d);
      if (d.summary.phase === "finished" || d.summary.phase === "cancelled" || !entry || entry.out) {
        if (d.summary.phase !== "registering") mine.drop(id);
        continue;
      }
      if (d.summary.phase === "running" && entry.table_id) calls.push([d.summary, entry.table_id]);
    }
    root.innerHTML = calls.map(([t, table]) => `<div class="t-call" role="alert"><span>Your tournament <b>${esc(t.name)}</b> is running:</span>
      <button class="take-seat" data-table="${esc(table)}">Take your seat</button></div>`).join("");
  }
  root.onclick = (e) => {
    const b = e.target.closest("button.take-seat");
    if (b) go(`#/table/${encodeURIComponent(b.dataset.table)}`);
  };
  look();
  const timer = setInterval(look, POLL_MS * 2);
  return () => { stopped = true; clearInterval(timer); };
}


function startText(t) {
  if (t.start === "at_time" && t.starts_at) {
    const when = new Date(t.starts_at);
    return `Scheduled: ${when.toLocaleString([], { dateStyle: "medium", timeStyle: "short" })}`;
  }
  return `Sit-and-go: starts when ${t.max_entrants} have registered`;
}

function buyInText(t) {
  if (!t.buy_in && !t.fee) return "Freeroll";
  return `${chips(t.buy_in)} + ${chips(t.fee)} fee`;
}

function statusText(t) {
  if (t.phase === "running") return `Level ${t.level} · ${t.players_left} left`;
  if (t.phase === "registering") return t.start === "at_time" ? "Scheduled" : "Registering";
  return PHASES[t.phase] || t.phase;
}

function rowHTML(t) {
  const id = t.tournament_id;
  return `<tr data-tournament="${id}" class="phase-${esc(t.phase)}">
    <td class="tname"><a href="#/tournament/${id}">${esc(t.name)}</a> <small>#${id}</small></td>
    <td>${esc(GAMES[t.game] || t.game)} <small class="structure">${esc(t.structure)}</small></td>
    <td>${esc(buyInText(t))}</td>
    <td class="start">${esc(startText(t))}</td>
    <td class="entrants">${t.entries}/${t.max_entrants}<small class="phone-only"> entrants</small></td>
    <td class="pool"><small class="phone-only">prize pool </small>${chips(t.prize_pool)}</td>
    <td class="status"><span class="phase-badge ${esc(t.phase)}">${esc(statusText(t))}</span></td>
    <td class="go"><button class="open-tournament" data-tournament="${id}">Open</button></td></tr>`;
}

function groupHTML([key, title], list) {
  const rows = list.map(rowHTML).join("") || `<tr><td colspan="8" class="none">None</td></tr>`;
  return `<section class="t-group" data-group="${key}"><h3>${esc(title)}</h3>
  <table class="tables tournaments" aria-label="${esc(title)} tournaments"><thead><tr><th>Tournament</th><th>Game</th><th>Buy-in</th><th>Start</th><th>Entrants</th><th>Prize pool</th><th>Status</th><th></th></tr></thead>
  <tbody>${rows}</tbody></table></section>`;
}

/** #/tournaments: every tournament, by phase; operators get the create form. */
export function tournamentsView(app) {
  app.innerHTML = `${header()}${tabsHTML("tournaments")}<main class="lobby tlobby">
  <div class="lobby-head"><h2>Tournaments</h2></div>
  <div id="t-calls"></div><div id="t-groups"><p>Loading…</p></div>
  <div id="t-create-slot"></div></main>`;
  bindLogout();
  let stopped = false;
  async function load() {
    const r = await api("GET", "/api/v1/tournaments");
    if (stopped) return;
    if (r.status !== 200) { $("#t-groups").innerHTML = `<p class="error">Could not load the tournaments</p>`; return; }
    const list = [...r.data.tournaments].sort((a, b) => b.tournament_id - a.tournament_id);
    $("#t-groups").innerHTML = GROUPS.map((g) => groupHTML(g, list.filter(g[2]))).join("");
  }
  $("#t-groups").onclick = (e) => {
    const b = e.target.closest("button.open-tournament");
    if (b) go(`#/tournament/${b.dataset.tournament}`);
  };
  refreshBank(); // the header's balance: shown once, there
  if (session.operator) {
    $("#t-create-slot").innerHTML = createHTML();
    bindCreate($("#t-create-slot"));
  }
  load();
  const timer = setInterval(load, POLL_MS * 2);
  const unwatch = watchMyTournaments($("#t-calls"));
  return { stop() { stopped = true; clearInterval(timer); unwatch(); } };
}

// ------------------------------------------------------------------ the create form
// [field, label, kind, default, extra attributes]; blank optional fields are left out
const FIELDS = [
  ["name", "Name", "text", "Sit-and-go", 'maxlength="60" required'],
  ["structure", "Structure", "select", "turbo", ""],
  ["game", "Game", "select", "stud_hi_lo", ""],
  ["start", "Start", "select", "when_full", ""],
  ["starts_at", "Starts at (scheduled)", "datetime", "", ""],
  ["buy_in", "Buy-in", "int", 100, 'min="0"'],
  ["fee", "Fee", "int", 10, 'min="0"'],
  ["table_size", "Seats a table", "int", 8, 'min="2" max="8"'],
  ["min_entrants", "Min entrants", "int", 2, 'min="2"'],
  ["max_entrants", "Max entrants", "int", 6, 'min="2"'],
  ["late_registration", "Late registration (levels)", "int", 0, 'min="0"'],
  ["reentries", "Re-entries", "int", 0, 'min="0"'],
  ["starting_chips", "Starting chips (optional)", "int", "", 'min="1" placeholder="the structure\'s"'],
  ["level_hands", "Levels of N hands (optional)", "int", "", 'min="1" placeholder="minutes"'],
];
const OPTIONS = {
  structure: [["regular", "Regular (3000 chips, 10-min levels, breaks)"], ["turbo", "Turbo (1500 chips, 5-min levels)"], ["hyper", "Hyper (500 chips, 3-min levels)"]],
  game: [["stud_hi_lo", "Stud Hi/Lo (8 or better)"], ["stud_high", "Seven Card Stud"], ["razz", "Razz"]],
  start: [["when_full", "Sit-and-go (when full)"], ["at_time", "Scheduled (at a time)"]],
};

function createHTML() {
  return `<details class="create-table create-tournament"><summary>Create a tournament</summary>
  <form id="create-tournament" aria-label="create a tournament">
    <div class="fields">${FIELDS.map((f) => fieldHTML(f, "nt", OPTIONS)).join("")}</div>
    <div class="row"><button type="submit" id="nt-submit">Create the tournament</button>
    <p class="error" id="nt-error" role="alert"></p></div>
  </form></details>`;
}

/** The body to POST: the fields with their types (blank optional ones left out). */
export function tournamentBody(form) {
  const body = formBody(form, FIELDS);
  if (body.start !== "at_time") delete body.starts_at;
  else if (!body.starts_at) throw new Error("a scheduled tournament needs its start time");
  return body;
}

function bindCreate(root) {
  const form = $("#create-tournament", root);
  const error = $("#nt-error", root);
  form.onsubmit = async (e) => {
    e.preventDefault();
    error.textContent = "";
    let body;
    try { body = tournamentBody(form); } catch (exc) { error.textContent = exc.message; return; }
    const r = await api("POST", "/api/v1/tournaments", body);
    if (r.status !== 201) { error.textContent = r.data.error || `the tournament could not be created (${r.status})`; return; }
    const t = r.data.tournament.summary;
    toast(`Tournament ${t.name} (#${t.tournament_id}) is open for registration`);
    go(`#/tournament/${t.tournament_id}`);
  };
}

// ------------------------------------------------------------------ one tournament
function levelsHTML(d) {
  const rows = d.levels.map((l) => (l.level === 0
    ? `<tr class="break"><td colspan="5">Break</td><td>${l.break_minutes} min</td></tr>`
    : `<tr class="${l.level === d.summary.level && d.summary.phase === "running" ? "now" : ""}"><td>${l.level}</td><td>${l.ante}</td><td>${l.bring_in}</td><td>${l.small_bet}</td><td>${l.big_bet}</td><td>${l.minutes !== null ? `${l.minutes} min` : `${l.hands} hand${l.hands === 1 ? "" : "s"}`}</td></tr>`));
  return `<table class="t-levels" aria-label="levels"><thead><tr><th>Level</th><th>Ante</th><th>Bring-in</th><th>Small bet</th><th>Big bet</th><th>Length</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function placeText(e) {
  if (e.place === null) return "";
  return e.shared > 1 ? `${ordinal(e.place)}–${ordinal(e.place + e.shared - 1)}` : ordinal(e.place);
}

function entrantsHTML(d) {
  const me = session.name;
  const rows = d.entrants.map((e) => `<tr class="${e.player === me ? "me" : ""}${e.out ? " out" : ""}">
    <td>${esc(e.player)}${e.bot ? ' <span class="badge bot">bot</span>' : ""}</td>
    <td>${e.out ? "out" : chips(e.chips)}</td>
    <td>${e.table_id && !e.out && d.summary.phase === "running" ? `${esc(e.table_id)}, seat ${e.seat}` : ""}</td>
    <td>${placeText(e)}</td><td>${e.prize ? chips(e.prize) : ""}</td></tr>`);
  return `<table class="t-entrants" aria-label="entrants"><thead><tr><th>Player</th><th>Chips</th><th>Table</th><th>Place</th><th>Prize</th></tr></thead>
  <tbody>${rows.join("") || `<tr><td colspan="5" class="none">Nobody yet</td></tr>`}</tbody></table>`;
}

function payoutsHTML(d) {
  const rows = d.payouts.map((p) => `<li><span>${ordinal(p.place)}</span> <strong>${chips(p.prize)}</strong></li>`);
  return `<ol class="t-payouts" aria-label="payouts">${rows.join("")}</ol>`;
}

function resultsHTML(d) {
  if (!d.results.length) return "";
  const me = session.name;
  const rows = d.results.map((e) => `<li class="${e.player === me ? "me" : ""}"><span class="place">${placeText(e)}</span> ${esc(e.player)} <strong>${e.prize ? chips(e.prize) : ""}</strong></li>`);
  return `<section class="t-card t-results"><h3>Places</h3><ol class="results-list">${rows.join("")}</ol></section>`;
}

function tablesHTML(d) {
  if (!d.tables.length || d.summary.phase !== "running") return "";
  const mine = myEntry(d);
  const rows = d.tables.map((t) => `<li><span>Table ${t.number} <small>${esc(t.table_id)}</small>: ${t.players.length} players</span>
    <button class="watch-table${mine && mine.table_id === t.table_id ? " mine" : ""}" data-table="${esc(t.table_id)}">${mine && mine.table_id === t.table_id ? "Take your seat" : "Watch"}</button></li>`);
  return `<section class="t-card t-tables"><h3>Tables</h3><ul>${rows.join("")}</ul></section>`;
}

/** My live entry (the last one: a re-entry is another), or null. */
export function myEntry(d) {
  const mine = d.entrants.filter((e) => e.player === session.name);
  return mine.length ? mine[mine.length - 1] : null;
}

function factsHTML(d) {
  const s = d.summary;
  const lengths = d.levels.find((l) => l.level > 0);
  const pace = lengths ? (lengths.minutes !== null ? `${lengths.minutes}-minute levels` : `levels of ${lengths.hands} hands`) : "";
  const facts = [
    ["Game", `${GAMES[s.game] || s.game}, fixed limit`],
    ["Structure", `${s.structure}: ${chips(s.starting_chips)} chips, ${pace}`],
    ["Start", startText(s)],
    ["Buy-in", buyInText(s)],
    ["Entrants", `${s.entries} of ${s.min_entrants} to ${s.max_entrants}`],
    ["Prize pool", chips(s.prize_pool)],
    ["Seats a table", String(s.table_size)],
  ];
  if (s.phase === "running") {
    facts.push(["Level", `${s.level}${d.on_break ? " (on break)" : ""}`], ["Players left", String(s.players_left)],
      ["Average stack", chips(d.average_stack)]);
  }
  if (d.late_registration) facts.push(["Late registration", `until the end of level ${d.late_registration}`]);
  if (d.reentries) facts.push(["Re-entries", String(d.reentries)]);
  return `<dl class="t-facts">${facts.map(([k, v]) => `<dt>${esc(k)}</dt><dd data-fact="${esc(k.toLowerCase())}">${esc(v)}</dd>`).join("")}</dl>`;
}

function registerHTML(d, balance) {
  const s = d.summary;
  const cost = s.buy_in + s.fee;
  const mine = myEntry(d);
  const costText = cost ? `Buy-in ${chips(s.buy_in)} + fee ${chips(s.fee)} = <strong>${chips(cost)}</strong> chips` : "Free to enter";
  if (s.phase === "finished" || s.phase === "cancelled") {
    const over = s.phase === "cancelled" ? "This tournament was cancelled: every buy-in and fee went back." : "This tournament is over.";
    const place = mine && mine.place !== null ? ` You finished <strong>${placeText(mine)}</strong>${mine.prize ? `, prize <strong>${chips(mine.prize)}</strong>` : ""}.` : "";
    return `<p class="t-over">${over}${place}</p>`;
  }
  if (mine && !mine.out && s.phase === "registering") {
    return `<p class="t-in">You are registered.</p><div class="row"><button id="t-unregister">Unregister</button> <small>(${chips(cost)} back)</small></div>`;
  }
  if (mine && !mine.out) {
    return `<p class="t-in">You are playing: ${chips(mine.chips)} chips${mine.table_id ? `, table ${esc(mine.table_id)}` : ""}.</p>`;
  }
  if (!d.registration_open) return `<p>Registration is closed.</p>`;
  const short = balance !== null && balance < cost;
  const again = mine && mine.out ? "Re-enter" : "Register";
  return `<p>${costText}</p><div class="row"><button id="t-register" ${short ? "disabled" : ""}>${again}</button>
    ${short ? `<span class="error">Your bank is ${chips(cost - balance)} short</span>` : ""}</div>`;
}

function operatorHTML(d) {
  if (!session.operator || d.summary.phase === "finished" || d.summary.phase === "cancelled") return "";
  const bots = d.registration_open
    ? `<label>Bots <input id="t-bot-count" type="number" min="1" max="100" value="${Math.max(1, d.summary.max_entrants - d.summary.entries)}"></label>
      <select id="t-bot-policy" aria-label="bot policy"><option value="rules">rules</option><option value="calling-station">calling station</option><option value="random">random</option><option value="equity">equity</option></select>
      <button id="t-add-bots">Register bots</button>` : "";
  return `<section class="t-card t-operator"><h3>Operator</h3><div class="row">${bots}<button id="t-cancel" class="close-table">Cancel tournament</button></div></section>`;
}

/** #/tournament/ID: one tournament whole, read again every 2 seconds. */
export function tournamentView(app, tid) {
  app.innerHTML = `${header()}${tabsHTML("tournaments")}<main class="tourney" aria-live="polite">
  <p><a href="#/tournaments" id="t-back">← Tournaments</a></p><div id="t-body">Loading…</div></main>`;
  bindLogout();
  let stopped = false;
  let balance = null;
  let seen = null; // the last detail shown
  let arming = 0; // the cancel button asked until then
  let drawnKey = "";

  async function load() {
    const r = await api("GET", `/api/v1/tournaments/${encodeURIComponent(tid)}`);
    if (stopped) return;
    if (r.status !== 200) { $("#t-body").innerHTML = `<p class="error">${esc(r.data.error || "No such tournament")}</p>`; return; }
    const d = r.data;
    const mine = myEntry(d);
    // the tournament just started (or I was seated again): my table
    if (seen && mine && !mine.out && mine.table_id && seen.summary.phase === "registering" && d.summary.phase === "running") {
      toast(`The tournament starts: your seat is at table ${mine.table_id}`);
      go(`#/table/${encodeURIComponent(mine.table_id)}`);
      return;
    }
    const mineBefore = seen && myEntry(seen);
    const phaseChanged = seen && seen.summary.phase !== d.summary.phase; // a cancel gives the buy-ins back
    if (phaseChanged || (mineBefore && mine && (mineBefore.out !== mine.out || mineBefore.entry !== mine.entry))) refreshBalance();
    seen = d;
    draw();
  }

  function draw() {
    const d = seen;
    if (!d) return;
    const key = JSON.stringify([{ ...d, seconds_left: null }, balance, arming > Date.now()]); // the clock alone redraws nothing
    if (key === drawnKey) return;
    drawnKey = key;
    const s = d.summary;
    const focused = document.activeElement && document.activeElement.id;
    const botCount = $("#t-bot-count") ? $("#t-bot-count").value : null;
    $("#t-body").innerHTML = `<div class="tourney-head"><h2>${esc(s.name)} <small>#${s.tournament_id}</small></h2>
      <span class="phase-badge ${esc(s.phase)}" id="t-phase">${esc(statusText(s))}</span></div>
    <div class="t-grid">
      <section class="t-card t-about"><h3>About</h3>${factsHTML(d)}</section>
      <section class="t-card t-entry"><h3>Your entry</h3><div id="t-entry">${registerHTML(d, balance)}</div></section>
      ${operatorHTML(d)}
      ${resultsHTML(d)}
      ${tablesHTML(d)}
      <section class="t-card t-prizes"><h3>Prize pool ${chips(s.prize_pool)}</h3>${payoutsHTML(d)}</section>
      <section class="t-card t-players"><h3>Entrants (${s.entries})</h3>${entrantsHTML(d)}</section>
      <section class="t-card t-structure"><h3>Structure</h3>${levelsHTML(d)}</section>
    </div>`;
    if (botCount !== null && $("#t-bot-count")) $("#t-bot-count").value = botCount;
    if (arming > Date.now() && $("#t-cancel")) { $("#t-cancel").classList.add("armed"); $("#t-cancel").textContent = "Really cancel?"; }
    if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
  }

  async function refreshBalance() {
    const b = await refreshBank(); // the header shows it (once); the form checks the cost against it
    if (stopped) return;
    balance = b;
    draw();
  }

  async function act(method, path, body, done) {
    const r = await api(method, path, body);
    if (r.status !== 200) { toast((r.data && r.data.error) || `refused (${r.status})`); return; }
    if (done) toast(done(r.data));
    await refreshBalance();
    await load();
  }

  $("#t-body").onclick = (e) => {
    const b = e.target.closest("button");
    if (!b || b.disabled) return;
    const base = `/api/v1/tournaments/${encodeURIComponent(tid)}`;
    if (b.id === "t-register") {
      b.disabled = true;
      mine.add(tid);
      act("POST", `${base}/register`, null, () => "You are registered");
    } else if (b.id === "t-unregister") {
      b.disabled = true;
      mine.drop(tid);
      act("POST", `${base}/unregister`, null, () => "You are unregistered: your buy-in and fee are back in your bank");
    } else if (b.id === "t-add-bots") {
      const count = Number($("#t-bot-count").value);
      b.disabled = true;
      act("POST", `${base}/bots`, { count, policy: $("#t-bot-policy").value }, (data) => `Registered ${data.players.length} bot${data.players.length === 1 ? "" : "s"}`);
    } else if (b.id === "t-cancel") {
      if (arming < Date.now()) { arming = Date.now() + CONFIRM_MS; draw(); return; }
      arming = 0;
      act("DELETE", base, null, () => "The tournament is cancelled: every buy-in and fee went back");
    } else if (b.classList.contains("watch-table")) {
      go(`#/table/${encodeURIComponent(b.dataset.table)}`);
    }
  };

  refreshBalance();
  load();
  const timer = setInterval(() => { load(); }, POLL_MS);
  return { stop() { stopped = true; clearInterval(timer); } };
}
