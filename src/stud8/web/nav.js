// Moving between views, and the page header they share.

import { $, esc, session, api } from "./util.js";
import { bankHTML } from "./hud.js";

/** Show the view at `hash` (again, if it is showing). */
export function go(hash) {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent("hashchange"));
  else location.hash = hash;
}

export function header() {
  const me = session.name
    ? `<span class="who">${esc(session.name)}</span> ${bankHTML()} <button id="logout">Log out</button>`
    : "";
  return `<header class="top"><h1>stud8 <small>Seven Card Stud Hi/Lo</small></h1><div class="me">${me}</div></header>`;
}

/** The lobby's tabs: the cash tables and the tournaments. */
export function tabsHTML(active) {
  const tab = (key, href, text) =>
    `<a href="${href}" class="tab${key === active ? " active" : ""}" id="tab-${key}"${key === active ? ' aria-current="page"' : ""}>${text}</a>`;
  const consoleTab = session.operator ? tab("admin", "#/admin", "Console") : ""; // operators only
  return `<nav class="tabs" aria-label="lobby">${tab("cash", "#/", "Cash tables")}${tab("tournaments", "#/tournaments", "Tournaments")}${consoleTab}</nav>`;
}

export function bindLogout() {
  const b = $("#logout");
  if (b) b.onclick = async () => { await api("POST", "/api/v1/logout"); session.clear(); go("#/"); };
}
