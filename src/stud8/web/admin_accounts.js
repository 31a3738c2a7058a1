// The console's accounts: find a player; his bank, seats, recent hands (each to
// replay with every card), sessions and addresses; credit and debit with a reason;
// ban and unban; silence for a time or for good. And the moderation log (every
// such act: who, what, when, why) with the lobby's message to everyone.

import { $, esc, api, toast } from "./util.js";
import { failed, when } from "./admin.js";

const path = (name) => `/api/v1/admin/accounts/${encodeURIComponent(name)}`;

export function logTable(acts, label) {
  const rows = acts.map((a) => `<tr><td>${when(a.at)}</td><td>${esc(a.operator)}</td><td>${esc(a.act)}</td><td>${esc(a.player || "—")}</td>
    <td>${esc(a.reason)}</td><td>${a.amount ?? ""}${a.until ? ` until ${when(a.until)}` : a.act === "silence" ? " for good" : ""}</td></tr>`).join("");
  return `<table class="admin-table" aria-label="${esc(label)}"><thead><tr><th>When</th><th>Operator</th><th>Act</th><th>Player</th><th>Why</th><th>Amount / until</th></tr></thead>
    <tbody>${rows || `<tr><td colspan="6">Nothing logged</td></tr>`}</tbody></table>`;
}

function detailHTML(a) {
  const seats = a.seats.map((s) => `<li>table <a href="#/table/${encodeURIComponent(s.table_id)}">${esc(s.table_id)}</a>, seat ${s.seat}: ${s.chips} chips</li>`).join("") || "<li>none</li>";
  const hands = a.hands.map((h) => h.recorded
    ? `<li><a href="#/replay/${encodeURIComponent(h.hand_id)}" target="_blank" rel="noopener" aria-label="replay hand ${esc(h.hand_id)} with every card">${esc(h.hand_id)}</a> <small>${esc(h.table_id)}</small></li>`
    : `<li>${esc(h.hand_id)} <small>${esc(h.table_id)}, no record</small></li>`).join("") || "<li>none</li>";
  const sessions = a.sessions.map((s) => `<li>${s.address ? `<strong>${esc(s.address)}</strong>` : "address not known"}${s.seen_at ? ` <small>seen ${when(s.seen_at)}</small>` : ""}<br><small>from ${when(s.started_at)} to ${when(s.expires_at)}</small></li>`).join("") || "<li>none</li>";
  const silenced = a.silenced ? (a.silenced_until ? `silenced until ${when(a.silenced_until)}` : "silenced for good") : "may chat";
  return `<div class="account-card" aria-label="account ${esc(a.name)}">
    <h3 id="account-name">${esc(a.name)} <small class="role role-${esc(a.role)}">${esc(a.role)}</small></h3>
    <dl class="figures"><div><dt>Bank</dt><dd id="account-bank">${a.balance}</dd></div><div><dt>Chat</dt><dd id="account-chat">${silenced}</dd></div>
      <div><dt>Addresses</dt><dd id="account-addresses">${a.addresses.map(esc).join(", ") || "—"}</dd></div></dl>
    <div class="account-lists"><div><h4>Seats</h4><ul>${seats}</ul></div><div><h4>Recent hands</h4><ul class="hands">${hands}</ul></div>
      <div><h4>Sessions</h4><ul class="sessions">${sessions}</ul></div></div>
    <form id="act-form" class="act-form" aria-label="act on ${esc(a.name)}">
      <label>Reason <input id="act-reason" maxlength="500" required placeholder="why (kept in the log)"></label>
      <label>Chips <input id="act-amount" type="number" min="1" step="1" inputmode="numeric"></label>
      <label>Minutes <input id="act-minutes" type="number" min="1" step="1" inputmode="numeric" placeholder="empty: for good"></label>
      <div class="row act-buttons">
        <button type="button" data-act="credit">Credit</button><button type="button" data-act="debit">Debit</button>
        ${a.role === "banned" ? `<button type="button" data-act="unban">Unban</button>` : `<button type="button" data-act="ban" class="danger">Ban</button>`}
        ${a.silenced ? `<button type="button" data-act="unsilence">Unsilence</button>` : `<button type="button" data-act="silence">Silence</button>`}
      </div><p class="error" id="act-error" role="alert"></p></form>
    <h4>Moderation</h4><div class="admin-scroll">${logTable(a.log, `moderation of ${a.name}`)}</div></div>`;
}

