// The settings kept with the account (issue 28, item 7): the four-colour deck, the
// sounds, the default buy-in per stakes, the auto top-up and the lobby's sort and
// filters (item 6). The views keep reading
// them where they always have (localStorage: prefs.fourColor, the mute switch, the
// buy-in remembered per stakes); this module fills those from the server at log-in
// (GET /api/v1/settings) and sends every change back (PUT), so they follow the
// account to any browser. Logged out, what this browser has stays in use.

import { api, session } from "./util.js";

const FOUR = "stud8.fourColor";
const MUTE = "stud8.mute";
const AUTO = "stud8.autoTopUp";
const BUYIN = "stud8.buyin.";
const LOBBY = "stud8.lobby";

/** The lobby's sort and filters as the server keeps them (LobbyChoice): none chosen. */
export const NO_LOBBY_CHOICE = Object.freeze({
  sort: null, descending: false, games: [], mixed: false, stakes: "", hide_full: false, hide_empty: false, min_players: 0,
});

/** The lobby's sort and filters this browser holds (the defaults for what it lacks). */
export function lobbyChoice() {
  let kept = {};
  try { kept = JSON.parse(localStorage.getItem(LOBBY) || "{}") || {}; } catch { kept = {}; }
  const choice = { ...NO_LOBBY_CHOICE };
  for (const key of Object.keys(choice)) if (key in kept) choice[key] = kept[key];
  return choice;
}

/** The lobby's sort or filters changed: kept here and with the account. */
export function keepLobbyChoice(choice) {
  localStorage.setItem(LOBBY, JSON.stringify(choice));
  window.dispatchEvent(new Event("stud8:settings")); // kept with the account (settings.js)
}

/** The settings as this browser holds them, in the server's shape (AccountSettings). */
export function localSettings() {
  const buy_in = {};
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key.startsWith(BUYIN)) continue;
    const chips = Number(localStorage.getItem(key));
    if (Number.isInteger(chips) && chips > 0) buy_in[key.slice(BUYIN.length)] = chips;
  }
  return {
    four_colour: localStorage.getItem(FOUR) === "1",
    sounds: localStorage.getItem(MUTE) !== "1",
    buy_in,
    auto_top_up: localStorage.getItem(AUTO) === "1",
    lobby: lobbyChoice(),
  };
}

function applyLocally(s) {
  localStorage.setItem(FOUR, s.four_colour ? "1" : "0");
  localStorage.setItem(MUTE, s.sounds ? "0" : "1");
  localStorage.setItem(AUTO, s.auto_top_up ? "1" : "0");
  localStorage.setItem(LOBBY, JSON.stringify(s.lobby || NO_LOBBY_CHOICE));
  for (const key of Object.keys(localStorage)) if (key.startsWith(BUYIN)) localStorage.removeItem(key);
  for (const [stakes, chips] of Object.entries(s.buy_in || {})) localStorage.setItem(BUYIN + stakes, String(chips));
}

/** At log-in: the account's settings replace this browser's. */
export async function loadSettings() {
  if (!session.token) return null;
  const r = await api("GET", "/api/v1/settings");
  if (r.status !== 200) return null;
  applyLocally(r.data);
  return r.data;
}

/** The auto top-up as this browser holds it (the account's, once logged in). */
export function autoTopUpOn() {
  return localStorage.getItem(AUTO) === "1";
}

/** Turn the auto top-up on or off: kept with the account, whose tables are told. */
export function setAutoTopUp(on) {
  localStorage.setItem(AUTO, on ? "1" : "0");
  window.dispatchEvent(new Event("stud8:settings"));
}

let pending = null;
/** A setting changed here: send them all to the server (logged in), once per turn of the loop. */
export function settingsChanged() {
  if (!session.token || pending) return;
  pending = Promise.resolve().then(async () => {
    pending = null;
    await api("PUT", "/api/v1/settings", localSettings());
  });
}

