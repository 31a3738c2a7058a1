// Hand histories: the last hands at this table as PokerStars text, and a download of
// all my hands (GET /api/v1/hands with the bearer token).

import { esc, session, api, apiText, toast } from "./util.js";
import { scoped } from "./scope.js";
import { bindHandChat, handChatHTML, showHandChats, shownHandChats } from "./handchat.js";

export const PANEL_HANDS = 10;

export function splitHands(text) {
  return text.split(/\n{3,}/).map((h) => h.trim()).filter(Boolean);
}

/** The hands whose PokerStars header names this table. */
export function ofTable(hands, tableId) {
  return hands.filter((h) => h.includes(`\nTable '${tableId}' `));
}

/** The last `limit` hands at this table: {status, hands}. The server filters by table
 * when it can (`table=`); an older server refuses the parameter, and then the client
 * asks for more hands and keeps this table's itself. */
export async function tableHands(tableId, limit = PANEL_HANDS) {
  const id = encodeURIComponent(tableId);
  let r = await apiText(`/api/v1/hands?table=${id}&limit=${limit}`);
  if (r.status === 400 && r.text.includes("table")) r = await apiText(`/api/v1/hands?limit=${Math.min(1000, limit * 5)}`);
  if (r.status !== 200) return { status: r.status, hands: [] };
  return { status: 200, hands: ofTable(splitHands(r.text), tableId).slice(0, limit) };
}

/** The hands of this table by their number in PokerStars text: {hand_id, replayable}
 * (to link each to the replayer, and to its chat); empty if the server cannot say. */
export async function handIds(tableId, limit = PANEL_HANDS) {
  const r = await api("GET", `/api/v1/hands/list?table=${encodeURIComponent(tableId)}&limit=${limit}`);
  const ids = new Map();
  if (r.status === 200) for (const h of r.data.hands) ids.set(h.number, { hand_id: h.hand_id, replayable: h.replayable });
  return ids;
}

/** The hand's number in its PokerStars text ("" if none). */
export function handNumber(text) {
  const m = text.match(/Hand #(\d+):/);
  return m ? m[1] : "";
}

/** The id of the hand whose PokerStars text is `text` ("" if unknown). */
export function handIdOf(text, ids) {
  const m = text.match(/Hand #(\d+):/);
  const entry = m && ids.get(m[1]);
  return entry ? entry.hand_id : "";
}

/** The link that opens a hand in the replayer (a new tab: the table stays open). */
export function replayLink(text, ids) {
  const m = text.match(/Hand #(\d+):/);
  const entry = m && ids.get(m[1]);
  const id = entry && entry.replayable ? entry.hand_id : "";
  return id ? ` <a class="replay-link" href="#/replay/${encodeURIComponent(id)}" target="_blank" rel="noopener" aria-label="replay hand #${esc(m[1])}">Replay</a>` : "";
}

/** Save every hand of mine (up to 1000) as a .txt file. */
export async function downloadHands() {
  const r = await apiText("/api/v1/hands?limit=1000");
  if (r.status === 404) { toast("This room keeps no hand histories"); return; }
  if (r.status !== 200) { toast("The hand histories could not be fetched"); return; }
  if (!r.text.trim()) { toast("You have played no hands yet"); return; }
  const url = URL.createObjectURL(new Blob([r.text.trimEnd() + "\n"], { type: "text/plain" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = `stud8-hands-${session.name || "me"}.txt`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A one-line summary of a hand: its number and what each winner collected. */
export function summary(text) {
  const lines = text.split("\n");
  const m = lines[0].match(/Hand #(\S+?):/);
  const number = m ? `#${m[1]}` : "Hand"; // the number the table's log and the replayer say
  const won = new Map();
  let money = false;
  for (const line of lines) {
    const c = line.match(/^(?!Seat \d+:)(\S.*?) collected (\$?)([\d.,]+) from/);
    if (!c) continue;
    money = money || c[2] === "$";
    won.set(c[1], (won.get(c[1]) || 0) + Number(c[3].replaceAll(",", "")));
  }
  const parts = [...won].map(([name, n]) => `${name} +${money ? "$" + n.toFixed(2) : n}`);
  return `${number}${parts.length ? " · " + parts.join(", ") : ""}`;
}

export const PANEL_HTML = `<details class="history" id="history-panel">
<summary>Hand histories</summary>
<div class="hist-tools"><button type="button" id="hist-refresh">Refresh</button>
<a href="#" id="hist-download" class="download">Download my hand histories</a></div>
<div id="hist-list" aria-live="polite"></div></details>`;

/** The panel (PANEL_HTML) at `root`: loads when opened, again after each hand. */
export class HistoryPanel {
  /** prefix: the ids' of the view at `root` (a table in a tile of several). */
  constructor(root, tableId, prefix = "") {
    this.root = root;
    this.tableId = tableId;
    this.timer = null;
    const $r = scoped(root, prefix);
    this.panel = $r("#history-panel");
    this.list = $r("#hist-list");
    this.panel.addEventListener("toggle", () => { if (this.panel.open) this.refresh(); });
    $r("#hist-refresh").onclick = () => this.refresh();
    $r("#hist-download").onclick = (e) => { e.preventDefault(); downloadHands(); };
    bindHandChat(this.list, tableId);
  }

  async refresh() {
    const list = this.list;
    const [r, ids] = await Promise.all([tableHands(this.tableId), handIds(this.tableId)]);
    if (r.status === 404) list.innerHTML = `<p class="muted-dark">This room keeps no hand histories.</p>`;
    else if (r.status !== 200) list.innerHTML = `<p class="muted-dark">The hand histories could not be fetched (${r.status}).</p>`;
    else if (!r.hands.length) list.innerHTML = `<p class="muted-dark">No hands of yours at this table yet.</p>`;
    else {
      // a refresh (after each hand) keeps the hands opened open, their chat shown
      const opened = new Set([...list.querySelectorAll("details.hh[open]")].map((d) => d.dataset.n));
      const chats = shownHandChats(list);
      list.innerHTML = r.hands
        .map((h) => `<details class="hh" data-n="${esc(handNumber(h))}"><summary>${esc(summary(h))}${replayLink(h, ids)}</summary><pre>${esc(h)}</pre>${handChatHTML(handIdOf(h, ids))}</details>`)
        .join("");
      for (const d of list.querySelectorAll("details.hh")) if (opened.has(d.dataset.n)) d.open = true;
      showHandChats(list, chats);
    }
  }

  /** After a hand: the store writes it a moment later. */
  handFinished() {
    if (!this.panel.open) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh(), 700);
  }

  stop() {
    clearTimeout(this.timer);
  }
}
