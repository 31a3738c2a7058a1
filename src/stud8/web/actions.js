// The action bar: exactly the legal actions of my turn (fixed-limit buttons, or a
// slider and a box with half-pot, pot and all-in in pot and no limit), the
// pre-action boxes while it is somebody else's turn (preactions.js), and the
// results when the hand is over.

import { $, $$, esc } from "./util.js";
import { actionLabel } from "./words.js";
import { presets, isAllIn, checkAmount, betting, SIZED } from "./sizing.js";
import { who } from "./store.js";
import { resultsHTML, showdownDone } from "./showdown.js";
import { potOddsText } from "./hud.js";
import { preHTML, preKey, tickPreAction } from "./preactions.js";

export { preActionChoice } from "./preactions.js";

const KEYS = { fold: "f", check: "c", call: "c", bring_in: "b", complete: "r", bet: "r", raise: "r" };
/** The keyboard shortcuts, said once (the action bar's title, and the rules panel). */
export const SHORTCUTS = "Keys: F fold, C check or call, B bring in, R complete, bet or raise (Enter in the amount box bets it)";

/** "turn" (my buttons), "pre" (the pre-action boxes) or "" (nothing to do). */
export function barMode(state) {
  const h = state.hand;
  if (!h || h.over || state.mySeat === null) return "";
  const t = state.turn;
  if (t && t.seat === state.mySeat) return "turn";
  const me = h.seats[state.mySeat];
  return me && !me.folded && !me.all_in ? "pre" : "";
}

/** Redraw the bar only when this changes (a redraw would drop a slider mid-drag). */
export function barKey(state) {
  const mode = barMode(state);
  if (mode === "turn") return `turn:${state.hand.id}:${state.hand.street}:${JSON.stringify(state.turn.legal)}`;
  if (mode === "pre") return preKey(state);
  const h = state.hand;
  if (h && h.cancelled) return "cancelled";
  if (h && showdownDone(h) && h.awards.length) return `results:${h.id}:${h.revealed}:${h.awards.length}`;
  return "";
}

function sizerHTML(state, a) {
  const structure = state.rules ? state.rules.structure : "no_limit";
  const chips = presets(state, a, structure)
    .map((p) => `<button type="button" class="preset" data-name="${p.name}" data-to="${p.to}" aria-label="${esc(p.label)}: ${a.kind.replace("_", " ")} to ${p.to}">${esc(p.label)}</button>`)
    .join("");
  const range = `${a.min_to} to ${a.max_to}`;
  return `<div class="sizer" data-kind="${a.kind}">
  <div class="presets">${chips}</div>
  <input type="range" class="slider" data-kind="${a.kind}" min="${a.min_to}" max="${a.max_to}" step="1" value="${a.min_to}" aria-label="${a.kind} to, ${range}">
  <input type="number" class="amount" data-kind="${a.kind}" min="${a.min_to}" max="${a.max_to}" step="1" value="${a.min_to}" inputmode="numeric" aria-label="${a.kind} to (${range})">
  <span class="err" role="alert"></span>
</div>`;
}

function turnHTML(state) {
  const legal = state.turn.legal;
  const used = new Set();
  const sized = legal.find((a) => SIZED.has(a.kind) && a.max_to > a.min_to);
  const buttons = legal.map((a) => {
    let key = KEYS[a.kind] || "";
    if (used.has(key)) key = "";
    if (key) used.add(key);
    const keyAttr = key ? ` data-key="${key}" aria-keyshortcuts="${key}" title="${esc(actionLabel(a))} (key ${key.toUpperCase()})"` : "";
    return `<button class="act act-${a.kind}" data-kind="${a.kind}" data-to="${a.min_to}"${keyAttr}><span class="label">${esc(actionLabel(a))}</span>${key ? `<kbd aria-hidden="true">${key}</kbd>` : ""}</button>`;
  });
  const b = betting(state);
  const facing = b.toCall ? `${b.toCall} to call` : "no bet to you";
  const odds = potOddsText(state);
  return `<div class="actions your-turn" role="toolbar" aria-label="your actions" title="${SHORTCUTS}">
  <div class="turn-head"><strong>Your turn</strong><span>${facing} · pot ${state.hand.pot}</span>${odds ? `<span class="pot-odds">${odds}</span>` : ""}<span class="my-clock" aria-hidden="true"></span></div>
  ${sized ? sizerHTML(state, sized) : ""}
  <div class="buttons">${buttons.join("")}</div></div>`;
}

export function actionBarHTML(state) {
  const mode = barMode(state);
  if (mode === "turn") return turnHTML(state);
  if (mode === "pre") {
    const h = state.hand;
    return preHTML(state, h.to_act !== null && h.to_act !== undefined ? `Waiting for ${who(state, h.to_act)}` : "Waiting");
  }
  const h = state.hand;
  if (h && h.cancelled) return `<div class="results">The hand was cancelled: every chip went back</div>`;
  if (h && showdownDone(h) && h.awards.length) return resultsHTML(state);
  return "";
}

function legalOf(state, kind) {
  return state.turn ? state.turn.legal.find((a) => a.kind === kind) : null;
}

function setAmount(root, state, kind, to, from) {
  const a = legalOf(state, kind);
  if (!a) return;
  const slider = $(`input.slider[data-kind="${kind}"]`, root);
  const box = $(`input.amount[data-kind="${kind}"]`, root);
  if (slider && from !== slider) slider.value = String(to);
  if (box && from !== box) box.value = String(to);
  const button = $(`button.act[data-kind="${kind}"]`, root);
  if (button) {
    button.dataset.to = String(to);
    $(".label", button).textContent = actionLabel(a, to, isAllIn(state, to));
  }
  const err = $(".sizer .err", root);
  if (err) err.textContent = "";
}

/**
 * Bind the bar once (the handlers are delegated, so redraws keep them).
 * onAct(kind, amount | undefined); onPre() after a box changed.
 */
export function bindActionBar(root, state, { onAct, onPre }) {
  function act(kind) {
    const a = legalOf(state, kind);
    if (!a) return;
    let amount;
    if (SIZED.has(kind)) {
      const box = $(`input.amount[data-kind="${kind}"]`, root);
      if (box) {
        const checked = checkAmount(box.value, a);
        if (checked.error) {
          $(".sizer .err", root).textContent = checked.error;
          box.focus();
          return;
        }
        amount = checked.to;
      } else {
        amount = a.min_to;
      }
    }
    for (const b of $$("button.act", root)) b.disabled = true;
    onAct(kind, amount);
  }
  root.addEventListener("click", (e) => {
    const preset = e.target.closest("button.preset");
    if (preset) {
      setAmount(root, state, preset.closest(".sizer").dataset.kind, Number(preset.dataset.to), null);
      return;
    }
    const b = e.target.closest("button.act");
    if (b && !b.disabled) act(b.dataset.kind);
  });
  root.addEventListener("input", (e) => {
    const el = e.target;
    if (el.matches("input.slider")) setAmount(root, state, el.dataset.kind, Number(el.value), el);
    else if (el.matches("input.amount")) {
      const a = legalOf(state, el.dataset.kind);
      if (a && !checkAmount(el.value, a).error) setAmount(root, state, el.dataset.kind, Number(el.value), el);
    }
  });
  root.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && e.target.matches("input.amount")) { e.preventDefault(); act(e.target.dataset.kind); }
  });
  root.addEventListener("change", (e) => {
    const box = e.target.closest("input.pre-box");
    if (!box || !state.hand) return;
    tickPreAction(state, box.dataset.pre, box.checked);
    onPre();
  });
  return { act };
}
