// A browser-like global scope for the page modules under node's test runner: a jsdom
// window's document, localStorage, location… become globals, and `fetch` serves the
// files of src/spillebord/web/static (the catalogues) the way the game server does.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { JSDOM } from "jsdom";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const STATIC = `${ROOT}src/spillebord/web/static/`;
export const JS = `${STATIC}js/`;

const GLOBALS = [
  "window", "document", "localStorage", "location", "history", "navigator", "Node", "Element",
  "HTMLElement", "SVGElement", "Event", "KeyboardEvent", "MouseEvent", "CustomEvent",
  "requestAnimationFrame", "cancelAnimationFrame", "getComputedStyle", "matchMedia",
  "DocumentFragment",
];

/**
 * Installs a fresh jsdom window as the global scope (url: the page's address).
 * @param {string} [url]
 * @returns {JSDOM}
 */
export function installDom(url = "http://127.0.0.1:8000/play/test") {
  const dom = new JSDOM("<!doctype html><html><head></head><body></body></html>", {
    url,
    pretendToBeVisual: true,
  });
  const win = /** @type {any} */ (dom.window);
  if (!win.matchMedia) win.matchMedia = () => ({ matches: true, addEventListener() {} });
  const interfaces = Object.getOwnPropertyNames(win).filter((n) =>
    /^(HTML\w*|SVG\w*|\w*Event|Node\w*|Element|Text|Comment|DOMParser|Range)$/.test(n));
  for (const name of [...GLOBALS, ...interfaces]) {
    Object.defineProperty(globalThis, name, {
      value: win[name], configurable: true, writable: true,
    });
  }
  Object.defineProperty(globalThis, "fetch", {
    configurable: true,
    writable: true,
    value: async (/** @type {string} */ path) => {
      const m = /^\/static\/(.+)$/.exec(path);
      if (!m) return new Response("not found", { status: 404 });
      try {
        return new Response(await readFile(STATIC + m[1]), { status: 200 });
      } catch {
        return new Response("not found", { status: 404 });
      }
    },
  });
  return dom;
}

/**
 * The text a person reads in an element: its text with runs of white space as one space,
 * plus the aria-labels of elements that show no text of their own (cards, buttons).
 * @param {Element} el
 * @returns {string}
 */
export function visibleText(el) {
  return (el.textContent || "").replace(/\s+/g, " ").trim();
}
