// Refusal reasons on the page (issue 14): the params the server marks as `places` are
// said in the game view's own words (renderer.placeName), in the page's language —
// no place code (t14, h0.3, s1, c2, f3) reaches the screen; without a way to word a
// place the reason is left out rather than shown with a code.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { installDom, JS, ROOT } from "./dom.js";

installDom();
localStorage.setItem("spillebord.lang", "da");
const i18n = await import(`${JS}i18n.js`);
await i18n.loadI18n();
const { reasonText, errorText } = await import(`${JS}ui.js`);
const { seatNamer, shortNamer } = await import(`${JS}panel.js`);

const CODE = /\b(?:[ts]\d{1,3}|h\d\.\d|[a-h][1-8]|f[1-8])\b/;

/** @param {string} name fixture file (tests/js/fixtures/) @returns {Promise<any>} */
async function renderer(name) {
  const fx = JSON.parse(readFileSync(`${ROOT}tests/js/fixtures/${name}.json`, "utf8"));
  document.body.innerHTML = '<main id="board"></main>';
  const mod = await import(`${JS}games/${fx.game}.js`);
  const ctx = {
    act: () => {}, click: () => {}, say: () => {}, choose: async () => null,
    describe: (/** @type {string} */ a) => a,
    seatName: seatNamer(fx.match, fx.seat),
    seatShort: shortNamer(fx.match, fx.seat),
    seat: fx.seat,
  };
  const r = mod.createRenderer(/** @type {HTMLElement} */ (document.getElementById("board")), ctx);
  const d = fx.state;
  r.update({ view: d.view, legal: d.legal, seat: fx.seat, toMove: d.to_move, events: [], outcome: d.outcome, moves: d.moves });
  return { r, fx };
}

test("kugler places in words: start field, entry, home, start area, track", async () => {
  const { r, fx } = await renderer("kugler-4-move6");
  assert.equal(fx.seat, 0);
  const other = shortNamer(fx.match, fx.seat)(1);
  assert.equal(r.placeName("t0"), "dit startfelt");
  assert.equal(r.placeName("t13"), `${other}s felt før hjemmet`);
  assert.equal(r.placeName("t18"), `${other}s startfelt`);
  assert.equal(r.placeName("t4"), "feltet 4 felter efter dit startfelt");
  assert.equal(r.placeName("t19"), `feltet 1 felt efter ${other}s startfelt`);
  assert.equal(r.placeName("t67"), "dit felt før hjemmet");
  assert.equal(r.placeName("h0.3"), "dit hjemmefelt 3");
  assert.equal(r.placeName("s1"), `${other}s startområde`);
  const refusal = { key: "kugler.moves_to", params: { card: "5H", place: "t10", to: "t15", wrong: "t16" }, cards: ["card"], places: ["place", "to", "wrong"] };
  const text = reasonText(refusal, r.placeName);
  assert.equal(text, "Hjerter fem flytter kuglen på feltet 10 felter efter dit startfelt til feltet 15 felter efter dit startfelt, ikke til feltet 16 felter efter dit startfelt.");
  assert.doesNotMatch(errorText("illegal", "english", refusal, r.placeName), CODE);
});

test("posthus and studenter places in words; no wording, no reason", async () => {
  const { r } = await renderer("posthus-move10");
  const refusal = { key: "posthus.not_gap", params: { place: "c2", occupant: "8H" }, cards: ["occupant"], places: ["place"] };
  assert.equal(reasonText(refusal, r.placeName), "Række 2, plads 3 er ikke et hul: der ligger hjerter otte.");
  assert.equal(reasonText(refusal), "");
  assert.doesNotMatch(errorText("illegal", "c2 is not a gap", refusal), CODE);
  const s = await renderer("studenter-move12");
  const full = { key: "studenter.foundation_full", params: { place: "f3" }, places: ["place"] };
  assert.equal(reasonText(full, s.r.placeName), "Grundbunke 3 er færdig og tager ikke flere kort.");
});
