// The page's DOM helpers, one copy of each: build an element, find elements, and redraw an
// element's children only when what they show has changed.

import { number } from "./i18n.js";

/** Builds an element: h("div", {class: "x", "data-a": 1}, child, "text", ...). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) {
      el.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }
  return el;
}

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

/**
 * Replaces an element's children only when what they show changed (``key`` names it), so
 * repeated renders keep focus, animations and scroll position. Returns whether it redrew.
 */
export function redraw(el, key, build) {
  if (!el || el.dataset.key === key) return false;
  el.dataset.key = key;
  el.replaceChildren(...[build()].flat(2).filter((child) => child !== null && child !== undefined));
  return true;
}

/** A number as people of the page's language read it: 1,250 (in Russian 1 250). */
export function points(n) {
  return number(n);
}

/** Makes the next redraw() of every element draw again: what they show is worded anew (the
 * page's language changed). */
export function forgetDrawn(root = document) {
  for (const el of root.querySelectorAll("[data-key]")) delete el.dataset.key;
}
