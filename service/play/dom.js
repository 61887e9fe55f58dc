// A few DOM helpers: the page is built from plain elements, no framework.

/**
 * h("button", {class: "x", onclick: fn, "data-move": "..."}, "text", child)
 * @param {string} tag
 * @param {Record<string, unknown> | null} [attrs]
 * @param {...(Node | string | number | null | undefined | false | (Node | string | null | undefined | false)[])} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    } else if (key === "class") {
      el.className = String(value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

/** @param {HTMLElement} el @param {unknown[]} children */
function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.append(child);
    else el.append(String(child));
  }
}

/** Replace the children of `el`. @param {Element} el @param {...(Node | string | null | undefined | false)} children */
export function replace(el, ...children) {
  el.replaceChildren(...children.filter((c) => c !== null && c !== undefined && c !== false).map((c) => /** @type {Node | string} */ (c)));
}

/** The element with this id (it exists in index.html). @param {string} id @returns {HTMLElement} */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} missing from the page`);
  return el;
}

/** Say `text` to a screen reader (the page's polite live region, #announce). @param {string} text */
export function announce(text) {
  const region = byId("announce");
  region.textContent = "";
  // a fresh text node each time, so that a repeated message is read again
  setTimeout(() => { region.textContent = text; }, 30);
}

/** Move focus to the page's heading, as a new page would. @param {HTMLElement} main */
export function focusHeading(main) {
  const heading = main.querySelector("h2");
  if (heading instanceof HTMLElement) { heading.tabIndex = -1; heading.focus({ preventScroll: true }); }
}
