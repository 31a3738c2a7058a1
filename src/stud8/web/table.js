// The table view: one websocket, the state it builds, and the screen drawn from it.
// A page shows one (#/table/ID) or up to four, each in a tile of #/tables/... (tables.js):
// a view keeps everything of its own (socket, state, timers, sound, chat, log), finds its
// elements inside its own root, and in a tile its ids carry the tile's prefix.

import { $, esc, session, prefs, showBanner, toast, announce, setHTML } from "./util.js";
import { decorateSeats, loadNotes } from "./notes.js";
import { go } from "./nav.js";
import { TableSocket } from "./socket.js";
import { emptyTable, applySnapshot, applyEvent, applyTurn, maxSeats, note, noteSeating, handTold } from "./store.js";
import { tableHTML } from "./render.js";
import { actionBarHTML, barKey, barMode, bindActionBar, preActionChoice } from "./actions.js";
import { livePreAction, prunePreAction, preActedText } from "./preactions.js";
import { controlsHTML, offerHTML, bindControls, DIALOG_HTML, secondsLeft } from "./controls.js";
import { HistoryPanel, PANEL_HTML } from "./history.js";
import { ChatPanel, TALK_HTML } from "./chat.js";
import { Reveal, revealMs, stepText, showdownDone, resultsText } from "./showdown.js";
import { gameName, GAMES } from "./lobby.js";
import { myLeaveText, rulesBrief, rulesLines } from "./words.js";
import { bankHTML, refreshBank, clockText, myHandHTML } from "./hud.js";
import { TableSound } from "./sounds.js";
import { ChipMotion } from "./chipmotion.js";
import * as tour from "./tourtable.js";
import { awayWhy } from "./awaywords.js";
import { setRoomMessage } from "./roommessage.js";
import { prefixIds, prefixSelector, scoped } from "./scope.js";
import { tableOptions, rulesDetailsHTML } from "./tableoptions.js";

const PHASES = { action: "", time_bank: " (time bank)", reconnect: " (extra time)" };

/**
 * The table `tableId` drawn in `app`. `tile` (null: the page is this table's) when it
 * is one of several on the page: {prefix (its ids'), isForward() (its turn is the one
 * brought forward), hasKeys() (the keyboard's shortcuts are its), onTurn(waiting) (my
 * decision is waiting there, or no longer), onName(name), onClose(), follow(table, query)
 * (a tournament moved me)}.
 */
