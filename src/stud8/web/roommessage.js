// The operator's message to everyone: a strip under the page's header, in the lobby
// (its answer carries the message) and at every table (the socket's "message"),
// until it is withdrawn (message null).

import { esc, announce } from "./util.js";

let said = null; // the id last read aloud: a message is announced once

/** Show `message` ({id, text, posted_by, posted_at}) or, if null, take it away. */
export function setRoomMessage(message) {
  let el = document.getElementById("room-message");
  if (!message) { if (el) el.remove(); return; }
  if (!el) {
    el = document.createElement("div");
    el.id = "room-message";
    el.className = "room-message";
    el.setAttribute("role", "status");
    el.setAttribute("aria-label", "message from the room");
    const top = document.querySelector("#app header.top");
    if (top) top.after(el); else document.getElementById("app").prepend(el);
  }
  const html = `<b>From the room:</b> ${esc(message.text)} <small>— ${esc(message.posted_by)}</small>`;
  if (el.innerHTML !== html) el.innerHTML = html;
  if (said !== message.id) { said = message.id; announce(`From the room: ${message.text}`); }
}