export function accountsSection(root) {
  root.innerHTML = `<form id="find-form" class="row" role="search" aria-label="find a player">
    <label>Player <input id="find-name" autocomplete="off" required></label><button type="submit" id="find">Find</button></form>
    <div class="admin-out" id="account-out"></div>`;
  let name = null;
  async function show(who) {
    name = who;
    const out = $("#account-out", root);
    const r = await api("GET", path(who));
    if (r.status !== 200) { failed(out, r, `No account shown for ${who}`); return; }
    out.innerHTML = detailHTML(r.data);
  }
  $("#find-form", root).onsubmit = (e) => { e.preventDefault(); const who = $("#find-name", root).value.trim(); if (who) show(who); };
  root.onclick = async (e) => {
    const b = e.target.closest("button[data-act]");
    if (!b || !name) return;
    const act = b.dataset.act;
    const body = { reason: $("#act-reason", root).value.trim() };
    if (act === "credit" || act === "debit") body.amount = Number($("#act-amount", root).value);
    if (act === "silence") { const m = $("#act-minutes", root).value; body.minutes = m === "" ? null : Number(m); }
    b.disabled = true;
    const r = await api("POST", `${path(name)}/${act}`, body);
    b.disabled = false;
    if (r.status !== 200) { $("#act-error", root).textContent = (r.data && r.data.error) || `refused (${r.status})`; return; }
    toast(`${act}: ${r.data.player} (logged)`);
    show(name);
  };
  const asked = sessionStorage.getItem("stud8.admin.find"); // a name clicked in Players
  if (asked) { sessionStorage.removeItem("stud8.admin.find"); $("#find-name", root).value = asked; show(asked); }
  return { stop() {} };
}

export function moderationSection(root) {
  root.innerHTML = `<h3>Lobby message</h3>
    <form id="message-form" class="row" aria-label="the lobby message"><label class="grow">Message to everyone <input id="message-text" maxlength="500" required></label>
    <button type="submit" id="message-post">Post</button><button type="button" id="message-withdraw">Withdraw</button></form>
    <p id="message-now" class="muted-dark" role="status"></p>
    <h3>Moderation log</h3><form id="log-form" class="row" aria-label="filter the log"><label>Player <input id="log-player" autocomplete="off"></label><button type="submit">Show</button></form>
    <div class="admin-out" id="log-out">Loading…</div>`;
  async function loadMessage() {
    const r = await api("GET", "/api/v1/tables");
    const now = $("#message-now", root);
    if (now) now.textContent = r.status === 200 && r.data.message ? `Shown now: “${r.data.message.text}” (${r.data.message.posted_by})` : "No message is shown.";
  }
  async function loadLog() {
    const who = $("#log-player", root).value.trim();
    const r = await api("GET", `/api/v1/admin/log?limit=100${who ? `&player=${encodeURIComponent(who)}` : ""}`);
    const out = $("#log-out", root);
    if (r.status !== 200) { failed(out, r, "The log could not be read"); return; }
    out.innerHTML = logTable(r.data.log, "moderation log");
  }
  $("#log-form", root).onsubmit = (e) => { e.preventDefault(); loadLog(); };
  $("#message-form", root).onsubmit = async (e) => {
    e.preventDefault();
    const r = await api("POST", "/api/v1/admin/message", { text: $("#message-text", root).value });
    if (r.status !== 200) { toast((r.data && r.data.error) || `refused (${r.status})`); return; }
    toast("The message is shown in the lobby and at every table");
    $("#message-text", root).value = "";
    loadMessage(); loadLog();
  };
  $("#message-withdraw", root).onclick = async () => {
    const r = await api("DELETE", "/api/v1/admin/message");
    toast(r.status === 200 ? "The message is withdrawn" : (r.data && r.data.error) || `refused (${r.status})`);
    loadMessage(); loadLog();
  };
  loadMessage(); loadLog();
  return { stop() {} };
}
