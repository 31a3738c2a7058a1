// The console's "now": who is online and where, the tables (dealing, paused and
// why, hands an hour, average pot, rake today) and the tournaments, the nodes of a
// room on several (tables, players, leases, heartbeat) with drain and undo.

import { $, esc, api, toast } from "./util.js";
import { failed } from "./admin.js";

const REFRESH_MS = 5000;

function every(load) {
  load();
  const timer = setInterval(load, REFRESH_MS);
  return { stop() { clearInterval(timer); } };
}

const tableLink = (id) => `<a href="#/table/${encodeURIComponent(id)}">${esc(id)}</a>`;

export function playersSection(root) {
  root.innerHTML = `<p class="muted-dark">Connected to this node, or seated at any table of the room.</p><div class="admin-out" id="players-out">Loading…</div>`;
  return every(async () => {
    const r = await api("GET", "/api/v1/admin/players");
    const out = $("#players-out", root);
    if (!out) return;
    if (r.status !== 200) { failed(out, r, "Who is online could not be read"); return; }
    const rows = r.data.players.map((p) => `<tr><td><a href="#/admin/accounts" class="find-player" data-name="${esc(p.name)}">${esc(p.name)}</a></td>
      <td>${p.connected ? "yes" : "no"}</td><td>${p.sits.map(tableLink).join(", ") || "—"}</td><td>${p.watches.map(tableLink).join(", ") || "—"}</td></tr>`).join("");
    out.innerHTML = `<table class="admin-table" aria-label="players online"><thead><tr><th>Player</th><th>Connected</th><th>Sits at</th><th>Watches</th></tr></thead>
      <tbody>${rows || `<tr><td colspan="4">Nobody is online</td></tr>`}</tbody></table>`;
    for (const a of out.querySelectorAll("a.find-player")) a.onclick = () => sessionStorage.setItem("stud8.admin.find", a.dataset.name);
  });
}

function tableRow(t) {
  const state = t.paused ? `<span class="paused">paused: ${esc(t.paused)}</span>` : t.dealing ? "dealing" : "waiting for players";
  return `<tr><td>${tableLink(t.table_id)}${t.name !== t.table_id ? ` <small>${esc(t.name)}</small>` : ""}${t.private ? " <small>private</small>" : ""}</td>
    <td>${t.small_bet}/${t.big_bet}</td><td>${t.players.length}/${t.seats}${t.waiting ? ` <small>${t.waiting} waiting</small>` : ""}</td>
    <td>${state}</td><td>${t.hands_per_hour}</td><td>${Math.round(t.average_pot)}</td><td>${t.rake_today}</td><td>${esc(t.node || "—")}</td></tr>`;
}

function tournamentRow(x) {
  const state = x.phase === "running" ? (x.on_break ? "on a break" : "running") : esc(x.phase);
  const left = x.seconds_left === null ? "" : ` <small>${Math.ceil(x.seconds_left / 60)} min left</small>`;
  const ante = x.ante ? ` <small>ante ${x.ante}</small>` : "";
  const tables = x.tables.map((t) => `<li>${tableLink(t.table_id)} <small>${t.players.length} seated</small></li>`).join("");
  // each cell's content in one box: at phone sizes a cell is a grid of its label and it
  const cell = (label, html) => `<td data-label="${label}"><span>${html}</span></td>`;
  return `<tr>${cell("Tournament", `<a href="#/tournament/${encodeURIComponent(x.tournament_id)}">${esc(x.name)}</a> <small>#${x.tournament_id}</small>`)}
    ${cell("State", state)}${cell("Left/entries", `${x.players_left}/${x.entries}`)}${cell("Level: stakes", `${x.level}: ${x.small_bet}/${x.big_bet}${ante}${left}`)}
    ${cell("Tables", tables ? `<ul class="entries">${tables}</ul>` : "—")}${cell("Prize pool", x.prize_pool)}${cell("Node", esc(x.node || "—"))}</tr>`;
}

export function tablesSection(root) {
  root.innerHTML = `<div class="admin-out" id="tables-out">Loading…</div><h3>Tournaments</h3><div class="admin-out" id="tournaments-out">Loading…</div>`;
  return every(async () => {
    const [r, t] = await Promise.all([api("GET", "/api/v1/admin/tables"), api("GET", "/api/v1/admin/tournaments")]);
    const out = $("#tables-out", root);
    if (!out) return;
    if (r.status !== 200) failed(out, r, "The tables could not be read");
    else {
      out.innerHTML = `<table class="admin-table" aria-label="tables now"><thead><tr><th>Table</th><th>Stakes</th><th>Seated</th><th>State</th><th>Hands/hour</th><th>Avg pot</th><th>Rake today</th><th>Node</th></tr></thead>
        <tbody>${r.data.tables.map(tableRow).join("") || `<tr><td colspan="8">No tables open</td></tr>`}</tbody></table>`;
    }
    const tout = $("#tournaments-out", root);
    if (t.status !== 200) { failed(tout, t, "The tournaments could not be read"); return; }
    tout.innerHTML = `<table class="admin-table stacked" aria-label="tournaments"><thead><tr><th>Tournament</th><th>State</th><th>Left/entries</th><th>Level: stakes</th><th>Tables</th><th>Prize pool</th><th>Node</th></tr></thead>
      <tbody>${t.data.tournaments.map(tournamentRow).join("") || `<tr><td colspan="7">No tournament is registering or running</td></tr>`}</tbody></table>`;
  });
}

export function nodesSection(root) {
  root.innerHTML = `<div class="admin-out" id="nodes-out">Loading…</div>`;
  async function load() {
    const r = await api("GET", "/api/v1/admin/nodes");
    const out = $("#nodes-out", root);
    if (!out) return;
    if (r.status !== 200) { failed(out, r, "The nodes could not be read"); return; }
    draw(out, r.data);
  }
  function draw(out, data) {
    const button = (n) => !data.clustered ? "" : n.draining
      ? `<button class="undrain" data-node="${esc(n.name)}" aria-label="undo the drain of node ${esc(n.name)}">Undo drain</button>`
      : `<button class="drain" data-node="${esc(n.name)}" aria-label="drain node ${esc(n.name)}">Drain</button>`;
    const rows = data.nodes.map((n) => `<tr><td>${esc(n.name)}</td><td>${n.tables}</td><td>${n.players}</td><td>${data.clustered ? n.leases : "—"}</td>
      <td>${data.clustered ? `${n.beat_age} s ago` : "—"}</td><td><div class="node-state">${n.draining ? "draining" : "serving"} ${button(n)}</div></td></tr>`).join("");
    out.innerHTML = `${data.clustered ? "" : `<p class="muted-dark">A room in one process: no nodes to drain.</p>`}
      <table class="admin-table" aria-label="nodes"><thead><tr><th>Node</th><th>Tables</th><th>Players</th><th>Leases</th><th>Heartbeat</th><th>State</th></tr></thead><tbody>${rows}</tbody></table>`;
  }
  root.onclick = async (e) => {
    const b = e.target.closest("button.drain, button.undrain");
    if (!b) return;
    b.disabled = true;
    const undo = b.classList.contains("undrain");
    const r = await api(undo ? "DELETE" : "POST", `/api/v1/admin/nodes/${encodeURIComponent(b.dataset.node)}/drain`);
    if (r.status === 200) {
      toast(undo ? `Node ${b.dataset.node} takes tables again` : `Node ${b.dataset.node} drains: its tables move between hands`);
      draw($("#nodes-out", root), r.data);
    } else toast((r.data && r.data.error) || `not done (${r.status})`);
  };
  return every(load);
}
