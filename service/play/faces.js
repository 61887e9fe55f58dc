// Cards as people see them: rank and suit readable at a glance, four colours plus symbols (so that
// no suit depends on colour alone), and an accessible name ("7 of hearts") for screen readers.

import { cardName, parse, SUITS } from "./cards.js";

/**
 * The face of a card as DOM: corner rank and suit, a big symbol in the middle.
 * @param {string} code
 * @param {{button?: boolean, small?: boolean, label?: string}} [opts]
 * @returns {HTMLElement}
 */
export function cardEl(code, opts = {}) {
  const c = parse(code);
  const el = document.createElement(opts.button ? "button" : "span");
  el.className = "card" + (opts.small ? " small" : "");
  el.dataset.card = code;
  const name = opts.label || cardName(code);
  if (opts.button) {
    el.setAttribute("type", "button");
    el.setAttribute("aria-label", name);
  } else {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", name);
  }
  el.title = name;
  /** @param {string} cls @param {string} text */
  const part = (cls, text) => {
    const s = document.createElement("span");
    s.className = cls;
    s.textContent = text;
    s.setAttribute("aria-hidden", "true");
    el.append(s);
  };
  if (c.kind === "standard") {
    el.classList.add(`suit-${c.suit}`);
    part("corner", `${c.rank}${SUITS[c.suit].symbol}`);
    part("pip", SUITS[c.suit].symbol);
  } else if (c.kind === "joker") {
    el.classList.add("joker");
    part("corner", "JK");
    part("pip", "\u2605");
  } else if (c.kind === "agame") {
    el.classList.add("agame", `colour-${c.colour}`);
    part("corner", c.colour.slice(0, 1).toUpperCase());
    part(c.value === "hat" ? "pip hat" : "pip", c.value === "hat" ? "HAT" : c.value);
    part("cname", c.colour);
  } else {
    part("pip", code);
  }
  return el;
}

/** A face-down card (a back) with a count, for the others' hands and stocks. @param {number} count @param {string} label */
export function backEl(count, label) {
  const el = document.createElement("span");
  el.className = "back";
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", label);
  el.title = label;
  const n = document.createElement("span");
  n.textContent = String(count);
  n.setAttribute("aria-hidden", "true");
  el.append(n);
  return el;
}
