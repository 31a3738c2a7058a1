// The replayer's equity panel: at each step, each live hand's chances at the end of
// the street being played (its share of the pot; in Stud Hi/Lo the high, the low and
// the scoop; in Seven Card Stud and Razz the pot), and a small graph of every hand's
// share street by street (inline SVG drawn here).
//
// The server works the figures out from the cards this viewer may see, once a hand
// (GET /api/v1/hands/ID/equity for a stored hand, POST /api/v1/replays/equity with a
// file's hand): every street comes in one answer, so stepping never waits. Each
// street says whether it was counted exactly or estimated from random deals.

import { api, esc } from "./util.js";
import { STREETS } from "./words.js";

export const COLORS = ["#2a6fdb", "#c2410c", "#15803d", "#9333ea", "#b91c1c", "#0e7490", "#a16207", "#4b5563"];
const W = 280;
const H = 116;
const LEFT = 34;
const RIGHT = 10;
const TOP = 8;
const BOTTOM = 20;
const STREET_NUMBERS = [3, 4, 5, 6, 7];

/** "52%", "33.3%", "<0.1%": a chance as a person reads it. */
export function percent(p) {
  if (p === null || p === undefined) return "–";
  const x = p * 100;
  if (x > 0 && x < 0.05) return "<0.1%";
  if (x < 100 && x > 99.95) return ">99.9%";
  return `${Number.isInteger(Math.round(x * 10) / 10) ? Math.round(x) : x.toFixed(1)}%`;
}

/** How a street was counted, said plainly. */
export function methodText(street) {
  const n = street.count.toLocaleString("en-US");
  if (street.method === "exact" && street.count === 1) return "exact: no card is left unknown";
  if (street.method === "exact") return `exact: every way the cards can fall (${n})`;
  return `≈ from ${n} random deals`;
}

function xOf(street) {
  return LEFT + ((street - 3) * (W - LEFT - RIGHT)) / 4;
}

function yOf(share) {
  return TOP + (1 - share) * (H - TOP - BOTTOM);
}

/** Each seat's share street by street: [{seat, points: [[street, share]]}]; a hand that
 * folds drops to 0 on the street it folded and ends there. */
export function linesOf(data) {
  const seats = [...new Set(data.streets.flatMap((s) => s.seats.map((x) => x.seat)))].sort((a, b) => a - b);
  return seats.map((seat) => {
    const points = [];
    for (const street of data.streets) {
      const mine = street.seats.find((x) => x.seat === seat);
      if (mine) points.push([street.street, mine.share]);
      else if (points.length) { points.push([street.street, 0]); break; }
    }
    return { seat, points };
  });
}

/** The graph: every hand's share of the pot by street, `current` marked. */
export function graphSVG(data, current, colorOf, nameOf) {
  const grid = [0, 0.5, 1].map((v) => `<line x1="${LEFT}" x2="${W - RIGHT}" y1="${yOf(v)}" y2="${yOf(v)}" class="rp-eq-grid"/>
    <text x="${LEFT - 4}" y="${yOf(v) + 3}" text-anchor="end">${v * 100}%</text>`).join("");
  const axis = STREET_NUMBERS.map((s) => `<text x="${xOf(s)}" y="${H - 6}" text-anchor="middle"${s === current ? ' class="now"' : ""}>${s}${s === 3 ? "rd" : "th"}</text>`).join("");
  const mark = STREET_NUMBERS.includes(current) ? `<rect class="rp-eq-now" x="${xOf(current) - 9}" y="${TOP - 4}" width="18" height="${H - TOP - BOTTOM + 8}" rx="4"/>` : "";
  const lines = linesOf(data).map(({ seat, points }) => {
    const color = colorOf(seat);
    const path = points.map(([s, v]) => `${xOf(s).toFixed(1)},${yOf(v).toFixed(1)}`).join(" ");
    const dots = points.map(([s, v]) => `<circle cx="${xOf(s).toFixed(1)}" cy="${yOf(v).toFixed(1)}" r="${s === current ? 3.6 : 2.4}" fill="${color}"><title>${esc(nameOf(seat))}, ${STREETS[s]}: ${percent(v)} of the pot</title></circle>`).join("");
    return `<g data-seat="${seat}"><polyline points="${path}" fill="none" stroke="${color}" stroke-width="2"/>${dots}</g>`;
  }).join("");
  return `<svg class="rp-eq-graph" viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="each hand's share of the pot, street by street">${mark}${grid}${axis}${lines}</svg>`;
}

