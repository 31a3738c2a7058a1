// One table websocket that reconnects by itself, asking for the events it missed.
// A node of the room that does not run the table may answer "redirect" (the table's
// address at the node that runs it): the socket connects there instead (the page's
// policy names the room's nodes as its node knew them), and if that node cannot be
// reached, or the policy does not name it, comes back here asking to be relayed
// (relay=1).

let counter = 0;
export function commandId() {
  counter += 1;
  return `c${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

export class TableSocket {
  /**
   * tableId, token (or null to watch); handlers: onMessage(msg), onStatus(status, detail),
   * onFatal(code, reason). lastSeen() gives the last event number seen (null: none).
   */
  constructor({ tableId, token, lastSeen, onMessage, onStatus, onFatal }) {
    this.tableId = tableId;
    this.token = token;
    this.lastSeen = lastSeen;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.onFatal = onFatal;
    this.ws = null;
    this.closed = false;
    this.attempt = 0;
    this.timer = null;
    this.target = null; // the table's node, after a redirect (null: this page's host)
    this.relay = false; // its node did not answer: ask this host to relay
    this.connect();
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const params = new URLSearchParams();
    const seen = this.lastSeen();
    if (seen !== null && seen !== undefined) params.set("last_seen", String(seen));
    if (this.relay && !this.target) params.set("relay", "1");
    const q = params.toString();
    const base =
      this.target || `${proto}//${location.host}/ws/v1/tables/${encodeURIComponent(this.tableId)}`;
    return `${base}${q ? "?" + q : ""}`;
  }

  connect() {
    if (this.closed) return;
    this.onStatus(this.attempt === 0 ? "connecting" : "reconnecting");
    // the token goes in a subprotocol (a header), never in the URL
    let ws;
    try {
      ws = this.token
        ? new WebSocket(this.url(), ["stud8.v1", `stud8.token.${this.token}`])
        : new WebSocket(this.url());
    } catch (err) {
      if (!this.target) throw err;
      // the table's node may not be reached from this page: be relayed here
      this.target = null;
      this.relay = true;
      this.connect();
      return;
    }
    this.ws = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.attempt = 0;
      this.onStatus("open");
    };
    ws.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (msg.t === "redirect" && !this.target && typeof msg.d?.url === "string") {
        // the table runs at another node: go there (this socket closes)
        this.ws = null;
        this.target = msg.d.url;
        ws.close();
        this.connect();
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      if (this.target && !opened) {
        // the table's node did not answer: be relayed by this page's host at once
        this.target = null;
        this.relay = true;
        this.connect();
        return;
      }
      if (this.target && ![4400, 4401, 4403, 4404, 4429].includes(e.code)) {
        // the table's node went away (the table may be moving): start again here
        this.target = null;
      }
      if ([4400, 4401, 4403, 4404, 4429].includes(e.code)) {
        this.closed = true;
        this.onFatal(e.code, e.reason);
        return;
      }
      this.attempt += 1;
      const delay = Math.min(4000, 250 * 2 ** Math.min(this.attempt, 4));
      this.onStatus("lost", delay);
      this.timer = setTimeout(() => this.connect(), delay);
    };
    ws.onerror = () => {
      // else onclose follows and handles it; a socket the page's policy blocks (the
      // table's node at another origin) gets no close, only this error
      if (this.ws !== ws || !this.target || opened) return;
      this.ws = null;
      this.target = null;
      this.relay = true; // be relayed by this page's host
      ws.close();
      this.connect();
    };
  }

  /** Send a command {t, d}; returns its id. */
  send(t, data = {}) {
    const id = commandId();
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ t, d: { ...data, id } }));
    } else {
      this.onStatus("not-sent");
    }
    return id;
  }

  /** Drop the connection (it comes back by itself): for testing and a "reconnect" button. */
  drop() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close();
    }
  }
}
