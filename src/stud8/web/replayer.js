// The hand replayer: a hand stepped through street by street and action by action,
// forwards and back, drawn by the table's own code (store.js builds the state from
// the hand's events, render.js draws it, showdown.js names the hands and the results).
//
// A stored hand comes from GET /api/v1/hands/ID/replay (a shareable link, #/replay/ID:
// the server sends only the cards its viewer may see); a hand history file dropped on
// the page (or picked) is read by the server (POST /api/v1/replays) and its hands
// listed to pick from. Nothing here decides what a viewer may see.

import { $, esc, session, prefs } from "./util.js";
import { go } from "./nav.js";
import { emptyTable, applyEvent, who } from "./store.js";
import { tableHTML } from "./render.js";
import { resultsHTML, resultsText, showdownDone, stepText } from "./showdown.js";
import { STREETS } from "./words.js";
import { amountText, money } from "./money.js";
import { GAMES, STRUCTURES } from "./lobby.js";
import { SHOW_STEP, applyShow, showLine, withShows } from "./replayshows.js";
import { equityPanel } from "./replayequity.js";

const ACTIONS = new Set(["bring_in", "complete", "bet", "raise", "call", "check", "fold"]);
const DEALING = new Set(["deal", "community", "first_to_act"]);
const RESULTS = new Set(["rake", "award", "end"]);
export const MAX_FILE_BYTES = 1 << 20; // the server's MAX_REPLAY_BYTES (it refuses more: 413)
export const PLAY_MS = 900; // a step's time when the hand plays by itself

let pendingFile = null; // a file dropped on another page, read when the replayer opens

/** Open the replayer with a file dropped elsewhere (the lobby, a table). */
export function replayFileLater(file) {
  pendingFile = file;
  go("#/replay");
}

/** The steps of a hand's events: [{end, kind, street}], `end` exclusive. The antes
 * are one step, a street's dealing one, each action one (a time-out with the action
 * it made), each returned bet, each hand shown or mucked, and the results one. */
export function stepsOf(events) {
  const steps = [];
  let street = 0;
  let i = 0;
  while (i < events.length) {
    const k = events[i].k;
    let j = i + 1;
    if (k === "street") street = events[i].street;
    const more = (set) => { while (j < events.length && set.has(events[j].k)) j++; };
    if (k === "ante") more(new Set(["ante"]));
    else if (k === "street") more(DEALING);
    else if (RESULTS.has(k)) more(RESULTS);
    else if (k === "timeout" && j < events.length && ACTIONS.has(events[j].k) && events[j].seat === events[i].seat) j++;
    const kind = k === "timeout" || ACTIONS.has(k) ? "action" : RESULTS.has(k) ? "results" : k;
    steps.push({ end: j, kind, street });
    i = j;
  }
  return steps;
}

/** The table's state after the first `count` events of the replay `r`: the state the
 * table drew then (every hand turned over at once: no reveal timing). The last hand
 * shown turns over on the screen only at the step that shows it. */
export function replayState(r, count) {
  const state = emptyTable(r.table || "replay");
  state.rules = {
    game: r.game, structure: r.structure, stakes: r.stakes, seats: r.max_seats,
    timeout_policy: r.timeout_policy, reveal_seconds: 0, currency: r.currency,
  };
  state.player = null; // no "Sit" buttons: nobody sits at a replay
  for (const p of r.players) {
    state.seats[p.seat] = { seat: p.seat, player: p.player, chips: p.stack, bot: false,
      sitting_out: false, connected: true, in_hand: true, leaving: false };
  }
  state.mySeat = r.viewer;
  applyEvent(state, { k: "hand_start", hand_id: r.hand_id, stacks: r.players.map((p) => [p.seat, p.stack]) }, 0);
  state.log = [];
  for (let i = 0; i < count; i++) {
    const ev = r.events[i];
    if (ev.k === SHOW_STEP) applyShow(state, ev);
    else applyEvent(state, ev, i + 1);
  }
  const hand = state.hand;
  hand.revealed = hand.showdown.length;
  const last = r.events[count - 1];
  hand.still = !last || (last.k !== "show" && last.k !== "muck");
  // who acts next, as the table's yellow ring shows it
  const next = r.events.slice(count).find((e) => ACTIONS.has(e.k) || e.k === "timeout" || e.k === "street");
  hand.to_act = !hand.over && next && next.k !== "street" ? next.seat : null;
  return state;
}

/** What a step says, for the step line and the hand's log: `state` is the state after
 * it, `from` its first event and `logFrom` the length of the log before it. */
