// The stud8 browser client: log in, the lobby, a table.

import { TableSocket } from "./socket.js";
import { emptyTable, applySnapshot, applyEvent, applyTurn } from "./store.js";
import { tableHTML, actionsHTML } from "./render.js";

const $ = (sel, root = document) => root.querySelector(sel);
const app = $("#app");
const banner = $("#banner");
const esc = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

const session = {
  get token() { return localStorage.getItem("stud8.token"); },
  get name() { return localStorage.getItem("stud8.name"); },
  set(name, token) { localStorage.setItem("stud8.name", name); localStorage.setItem("stud8.token", token); },
  clear() { localStorage.removeItem("stud8.name"); localStorage.removeItem("stud8.token"); },
};
const prefs = {
  get fourColor() { return localStorage.getItem("stud8.fourColor") === "1"; },
  set fourColor(v) { localStorage.setItem("stud8.fourColor", v ? "1" : "0"); },
};

async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (session.token) headers.Authorization = `Bearer ${session.token}`;
  const r = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  let data = {};
  try { data = await r.json(); } catch { data = {}; }
  return { status: r.status, data };
}

function showBanner(text, kind = "warn") {
  if (!text) { banner.hidden = true; banner.textContent = ""; return; }
  banner.hidden = false;
  banner.className = `banner ${kind}`;
  banner.textContent = text;
}

