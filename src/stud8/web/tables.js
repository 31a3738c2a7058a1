// Several tables in one page (#/tables/ID1,ID2,...; issue 28, item 5): a regular plays
// up to four at once. Each is a whole table view of its own (table.js, in a tile: its
// socket, state, timers, sound, chat and dealer's log); this page tiles them (two side
// by side, four in a 2×2 grid, stacked on a phone), each scaled to its tile, marks the
// table where my decision waits and brings it forward: the first to wait has the
// keyboard (its passive action focused) until I act there, then the next. The keys act
// at the focused table only. Closing a tile leaves the others playing.

import { session, toast } from "./util.js";
import { go } from "./nav.js";
import { bankHTML, refreshBank } from "./hud.js";
import { DIALOG_HTML } from "./controls.js";
import { tableView } from "./table.js";

export const MOST_TABLES = 4;
const OPEN_KEY = "stud8.open-tables"; // the tables this tab has open (the lobby adds beside them)
// the size a tile's table is laid out at before it is scaled to the tile: a tile about
// as wide as high puts the log under the felt, a wide one beside it
const TALL = { width: 760, height: 820 };
const WIDE = { width: 960, height: 580 };
const STACKED = "(max-width: 760px)"; // a phone: the tiles one under the other, unscaled

/** The address of these tables: one in the table's own page, more in this one. */
export function tablesHash(ids) {
  const parts = ids.map((id) => encodeURIComponent(id));
  return `#/tables/${parts.join(",")}`;
}

