// Private tables: the invitation link (shown to the table's creator, with a copy
// button, a new code and a revoke), the lobby's "Private" mark, and #/join/CODE,
// which redeems a code (POST /api/v1/invitations) and opens its table.

import { $, esc, api, toast } from "./util.js";
import { go } from "./nav.js";

const JOIN = /^#\/join\/([A-Za-z0-9_-]{1,64})$/;

/** The code of a #/join/CODE address, or null. */
export function joinCode(hash) {
  const m = (hash || "").match(JOIN);
  return m ? m[1] : null;
}

/** The full link a player is sent. */
export function inviteLink(code) {
  return `${location.origin}${location.pathname}#/join/${code}`;
}

/** The lobby's mark on a private table's name, and its Invite button. */
export function privateMark(t) {
  return t.private ? ` <span class="private-tag" title="private: only invited players see it">Private</span>` : "";
}

export function inviteButton(t) {
  const id = esc(t.table_id);
  return t.private ? `<button class="invite" data-table="${id}" aria-label="invitation to table ${id}">Invite</button>` : "";
}

/** Show a private table's invitation (InvitationInfo) in `root`: the link, Copy, New
 * link, Revoke, and Close the table (asked twice); `onClosed` after it closed. */
export function showInvitation(root, invitation, onClosed = () => {}) {
  const id = esc(invitation.table_id);
  const body = invitation.code
    ? `<p>Only players with this link see table <b>${id}</b> and may sit. Send it to them:</p>
       <div class="row"><input id="invite-link" readonly value="${esc(inviteLink(invitation.code))}" aria-label="invitation link">
       <button type="button" id="invite-copy">Copy</button></div>`
    : `<p>Table <b>${id}</b> has no invitation link now: nobody new can join it.</p>`;
  root.innerHTML = `<section class="invitation" aria-label="invitation to table ${id}">
    <h3>Invitation: ${id}</h3>${body}
    <div class="row"><button type="button" id="invite-renew">New link</button>
    ${invitation.code ? `<button type="button" id="invite-revoke">Revoke link</button>` : ""}
    <button type="button" id="invite-close" aria-label="hide the invitation">Hide</button>
    <button type="button" id="invite-close-table" class="close-table">Close the table</button></div></section>`;
  root.hidden = false;
  const path = `/api/v1/tables/${encodeURIComponent(invitation.table_id)}/invitation`;
  const change = async (method, said) => {
    const r = await api(method, path);
    if (r.status !== 200) { toast(r.data.error || `could not change the invitation (${r.status})`); return; }
    toast(said);
    showInvitation(root, r.data, onClosed);
  };
  const copy = $("#invite-copy", root);
  if (copy) {
    copy.onclick = async () => {
      const input = $("#invite-link", root);
      try { await navigator.clipboard.writeText(input.value); } catch { input.select(); document.execCommand("copy"); }
      copy.textContent = "Copied";
      toast("The invitation link is copied");
    };
  }
  $("#invite-renew", root).onclick = () => change("POST", "A new link: the old one no longer works");
  const revoke = $("#invite-revoke", root);
  if (revoke) revoke.onclick = () => change("DELETE", "The link is revoked: invited players keep their seats");
  const hide = () => { root.hidden = true; root.innerHTML = ""; };
  $("#invite-close", root).onclick = hide;
  const close = $("#invite-close-table", root);
  close.onclick = async () => {
    if (!close.classList.contains("armed")) { // a first click asks
      close.classList.add("armed");
      close.textContent = "Really close? Everyone is paid out";
      return;
    }
    close.disabled = true;
    const r = await api("DELETE", `/api/v1/tables/${encodeURIComponent(invitation.table_id)}`);
    if (r.status !== 200) { toast(r.data.error || `the table could not be closed (${r.status})`); return; }
    toast(`Table ${invitation.table_id} is closed: everyone was paid out`);
    hide();
    onClosed();
  };
}

/** The lobby's Invite button: the creator (or an operator) sees the invitation. */
export async function openInvitation(root, tableId, onClosed) {
  const r = await api("GET", `/api/v1/tables/${encodeURIComponent(tableId)}/invitation`);
  if (r.status === 200) showInvitation(root, r.data, onClosed);
  else toast("Only the table's creator can share its invitation");
}

/** #/join/CODE: redeem the code, then open its table. */
export function joinView(app, code) {
  app.innerHTML = `<main class="lobby join"><p id="join-status" role="status">Joining the table…</p></main>`;
  let stopped = false;
  (async () => {
    const r = await api("POST", "/api/v1/invitations", { code });
    if (stopped) return;
    if (r.status === 200) {
      go(`#/table/${encodeURIComponent(r.data.table.table_id)}`);
      return;
    }
    const why = r.status === 404 ? "This invitation link does not work: it was revoked, or its table is closed."
      : r.data.error || `the invitation could not be used (${r.status})`;
    $("#join-status").innerHTML = `${esc(why)} <a href="#/">Go to the lobby</a>`;
  })();
  return { stop() { stopped = true; } };
}
