// The operators' forms (a table, a tournament): each field is
// [name, label, kind, default, extra attributes], kinds int, num, text, select, bool
// and datetime; the form's HTML and the body to POST come from that one list.

import { esc } from "./util.js";

/** One field: its label and control (`prefix` makes its id; `options` the choices of
 * the selects, by field name). */
export function fieldHTML([name, label, kind, value, extra], prefix, options) {
  const id = `${prefix}-${name}`;
  if (kind === "select") {
    const opts = options[name]
      .map(([v, text]) => `<option value="${v}"${v === value ? " selected" : ""}>${esc(text)}</option>`)
      .join("");
    return `<label for="${id}">${esc(label)}<select id="${id}" name="${name}">${opts}</select></label>`;
  }
  if (kind === "bool") {
    return `<label for="${id}" class="check"><input id="${id}" name="${name}" type="checkbox"${value ? " checked" : ""} ${extra}> ${esc(label)}</label>`;
  }
  const type = { text: "text", datetime: "datetime-local" }[kind] || "number";
  return `<label for="${id}">${esc(label)}<input id="${id}" name="${name}" type="${type}" value="${esc(value)}" ${extra}></label>`;
}

/** The body to POST: each field of `fields` the form has, with its type; blank ones
 * are left out. Throws an Error saying which field is not of its kind. */
export function formBody(form, fields) {
  const body = {};
  for (const [name, , kind] of fields) {
    const el = form.elements[name];
    if (!el) continue; // not in this form
    if (kind === "bool") { body[name] = el.checked; continue; }
    const raw = el.value.trim();
    if (raw === "") continue;
    const words = name.replaceAll("_", " ");
    if (kind === "int" || kind === "num") {
      const n = Number(raw);
      if (kind === "int" && !Number.isInteger(n)) throw new Error(`${words} must be a whole number`);
      if (!Number.isFinite(n)) throw new Error(`${words} must be a number`);
      body[name] = n;
    } else if (kind === "datetime") {
      const when = new Date(raw);
      if (Number.isNaN(when.getTime())) throw new Error(`${words}: not a time`);
      body[name] = when.toISOString();
    } else {
      body[name] = raw;
    }
  }
  return body;
}
