// Private notes and a colour tag on each player (issue 28, item 6): kept on the
// server for the account (GET /api/v1/notes, PUT /api/v1/notes/{player}), shown on
// the player's seat and edited from it. The text is set as text, never as HTML.

import { $, api } from "./util.js";

export const COLOURS = ["red", "orange", "yellow", "green", "blue", "purple"];
const notes = new Map(); // player -> {colour, text}

/** The account's notes, read once per table view. */
let loading = null; // the notes being read: the tables of one page read them once

/** Read my notes (one request for the tables opening together). */
export function loadNotes() {
  if (!loading) loading = readNotes().finally(() => { loading = null; });
  return loading;
}

async function readNotes() {
  const r = await api("GET", "/api/v1/notes");
  if (r.status !== 200) return;
  notes.clear();
  for (const n of r.data.notes) notes.set(n.player, { colour: n.colour, text: n.text });
}

export const NOTE_DIALOG_HTML = `<dialog id="note-dialog" aria-labelledby="nd-title">
<form method="dialog" id="nd-form"><h2 id="nd-title"></h2>
<fieldset class="nd-colours"><legend>Colour</legend>
<label><input type="radio" name="nd-colour" value=""> none</label>
${COLOURS.map((c) => `<label class="nd-${c}"><input type="radio" name="nd-colour" value="${c}"> ${c}</label>`).join("")}
</fieldset>
<label>Note <input type="text" id="nd-text" maxlength="500" autocomplete="off"></label>
<p class="error" id="nd-error" role="alert"></p>
<div class="row"><button type="submit" id="nd-save" value="save">Save</button><button type="button" id="nd-cancel">Cancel</button></div>
</form></dialog>`;

/** Each opponent's seat gets its tag button (his colour, his note as its title). */
export function decorateSeats(root, state, me) {
  for (const el of root.querySelectorAll(".seat[data-seat]:not(.empty)")) {
    const s = state.seats[el.dataset.seat];
    if (!s || !s.player || s.player === me) continue;
    const note = notes.get(s.player);
    const plate = el.querySelector(".plate");
    if (!plate) continue;
    const b = document.createElement("button");
    b.type = "button";
    b.className = `note-tag${note && note.colour ? ` note-${note.colour}` : ""}${note ? " has-note" : ""}`;
    b.dataset.player = s.player;
    b.setAttribute("aria-label", `Note on ${s.player}`);
    b.title = note && note.text ? note.text : "add a note";
    b.textContent = note && note.text ? "✎" : "+";
    b.onclick = (e) => { e.stopPropagation(); editNote(s.player, () => decorateAgain(root, state, me)); };
    plate.appendChild(b);
  }
}

function decorateAgain(root, state, me) {
  for (const b of root.querySelectorAll(".note-tag")) b.remove();
  decorateSeats(root, state, me);
}

/** The note dialog for `player`; `done` after it is saved. */
export function editNote(player, done) {
  let dialog = $("#note-dialog");
  if (!dialog) { document.body.insertAdjacentHTML("beforeend", NOTE_DIALOG_HTML); dialog = $("#note-dialog"); }
  const note = notes.get(player) || { colour: null, text: "" };
  $("#nd-title").textContent = `Note on ${player}`;
  for (const r of dialog.querySelectorAll('input[name="nd-colour"]')) r.checked = r.value === (note.colour || "");
  $("#nd-text").value = note.text;
  $("#nd-error").textContent = "";
  $("#nd-cancel").onclick = () => dialog.close();
  $("#nd-form").onsubmit = async (e) => {
    e.preventDefault();
    const picked = dialog.querySelector('input[name="nd-colour"]:checked');
    const body = { colour: picked && picked.value ? picked.value : null, text: $("#nd-text").value };
    const r = await api("PUT", `/api/v1/notes/${encodeURIComponent(player)}`, body);
    if (r.status !== 200) { $("#nd-error").textContent = r.data.error || "could not save the note"; return; }
    if (r.data.colour === null && !r.data.text) notes.delete(player);
    else notes.set(player, { colour: r.data.colour, text: r.data.text });
    dialog.close();
    done();
  };
  dialog.showModal();
  $("#nd-text").focus();
}
