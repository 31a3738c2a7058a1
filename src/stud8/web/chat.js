// The table's talk panel: two tabs, the dealer's log and the chat. A chat line is
// text, always: it is put on the page with textContent, never as HTML. A player may
// mute another (remembered in this browser, per account).

import { api, session, toast } from "./util.js";
import { SilenceControl } from "./silence.js";
import { scoped } from "./scope.js";

const HISTORY_LINES = 50; // lines of the table's chat read back when it opens
const KEPT_LINES = 200;

export const TALK_HTML = `<section class="talk" aria-label="dealer's log and chat">
  <div class="tabs" role="tablist">
    <button type="button" role="tab" id="tab-dealer" class="tab" aria-selected="true" aria-controls="pane-dealer">Dealer</button>
    <button type="button" role="tab" id="tab-chat" class="tab" aria-selected="false" aria-controls="pane-chat">Chat <span class="unread" id="chat-unread" hidden></span></button>
  </div>
  <div class="log pane" id="pane-dealer" role="tabpanel" aria-labelledby="tab-dealer"><ol id="log"></ol></div>
  <div class="chat pane" id="pane-chat" role="tabpanel" aria-labelledby="tab-chat" hidden>
    <ol id="chat-lines" aria-live="polite"></ol>
    <p class="chat-note" id="chat-note" hidden></p>
    <form id="chat-form" class="chat-form" autocomplete="off">
      <input id="chat-input" aria-label="chat message" placeholder="Say something…" maxlength="200">
      <button type="submit" id="chat-send">Send</button>
    </form>
    <p class="muted-list" id="muted-list" hidden></p>
  </div>
</section>`;

/** Whom this account has muted (lower-cased names), kept in localStorage. */
export class MuteList {
  constructor(account) {
    this.key = `stud8.muted.${String(account || "").toLowerCase()}`;
    let names = [];
    try { names = JSON.parse(localStorage.getItem(this.key) || "[]"); } catch { names = []; }
    this.names = new Set(Array.isArray(names) ? names.filter((n) => typeof n === "string") : []);
  }

  has(name) { return this.names.has(String(name).toLowerCase()); }

  set(name, muted) {
    const key = String(name).toLowerCase();
    if (muted) this.names.add(key); else this.names.delete(key);
    localStorage.setItem(this.key, JSON.stringify([...this.names].sort()));
  }
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text; // text, never markup
  return node;
}

