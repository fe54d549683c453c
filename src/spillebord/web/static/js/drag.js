// Pointer-based drag and drop (mouse, pen and touch alike).  A source element carries
// data-drag="<source name>"; drop places carry data-drop="<place name>".  The caller says
// which places a source may go to (from the server's legal actions) and what to do on a
// drop.  A press without movement stays an ordinary click.

const THRESHOLD = 6;

export function enableDrag(root, { targetsFor, onDrop }) {
  let drag = null;

  function clear() {
    for (const el of root.querySelectorAll(".drop-ok")) el.classList.remove("drop-ok");
    if (drag && drag.ghost) drag.ghost.remove();
    if (drag && drag.el) drag.el.classList.remove("dragging");
    drag = null;
  }

  root.addEventListener("pointerdown", (ev) => {
    const el = ev.target.closest("[data-drag]");
    if (!el || !root.contains(el) || ev.button !== 0) return;
    const targets = targetsFor(el.dataset.drag);
    if (!targets.length) return;
    drag = { el, source: el.dataset.drag, targets, x: ev.clientX, y: ev.clientY, ghost: null };
  });

  root.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    if (!drag.ghost) {
      if (Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < THRESHOLD) return;
      const rect = drag.el.getBoundingClientRect();
      drag.ghost = drag.el.cloneNode(true);
      drag.ghost.classList.add("drag-ghost");
      drag.ghost.removeAttribute("id");
      Object.assign(drag.ghost.style, {
        position: "fixed", left: `${rect.left}px`, top: `${rect.top}px`, pointerEvents: "none",
        zIndex: 1000, margin: 0,
      });
      drag.dx = ev.clientX - rect.left;
      drag.dy = ev.clientY - rect.top;
      document.body.append(drag.ghost);
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
    drag.ghost.style.left = `${ev.clientX - drag.dx}px`;
    drag.ghost.style.top = `${ev.clientY - drag.dy}px`;
    ev.preventDefault();
  });

  root.addEventListener("pointerup", (ev) => {
    if (!drag) return;
    if (!drag.ghost) {
      drag = null; // a plain click: the click handler does the rest
      return;
    }
    drag.ghost.style.display = "none";
    const under = document.elementFromPoint(ev.clientX, ev.clientY);
    const place = under && under.closest("[data-drop]");
    const source = drag.source;
    const ok = place && drag.targets.includes(place.dataset.drop);
    // Swallow the click that follows a real drag.
    const swallow = (e) => {
      e.stopPropagation();
      e.preventDefault();
    };
    window.addEventListener("click", swallow, { capture: true, once: true });
    setTimeout(() => window.removeEventListener("click", swallow, { capture: true }), 50);
    clear();
    if (ok) onDrop(source, place.dataset.drop);
  });

  root.addEventListener("pointercancel", clear);
}

// FLIP animation: remember where places were, then slide the new top card of the
// destination in from the source's old position.  Skipped when motion is reduced.
export function rectsOf(root) {
  const out = {};
  for (const el of root.querySelectorAll("[data-place]")) out[el.dataset.place] = el.getBoundingClientRect();
  return out;
}

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
