// The stud8 browser client: log in, the lobby, a table. Plain ES modules, no build step.

import { $, session, api, showBanner, toast } from "./util.js";
import { go, header } from "./nav.js";
import { loadSettings, settingsChanged } from "./settings.js";
import { lobbyView } from "./lobby.js";
import { tableView } from "./table.js";
import { tablesView, parseTables, rememberOpen } from "./tables.js";
import { replayerView, replayFileLater } from "./replayer.js";
import { joinCode, joinView } from "./invite.js";
import { tournamentsView, tournamentView } from "./tournaments.js";
import { adminView } from "./admin.js";

const app = $("#app");
let current = null; // the view that is showing: {stop()}

function route() {
  const tables = session.token ? parseTables(location.hash || "") : null;
  // another set of tables: the page of tables shows it, the ones kept open playing on
  if (tables && tables.length && current && current.update && current.update(tables)) return;
  if (current) current.stop();
  current = null;
  showBanner(null);
  const hash = location.hash || "#/";
  const m = hash.match(/^#\/table\/([^/?]+)(?:\?(.*))?$/);
  const t = hash.match(/^#\/tournament\/(\d{1,12})$/);
  const replay = hash.match(/^#\/replay(?:\/([^/?]+))?\/?$/);
  const code = joinCode(hash);
  const admin = hash.match(/^#\/admin(?:\/([a-z]+))?$/);
  if (replay) {
    // a link to a hand is for anyone: without a log-in, the cards an observer sees
    current = replayerView(app, replay[1] ? decodeURIComponent(replay[1]) : null);
  } else if (!session.token) {
    current = loginView(code);
  } else if (code) {
    current = joinView(app, code);
  } else if (m) {
    const query = Object.fromEntries(new URLSearchParams(m[2] || ""));
    rememberOpen([decodeURIComponent(m[1])]); // the lobby's "Open beside" adds to it
    current = tableView(app, decodeURIComponent(m[1]), query);
  } else if (tables && tables.length) {
    current = tablesView(app, tables); // several tables in one page (tables.js)
  } else if (t) {
    current = tournamentView(app, t[1]);
  } else if (admin) {
    current = adminView(app, admin[1]); // the operator's console (its REST refuses players)
  } else if (hash === "#/tournaments") {
    current = tournamentsView(app);
  } else {
    current = lobbyView(app);
  }
}

window.addEventListener("stud8:settings", settingsChanged); // each change, kept with the account

function loginView(code) {
  // an invitation link opened logged out: log in, then it opens its table
  const invited = code ? `<p class="invited">You are invited to a private table: log in or register to join it.</p>` : "";
  app.innerHTML = `${header()}<main class="login">
  <form id="login-form" aria-label="log in or register">
    <h2>Take a seat</h2>${invited}
    <label>Name <input id="name" name="name" autocomplete="username" required minlength="2"></label>
    <label>Password <input id="password" name="password" type="password" autocomplete="current-password" required></label>
    <div class="row"><button type="submit" id="login">Log in</button><button type="button" id="register">Register</button></div>
    <p class="error" id="login-error" role="alert"></p>
  </form></main>`;
  const error = $("#login-error");
  const creds = () => ({ name: $("#name").value.trim(), password: $("#password").value });
  async function login() {
    const r = await api("POST", "/api/v1/login", creds());
    if (r.status !== 200) { error.textContent = r.data.error || "could not log in"; return; }
    // the log-in answers the name as registered and the role: operators get the create-table form
    session.set(r.data.name || creds().name, r.data.token);
    session.operator = r.data.operator === true;
    await loadSettings(); // the account's settings, kept on the server, replace this browser's
    go(code ? `#/join/${code}` : "#/");
  }
  $("#login-form").onsubmit = (e) => { e.preventDefault(); login(); };
  $("#register").onclick = async () => {
    const r = await api("POST", "/api/v1/register", creds());
    if (r.status !== 201) { error.textContent = r.data.error || "could not register"; return; }
    await login();
  };
  return { stop() {} };
}

// A hand history file dropped on the lobby opens the replayer with it (the replayer
// takes its own drops); at a table it is refused (leaving the table would be a
// surprise), and never opened by the browser in place of the page.
const inReplayer = () => (location.hash || "").startsWith("#/replay");
const atTable = () => /^#\/tables?\//.test(location.hash || "");
const filesIn = (e) => [...(e.dataTransfer?.types || [])].includes("Files");
document.addEventListener("dragover", (e) => { if (filesIn(e) && !inReplayer()) e.preventDefault(); });
document.addEventListener("drop", (e) => {
  const file = e.dataTransfer?.files?.[0];
  if (!file || inReplayer()) return;
  e.preventDefault();
  if (atTable()) toast("To replay a hand history file, open the Hand replayer from the lobby");
  else replayFileLater(file);
});

window.addEventListener("hashchange", route);
route();