/** The table of the street's live hands (and those out of it). */
export function tableOf(data, street, dealt, colorOf, nameOf) {
  const hiLo = data.game === "stud_hi_lo";
  const heads = hiLo ? ["Pot", "High", "Low", "Scoop"] : ["Pot", data.game === "razz" ? "Win (low)" : "Win"];
  const rows = [];
  const live = new Map(street.seats.map((x) => [x.seat, x]));
  for (const seat of dealt) {
    // the key's colour as an SVG attribute: the page's policy allows no inline style
    const name = `<svg class="rp-eq-key" viewBox="0 0 10 10" aria-hidden="true"><rect width="10" height="10" rx="2" fill="${colorOf(seat)}"/></svg>${esc(nameOf(seat))}`;
    const x = live.get(seat);
    const full = esc(nameOf(seat)); // a long name is cut short on the row: whole here
    if (!x) { rows.push(`<tr data-seat="${seat}" class="out"><th scope="row" title="${full}">${name}</th><td colspan="${heads.length}">folded</td></tr>`); continue; }
    const cells = hiLo ? [x.share, x.win, x.low, x.scoop] : [x.share, x.win];
    rows.push(`<tr data-seat="${seat}"><th scope="row" title="${full}">${name}</th>${cells.map((c) => `<td>${percent(c)}</td>`).join("")}</tr>`);
  }
  return `<table class="rp-eq-table${hiLo ? " hi-lo" : ""}"><thead><tr><th scope="col">Hand</th>${heads.map((h) => `<th scope="col">${h}</th>`).join("")}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/** The panel in the replayer's side column; `load` a hand, `draw` a step. */
export function equityPanel(app) {
  const side = app.querySelector(".rp-side");
  const panel = document.createElement("section");
  panel.id = "rp-equity";
  panel.className = "rp-equity";
  panel.setAttribute("aria-label", "equity");
  panel.hidden = true;
  side.prepend(panel);
  const kept = new Map(); // hand id (a file's: its place) -> the answer
  let data = null;
  let error = "";
  let asked = 0; // the latest request: an older answer is not shown
  let last = { state: null, replay: null };

  async function load(r, stored) {
    const mine = ++asked;
    const key = `${stored ? "hand" : "file"}:${r.hand_id}:${r.viewer}:${r.everything}`;
    data = kept.get(key) || null;
    error = "";
    panel.hidden = false;
    if (data) return;
    const answer = stored
      ? await api("GET", `/api/v1/hands/${encodeURIComponent(r.hand_id)}/equity`)
      : await api("POST", "/api/v1/replays/equity", r);
    if (mine !== asked) return;
    if (answer.status === 200) { data = answer.data; kept.set(key, answer.data); } else {
      error = answer.data.error || `(${answer.status})`; // status 0: the server cannot be reached
    }
    if (last.state) draw(last.state, last.replay);
  }

  function draw(state, replay) {
    last = { state, replay };
    if (panel.hidden) return;
    const now = state.hand ? state.hand.street : 0;
    const nameOf = (seat) => (state.seats[seat] && state.seats[seat].player) || `Seat ${seat}`;
    const order = replay ? replay.players.map((p) => p.seat) : [];
    const colorOf = (seat) => COLORS[Math.max(0, order.indexOf(seat)) % COLORS.length];
    window.stud8equity = { data, street: now, error };
    if (error) { panel.innerHTML = `<h2>Equity</h2><p class="rp-eq-note">Not available: ${esc(error)}</p>`; return; }
    if (!data) { panel.innerHTML = `<h2>Equity</h2><p class="rp-eq-note">Working out each hand's chances…</p>`; return; }
    const street = data.streets.find((s) => s.street === now);
    const shown = "the hands shown at the showdown, from 3rd street on";
    const seen = data.everything ? "every card" : data.viewer !== null ? `your own cards and ${shown}` : shown;
    const head = `<h2>Equity <small>${street ? `at the end of ${STREETS[now]}` : "from 3rd street"}</small></h2>`;
    const body = street
      ? `${tableOf(data, street, order, colorOf, nameOf)}<p class="rp-eq-method" data-method="${street.method}">${esc(methodText(street))}</p>`
      : `<p class="rp-eq-note">Each hand's chances from the deal of 3rd street on.</p>`;
    panel.innerHTML = `${head}${body}${data.streets.length ? graphSVG(data, now, colorOf, nameOf) : ""}<p class="rp-eq-note">Counted from ${seen}; a card you cannot see is any card of the rest.</p>`;
  }

  function clear() {
    asked++;
    data = null;
    error = "";
    panel.hidden = true;
    panel.innerHTML = "";
    window.stud8equity = null;
  }

  return { load, draw, clear, stop: clear };
}
