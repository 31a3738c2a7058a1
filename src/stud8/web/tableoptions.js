// The options of RULES.md a table may be opened with, as the room defines them once
// (GET /api/v1/tables/options: each one's label, kind, allowed values, default and
// what it does): the operator's form's rule fields and the lobby's details of a
// table are both made from them.

import { api, esc } from "./util.js";
import { ratePercent } from "./words.js";

let loaded = null; // the promise of the options, asked once a page

/** The options (a list), or [] if the room could not say. */
export function tableOptions() {
  if (!loaded) {
    loaded = api("GET", "/api/v1/tables/options").then((r) => {
      if (r.status !== 200) { loaded = null; return []; }
      return r.data.options;
    });
  }
  return loaded;
}

/** The form's fields of the options ([name, label, kind, default, extra], as
 * formfields.js takes them) and the selects' choices by name. */
export function optionFields(options) {
  const choices = {};
  const fields = options.map((o) => {
    const title = `title="${esc(o.doc)}"`;
    if (o.kind === "choice") {
      choices[o.name] = o.choices.map((c) => [String(c.value), c.label]);
      return [o.name, o.label, "select", String(o.default), title];
    }
    if (o.kind === "bool") return [o.name, o.label, "bool", o.default, title];
    if (o.kind === "rate") return [o.name, o.label, "text", o.default, `${title} placeholder="5 or 5/2"`];
    const none = o.nullable ? ' placeholder="none"' : "";
    return [o.name, o.label, "int", o.default ?? "", `min="${o.minimum ?? 0}"${none} ${title}`];
  });
  return { fields, choices };
}

/** The body's values of the options as the room takes them: a choice of numbers
 * (a street) as a number, a blank number that may be null as null (none, no cap). */
export function optionValues(form, options, body) {
  for (const o of options) {
    const el = form.elements[o.name];
    if (!el) continue;
    if (o.kind === "choice" && typeof o.choices[0].value === "number") body[o.name] = Number(el.value);
    else if (o.kind === "int" && o.nullable && el.value.trim() === "") body[o.name] = null;
  }
  return body;
}

/** An option's value in words: its choice's label, yes or no, none, a percentage. */
export function optionText(o, value) {
  // a mixed table's hands of each game: none chosen is one orbit (spec.py)
  if (o.name === "rotation_hands" && value === null) return "every orbit";
  if (value === null || value === undefined) return "none";
  if (o.kind === "choice") return (o.choices.find((c) => c.value === value) || { label: String(value) }).label;
  if (o.kind === "bool") return value ? "yes" : "no";
  if (o.kind === "rate") return `${ratePercent(value)}%`;
  return String(value);
}

/** A table's options (its lobby entry's `rules`), a list of label: value, the ones
 * not at their default marked. */
export function rulesDetailsHTML(t, options) {
  const rules = t.rules || {};
  const items = options.filter((o) => o.name in rules).map((o) => {
    const value = rules[o.name];
    const changed = value !== o.default ? ' class="chosen"' : "";
    // a mixed table's game is the one it started with (it rotates from there)
    const label = o.name === "game" && t.mixed ? "First game" : o.label;
    return `<li${changed} title="${esc(o.doc)}"><span>${esc(label)}</span> <b>${esc(optionText(o, value))}</b></li>`;
  });
  return `<ul class="table-rules-list" aria-label="rules of table ${esc(t.table_id)}">${items.join("")}</ul>`;
}