export function tableView(app, tableId, query, tile = null) {
  const prefix = tile ? tile.prefix : "";
  const $t = scoped(app, prefix); // this view's own elements, never another tile's
  const state = emptyTable(tableId);
  state.player = session.name;
  // the hand this tab saw dealt and not finished, kept over a reload: if a restart
  // cancelled it, the table's snapshot says so, and so do we
  const handKey = `stud8.hand.${tableId}`;
  state.lastHand = sessionStorage.getItem(handKey);
  let pendingSit = query.buyin ? Number(query.buyin) : null;
  let pendingWait = query.wait === "1";
  let snapshotSeen = false;
  let stopped = false;
  let frame = 0;
  let roomNotice = null; // the room's last notice on this connection (it is closing)
  const drawn = { bar: null, tools: null, offer: null, log: null, notice: null, mine: null, away: null, strip: null, tnotice: null, tend: null };
  const sound = new TableSound();
  const chips = new ChipMotion({ onPaid: () => sound.play("win") }); // bets to the pot, the pot to its winners
  if (session.token) loadNotes().then(() => schedule()); // drawn on the seats once read
  let beeped = null; // the turn the sound was played for

  let tableName = tableId; // as the welcome names it
  // in a tile: no way back to the lobby nor bank (the page's header has them), a close
  // button, the tile's own banner, and the mark of my turn; the one dialog is the page's
  const lobbyButton = tile ? "" : `<button id="to-lobby" aria-label="back to the lobby">← Lobby</button>`;
  const closeButton = tile ? `<button type="button" id="close-tile" class="close-tile" aria-label="Close table ${esc(tableId)}" title="close this table: the others play on">✕</button>` : "";
  const turnMark = tile ? `<span class="turn-mark" aria-hidden="true">Your turn</span>` : "";
  app.innerHTML = prefixIds(`<header class="top table-top">${lobbyButton}
  <h1><span id="table-name">Table ${esc(tableId)}</span> <small id="table-info"></small></h1>${turnMark}
  <div class="tools">
    ${tile ? "" : bankHTML()}<span id="mute-slot">${sound.buttonHTML()}</span>
    <label class="four"><input type="checkbox" id="four-colour" ${prefs.fourColor ? "checked" : ""}> 4-colour</label>
    <span id="seat-controls" class="seat-controls"></span>${closeButton}
  </div></header>${tile ? `<div id="tile-banner" class="banner tile-banner" role="status" hidden></div><div id="tile-announce" class="sr-only" aria-live="polite"></div>` : ""}
  <div id="tournament" class="t-strip" aria-label="the tournament" hidden></div><div id="t-notice"></div><div id="t-end"></div>
  <div id="offer" class="offer-slot"></div>
  <main class="room"><div id="table" class="table-area"></div>
  <div class="under"><div id="notice" class="notice" role="status"></div><div id="away" class="away-prompt"></div><div id="my-hand" class="my-hand" aria-label="your hand"></div><div id="actions" class="action-bar"></div></div>
  <aside class="side"><details class="rules-panel" id="rules-panel" hidden><summary>Rules <small id="rules-brief"></small></summary><ul id="rules-list"></ul><div id="rules-options" class="rules-options"></div></details>
  ${TALK_HTML}${PANEL_HTML}</aside></main>
  ${tile ? "" : DIALOG_HTML}`, prefix);
  const actionsRoot = $t("#actions");
  /** The banner, the toasts and the spoken words: in a tile, the table's own banner, and
   * the table named (which of the tables says it). */
  function banner(text, kind = "warn") {
    if (!tile) { showBanner(text, kind); return; }
    const el = $t("#tile-banner");
    el.hidden = !text;
    el.className = `banner tile-banner ${kind}`;
    el.textContent = text || "";
  }
  const tell = (text) => toast(tile ? `${tableName}: ${text}` : text);
  // each tile its own live region: one table's words never cut another's short
  const say = (text) => { if (tile) $t("#tile-announce").textContent = `Table ${tableName}: ${text}`; else announce(text); };
  /** The dealer's log is an ARIA log (new lines read out politely), named for its table. */
  function nameLog(name) {
    const log = $t("#log");
    log.setAttribute("role", "log");
    log.setAttribute("aria-label", `Dealer log, table ${name}`);
  }
  nameLog(tableId);

  const socket = new TableSocket({
    tableId,
    token: session.token,
    lastSeen: () => state.seq,
    onMessage,
    onStatus(status, delay) {
      // after the room's notice (it is closing), the connection it drops is the room
      // gone, not the player's network: the banner keeps saying why
      const secs = `${Math.ceil(delay / 1000)}s`;
      // no connection: no action can reach the table, and its clock is not seen running
      const offline = status === "lost" || status === "reconnecting";
      if (offline !== state.offline && status !== "not-sent") {
        state.offline = offline;
        // the turn's clock stands at what it showed when the connection went
        if (offline && state.timer) state.timer.frozen = Math.max(0, (state.timer.endsAt - Date.now()) / 1000);
        schedule();
      }
      if (status === "lost") banner(roomNotice ? `${roomNotice} Reconnecting in ${secs}…` : `Connection lost — reconnecting in ${secs}…`);
      else if (status === "reconnecting") banner(roomNotice ? `${roomNotice} Reconnecting…` : "Reconnecting…");
      else if (status === "not-sent") tell("Not connected: try again in a moment");
      else if (status === "open") { state.offline = false; roomNotice = null; banner(null); schedule(); } // a room still closing says it again
    },
    onFatal(code, reason) {
      if (code === 4401) { session.clear(); go("#/"); return; }
      if (code === 4404 && state.tournament) { // a tournament's table closes when it breaks or ends
        state.tableClosed = true;
        tour.lookUpMyEntry(state, follow).then(schedule);
        schedule();
        return;
      }
      banner(code === 4404 ? `No such table: ${tableId}` : `This table is not available: ${reason || code}`, "error");
    },
  });
  const send = (type, data) => socket.send(type, data);

  const history = new HistoryPanel(app, tableId, prefix);
  const chat = new ChatPanel({ root: app, tableId, state, send, prefix });
  const reveal = new Reveal((step) => {
    // the next hand may have come before a frame drew it (four tables draw a lot): the
    // step of the hand before is not this one's
    if (!state.hand || !state.hand.showdown.includes(step)) return;
    const text = stepText(state, step);
    note(state, text);
    say(text);
    schedule();
  }, () => revealMs(state));
  const bar = bindActionBar(actionsRoot, state, {
    onAct(kind, amount) {
      state.sentFor = state.turn;
      send("act", amount === undefined ? { kind } : { kind, amount });
    },
    onPre() { drawn.bar = null; schedule(); },
  });
  bindControls({ state, send, toolsRoot: $t("#seat-controls"), tableRoot: $t("#table"), offerRoot: $t("#offer") });

  /** The table's name, game, stakes and rules (the welcome's table): the header, the
   * rules panel (its clock, time-out rule, buy-in, rake and sit-out limit). */
  function setRules(t) {
    state.rules = t;
    const s = t.stakes;
    // at a tournament's table the stakes are the level's (the strip says them)
    $t("#table-info").textContent = (state.tournament ? gameName(t) : `${gameName(t)} ${s.small_bet}/${s.big_bet}, ante ${s.ante}`) + nextGame(state.mixed);
    const name = state.tournament ? tour.tableName(state.tournament) : t.name; // one name for it
    if (name && name !== tableId) $t("#table-name").textContent = name;
    tableName = t.name || tableId;
    nameLog(tableName);
    if (tile) tile.onName(tableName);
    $t("#rules-brief").textContent = state.tournament ? "Tournament" : rulesBrief(t);
    const lines = state.tournament ? tour.tournamentRules(rulesLines(t)) : rulesLines(t);
    setHTML($t("#rules-list"), lines.map((line) => `<li>${esc(line)}</li>`).join(""));
    $t("#rules-panel").hidden = false;
    // every option of RULES.md it was opened with, as the lobby says them (tableoptions.js)
    tableOptions().then((options) => {
      if (stopped || state.rules !== t) return;
      setHTML($t("#rules-options"), options.length && t.rules
        ? `<h3 class="rules-options-head">Options</h3>${rulesDetailsHTML(t, options)}` : "");
    });
  }

  /** A mixed table's next game, after the title: " · next: Razz in 2 hands". */
  function nextGame(m) {
    if (!m) return "";
    return ` · next: ${GAMES[m.next_game] || m.next_game} ${m.hands_left ? `in ${m.hands_left + 1} hands` : "after this hand"}`;
  }

  // a tile's query is not in the page's address (#/tables/... names the tables only)
  const dropQuery = () => { if (!tile) window.history.replaceState(null, "", `#/table/${encodeURIComponent(tableId)}`); };

  /** A tournament moved me: my new table (saying where I came from). */
  function follow(to) {
    if (stopped) return;
    const table = typeof to === "string" ? to : to.to_table;
    const why = typeof to === "string" ? "" : `&reason=${encodeURIComponent(to.reason)}`;
    if (tile) { tile.follow(table, { moved: tableId, ...(typeof to === "string" ? {} : { reason: to.reason }) }); return; }
    go(`#/table/${encodeURIComponent(table)}?moved=${encodeURIComponent(tableId)}${why}`);
  }
  tour.arrivedFrom(state, query, say);
  if (query.moved) dropQuery();

  /** What the lobby asked for (sit with a buy-in, or wait for a seat), once we know the table. */
  function join() {
    if (!snapshotSeen || !state.rules) return;
    if (pendingSit !== null && state.mySeat === null && state.player) {
      const seats = Array.from({ length: maxSeats(state) }, (_, i) => i + 1);
      const free = seats.find((s) => !state.seats[s] && !(state.offer && state.offer.seat === s));
      if (free) send("sit", { seat: free, amount: pendingSit });
      else { tell("The table is full: join the waiting list for a seat"); pendingWait = true; }
    }
    if (pendingWait && state.mySeat === null && !state.waiting.includes(state.player)) send("join_waitlist", {});
    if (pendingSit !== null || pendingWait) dropQuery();
    pendingSit = null;
    pendingWait = false;
  }

  function onMessage(msg) {
    const { t, v, d } = msg;
    if (t === "welcome") {
      state.player = d.player;
      state.mySeat = d.seat ?? null;
      if (d.table) setRules(d.table);
    } else if (t === "snapshot") {
      const told = state.notice;
      applySnapshot(state, d, v);
      if (state.notice && state.notice !== told && state.notice.refunded) say(state.notice.text);
      if (snapshotSeen) chat.loadHistory(); // back after missing too much: the chat too
      if (!tour.setTournament(state, d.tournament) && state.tournament && state.rules) setRules(state.rules);
      if (state.mixed && state.rules) setRules(state.rules); // a mixed table's game now
      snapshotSeen = true;
      join();
    } else if (t === "event") {
      if (state.seq !== null && v <= state.seq) return; // seen already
      const mine = state.mySeat;
      applyEvent(state, d, v);
      if (d.k === "hand_refunded" && state.notice && state.notice.refunded === d.hand_id) say(state.notice.text);
      if (d.k === "tournament" && !tour.setTournament(state, d) && state.rules) setRules(state.rules);
      if (d.k === "mixed_game" && state.rules) setRules(state.rules);
      onEvent(d, mine);
    } else if (t === "turn") {
      if (applyTurn(state, d, v)) onTurn();
    } else if (t === "reject") {
      tell(d.reason);
      state.sentFor = null; // the buttons come back
    } else if (t === "message") {
      setRoomMessage(d.message); // the operator's message to everyone (null: withdrawn)
    } else if (t === "notice") {
      roomNotice = d.text;
      banner(d.text); // the room's word to everyone (it is closing after this hand)
      say(d.text);
    }
    const cleared = prunePreAction(state); // a box the bet changed under is cleared, and said
    if (cleared) say(cleared);
    const kept = state.lastHand || null;
    if (kept !== sessionStorage.getItem(handKey)) {
      if (kept) sessionStorage.setItem(handKey, kept);
      else sessionStorage.removeItem(handKey);
    }
    schedule();
  }

  function onEvent(ev, mine) {
    sound.event(ev);
    if (["sit", "top_up", "leave"].includes(ev.k) && (ev.seat === mine || ev.player === state.player)) refreshBank();
    if (ev.k === "top_up" && ev.auto && ev.short && ev.seat === mine && state.notice) tell(state.notice.text);
    if (ev.k === "chat") chat.add(ev);
    else if (ev.k === "hand_finish") history.handFinished();
    else if (ev.k === "moved") noteSeating(state, tour.onMoved(state, ev, follow, say));
    else if (ev.k === "leave" && ev.seat === mine && ev.reason === "busted") tour.lookUpMyEntry(state, follow).then(schedule);
    else if (ev.k === "leave" && ev.seat === mine && !state.tournament) tell(myLeaveText(ev));
    else if (ev.k === "tournament" && ev.notice && ev.phase !== "finished") say(ev.notice);
    else if (ev.k === "mixed_game" && ev.notice) { say(ev.notice); tell(ev.notice); }
    else if (ev.k === "seat_offered" && ev.player === state.player) say(`Seat ${ev.seat} is yours for ${ev.seconds} seconds`);
  }

  function onTurn() {
    if (state.turn.seat !== state.mySeat) return;
    const ticked = livePreAction(state);
    if (ticked) { // sent once, then cleared
      const choice = preActionChoice(state);
      state.preAction = null;
      if (choice) {
        note(state, preActedText(ticked, choice));
        state.sentFor = state.turn;
        send("act", choice);
        return;
      }
      tell(`Your ${ticked.label} box does not apply here: choose an action`);
    }
    state.preAction = null;
    if (!tile) say(turnText()); // a tile says it when its turn starts waiting (draw)
    if (beeped !== state.turn.v || state.turn.v === null) { beeped = state.turn.v; sound.beep(); }
  }

  const turnText = () => `Your turn: ${state.turn.legal.map((a) => a.kind.replace("_", " ")).join(", ")}`;
  let saidFor = null; // in a tile: the turn of mine said to be waiting here

  function schedule() {
    if (frame || stopped) return;
    frame = requestAnimationFrame(() => { frame = 0; draw(); });
  }

  function draw() {
    reveal.update(state.hand);
    const felt = $t("#table");
    const focused = document.activeElement && felt.contains(document.activeElement) ? document.activeElement.dataset.focus : null;
    felt.innerHTML = tableHTML(state, { fourColor: prefs.fourColor });
    decorateSeats(felt, state, session.name); // my notes on the others (notes.js)
    chips.drawn(state, felt);
    if (focused) { const el = felt.querySelector(`[data-focus="${focused}"]`); if (el) el.focus(); }
    const mineHTML = myHandHTML(state);
    if (mineHTML !== drawn.mine) { drawn.mine = mineHTML; $t("#my-hand").innerHTML = mineHTML; }
    const away = awayHTML();
    if (away !== drawn.away) { drawn.away = away; $t("#away").innerHTML = away; }
    const sent = state.turn && state.sentFor === state.turn;
    const key = barKey(state) + (sent ? ":sent" : "") + (state.offline ? ":offline" : "");
    if (key !== drawn.bar) {
      drawn.bar = key;
      // in a tile, only the tile whose turn is brought forward takes a free keyboard
      const free = !document.activeElement || document.activeElement === document.body;
      const lost = actionsRoot.contains(document.activeElement) || (free && (!tile || tile.isForward()));
      actionsRoot.innerHTML = actionBarHTML(state);
      if (sent || state.offline) for (const b of actionsRoot.querySelectorAll("button.act")) b.disabled = true;
      // the pre-action boxes too: nothing can be sent until the connection is back
      if (state.offline) for (const box of actionsRoot.querySelectorAll("label.pre input")) box.disabled = true;
      if (state.offline && barKey(state)) actionsRoot.insertAdjacentHTML("afterbegin", `<div class="offline-note" role="status">Connection lost: your actions wait until it is back</div>`);
      // my turn: the keyboard starts on the passive action (unless it was busy elsewhere)
      if (!sent && !state.offline && lost) focusTurn();
    }
    const notice = state.notice ? state.notice.text : "";
    if (notice !== drawn.notice) { drawn.notice = notice; $t("#notice").textContent = notice; }
    const tools = controlsHTML(state);
    if (tools !== drawn.tools) { drawn.tools = tools; $t("#seat-controls").innerHTML = tools; }
    const o = state.offer;
    const offerKey = offerHTML(state) ? `${o.seat}:${o.player}` : "";
    if (offerKey !== drawn.offer) { drawn.offer = offerKey; $t("#offer").innerHTML = offerHTML(state); }
    drawTournament();
    drawLog();
    chat.refresh();
    const myTurn = barMode(state) === "turn";
    if (tile) {
      // the page marks it and brings it forward; said once it waits (a turn a snapshot
      // brought back after a reconnection too)
      const waiting = myTurn && !sent && !state.offline;
      if (waiting && saidFor !== state.turn) say(turnText());
      saidFor = waiting ? state.turn : null;
      tile.onTurn(waiting);
    }
    else {
      document.body.classList.toggle("my-turn", myTurn);
      document.title = `${myTurn ? "● Your turn · " : ""}${state.tournament ? tour.tableName(state.tournament) : `Table ${tableId}`} · stud8`;
    }
    const hand = state.hand;
    if (hand && showdownDone(hand) && hand.awards.length && !hand.announced) {
      hand.announced = true; // said once, and kept in the log after the next hand starts
      const text = resultsText(state);
      for (const line of text.split("; ")) note(state, line);
      say(text);
      drawLog();
    }
    // the hand has said all it says (its hands turned over, its results): the seating
    // lines that came meanwhile (a bust-out, a player stood up) follow it
    if (hand && showdownDone(hand) && (hand.announced || !hand.awards.length) && !hand.told) {
      handTold(state);
      drawLog();
    }
    tick();
  }

  /** The keyboard on my turn's passive action (else the first that is not a fold). */
  function focusTurn() {
    const passive = ["check", "call", "bring_in"].map((k) => actionsRoot.querySelector(`button.act-${k}:not([disabled])`)).find(Boolean);
    const first = passive || actionsRoot.querySelector("button.act:not(.act-fold):not([disabled])");
    if (first) first.focus();
    return !!first;
  }

  function drawTournament() {
    const strip = tour.stripHTML(state);
    if (strip !== drawn.strip) {
      drawn.strip = strip;
      const el = $t("#tournament");
      el.innerHTML = strip;
      el.hidden = !strip;
    }
    const tnotice = tour.noticeHTML(state);
    if (tnotice !== drawn.tnotice) { drawn.tnotice = tnotice; $t("#t-notice").innerHTML = tnotice; }
    const tend = tour.endHTML(state);
    if (tend !== drawn.tend) { drawn.tend = tend; $t("#t-end").innerHTML = tend; }
  }

  function drawLog() {
    const log = state.log;
    const key = `${state.log.length}:${log[log.length - 1] || ""}`;
    if (key === drawn.log) return;
    drawn.log = key;
    const pane = $t("#pane-dealer");
    const stick = pane.scrollTop + pane.clientHeight >= pane.scrollHeight - 8;
    $t("#log").innerHTML = log.map((l) => `<li${/^(Third|Fourth|Fifth|Sixth|Seventh) street/.test(l) ? ' class="street-head"' : ""}>${esc(l)}</li>`).join("");
    if (stick) pane.scrollTop = pane.scrollHeight;
  }

  function tick() {
    if (state.tournament) {
      tour.tickStrip(state, $t("#tournament"));
      const m = state.tournamentMove;
      if (m && m.until <= Date.now()) { state.tournamentMove = null; schedule(); }
    }
    const timer = state.timer;
    const clock = $t("#table .seat.to-act .clock"); // this table's clock, not another tile's
    if (clock) clock.classList.toggle("stopped", state.offline);
    const stopped = state.offline && timer && timer.frozen !== undefined;
    if (clock && timer) {
      // the connection lost: the clock stands where it was (the table's own goes on; it
      // is told again when the connection is back)
      const left = stopped ? timer.frozen : Math.max(0, (timer.endsAt - Date.now()) / 1000);
      const secs = `${Math.ceil(left)}s`;
      clock.querySelector(".secs").textContent = secs;
      clock.querySelector(".bar i").style.width = `${Math.min(100, (100 * left) / Math.max(0.001, timer.seconds))}%`;
      clock.classList.toggle("bank", timer.phase !== "action");
      clock.title = stopped ? `The connection is lost: the clock stands at ${Math.ceil(left)} seconds here`
        : `${Math.ceil(left)} seconds to act${PHASES[timer.phase] || ""}`;
      clock.setAttribute("aria-label", clock.title);
      const mine = actionsRoot.querySelector(".my-clock");
      // stopped: as it read when the connection went (its "now" then)
      if (mine) mine.textContent = clockText(timer, state.rules, stopped ? timer.endsAt - timer.frozen * 1000 : Date.now());
    }
    const offer = state.offer;
    if (offer) {
      const left = secondsLeft(offer);
      const el = $t("#offer .offer-secs");
      if (el) el.textContent = String(left);
      if (left <= 0) { state.offer = null; schedule(); }
    }
  }
  const ticker = setInterval(tick, 250);

  /** Sitting out: why, and the "I'm back" button (a time-out sits a player out). */
  function awayHTML() {
    const me = state.mySeat !== null ? state.seats[state.mySeat] : null;
    if (!me || !me.sitting_out || me.leaving) return "";
    const why = awayWhy(me.out_reason);
    return `<div class="away-note" role="alert"><span>${why}<span class="more">. You are dealt in again from the next hand when you are back</span>.</span> <button type="button" class="im-back" data-cmd="come_back">I'm back</button></div>`;
  }
  $t("#away").addEventListener("click", (e) => {
    if (e.target.closest("button.im-back")) send("come_back", {});
  });
  const muteSlot = $t("#mute-slot");
  muteSlot.addEventListener("click", (e) => {
    if (!e.target.closest(prefixSelector("#mute", prefix))) return;
    sound.muted = !sound.muted;
    muteSlot.innerHTML = prefixIds(sound.buttonHTML(), prefix);
    $t("#mute").focus();
  });
  // the sound switch and the 4-colour deck are the account's: one tile's change is every tile's
  function onSettings() {
    const mute = prefixIds(sound.buttonHTML(), prefix);
    if (muteSlot.innerHTML !== mute && !muteSlot.contains(document.activeElement)) muteSlot.innerHTML = mute;
    $t("#four-colour").checked = prefs.fourColor;
    schedule();
  }
  if (tile) window.addEventListener("stud8:settings", onSettings);
  // the page may play sound once the player has clicked or pressed a key
  const unlock = () => sound.unlock();
  document.addEventListener("pointerdown", unlock, { once: true });
  document.addEventListener("keydown", unlock, { once: true });
  if (!tile) refreshBank(); // the page of several tables reads the bank once for all

  function onKey(e) {
    if (tile && !tile.hasKeys()) return; // the keys act at the focused table only
    if (e.target instanceof HTMLInputElement || e.ctrlKey || e.metaKey || e.altKey) return;
    if (document.querySelector("dialog[open]")) return;
    const b = actionsRoot.querySelector(`button.act[data-key="${e.key.toLowerCase()}"]`);
    if (b && !b.disabled) { e.preventDefault(); bar.act(b.dataset.kind); }
  }
  document.addEventListener("keydown", onKey);

  if (tile) $t("#close-tile").onclick = () => tile.onClose();
  else $t("#to-lobby").onclick = () => go("#/");
  $t("#four-colour").onchange = (e) => { prefs.fourColor = e.target.checked; schedule(); };

  // drawn(): the page shows the state as it is now (no frame waiting to draw it);
  // redraw(): draw the state again (the tests set a state to look at the layout)
  const probe = { state, socket, sound, chips, chat, drawn: () => frame === 0, redraw: schedule };
  if (!tile) window.stud8 = probe;
  return {
    probe,
    focusTurn,
    stop() {
      stopped = true;
      socket.close();
      reveal.stop();
      history.stop();
      clearInterval(ticker);
      sound.stop();
      chips.stop();
      document.removeEventListener("pointerdown", unlock);
      document.removeEventListener("keydown", unlock);
      document.removeEventListener("keydown", onKey);
      window.removeEventListener("stud8:settings", onSettings);
      if (frame) cancelAnimationFrame(frame);
      if (tile) return;
      document.body.classList.remove("my-turn");
      window.stud8 = null;
    },
  };
}