export function stepLine(r, state, step, from, logFrom) {
  const events = r.events.slice(from, step.end);
  const first = events[0];
  if (step.kind === "ante") return `Antes: ${events.length} × ${money(state, first.amount)}`;
  if (step.kind === "street") {
    const ups = events.filter((e) => e.k === "deal" && e.face_up).map((e) => `${who(state, e.seat)} ${e.card || "?"}`);
    const community = events.find((e) => e.k === "community");
    return `${STREETS[first.street]}${ups.length ? `: ${ups.join(", ")}` : ""}${community ? `; community card ${community.card}` : ""}`;
  }
  if (step.kind === SHOW_STEP) return showLine(state, first);
  if (step.kind === "show" || step.kind === "muck") return stepText(state, { kind: step.kind, seat: first.seat });
  if (step.kind === "results") return state.hand.awards.length ? resultsText(state) : "The hand ends";
  if (step.kind === "cancel") return "The hand was cancelled: every chip goes back";
  const said = state.log.slice(logFrom);
  return said.length ? said.join("; ") : first.k;
}

const VIEW_HTML = `<header class="top"><button id="to-lobby">← Lobby</button>
  <h1>Hand replayer <small id="rp-title"></small></h1>
  <div class="tools"><label class="four"><input type="checkbox" id="four-colour" ${prefs.fourColor ? "checked" : ""}> 4-colour</label></div></header>
  <main class="replayer">
  <section class="rp-files" aria-label="open a hand history file">
    <div id="rp-drop" class="rp-drop"><span>Drop a hand history file here (PokerStars text, PHH, or another site's) or</span>
      <label class="rp-pick">choose a file <input type="file" id="rp-file" accept=".txt,.phh,.phhs,.jsonl,.json,.xml,text/plain"></label></div>
    <p id="rp-error" class="error" role="alert"></p>
    <div id="rp-hands"></div>
  </section>
  <div id="rp-view" hidden>
    <div class="rp-main">
      <div id="rp-table" class="table-area"></div>
      <div class="rp-bar" role="toolbar" aria-label="replay controls">
        <button id="rp-start" title="Start (Home)" aria-label="start of the hand">|‹ Start</button>
        <button id="rp-prev-street" title="Previous street (↑)" aria-label="previous street">« Street</button>
        <button id="rp-prev" title="Previous action (←)" aria-label="previous action">‹ Back</button>
        <button id="rp-play" title="Play (Space)" aria-label="play" aria-pressed="false">▶ Play</button>
        <button id="rp-next" title="Next action (→)" aria-label="next action">Next ›</button>
        <button id="rp-next-street" title="Next street (↓)" aria-label="next street">Street »</button>
        <button id="rp-end" title="End (End)" aria-label="end of the hand">End ›|</button>
      </div>
      <p id="rp-step" class="rp-step" aria-live="polite"></p>
      <div id="rp-results"></div>
    </div>
    <aside class="rp-side">
      <div class="rp-share" id="rp-share" hidden><label>Link to this hand <input id="rp-link" readonly></label>
        <button id="rp-copy">Copy link</button></div>
      <p class="rp-keys">Keys: ← → an action, ↑ ↓ a street, Home and End, Space plays.</p>
      <section class="log rp-log" aria-label="the hand, step by step"><ol id="rp-log"></ol></section>
    </aside>
  </div></main>`;

