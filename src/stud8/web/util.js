// Small shared helpers: escaping, the session, preferences, the REST API, notices.

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

const drawnHTML = new WeakMap();
/** Set `el`'s markup to `html` only if it is not what was set last: a panel drawn
 * again with the same content keeps its nodes (an open list, a selection, a focus). */
export function setHTML(el, html) {
  if (drawnHTML.get(el) === html) return;
  drawnHTML.set(el, html);
  el.innerHTML = html;
}

export const esc = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

export const session = {
  get token() { return localStorage.getItem("stud8.token"); },
  get name() { return localStorage.getItem("stud8.name"); },
  /** Whether the account is an operator's (the log-in says). */
  get operator() { return localStorage.getItem("stud8.operator") === "1"; },
  set operator(v) { localStorage.setItem("stud8.operator", v ? "1" : "0"); },
  set(name, token) {
    localStorage.setItem("stud8.name", name);
    localStorage.setItem("stud8.token", token);
  },
  clear() {
    for (const k of ["stud8.name", "stud8.token", "stud8.operator"]) localStorage.removeItem(k);
  },
};

export const prefs = {
  get fourColor() { return localStorage.getItem("stud8.fourColor") === "1"; },
  set fourColor(v) {
    localStorage.setItem("stud8.fourColor", v ? "1" : "0");
    window.dispatchEvent(new Event("stud8:settings")); // kept with the account (settings.js)
  },
};

function authHeaders() {
  const headers = { "Content-Type": "application/json" };
  if (session.token) headers.Authorization = `Bearer ${session.token}`;
  return headers;
}

/** A JSON request: {status, data} (status 0 when the server cannot be reached). */
export async function api(method, path, body) {
  let r;
  try {
    r = await fetch(path, { method, headers: authHeaders(), body: body ? JSON.stringify(body) : undefined });
  } catch {
    return { status: 0, data: { error: "the server cannot be reached" } };
  }
  let data = {};
  try { data = await r.json(); } catch { data = {}; }
  return { status: r.status, data };
}

/** A GET answering text (hand histories): {status, text}. */
export async function apiText(path) {
  try {
    const r = await fetch(path, { headers: authHeaders() });
    return { status: r.status, text: await r.text() };
  } catch {
    return { status: 0, text: "" };
  }
}

export function showBanner(text, kind = "warn") {
  const banner = $("#banner");
  if (!text) { banner.hidden = true; banner.textContent = ""; return; }
  banner.hidden = false;
  banner.className = `banner ${kind}`;
  banner.textContent = text;
}

// A toast sits under the bars at the top of the page (the header, a banner, a
// tournament's strip), never on them: placed when it shows and again each frame
// while it shows, as a bar may come under it (a toast said on a tournament's page,
// then its table opened with its strip).
const TOAST_BELOW = ["header.top", "#banner", "#tournament"];
const TOAST_GAP = 8; // px between the lowest bar and the toast
let toastTimer = null;
let toastFrame = 0;

function placeToast(el) {
  let top = TOAST_GAP;
  for (const selector of TOAST_BELOW) {
    const bar = document.querySelector(selector);
    if (!bar || bar.hidden) continue;
    const box = bar.getBoundingClientRect();
    if (box.height > 0 && box.bottom > 0) top = Math.max(top, box.bottom + TOAST_GAP);
  }
  el.style.top = `${Math.round(top)}px`;
}

export function toast(text) {
  const el = $("#toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
  cancelAnimationFrame(toastFrame);
  const follow = () => {
    if (el.hidden) return;
    placeToast(el);
    toastFrame = requestAnimationFrame(follow);
  };
  follow();
}

/** Say something to screen readers (the polite live region). */
export function announce(text) {
  const el = $("#announce");
  if (el) el.textContent = text;
}
