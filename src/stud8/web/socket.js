// One table websocket that reconnects by itself, asking for the events it missed.

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
    this.connect();
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const params = new URLSearchParams();
    const seen = this.lastSeen();
    if (seen !== null && seen !== undefined) params.set("last_seen", String(seen));
    const q = params.toString();
    return `${proto}//${location.host}/ws/v1/tables/${encodeURIComponent(this.tableId)}${q ? "?" + q : ""}`;
  }

  connect() {
    if (this.closed) return;
    this.onStatus(this.attempt === 0 ? "connecting" : "reconnecting");
    // the token goes in a subprotocol (a header), never in the URL
    const ws = this.token
      ? new WebSocket(this.url(), ["stud8.v1", `stud8.token.${this.token}`])
      : new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
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
      this.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
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
    ws.onerror = () => {}; // onclose follows and handles it
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
