// The operator's console, #/admin: its sections as tabs (Players, Tables, Accounts,
// Journal, Rake, Moderation, Nodes, Fairness), each a tab panel headed by its name.
// Players never reach it: the lobby links it for operators only, and every one of
// its REST endpoints answers them 403 (the page then says so).

import { $, $$, esc, session } from "./util.js";
import { go, header, bindLogout } from "./nav.js";
import { refreshBank } from "./hud.js";
import { playersSection, tablesSection, nodesSection } from "./admin_now.js";
import { accountsSection, moderationSection } from "./admin_accounts.js";
import { journalSection, rakeSection } from "./admin_books.js";
import { fairnessSection } from "./admin_fairness.js";

const SECTIONS = [
  ["players", "Players", playersSection],
  ["tables", "Tables", tablesSection],
  ["accounts", "Accounts", accountsSection],
  ["journal", "Journal", journalSection],
  ["rake", "Rake", rakeSection],
  ["moderation", "Moderation", moderationSection],
  ["nodes", "Nodes", nodesSection],
  ["fairness", "Fairness", fairnessSection],
];

/** The console at `#/admin/<section>` (Players by default). */
export function adminView(app, key) {
  const active = SECTIONS.find(([k]) => k === key) ? key : "players";
  const tabs = SECTIONS.map(([k, title]) =>
    `<button role="tab" id="admin-tab-${k}" aria-controls="admin-${k}" aria-selected="${k === active}" tabindex="${k === active ? 0 : -1}" class="admin-tab">${title}</button>`).join("");
  const panels = SECTIONS.map(([k, title]) =>
    `<section role="tabpanel" id="admin-${k}" class="admin-panel" aria-labelledby="admin-h-${k}" ${k === active ? "" : "hidden"}>
      <h2 id="admin-h-${k}">${title}</h2><div class="admin-body"></div></section>`).join("");
  app.innerHTML = `${header()}<nav class="tabs" aria-label="console links"><a href="#/" class="tab" id="tab-lobby">← Lobby</a><a href="#/admin" class="tab active" aria-current="page">Console</a></nav>
  <main class="admin"><h1 class="sr-only">Operator's console</h1>
  <p class="admin-refused error" id="admin-refused" role="alert" hidden></p>
  <div role="tablist" aria-label="console sections" class="admin-tabs">${tabs}</div>${panels}</main>`;
  bindLogout();
  refreshBank();
  if (!session.operator) refused("The console is for operators only.");

  let shown = null; // the section drawn: {stop()}
  function open(k) {
    if (shown) shown.stop();
    for (const [other] of SECTIONS) {
      const on = other === k;
      const tab = $(`#admin-tab-${other}`);
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
      $(`#admin-${other}`).hidden = !on;
      if (!on) $(`#admin-${other} .admin-body`).innerHTML = ""; // drawn afresh when opened
    }
    const [, , section] = SECTIONS.find(([other]) => other === k);
    shown = section($(`#admin-${k} .admin-body`), { refused }) || { stop() {} };
    if (location.hash !== `#/admin/${k}`) history.replaceState(null, "", `#/admin/${k}`);
  }
  function refused(text) {
    const el = $("#admin-refused");
    el.hidden = false;
    el.textContent = text;
  }

  const list = $("[role=tablist]");
  list.onclick = (e) => {
    const b = e.target.closest("[role=tab]");
    if (b) open(b.id.replace("admin-tab-", ""));
  };
  // the tabs' keys: left and right move between them, Home and End to the ends
  list.onkeydown = (e) => {
    const tabs = $$("[role=tab]", list);
    const at = tabs.indexOf(document.activeElement);
    if (at < 0) return;
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const tab = tabs[(to + tabs.length) % tabs.length];
    tab.focus();
    open(tab.id.replace("admin-tab-", ""));
  };
  open(active);
  return { stop() { if (shown) shown.stop(); } };
}

/** An answer's error, said in `el` (a 403: operators only). */
export function failed(el, r, what) {
  const why = r.status === 403 ? "operators only" : (r.data && r.data.error) || `status ${r.status}`;
  el.innerHTML = `<p class="error" role="alert">${esc(what)}: ${esc(why)}</p>`;
}

/** A short time (UTC ISO 8601 → the browser's local date and time). */
export function when(iso) {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? esc(iso) : esc(d.toLocaleString());
}

export function goTo(section) { go(`#/admin/${section}`); }
