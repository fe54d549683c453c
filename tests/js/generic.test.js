// The generic view (js/games/generic.js): the board of a game without a renderer of its
// own is never blank — it says so in the player's language and offers the legal
// actions, worded by the page, as buttons that act.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { installDom, JS, STATIC } from "./dom.js";

installDom();
localStorage.setItem("spillebord.lang", "da");
const i18n = await import(`${JS}i18n.js`);
await i18n.loadI18n();
const CATALOGUE = JSON.parse(readFileSync(`${STATIC}i18n/da.json`, "utf8"));

/** @param {string[]} legal */
async function draw(legal) {
  document.body.innerHTML = '<main id="board"></main>';
  const board = /** @type {HTMLElement} */ (document.getElementById("board"));
  const { createRenderer } = await import(`${JS}games/generic.js`);
  /** @type {string[]} */
  const acted = [];
  const ctx = {
    act: (/** @type {string} */ a) => acted.push(a),
    click: () => {},
    say: () => {},
    choose: async () => null,
    describe: (/** @type {string} */ a) => a.replace(/\b([9TJQKA][CDHS])\b/g, (c) => i18n.cardName(c)),
    seatName: (/** @type {number} */ s) => `Spiller ${s + 1}`,
    seatShort: (/** @type {number} */ s) => `${s + 1}`,
    seat: 0,
  };
  const renderer = createRenderer(board, ctx);
  renderer.update({ view: {}, legal, seat: 0, toMove: legal.length ? 0 : 1, events: [], outcome: null });
  return { board, acted };
}

test("the generic view says that the game has no board of its own", async () => {
  const { board } = await draw([]);
  assert.ok(CATALOGUE["play.generic_board"]);
  assert.equal(board.querySelector(".generic-note")?.textContent, CATALOGUE["play.generic_board"]);
  assert.equal(/** @type {HTMLElement} */ (board.querySelector(".generic-actions")).hidden, true);
});

test("the generic view offers the legal actions in words, and a click acts", async () => {
  const { board, acted } = await draw(["9C", "QH"]);
  const buttons = [...board.querySelectorAll("button")];
  assert.deepEqual(buttons.map((b) => b.dataset.action), ["9C", "QH"]);
  assert.deepEqual(buttons.map((b) => b.textContent), [i18n.cardName("9C"), i18n.cardName("QH")]);
  assert.ok(buttons.every((b) => !/\b[9TJQKA][CDHS]\b/.test(b.textContent || "")), "no card code on screen");
  buttons[1].click();
  assert.deepEqual(acted, ["QH"]);
});
