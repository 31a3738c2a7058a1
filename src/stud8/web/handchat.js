// The chat of a past hand, under it in the hand history panel, on demand: each line was
// kept with the hand it fell in (GET /api/v1/tables/{id}/chat?hand=ID). A line is text,
// always: put on the page with textContent, never as HTML.

import { api, esc } from "./util.js";

const HAND_LINES = 500; // the most the server reads back at once: a hand's chat is shorter

/** The hand's chat slot (a button and its list), for the hand `handId` ("" if unknown). */
export function handChatHTML(handId) {
  if (!handId) return "";
  return `<div class="hh-chat"><button type="button" class="hh-chat-show" data-hand="${esc(handId)}" aria-expanded="false">Show this hand's chat</button>
<ol class="hh-chat-lines" hidden></ol></div>`;
}

function line(cls, text) {
  const li = document.createElement("li");
  li.className = cls;
  li.textContent = text;
  return li;
}

function clock(iso) {
  const when = new Date(iso);
  return Number.isNaN(when.getTime()) ? "" : when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
}

/** Clicks on the slots under `list` (the panel's list, redrawn: one listener on it). */
export function bindHandChat(list, tableId) {
  list.addEventListener("click", async (e) => {
    const b = e.target.closest("button.hh-chat-show");
    if (!b) return;
    const lines = b.parentElement.querySelector(".hh-chat-lines");
    if (b.getAttribute("aria-expanded") === "true") {
      lines.hidden = true;
      b.setAttribute("aria-expanded", "false");
      b.textContent = "Show this hand's chat";
      return;
    }
    b.disabled = true;
    const r = await api("GET", `/api/v1/tables/${encodeURIComponent(tableId)}/chat?hand=${encodeURIComponent(b.dataset.hand)}&limit=${HAND_LINES}`);
    b.disabled = false;
    let items;
    if (r.status !== 200 || !Array.isArray(r.data.lines)) items = [line("hh-chat-none", `The chat could not be fetched (${r.data.error || r.status}).`)];
    else if (!r.data.lines.length) items = [line("hh-chat-none", "Nobody chatted during this hand.")];
    else {
      items = r.data.lines.map((l) => {
        const li = line("hh-chat-line", "");
        const at = clock(l.said_at);
        if (at) li.append(Object.assign(document.createElement("time"), { className: "at", dateTime: l.said_at, textContent: at }), " ");
        li.append(Object.assign(document.createElement("span"), { className: "who", textContent: `${l.player}:` }), " ");
        li.append(Object.assign(document.createElement("span"), { className: "said", textContent: l.text }));
        return li;
      });
    }
    lines.replaceChildren(...items);
    lines.hidden = false;
    b.setAttribute("aria-expanded", "true");
    b.textContent = "Hide this hand's chat";
  });
}

/** The hands whose chat is shown under `list` (to show again once it is redrawn). */
export function shownHandChats(list) {
  return new Set([...list.querySelectorAll('button.hh-chat-show[aria-expanded="true"]')].map((b) => b.dataset.hand));
}

/** Show the chat of the hands `ids` again (fetched afresh) after the list was redrawn. */
export function showHandChats(list, ids) {
  for (const b of list.querySelectorAll("button.hh-chat-show")) if (ids.has(b.dataset.hand)) b.click();
}
