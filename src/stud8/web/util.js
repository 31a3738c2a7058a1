// Small shared helpers: escaping, the session, preferences, the REST API, notices.

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

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
  set fourColor(v) { localStorage.setItem("stud8.fourColor", v ? "1" : "0"); },
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

let toastTimer = null;
export function toast(text) {
  const el = $("#toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
}

/** Say something to screen readers (the polite live region). */
export function announce(text) {
  const el = $("#announce");
  if (el) el.textContent = text;
}