export class ChatPanel {
  /** root: the table's view; state: the table's state (rules, mySeat, player); send(type,
   * data); prefix: its ids' (a table in a tile of several). */
  constructor({ root, tableId, state, send, prefix = "" }) {
    this.root = root;
    this.tableId = tableId;
    this.state = state;
    this.send = send;
    this.lines = []; // {player, text, seat, hand_id}
    this.mutes = new MuteList(session.name);
    this.unread = 0;
    this.tab = "dealer";
    this.$ = scoped(root, prefix);
    this.$("#tab-dealer").onclick = () => this.show("dealer");
    this.$("#tab-chat").onclick = () => this.show("chat");
    for (const tab of root.querySelectorAll(".talk .tab")) {
      tab.onkeydown = (e) => {
        if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
          this.show(this.tab === "dealer" ? "chat" : "dealer");
          this.$(`#tab-${this.tab}`).focus();
        }
      };
    }
    this.$("#chat-form").onsubmit = (e) => { e.preventDefault(); this.say(); };
    this.silence = new SilenceControl(() => this.draw());
    this.$("#chat-lines").onclick = (e) => { this.onMuteClick(e); this.silence.onClick(e); };
    this.$("#muted-list").onclick = (e) => this.onMuteClick(e);
    this.loadHistory();
    this.refresh();
  }

  /** The table's chat read back (when the table opens, and after a snapshot: what was
   * said while this page was away). */
  async loadHistory() {
    const r = await api("GET", `/api/v1/tables/${encodeURIComponent(this.tableId)}/chat?limit=${HISTORY_LINES}`);
    if (r.status !== 200 || !Array.isArray(r.data.lines)) return;
    // the table's chat as kept, then the lines that came live since (not in it yet)
    const key = (l) => `${l.player}\n${l.text}\n${l.hand_id}`;
    const kept = new Set(r.data.lines.map(key));
    this.lines = [...r.data.lines, ...this.lines.filter((l) => !kept.has(key(l)))].slice(-KEPT_LINES);
    this.draw();
  }

  show(tab) {
    this.tab = tab;
    const chat = tab === "chat";
    this.$("#tab-chat").setAttribute("aria-selected", String(chat));
    this.$("#tab-dealer").setAttribute("aria-selected", String(!chat));
    this.$("#pane-chat").hidden = !chat;
    this.$("#pane-dealer").hidden = chat;
    if (chat) {
      this.unread = 0;
      this.drawUnread();
      this.scrollDown();
    }
  }

  /** A chat event from the table. */
  add(ev) {
    this.lines.push({ player: ev.player, text: ev.text, seat: ev.seat, hand_id: ev.hand_id });
    if (this.lines.length > KEPT_LINES) this.lines.shift();
    if (this.tab !== "chat" && ev.player !== this.state.player && !this.mutes.has(ev.player)) {
      this.unread += 1;
      this.drawUnread();
    }
    this.draw();
  }

  mayChat() {
    const rules = this.state.rules;
    return this.state.mySeat !== null || !!(rules && rules.observer_chat);
  }

  /** The input as this viewer may use it (seated, or an observer where allowed). */
  refresh() {
    const may = this.mayChat();
    const input = this.$("#chat-input");
    const rules = this.state.rules;
    if (rules && rules.chat_chars) input.maxLength = rules.chat_chars;
    input.disabled = !may;
    this.$("#chat-send").disabled = !may;
    const note = this.$("#chat-note");
    const text = may ? "" : "Only the players seated at this table may chat.";
    if (note.textContent !== text) { note.textContent = text; note.hidden = !text; }
  }

  say() {
    const input = this.$("#chat-input");
    const text = input.value.trim();
    if (!text) return;
    if (!this.mayChat()) { toast("Only the players seated at this table may chat"); return; }
    this.send("chat", { text });
    input.value = "";
  }

  onMuteClick(e) {
    const b = e.target.closest("button[data-mute]");
    if (!b) return;
    const name = b.dataset.mute;
    const muted = !this.mutes.has(name);
    this.mutes.set(name, muted);
    toast(muted ? `${name} is muted: you no longer see this player's chat` : `${name} is no longer muted`);
    this.draw();
  }

  drawUnread() {
    const badge = this.$("#chat-unread");
    badge.hidden = this.unread === 0;
    badge.textContent = this.unread ? String(this.unread) : "";
    badge.setAttribute("aria-label", `${this.unread} unread`);
  }

  draw() {
    const list = this.$("#chat-lines");
    const stick = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    const items = [];
    for (const line of this.lines) {
      if (this.mutes.has(line.player)) continue;
      const li = el("li", "chat-line");
      li.dataset.player = line.player;
      li.append(el("span", "who", `${line.player}${line.seat === null ? " (watching)" : ""}:`), " ");
      li.append(el("span", "said", line.text));
      if (line.player !== this.state.player) {
        const mute = el("button", "mute", "mute");
        mute.type = "button";
        mute.dataset.mute = line.player;
        mute.setAttribute("aria-label", `Mute ${line.player}`);
        li.append(" ", mute);
      }
      const silence = this.silence.button(line.player);
      if (silence) li.append(" ", silence);
      items.push(li);
    }
    list.replaceChildren(...items);
    const muted = this.$("#muted-list");
    const names = [...new Set(this.lines.map((l) => l.player))].filter((n) => this.mutes.has(n));
    muted.hidden = names.length === 0;
    muted.replaceChildren();
    if (names.length) {
      muted.append(el("span", "", "Muted: "));
      for (const name of names) {
        const b = el("button", "unmute", `${name} ×`);
        b.type = "button";
        b.dataset.mute = name;
        b.setAttribute("aria-label", `Unmute ${name}`);
        muted.append(b, " ");
      }
    }
    if (stick) this.scrollDown();
  }

  scrollDown() {
    const list = this.$("#chat-lines");
    list.scrollTop = list.scrollHeight;
  }
}
