// The console's books: the ledger's journal (by account, kind and day; every
// transaction with its entries and memo; as CSV), the audit's figures, and the
// rake by day, by table and by stakes.

import { $, esc, api, apiText, toast } from "./util.js";
import { failed, when } from "./admin.js";

const KINDS = ["", "grant", "buy_in", "top_up", "cash_out", "hand_settlement", "refund", "rake", "credit", "debit", "tournament_buy_in", "tournament_unregister", "tournament_prizes", "tournament_cancel"];

function query(root) {
  const q = new URLSearchParams();
  for (const [key, id] of [["account", "#j-account"], ["kind", "#j-kind"], ["day", "#j-day"]]) {
    const v = $(id, root).value.trim();
    if (v) q.set(key, v);
  }
  q.set("limit", "100");
  return q;
}

function auditHTML(a) {
  const figure = (label, v) => `<div><dt>${label}</dt><dd>${v}</dd></div>`;  // a pair per cell
  return `<p class="${a.ok ? "ok" : "error"}" role="status">${a.ok ? "The books balance" : `${a.problems.length} problem(s)`}</p>
    <dl class="figures" aria-label="the audit's figures">${figure("Issued", a.issued)}${figure("Held", a.held)}${figure("Banks", a.banks)}${figure("Tables", a.tables)}
    ${figure("Pots", a.pots)}${figure("Rake", a.rake)}${figure("Prizes", a.prizes)}${figure("Fees", a.fees)}
    ${figure("Accounts", a.accounts)}${figure("Transactions", a.transactions)}${figure("Entries", a.entries)}</dl>
    ${a.problems.length ? `<ul class="problems">${a.problems.map((p) => `<li>${esc(p)}</li>`).join("")}</ul>` : ""}`;
}

function journalHTML(txns) {
  const rows = txns.map((t) => `<tr><td>${t.id}</td><td>${when(t.at)}</td><td>${esc(t.kind)}</td><td>${t.hand_id ? `<a href="#/replay/${encodeURIComponent(t.hand_id)}" target="_blank" rel="noopener">${esc(t.hand_id)}</a>` : ""}</td>
    <td>${esc(t.memo)}</td><td><ul class="entries">${t.entries.map((e) => `<li><span>${esc(e.account)}</span> <b class="${e.amount < 0 ? "minus" : "plus"}">${e.amount > 0 ? "+" : ""}${e.amount}</b></li>`).join("")}</ul></td></tr>`).join("");
  return `<table class="admin-table journal" aria-label="journal"><thead><tr><th>#</th><th>When</th><th>Kind</th><th>Hand</th><th>Memo</th><th>Entries</th></tr></thead>
    <tbody>${rows || `<tr><td colspan="6">No transactions</td></tr>`}</tbody></table>`;
}

export function journalSection(root) {
  root.innerHTML = `<h3>Audit</h3><div class="admin-out" id="audit-out">Loading…</div>
    <h3>Transactions</h3><form id="journal-form" class="row" aria-label="filter the journal">
    <label>Account <input id="j-account" placeholder="bank:ann, rake:t1, …" autocomplete="off"></label>
    <label>Kind <select id="j-kind">${KINDS.map((k) => `<option value="${k}">${k || "any"}</option>`).join("")}</select></label>
    <label>Day <input id="j-day" type="date"></label><button type="submit">Show</button>
    <button type="button" id="journal-csv">Export CSV</button></form>
    <div class="admin-out" id="journal-out">Loading…</div>`;
  async function audit() {
    const r = await api("GET", "/api/v1/admin/audit");
    const out = $("#audit-out", root);
    if (r.status !== 200) failed(out, r, "The audit could not be run");
    else out.innerHTML = auditHTML(r.data);
  }
  async function load() {
    const r = await api("GET", `/api/v1/admin/journal?${query(root)}`);
    const out = $("#journal-out", root);
    if (r.status !== 200) failed(out, r, "The journal could not be read");
    else out.innerHTML = journalHTML(r.data.transactions);
  }
  $("#journal-form", root).onsubmit = (e) => { e.preventDefault(); load(); };
  $("#journal-csv", root).onclick = async () => {
    const q = query(root);
    q.set("format", "csv");
    q.set("limit", "1000");
    const r = await apiText(`/api/v1/admin/journal?${q}`);
    if (r.status !== 200) { toast(`The journal could not be exported (${r.status})`); return; }
    const url = URL.createObjectURL(new Blob([r.text], { type: "text/csv" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = "stud8-journal.csv";
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  audit(); load();
  return { stop() {} };
}

export function rakeSection(root) {
  const by = (k, label) => `<label class="by"><input type="radio" name="rake-by" value="${k}" ${k === "day" ? "checked" : ""}> ${label}</label>`;
  root.innerHTML = `<fieldset class="row rake-by"><legend>Sum the rake by</legend>${by("day", "Day")}${by("table", "Table")}${by("stakes", "Stakes")}</fieldset>
    <div class="admin-out" id="rake-out">Loading…</div>`;
  async function load() {
    const k = root.querySelector("input[name=rake-by]:checked").value;
    const r = await api("GET", `/api/v1/admin/rake?by=${k}`);
    const out = $("#rake-out", root);
    if (r.status !== 200) { failed(out, r, "The rake could not be read"); return; }
    const head = { day: "Day", table: "Table", stakes: "Stakes" }[r.data.by];
    out.innerHTML = `<table class="admin-table" aria-label="rake by ${esc(r.data.by)}"><thead><tr><th>${head}</th><th>Hands</th><th>Rake</th></tr></thead>
      <tbody>${r.data.lines.map((l) => `<tr><td>${esc(l.key)}</td><td>${l.transactions}</td><td>${l.rake}</td></tr>`).join("") || `<tr><td colspan="3">No rake taken</td></tr>`}</tbody>
      <tfoot><tr><th>Total</th><td></td><td id="rake-total">${r.data.total}</td></tr></tfoot></table>`;
  }
  root.onchange = (e) => { if (e.target.name === "rake-by") load(); };
  load();
  return { stop() {} };
}
