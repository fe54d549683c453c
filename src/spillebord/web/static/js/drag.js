// Pointer-based drag and drop (mouse, pen and touch alike).  A source element carries
// data-drag="<source name>"; drop places carry data-drop="<place name>".  The caller says
// which places a source may go to (from the server's legal actions) and what to do on a
// drop.  A press without movement stays an ordinary click.

const THRESHOLD = 6;

/**
 * @typedef {object} DragState
 * @property {HTMLElement | SVGElement} el the dragged source element
 * @property {string} source its data-drag name
 * @property {string[]} targets the places it may be dropped on
 * @property {number} x where the press began
 * @property {number} y
 * @property {HTMLElement | SVGElement | null} ghost the copy that follows the pointer (once moving)
 * @property {number} [dx] pointer offset inside the element
 * @property {number} [dy]
 */

/**
 * The drop place of the element under the pointer: its nearest `[data-drop]` ancestor
 * (itself included) when that place is one of `targets`, else null.
 * @param {Element | null} under
 * @param {string[]} targets
 * @returns {string | null}
 */
export function dropPlace(under, targets) {
  const place = under && under.closest("[data-drop]");
  const name = place instanceof HTMLElement || place instanceof SVGElement ? place.dataset.drop : undefined;
  return name !== undefined && targets.includes(name) ? name : null;
}

/**
 * @param {HTMLElement} root
 * @param {{ targetsFor: (source: string) => string[], onDrop: (source: string, place: string) => void }} how
 */
export function enableDrag(root, { targetsFor, onDrop }) {
  /** @type {DragState | null} */
  let drag = null;

  function clear() {
    for (const el of root.querySelectorAll(".drop-ok")) el.classList.remove("drop-ok");
    if (drag && drag.ghost) drag.ghost.remove();
    if (drag && drag.el) drag.el.classList.remove("dragging");
    drag = null;
  }

  root.addEventListener("pointerdown", (ev) => {
    const el = ev.target instanceof Element ? ev.target.closest("[data-drag]") : null;
    if (!(el instanceof HTMLElement || el instanceof SVGElement) || !root.contains(el) || ev.button !== 0) return;
    const source = el.dataset.drag || "";
    const targets = targetsFor(source);
    if (!targets.length) return;
    drag = { el, source, targets, x: ev.clientX, y: ev.clientY, ghost: null };
  });

  root.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    if (!drag.ghost) {
      if (Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < THRESHOLD) return;
      const rect = drag.el.getBoundingClientRect();
      const ghost = /** @type {HTMLElement | SVGElement} */ (drag.el.cloneNode(true));
      drag.ghost = ghost;
      ghost.classList.add("drag-ghost");
      ghost.removeAttribute("id");
      Object.assign(ghost.style, {
        position: "fixed", left: `${rect.left}px`, top: `${rect.top}px`, pointerEvents: "none",
        zIndex: 1000, margin: 0,
      });
      drag.dx = ev.clientX - rect.left;
      drag.dy = ev.clientY - rect.top;
      document.body.append(ghost);
      drag.el.classList.add("dragging");
      for (const place of drag.targets) {
        const t = root.querySelector(`[data-drop="${place}"]`);
        if (t) t.classList.add("drop-ok");
      }
      try {
        drag.el.setPointerCapture?.(ev.pointerId);
      } catch {
        // capture is a nicety only
      }
    }
    drag.ghost.style.left = `${ev.clientX - (drag.dx ?? 0)}px`;
    drag.ghost.style.top = `${ev.clientY - (drag.dy ?? 0)}px`;
    ev.preventDefault();
  });

  root.addEventListener("pointerup", (ev) => {
    if (!drag) return;
    if (!drag.ghost) {
      drag = null; // a plain click: the click handler does the rest
      return;
    }
    drag.ghost.style.display = "none";
    const place = dropPlace(document.elementFromPoint(ev.clientX, ev.clientY), drag.targets);
    const source = drag.source;
    // Swallow the click that follows a real drag.
    /** @param {Event} e */
    const swallow = (e) => {
      e.stopPropagation();
      e.preventDefault();
    };
    window.addEventListener("click", swallow, { capture: true, once: true });
    setTimeout(() => window.removeEventListener("click", swallow, { capture: true }), 50);
    clear();
    if (place !== null) onDrop(source, place);
  });

  root.addEventListener("pointercancel", clear);
}

// FLIP animation: remember where places were, then slide the new top card of the
// destination in from the source's old position.  Skipped when motion is reduced.
/** @typedef {{ [place: string]: DOMRect }} Rects */

/** @param {ParentNode} root @returns {Rects} */
export function rectsOf(root) {
  /** @type {Rects} */
  const out = {};
  for (const el of root.querySelectorAll("[data-place]")) {
    if (el instanceof HTMLElement || el instanceof SVGElement) out[el.dataset.place || ""] = el.getBoundingClientRect();
  }
  return out;
}

/** @param {Element | null | undefined} el @param {DOMRect | null | undefined} from */
export function slideIn(el, from) {
  if (!el || !from || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const to = el.getBoundingClientRect();
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  if (!dx && !dy) return;
  el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], {
    duration: 220, easing: "ease-out",
  });
}