export function replayerView(app, handId) {
  app.innerHTML = VIEW_HTML;
  let replay = null; // the hand showing
  let steps = [];
  let at = 0; // how many steps are applied
  let stopped = false;
  const equity = equityPanel(app); // each hand's chances, street by street

  function show(r, shareable) {
    pause();
    equity.load(r, shareable);
    replay = withShows(r);
    steps = stepsOf(replay.events);
    at = 0;
    $("#rp-view").hidden = false;
    const game = `${GAMES[r.game] || r.game} ${STRUCTURES[r.structure] || r.structure}`;
    const stakes = `${amountText(r.stakes.small_bet, r.currency)}/${amountText(r.stakes.big_bet, r.currency)}${r.currency ? ` ${r.currency}` : ""}`;
    $("#rp-title").textContent = `Hand #${r.number}${r.table ? ` · ${r.table}` : ""} · ${game} ${stakes}`;
    $("#rp-share").hidden = !shareable;
    if (shareable) $("#rp-link").value = `${location.origin}${location.pathname}#/replay/${encodeURIComponent(r.hand_id)}`;
    draw();
  }

  function streetStarts() {
    return steps.map((s, i) => (s.kind === "street" ? i + 1 : -1)).filter((p) => p > 0);
  }

  let player = null; // the timer of a hand playing by itself

  function pause() {
    clearInterval(player);
    player = null;
    const b = $("#rp-play");
    if (b) { b.textContent = "▶ Play"; b.setAttribute("aria-pressed", "false"); b.setAttribute("aria-label", "play"); }
  }

  function play() {
    if (!replay) return;
    if (player) { pause(); return; }
    if (at === steps.length) at = 0; // from the start again
    const b = $("#rp-play");
    b.textContent = "❚❚ Pause";
    b.setAttribute("aria-pressed", "true");
    b.setAttribute("aria-label", "pause");
    draw();
    player = setInterval(() => {
      if (at >= steps.length) { pause(); return; }
      at += 1;
      draw();
      if (at >= steps.length) pause();
    }, PLAY_MS);
  }

  function moveTo(position) {
    if (!replay) return;
    pause(); // a step asked for stops the play
    at = Math.max(0, Math.min(steps.length, position));
    draw();
  }
  const moves = {
    start: () => moveTo(0),
    end: () => moveTo(steps.length),
    next: () => moveTo(at + 1),
    prev: () => moveTo(at - 1),
    nextStreet: () => moveTo(streetStarts().find((p) => p > at) ?? steps.length),
    prevStreet: () => moveTo([...streetStarts()].reverse().find((p) => p < at) ?? 0),
  };

  function draw() {
    if (stopped || !replay) return;
    const count = at ? steps[at - 1].end : 0;
    const state = replayState(replay, count);
    $("#rp-table").innerHTML = tableHTML(state, { fourColor: prefs.fourColor });
    const hand = state.hand;
    $("#rp-results").innerHTML = hand.over && showdownDone(hand) && hand.awards.length ? resultsHTML(state) : "";
    // the log of the steps so far, each said as it happened
    const lines = [];
    let logFrom = 0;
    for (let i = 0; i < at; i++) {
      const s = replayState(replay, steps[i].end);
      lines.push(stepLine(replay, s, steps[i], i ? steps[i - 1].end : 0, logFrom));
      logFrom = s.log.length;
    }
    $("#rp-log").innerHTML = lines.map((l, i) => `<li data-step="${i + 1}">${esc(l)}</li>`).join("");
    const log = $("#rp-log").parentElement;
    log.scrollTop = log.scrollHeight;
    const street = STREETS[hand.street] || "before the deal";
    const line = at ? lines[at - 1] : "the players and their stacks";
    const where = !at || line.startsWith(street) ? "" : `${street} · `;
    $("#rp-step").textContent = `Step ${at} of ${steps.length} · ${where}${line}`;
    $("#rp-start").disabled = $("#rp-prev").disabled = $("#rp-prev-street").disabled = at === 0;
    $("#rp-end").disabled = $("#rp-next").disabled = $("#rp-next-street").disabled = at === steps.length;
    window.stud8replay = { state, at, steps: steps.length, replay };
    equity.draw(state, replay);
  }

  function error(text) {
    $("#rp-error").textContent = text;
  }

  async function load(id) {
    error("");
    const headers = session.token ? { Authorization: `Bearer ${session.token}` } : {};
    let r;
    try {
      r = await fetch(`/api/v1/hands/${encodeURIComponent(id)}/replay`, { headers });
    } catch {
      error("The server cannot be reached");
      return;
    }
    const data = await r.json().catch(() => ({}));
    if (stopped) return;
    if (r.status !== 200) { error(data.error || `This hand cannot be replayed (${r.status})`); return; }
    show(data, true);
  }

  /** Nothing to replay: a file that could not be read leaves no other hand showing. */
  function clear() {
    pause();
    replay = null;
    $("#rp-view").hidden = true;
    $("#rp-title").textContent = "";
    window.stud8replay = null;
    equity.clear();
  }

  async function readFile(file) {
    error("");
    clear();
    $("#rp-hands").innerHTML = "";
    if (!session.token) { error("Log in to open a hand history file"); return; }
    if (file.size > MAX_FILE_BYTES) {
      error(`${file.name} is too large (${file.size} bytes): the replayer reads files of up to ${MAX_FILE_BYTES} bytes`);
      return;
    }
    $("#rp-hands").innerHTML = `<p class="muted-dark">Reading ${esc(file.name)}…</p>`;
    let r;
    try {
      r = await fetch(`/api/v1/replays?name=${encodeURIComponent(file.name)}`, {
        method: "POST", headers: { Authorization: `Bearer ${session.token}`, "Content-Type": "application/octet-stream" }, body: file,
      });
    } catch {
      error("The server cannot be reached");
      return;
    }
    const data = await r.json().catch(() => ({}));
    if (stopped) return;
    $("#rp-hands").innerHTML = "";
    if (r.status !== 200) { error(data.error || `The file cannot be read (${r.status})`); return; }
    listHands(file.name, data);
  }

  function listHands(name, data) {
    const notes = [];
    if (data.more) notes.push(`only its first ${data.hands.length} hands are read`);
    if (data.problems.length) notes.push(`${data.problems.length} could not be replayed`);
    const items = data.hands.map((h, i) => {
      const names = h.players.map((p) => p.player).join(", ");
      return `<li><button type="button" class="rp-hand" data-index="${i}">Hand #${esc(h.number)}</button> <small>${esc(h.table)} · ${esc(names)}</small></li>`;
    });
    const problems = data.problems.length
      ? `<details class="rp-problems"><summary>Hands that could not be replayed (${data.problems.length})</summary><ul>${data.problems.map((p) => `<li>${esc(p)}</li>`).join("")}</ul></details>` : "";
    $("#rp-hands").innerHTML = `<p class="muted-dark">${esc(name)}: ${data.hands.length} hand${data.hands.length === 1 ? "" : "s"} (${esc(data.format)})${notes.length ? `; ${esc(notes.join("; "))}` : ""}</p>
      ${data.hands.length > 1 ? `<ol class="rp-list">${items.join("")}</ol>` : ""}${problems}`;
    const pick = (i) => {
      for (const b of app.querySelectorAll("button.rp-hand")) b.setAttribute("aria-pressed", String(Number(b.dataset.index) === i));
      show(data.hands[i], false);
    };
    for (const b of app.querySelectorAll("button.rp-hand")) b.onclick = () => pick(Number(b.dataset.index));
    pick(0);
  }

  const bind = { "#rp-start": "start", "#rp-end": "end", "#rp-next": "next", "#rp-prev": "prev", "#rp-next-street": "nextStreet", "#rp-prev-street": "prevStreet" };
  for (const [sel, move] of Object.entries(bind)) $(sel).onclick = () => moves[move]();
  $("#rp-play").onclick = () => play();
  moves.play = play;
  const KEYS = { ArrowRight: "next", ArrowLeft: "prev", ArrowDown: "nextStreet", ArrowUp: "prevStreet", Home: "start", End: "end", " ": "play" };
  function onKey(e) {
    if (e.target instanceof HTMLInputElement || e.ctrlKey || e.metaKey || e.altKey || !replay) return;
    if (e.key === " " && e.target instanceof HTMLButtonElement) return; // the button's own press
    const move = KEYS[e.key];
    if (move) { e.preventDefault(); moves[move](); }
  }
  function onDragOver(e) {
    if (![...(e.dataTransfer?.types || [])].includes("Files")) return;
    e.preventDefault();
    $("#rp-drop").classList.add("over");
  }
  function onDragLeave() { $("#rp-drop").classList.remove("over"); }
  function onDrop(e) {
    const file = e.dataTransfer?.files?.[0];
    if (!file) return;
    e.preventDefault();
    e.stopPropagation();
    onDragLeave();
    readFile(file);
  }
  document.addEventListener("keydown", onKey);
  document.addEventListener("dragover", onDragOver);
  document.addEventListener("dragleave", onDragLeave);
  document.addEventListener("drop", onDrop);
  $("#rp-file").onchange = (e) => { const f = e.target.files[0]; if (f) readFile(f); e.target.value = ""; };
  $("#to-lobby").onclick = () => go("#/");
  $("#four-colour").onchange = (e) => { prefs.fourColor = e.target.checked; draw(); };
  $("#rp-copy").onclick = async () => {
    const input = $("#rp-link");
    try { await navigator.clipboard.writeText(input.value); $("#rp-copy").textContent = "Copied"; } catch {
      input.select(); // no clipboard (not a secure page): selected, to copy by hand
    }
  };

  if (handId) load(handId);
  else if (pendingFile) { const f = pendingFile; pendingFile = null; readFile(f); }
  return {
    stop() {
      stopped = true;
      pause();
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("dragover", onDragOver);
      document.removeEventListener("dragleave", onDragLeave);
      document.removeEventListener("drop", onDrop);
      window.stud8replay = null;
      equity.stop();
    },
  };
}
