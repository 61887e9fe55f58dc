// A game's table and summaries drawn from their data (parts.js), the same way for every game:
// boxes of text, cards, face-down counts, figures, melds, lines per seat and score tables. A meld
// or card with a target is a button while the composer may aim (`pick`).

import { cardText } from "./cards.js";
import { h } from "./dom.js";
import { backEl, cardEl } from "./faces.js";

/** @typedef {import("./parts.js").Part} Part */
/** @typedef {import("./parts.js").Box} Box */
/** @typedef {import("./parts.js").Target} Target */
/** @typedef {import("./parts.js").Line} Line */
/** @typedef {{target: Target | null, pick: ((t: Target) => void) | null}} Aim what the composer aims at, and how to aim */

/** CSS class of a text's tone. */
const TONE = { big: "big", empty: "empty", note: "val", badge: "badge", num: "num" };

/** A game's public table: wide boxes on their own line, the others side by side. @param {Box[]} boxes @param {Aim} aim */
export function boardEl(boxes, aim) {
  /** @type {HTMLElement[]} */
  const out = [];
  /** @type {HTMLElement | null} */
  let row = null;
  for (const b of boxes) {
    const el = h("div", { class: "box" }, h("h3", null, b.title), partsEl(b.parts, aim, false));
    if (b.wide) { out.push(el); row = null; continue; }
    if (!row) { row = h("div", { class: "boxes" }); out.push(row); }
    row.append(el);
  }
  return h("div", { class: "public" }, out);
}

/** Parts as elements; `inline` in a line or a table cell, else as blocks. @param {readonly Part[]} parts @param {Aim} aim @param {boolean} inline */
export function partsEl(parts, aim, inline) {
  return parts.map((p) => partEl(p, aim, inline));
}

/** @param {Part} p @param {Aim} aim @param {boolean} inline @returns {HTMLElement} */
function partEl(p, aim, inline) {
  switch (p.kind) {
    case "text": return h(inline ? "span" : "p", { class: p.tone ? TONE[p.tone] : undefined }, p.text);
    case "cards": return h("span", { class: "cards" }, p.cards.map((c, i) => cardPart(c, !p.large, p.targets[i] || null, aim)));
    case "back": return backEl(p.count, p.label);
    case "stats": return h(inline ? "span" : "div", null, p.stats.map(([k, v]) =>
      h("span", { class: "stat" }, h("span", { class: "k" }, k), " ", h("b", null, String(v)))));
    case "meld": return meldEl(p.cards, p.label, p.target, aim);
    case "lines": return linesEl(p.layout, p.lines, aim);
    case "more": return h("details", null, h("summary", null, p.summary), partsEl(p.parts, aim, false));
    case "scores": return h("table", { class: "scores" },
      h("thead", null, h("tr", null, p.head.map((c) => h("th", null, c)))),
      h("tbody", null, p.rows.map((cells) => h("tr", null, cells.map((c) =>
        h("td", { class: c.kind === "text" && c.tone === "num" ? "num" : undefined }, c.kind === "text" ? c.text : partEl(c, aim, true)))))));
    default: return h("span", null);
  }
}

/** Lines of parts, each led by its seat's (or suit's) name. @param {import("./parts.js").LinesPart["layout"]} layout @param {Line[]} rows @param {Aim} aim */
function linesEl(layout, rows, aim) {
  /** @param {Line} l @param {string} cls @param {string} labelCls */
  const lineEl = (l, cls, labelCls) => h("div", { class: `${cls}${l.style ? ` ${l.style}` : ""}` },
    h("span", { class: labelCls }, l.label), partsEl(l.parts, aim, true));
  if (layout === "suits") return h("div", { class: "layout" }, rows.map((l) => lineEl(l, "suitrow", "suitname")));
  if (layout === "plays") return h("div", null, rows.map((l) => lineEl(l, "play", "who")));
  return h("div", null, rows.map((l) => lineEl(l, "meldline", "who")));
}

/** @param {Target | null} target @param {Aim} aim */
const chosen = (target, aim) => Boolean(target && aim.target && aim.target.key === target.key);

/** A card; with a target, a button that aims the composer at it. @param {string} code @param {boolean} small @param {Target | null} target @param {Aim} aim */
function cardPart(code, small, target, aim) {
  const pick = aim.pick;
  if (!target || !pick) return cardEl(code, { small });
  const el = cardEl(code, { small, button: true, label: `${target.kind === "catch" ? "catch " : ""}${target.label}` });
  el.classList.add("target");
  el.dataset.target = target.key;
  el.dataset.key = `target-${target.key}`;
  el.setAttribute("aria-pressed", chosen(target, aim) ? "true" : "false");
  if (chosen(target, aim)) el.classList.add("chosen");
  el.addEventListener("click", () => pick(target));
  return el;
}

/**
 * A meld on the table; with a target, a button that aims the composer at it.
 * @param {readonly string[]} codes @param {string} label @param {Target | null} target @param {Aim} aim
 */
function meldEl(codes, label, target, aim) {
  const on = chosen(target, aim);
  const attrs = { class: "meld" + (on ? " chosen" : ""), "aria-label": `${label}: ${codes.map(cardText).join(", ")}` };
  const inner = [h("span", { class: "meld-label", "aria-hidden": "true" }, label), h("span", { class: "cards" }, codes.map((c) => cardEl(c, { small: true })))];
  const pick = aim.pick;
  if (target && pick) {
    return h("button", { ...attrs, type: "button", "data-target": target.key, "data-key": `target-${target.key}`,
      "aria-pressed": on ? "true" : "false", onclick: () => pick(target) }, ...inner);
  }
  return h("div", attrs, ...inner);
}
