// drag.js: the hit-testing of a drop (the nearest [data-drop] of the element under the
// pointer, only when it is a legal target) and a whole drag in jsdom — lit targets, the
// ghost, the drop, a refused drop, a press that stays a click.  jsdom has no layout, so
// the element "under the pointer" is given by a stand-in for document.elementFromPoint.
import { test } from "node:test";
import assert from "node:assert/strict";
import { installDom, JS } from "./dom.js";

installDom();
const { dropPlace, enableDrag } = await import(`${JS}drag.js`);

function board() {
  document.body.innerHTML = `
    <main id="board">
      <div class="card" data-drag="waste" id="src"><span class="rank">8</span></div>
      <div class="pile" data-drop="f1" id="f1"><div class="card"><span id="f1-inner">7</span></div></div>
      <div class="pile" data-drop="f2" id="f2"></div>
      <div class="pile" data-drop="row" id="row"><div data-drop="h3" id="h3"><i id="h3-inner"></i></div></div>
      <svg id="svg"><circle data-drop="t5" id="t5"></circle></svg>
      <p id="nowhere">x</p>
    </main>`;
  return /** @type {HTMLElement} */ (document.getElementById("board"));
}
const $ = (/** @type {string} */ id) => /** @type {Element} */ (document.getElementById(id));

test("dropPlace: the nearest drop place of the element under the pointer, if a target", () => {
  board();
  assert.equal(dropPlace($("f1-inner"), ["f1"]), "f1");
  assert.equal(dropPlace($("f1"), ["f1", "f2"]), "f1");
  assert.equal(dropPlace($("f2"), ["f1"]), null, "not a legal target");
  assert.equal(dropPlace($("h3-inner"), ["row", "h3"]), "h3", "the nearest place wins");
  assert.equal(dropPlace($("h3-inner"), ["row"]), null, "an outer place does not catch a drop on an inner one");
  assert.equal(dropPlace($("t5"), ["t5"]), "t5", "SVG places");
  assert.equal(dropPlace($("nowhere"), ["f1"]), null);
  assert.equal(dropPlace(null, ["f1"]), null);
});

/** Sends a pointer event (jsdom has MouseEvent; the handlers read what both carry). */
function pointer(/** @type {Element} */ el, /** @type {string} */ type, x = 0, y = 0) {
  el.dispatchEvent(new window.MouseEvent(type, { bubbles: true, cancelable: true, clientX: x, clientY: y, button: 0 }));
}

function setup(/** @type {string[]} */ targets) {
  const root = board();
  /** @type {[string, string][]} */
  const drops = [];
  /** @type {string[]} */
  const asked = [];
  enableDrag(root, {
    targetsFor: (/** @type {string} */ source) => {
      asked.push(source);
      return targets;
    },
    onDrop: (/** @type {string} */ source, /** @type {string} */ place) => drops.push([source, place]),
  });
  return { root, drops, asked };
}

/** The stand-in for layout: what lies under the pointer. */
function under(/** @type {Element | null} */ el) {
  document.elementFromPoint = () => el;
}

test("a drag lights exactly the legal targets, moves a ghost and drops on a target", () => {
  const { drops, asked } = setup(["f1", "h3"]);
  pointer($("src"), "pointerdown", 10, 10);
  assert.deepEqual(asked, ["waste"]);
  pointer($("src"), "pointermove", 40, 30);
  const lit = [...document.querySelectorAll(".drop-ok")].map((e) => e.id).sort();
  assert.deepEqual(lit, ["f1", "h3"]);
  assert.ok($("src").classList.contains("dragging"));
  const ghost = document.querySelector(".drag-ghost");
  assert.ok(ghost instanceof HTMLElement, "a ghost follows the pointer");
  assert.equal(ghost.id, "", "the ghost has no id of its own");
  under($("f1-inner"));
  pointer($("src"), "pointerup", 200, 50);
  assert.deepEqual(drops, [["waste", "f1"]]);
  assert.equal(document.querySelector(".drag-ghost"), null, "the ghost is gone");
  assert.equal(document.querySelectorAll(".drop-ok").length, 0);
  assert.ok(!$("src").classList.contains("dragging"));
});

test("a drop on a place that is not a legal target sends nothing", () => {
  const { drops } = setup(["f1"]);
  pointer($("src"), "pointerdown", 10, 10);
  pointer($("src"), "pointermove", 60, 10);
  under($("f2"));
  pointer($("src"), "pointerup", 300, 10);
  assert.deepEqual(drops, []);
  assert.equal(document.querySelector(".drag-ghost"), null);
});

test("a press without movement stays a click: no ghost, no drop", () => {
  const { drops } = setup(["f1"]);
  pointer($("src"), "pointerdown", 10, 10);
  pointer($("src"), "pointermove", 12, 11); // under the 6 px threshold
  assert.equal(document.querySelector(".drag-ghost"), null);
  under($("f1"));
  pointer($("src"), "pointerup", 12, 11);
  assert.deepEqual(drops, []);
});

test("a source with no legal target does not start a drag", () => {
  const { drops } = setup([]);
  pointer($("src"), "pointerdown", 10, 10);
  pointer($("src"), "pointermove", 80, 80);
  assert.equal(document.querySelector(".drag-ghost"), null);
  under($("f1"));
  pointer($("src"), "pointerup", 80, 80);
  assert.deepEqual(drops, []);
});