let toastTimer = null;
function toast(text) {
  const el = $("#toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
}

// ------------------------------------------------------------------ views

let current = null; // the view that is showing: {stop()}

function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function route() {
  if (current) current.stop();
  current = null;
  showBanner(null);
  const hash = location.hash || "#/";
  const m = hash.match(/^#\/table\/([^/?]+)(?:\?buyin=(\d+))?$/);
  if (!session.token) {
    current = loginView();
  } else if (m) {
    current = tableView(decodeURIComponent(m[1]), m[2] ? Number(m[2]) : null);
  } else {
    current = lobbyView();
  }
}

function header() {
  return `<header class="top"><h1>stud8 <small>Seven Card Stud Hi/Lo</small></h1>
  <div class="me">${session.name ? `<span>${esc(session.name)}</span> <button id="logout">Log out</button>` : ""}</div></header>`;
}

function bindLogout() {
  const b = $("#logout");
  if (b) b.onclick = async () => { await api("POST", "/api/v1/logout"); session.clear(); go("#/"); };
}

function loginView() {
  app.innerHTML = `${header()}<main class="login">
  <form id="login-form" aria-label="log in or register">
    <h2>Take a seat</h2>
    <label>Name <input id="name" name="name" autocomplete="username" required minlength="2"></label>
    <label>Password <input id="password" name="password" type="password" autocomplete="current-password" required></label>
    <div class="row"><button type="submit" id="login">Log in</button><button type="button" id="register">Register</button></div>
    <p class="error" id="login-error" role="alert"></p>
  </form></main>`;
  const form = $("#login-form");
  const error = $("#login-error");
  const creds = () => ({ name: $("#name").value.trim(), password: $("#password").value });
  async function login() {
    const r = await api("POST", "/api/v1/login", creds());
    if (r.status !== 200) { error.textContent = r.data.error || "could not log in"; return; }
    session.set(creds().name, r.data.token);
    go("#/");
  }
  form.onsubmit = (e) => { e.preventDefault(); login(); };
  $("#register").onclick = async () => {
    const r = await api("POST", "/api/v1/register", creds());
    if (r.status !== 201) { error.textContent = r.data.error || "could not register"; return; }
    await login();
  };
  return { stop() {} };
}

function lobbyView() {
  app.innerHTML = `${header()}<main class="lobby"><h2>Tables</h2>
  <table class="tables" aria-label="tables"><thead><tr><th>Table</th><th>Game</th><th>Stakes</th><th>Seats</th><th>Players</th><th>Avg pot</th><th></th></tr></thead>
  <tbody id="tables"><tr><td colspan="7">Loading…</td></tr></tbody></table></main>`;
  bindLogout();
  let stopped = false;
  async function load() {
    const r = await api("GET", "/api/v1/tables");
    if (stopped) return;
    const body = $("#tables");
    if (r.status !== 200) { body.innerHTML = `<tr><td colspan="7">Could not load the tables</td></tr>`; return; }
    // keep what the player is typing in a buy-in box
    const typed = {};
    for (const input of body.querySelectorAll("input.buyin")) typed[input.dataset.table] = input.value;
    body.innerHTML = r.data.tables.map((t) => {
      const s = t.stakes;
      const game = `${t.game === "stud_hi_lo" ? "Stud Hi/Lo" : t.game} ${t.structure.replace("_", " ")}`;
      const id = esc(t.table_id);
      const full = t.seats_taken >= t.seats;
      const value = typed[t.table_id] || t.buy_in.min;
      return `<tr data-table="${id}"><td>${id}</td><td>${esc(game)}</td>
        <td>${s.small_bet}/${s.big_bet} <small>ante ${s.ante}, bring-in ${s.bring_in}</small></td>
        <td>${t.seats_taken}/${t.seats}</td><td class="players">${t.players.map(esc).join(", ") || "—"}</td>
        <td>${Math.round(t.average_pot)}</td>
        <td class="go"><button class="observe" data-table="${id}">Observe</button>
        <input class="buyin" data-table="${id}" type="number" min="${t.buy_in.min}" max="${t.buy_in.max}" value="${esc(value)}" aria-label="buy-in for table ${id} (${t.buy_in.min} to ${t.buy_in.max})">
        <button class="sit" data-table="${id}" ${full ? "disabled" : ""}>Sit</button></td></tr>`;
    }).join("") || `<tr><td colspan="7">No tables open</td></tr>`;
    for (const b of body.querySelectorAll("button.observe")) b.onclick = () => go(`#/table/${b.dataset.table}`);
    for (const b of body.querySelectorAll("button.sit")) {
      b.onclick = () => {
        const amount = body.querySelector(`input.buyin[data-table="${b.dataset.table}"]`).value;
        go(`#/table/${b.dataset.table}?buyin=${Number(amount)}`);
      };
    }
  }
  load();
  const timer = setInterval(load, 5000);
  return { stop() { stopped = true; clearInterval(timer); } };
}

function tableView(tableId, buyIn) {
  const state = emptyTable(tableId);
  state.player = session.name;
  let pendingSit = buyIn;
  let frame = 0;
  app.innerHTML = `<header class="top table-top"><button id="to-lobby" aria-label="back to the lobby">← Lobby</button>
  <h1>Table ${esc(tableId)}</h1>
  <div class="tools">
    <label class="four"><input type="checkbox" id="four-colour" ${prefs.fourColor ? "checked" : ""}> 4-colour</label>
    <button id="sit-out" hidden>Sit out</button><button id="leave" hidden>Leave seat</button>
  </div></header>
  <main class="room"><div id="table" class="table-area"></div>
  <div id="actions" class="action-bar" aria-live="polite"></div>
  <section class="log" aria-label="hand log"><ol id="log"></ol></section></main>`;

  const socket = new TableSocket({
    tableId,
    token: session.token,
    lastSeen: () => state.seq,
    onMessage,
    onStatus(status, delay) {
      if (status === "lost") showBanner(`Connection lost — reconnecting in ${Math.ceil(delay / 1000)}s…`);
      else if (status === "reconnecting") showBanner("Reconnecting…");
      else if (status === "not-sent") toast("Not connected: try again in a moment");
      else if (status === "open") showBanner(null);
    },
    onFatal(code, reason) {
      if (code === 4401) { session.clear(); go("#/"); return; }
      showBanner(`This table is not available: ${reason || code}`, "error");
    },
  });

  function onMessage(msg) {
    const { t, v, d } = msg;
    if (t === "welcome") {
      state.player = d.player;
      state.mySeat = d.seat;
    } else if (t === "snapshot") {
      applySnapshot(state, d, v);
      if (pendingSit !== null && state.mySeat === null && state.player) {
        const free = [1, 2, 3, 4, 5, 6, 7, 8].find((s) => !state.seats[s]);
        if (free) socket.send("sit", { seat: free, amount: pendingSit });
      }
      if (pendingSit !== null) history.replaceState(null, "", `#/table/${encodeURIComponent(tableId)}`);
      pendingSit = null;
    } else if (t === "event") {
      if (state.seq !== null && v <= state.seq) return; // seen already
      applyEvent(state, d, v);
    } else if (t === "turn") {
      applyTurn(state, d, v);
    } else if (t === "reject") {
      toast(d.reason);
    }
    schedule();
  }

  function schedule() {
    if (frame) return;
    frame = requestAnimationFrame(() => { frame = 0; draw(); });
  }

  function draw() {
    const opts = { fourColor: prefs.fourColor };
    $("#table").innerHTML = tableHTML(state, opts);
    $("#actions").innerHTML = actionsHTML(state);
    $("#log").innerHTML = state.log.slice(-12).map((l) => `<li>${esc(l)}</li>`).join("");
    const seated = state.mySeat !== null;
    const me = seated ? state.seats[state.mySeat] : null;
    $("#sit-out").hidden = !seated;
    $("#sit-out").textContent = me && me.sitting_out ? "Come back" : "Sit out";
    $("#leave").hidden = !seated;
    for (const b of document.querySelectorAll(".sit-here")) {
      b.onclick = () => {
        const amount = Number(prompt("Buy-in", "100"));
        if (amount > 0) socket.send("sit", { seat: Number(b.dataset.seat), amount });
      };
    }
    for (const b of document.querySelectorAll("button.act")) b.onclick = () => act(b);
    tick();
  }

  function act(button) {
    const kind = button.dataset.kind;
    const data = { kind };
    if (["complete", "bet", "raise"].includes(kind)) {
      const box = document.querySelector(`input.amount[data-kind="${kind}"]`);
      data.amount = box ? Number(box.value) : Number(button.dataset.to);
    }
    for (const b of document.querySelectorAll("button.act")) b.disabled = true;
    socket.send("act", data);
  }

  function tick() {
    const clock = document.querySelector(".seat.to-act .clock");
    if (!clock || !state.timer) return;
    const left = Math.max(0, (state.timer.endsAt - Date.now()) / 1000);
    const phase = { action: "", time_bank: " (time bank)", reconnect: " (extra time)" }[state.timer.phase] || "";
    clock.querySelector(".secs").textContent = `${Math.ceil(left)}s`;
    clock.classList.toggle("bank", state.timer.phase !== "action");
    clock.title = `${Math.ceil(left)} seconds to act${phase}`;
    clock.setAttribute("aria-label", clock.title);
  }
  const ticker = setInterval(tick, 250);

  function onKey(e) {
    if (e.target instanceof HTMLInputElement || e.ctrlKey || e.metaKey || e.altKey) return;
    const b = document.querySelector(`button.act[data-key="${e.key.toLowerCase()}"]`);
    if (b && !b.disabled) { e.preventDefault(); act(b); }
  }
  document.addEventListener("keydown", onKey);

  $("#to-lobby").onclick = () => go("#/");
  $("#four-colour").onchange = (e) => { prefs.fourColor = e.target.checked; schedule(); };
  $("#sit-out").onclick = () => {
    const me = state.seats[state.mySeat];
    socket.send(me && me.sitting_out ? "come_back" : "sit_out");
  };
  $("#leave").onclick = () => socket.send("leave");

  window.stud8 = { state, socket };
  return {
    stop() {
      socket.close();
      clearInterval(ticker);
      document.removeEventListener("keydown", onKey);
      if (frame) cancelAnimationFrame(frame);
      window.stud8 = null;
    },
  };
}

window.addEventListener("hashchange", route);
route();
