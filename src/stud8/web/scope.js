// A view mounted more than once on one page (a table in each tile of #/tables/...):
// its ids made unique with a prefix, and its lookups kept inside its own root, so two
// tables never find (or label, or control) each other's elements.

// (after a space: "data-id" or "data-for" are not ids)
const ID_ATTRS = /(\s)(id|for|aria-controls|aria-labelledby|aria-describedby)="([^"]*)"/g;

/** The markup with every id, and every attribute naming ids, prefixed ("" : as it is). */
export function prefixIds(html, prefix) {
  if (!prefix) return html;
  return html.replace(ID_ATTRS, (_, space, attr, ids) => `${space}${attr}="${ids.split(/\s+/).filter(Boolean).map((id) => prefix + id).join(" ")}"`);
}

/** A selector's ids prefixed: "#table .seat" -> "#t2-table .seat". */
export function prefixSelector(selector, prefix) {
  return prefix ? selector.replace(/#([A-Za-z][\w-]*)/g, `#${prefix}$1`) : selector;
}

/** querySelector inside `root`, the selector's ids being the view's own (prefixed). */
export function scoped(root, prefix = "") {
  return (selector) => root.querySelector(prefixSelector(selector, prefix));
}