/** The table ids of a #/tables/ address (each once, in order), or null if it is not one. */
export function parseTables(hash) {
  const m = hash.match(/^#\/tables\/([^/?]*)$/);
  if (!m) return null;
  const ids = [];
  for (const part of m[1].split(",")) {
    let id = "";
    try { id = decodeURIComponent(part).trim(); } catch { id = ""; }
    if (id && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** The tables this tab has open now (a table's page or this one), for "Open beside". */
export function openTables() {
  try {
    const ids = JSON.parse(sessionStorage.getItem(OPEN_KEY) || "[]");
    return Array.isArray(ids) ? ids.filter((id) => typeof id === "string").slice(0, MOST_TABLES) : [];
  } catch {
    return [];
  }
}

export function rememberOpen(ids) {
  sessionStorage.setItem(OPEN_KEY, JSON.stringify(ids.slice(0, MOST_TABLES)));
}

/** The lobby's "Open beside": this table with the ones already open (four at most). */
export function openBeside(tableId) {
  const others = openTables().filter((id) => id !== tableId);
  if (others.length >= MOST_TABLES) {
    toast(`${MOST_TABLES} tables at most: close one of ${others.join(", ")} first`);
    return;
  }
  go(tablesHash([...others, tableId]));
}

// What the lobby asked of a table it opens in a tile (sit with a buy-in, wait for a
// seat): a tile's query is not in the page's address, so it waits here for its tile
// (the page is not reloaded between the lobby and the tiles: this module stays).
const asked = new Map(); // table id -> its query

/**
 * The lobby's Sit, Join waiting list or Observe of `tableId` (`query`: what it asks
 * there, {} to watch). When the tab has tables tiled, or one where I play
 * (`playsAt(id)`: the lobby lists me seated there), the table opens beside them: a
 * regular who sits at one more table does not mean to leave the others. At the limit
 * the oldest table I only watch makes room (it is said); if I play at all four, none
 * is left unseen with my seat at it: I am told to leave one first.
 */
export function openFromLobby(tableId, query, playsAt) {
  const open = openTables().filter((id) => id !== tableId);
  const single = () => {
    const q = new URLSearchParams(query).toString();
    go(`#/table/${encodeURIComponent(tableId)}${q ? `?${q}` : ""}`);
  };
  if (!open.length || (open.length < 2 && !open.some(playsAt))) { single(); return; }
  let others = open;
  if (others.length >= MOST_TABLES) {
    const watched = others.find((id) => !playsAt(id)); // the oldest first
    if (!watched) {
      toast(`${MOST_TABLES} tables at most, and you play at ${others.join(", ")}: leave one first`);
      return;
    }
    others = others.filter((id) => id !== watched);
    toast(`Table ${watched} closed to make room: you were only watching it`);
  }
  if (Object.keys(query).length) asked.set(tableId, query);
  go(tablesHash([...others, tableId]));
}

let tileCount = 0; // each tile's ids get a prefix of their own, never used twice on a page

/** The page of tables `ids` (1 to 4) in `app`: {stop(), update(ids)}. */
export function tablesView(app, ids) {
  app.innerHTML = `<div class="tables-page"><header class="top tables-top"><button id="to-lobby" aria-label="back to the lobby">← Lobby</button>
  <h1>Tables <small id="tables-count"></small></h1><div class="me">${bankHTML()}</div></header>
  <main id="tiles" class="tiles" aria-label="your tables"></main></div>${DIALOG_HTML}`;
  const grid = app.querySelector("#tiles");
  const stacked = window.matchMedia(STACKED);
  const tiles = new Map(); // table id -> {id, name, section, root, view, waiting, since}
  const queries = new Map(); // table id -> the query its view opens with (a tournament's move)
  let forward = null; // the table whose turn is brought forward (the first to wait)
  let stopped = false;
  const probes = {}; // the tests read each table's state here (window.stud8 is one table's)
  window.stud8tables = probes;
  document.querySelector("#to-lobby").onclick = () => go("#/");

  const sizes = new ResizeObserver((entries) => { for (const e of entries) fit(e.target); });

  /** A tile's table laid out at its design size and scaled (CSS zoom) to the tile. */
  function fit(section) {
    const root = section.querySelector(".tile-view");
    if (!root) return;
    if (stacked.matches) {
      Object.assign(root.style, { zoom: "", width: "", height: "" });
      root.classList.remove("tall", "wide");
      return;
    }
    const width = section.clientWidth;
    const height = section.clientHeight;
    if (!width || !height) return;
    const tall = width / height < 1.25;
    const design = tall ? TALL : WIDE;
    const zoom = Math.min(1, width / design.width, height / design.height);
    root.classList.toggle("tall", tall);
    root.classList.toggle("wide", !tall);
    // its own size in the zoomed pixels: the tile's, exactly
    Object.assign(root.style, { zoom: String(zoom), width: `${width / zoom}px`, height: `${height / zoom}px` });
  }
  const refit = () => { for (const t of tiles.values()) fit(t.section); };
  stacked.addEventListener("change", refit);

  function add(id) {
    tileCount += 1;
    const section = document.createElement("section");
    section.className = "tile";
    section.dataset.table = id;
    section.setAttribute("aria-label", `Table ${id}`);
    const root = document.createElement("div");
    root.className = "tile-view";
    section.append(root);
    const t = { id, name: id, section, root, view: null, waiting: false, since: 0 };
    tiles.set(id, t);
    grid.append(section);
    const query = queries.get(id) || asked.get(id) || {};
    queries.delete(id);
    asked.delete(id);
    t.view = tableView(root, id, query, {
      prefix: `tile${tileCount}-`,
      isForward: () => forward === id,
      hasKeys: () => hasKeys(t),
      onTurn: (waiting) => onTurn(t, waiting),
      onName: (name) => { t.name = name; label(t); },
      onClose: () => close(id),
      follow: (table, q) => follow(id, table, q),
    });
    probes[id] = t.view.probe;
    sizes.observe(section);
  }

  function remove(id) {
    const t = tiles.get(id);
    if (!t) return;
    t.view.stop();
    sizes.unobserve(t.section);
    t.section.remove();
    tiles.delete(id);
    delete probes[id];
    if (forward === id) bringForward();
  }

  /** The keyboard is this tile's when the focus is in it, or nowhere and its turn is forward. */
  function hasKeys(t) {
    const el = document.activeElement;
    if (el && el !== document.body) return t.section.contains(el);
    return forward === t.id;
  }

  function label(t) {
    t.section.setAttribute("aria-label", `Table ${t.name}${t.waiting ? ", your turn" : ""}`);
  }

  function onTurn(t, waiting) {
    if (t.waiting === waiting) return;
    t.waiting = waiting;
    t.since = waiting ? performance.now() : 0;
    t.section.classList.toggle("my-turn", waiting);
    label(t);
    bringForward();
  }

  /** The first table where my decision waits comes forward: marked, the keyboard on its
   * passive action (unless I am typing somewhere), and in sight on a phone. */
  function bringForward() {
    const waiting = [...tiles.values()].filter((t) => t.waiting).sort((a, b) => a.since - b.since);
    const next = waiting.length ? waiting[0].id : null;
    document.body.classList.toggle("my-turn", waiting.length > 0);
    const names = waiting.map((t) => t.name);
    document.title = `${names.length ? `● Your turn: ${names.join(", ")} · ` : ""}${tiles.size} table${tiles.size === 1 ? "" : "s"} · stud8`;
    if (next === forward) return;
    forward = next;
    for (const t of tiles.values()) t.section.classList.toggle("forward", t.id === forward);
    if (!forward) return;
    const t = tiles.get(forward);
    const el = document.activeElement;
    const typing = el && (el.matches("input:not([type=checkbox]):not([type=range]), textarea, select") || el.closest("dialog[open]"));
    if (!typing) t.view.focusTurn();
    if (stacked.matches) t.section.scrollIntoView({ block: "start" });
  }

  function close(id) {
    const left = [...tiles.keys()].filter((other) => other !== id);
    go(left.length ? tablesHash(left) : "#/");
  }

  /** A tournament moved me from `from` to `table`: that tile opens the new table. */
  function follow(from, table, query) {
    const list = [...tiles.keys()].map((id) => (id === from ? table : id));
    queries.set(table, query);
    go(tablesHash([...new Set(list)]));
  }

  /** Show exactly `next` (in its order), keeping the tables already open playing. */
  function update(next) {
    if (stopped) return false;
    const wanted = next.slice(0, MOST_TABLES);
    if (next.length > MOST_TABLES) {
      toast(`${MOST_TABLES} tables at most: ${next.slice(MOST_TABLES).join(", ")} not opened`);
      window.history.replaceState(null, "", tablesHash(wanted));
    }
    for (const id of [...tiles.keys()]) if (!wanted.includes(id)) remove(id);
    for (const id of wanted) if (!tiles.has(id)) add(id);
    for (const id of wanted) grid.append(tiles.get(id).section); // in the address's order
    grid.className = `tiles n-${wanted.length}`;
    app.querySelector("#tables-count").textContent = `${wanted.length} of ${MOST_TABLES}`;
    rememberOpen(wanted);
    bringForward();
    refit();
    return true;
  }

  update(ids);
  if (session.token) refreshBank();
  return {
    update,
    stop() {
      stopped = true;
      for (const id of [...tiles.keys()]) remove(id);
      sizes.disconnect();
      stacked.removeEventListener("change", refit);
      document.body.classList.remove("my-turn");
      if (window.stud8tables === probes) window.stud8tables = null;
    },
  };
}
