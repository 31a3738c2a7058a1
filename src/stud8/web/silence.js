// An operator's Silence button on a player's chat line: it calls the operators' API
// (POST /api/v1/accounts/{name}/silence; DELETE undoes it), and says Unsilence for a
// player silenced now (GET /api/v1/silenced). Only operators see it; the server checks.

import { api, session, toast } from "./util.js";

const key = (name) => String(name).toLowerCase();

export class SilenceControl {
  /** onChange(): redraw the lines (a player's silence changed). */
  constructor(onChange) {
    this.enabled = session.operator;
    this.names = new Set();
    this.busy = false;
    this.onChange = onChange;
    if (this.enabled) this.load();
  }

  async load() {
    const r = await api("GET", "/api/v1/silenced");
    if (r.status !== 200 || !Array.isArray(r.data.players)) return;
    this.names = new Set(r.data.players.map(key));
    this.onChange();
  }

  has(name) { return this.names.has(key(name)); }

  /** The button for a line of `name`'s (null: not an operator, or his own line). */
  button(name) {
    if (!this.enabled || key(name) === key(session.name)) return null;
    const silenced = this.has(name);
    const b = document.createElement("button");
    b.type = "button";
    b.className = silenced ? "silence on" : "silence";
    b.dataset.silence = name;
    b.textContent = silenced ? "unsilence" : "silence";
    b.setAttribute("aria-label", `${silenced ? "Unsilence" : "Silence"} ${name} (operator)`);
    return b;
  }

  /** A click in the chat: true if it was a Silence button's. */
  async onClick(e) {
    const b = e.target.closest("button[data-silence]");
    if (!b || !this.enabled) return false;
    if (this.busy) return true;
    const name = b.dataset.silence;
    const undo = this.has(name);
    this.busy = true;
    const r = await api(undo ? "DELETE" : "POST", `/api/v1/accounts/${encodeURIComponent(name)}/silence`);
    this.busy = false;
    if (r.status !== 200) {
      toast(`Could not ${undo ? "unsilence" : "silence"} ${name}: ${r.data.error || `error ${r.status}`}`);
      return true;
    }
    if (r.data.silenced) this.names.add(key(name)); else this.names.delete(key(name));
    toast(r.data.silenced
      ? `${name} is silenced: the player's chat messages are refused at every table`
      : `${name} may chat again`);
    this.onChange();
    return true;
  }
}
