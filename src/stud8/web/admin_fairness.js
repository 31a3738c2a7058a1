// The console's fairness: the last report kept (rng-report's tests, in short: the
// same on every node, after a restart too) and a button that runs a short one
// (seconds; off the room's loop), kept as the last.

import { $, esc, api } from "./util.js";
import { failed, when } from "./admin.js";

const sentence = (text) => text.charAt(0).toUpperCase() + text.slice(1);

function reportHTML(f) {
  if (!f.made_at) return `<p class="muted-dark">No report has been run yet (stud8 admin rng-report runs a long one).</p>`;
  const failedTests = f.tests.filter((t) => t.verdict === "fail");
  return `<p class="verdict verdict-${esc(f.verdict)}" id="fairness-verdict">${esc(f.verdict.toUpperCase())}: ${f.deals.toLocaleString()} deals, ${f.tests.length} tests, ${f.seconds} s</p>
    <p id="fairness-made">Run ${when(f.made_at)} by ${esc(f.run_by || "—")}; kept for every node.</p>
    <p class="muted-dark">${esc(sentence(f.description))}. ${esc(sentence(f.power))}</p>
    ${failedTests.length ? `<ul class="problems">${failedTests.map((t) => `<li>${esc(t.title)} (p ${t.adjusted})</li>`).join("")}</ul>` : ""}
    <details><summary>Every test</summary><table class="admin-table" aria-label="fairness tests"><thead><tr><th>Test</th><th>p</th><th>Verdict</th></tr></thead>
    <tbody>${f.tests.map((t) => `<tr><td>${esc(t.title)}</td><td>${t.p_value === null ? "—" : t.p_value.toPrecision(3)}</td><td class="verdict-${esc(t.verdict.replace(" ", "-"))}">${esc(t.verdict)}</td></tr>`).join("")}</tbody></table></details>`;
}

export function fairnessSection(root) {
  root.innerHTML = `<form id="fairness-form" class="row" aria-label="run a fairness report">
    <label>Deals <input id="fairness-deals" type="number" min="1000" max="200000" step="1000" value="25000"></label>
    <button type="submit" id="fairness-run">Run a short report</button></form>
    <p id="fairness-state" role="status" class="muted-dark"></p><div class="admin-out" id="fairness-out">Loading…</div>`;
  let stopped = false;
  const state = $("#fairness-state", root);
  async function load() {
    const r = await api("GET", "/api/v1/admin/fairness");
    if (stopped) return;
    const out = $("#fairness-out", root);
    if (r.status !== 200) { failed(out, r, "The report could not be read"); return; }
    out.innerHTML = reportHTML(r.data);
    $("#fairness-run", root).disabled = r.data.running;
    state.textContent = r.data.running ? "A report is running…" : "";
  }
  $("#fairness-form", root).onsubmit = async (e) => {
    e.preventDefault();
    const button = $("#fairness-run", root);
    button.disabled = true;
    state.textContent = "A report is running…";
    const r = await api("POST", "/api/v1/admin/fairness", { deals: Number($("#fairness-deals", root).value) });
    if (stopped) return;
    button.disabled = false;
    state.textContent = r.status === 200 ? "Done." : (r.data && r.data.error) || `refused (${r.status})`;
    if (r.status === 200) $("#fairness-out", root).innerHTML = reportHTML(r.data);
  };
  load();
  return { stop() { stopped = true; } };
}
