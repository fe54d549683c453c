// The table games word moves from the server's move facts (docs/protocol.md, "Move
// facts"): every event of the recorded fixtures and every legal action gets a sentence
// with no field code (t54, s0, h1.3) and no action code, in Danish and English — also
// before the first `update` (the replay page lists the moves before it draws a board).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { installDom, JS, ROOT } from "./dom.js";

installDom();
const FIXTURES = `${ROOT}tests/js/fixtures/`;
const CODE = /\b(?:t\d{1,3}|s\d|h\d\.\d|c\d|p\d)\b|\b(?:turn|keep|centre|discard)\b/;
const fixtures = readdirSync(FIXTURES)
  .filter((f) => /^(kugler|gammel_jomfru)/.test(f))
  .map((f) => JSON.parse(readFileSync(FIXTURES + f, "utf8")));

for (const lang of ["da", "en"]) {
  test(`${lang}: every event and legal move of the table games in words`, async () => {
    localStorage.setItem("spillebord.lang", lang);
    const i18n = await import(`${JS}i18n.js`);
    await i18n.loadI18n();
    const { seatNamer, shortNamer } = await import(`${JS}panel.js`);
    let sentences = 0;
    for (const fx of fixtures) {
      document.body.innerHTML = '<main id="board"></main>';
      const mod = await import(`${JS}games/${fx.game}.js`);
      const ctx = {
        act() {}, click() {}, say() {}, choose: async () => null, describe: (/** @type {string} */ a) => a,
        seatName: seatNamer(fx.match, fx.seat), seatShort: shortNamer(fx.match, fx.seat), seat: fx.seat,
      };
      const renderer = mod.createRenderer(document.getElementById("board"), ctx);
      const d = fx.state;
      const events = (d.events || []).filter((/** @type {any} */ e) => e.move);
      // Before any board is drawn (the replay page's move list), then after.
      for (const when of ["before", "after"]) {
        if (when === "after") renderer.update({ view: d.view, legal: d.legal, seat: fx.seat, toMove: d.to_move, events: d.events || [], outcome: d.outcome, moves: d.moves });
        for (const ev of events) {
          const line = renderer.sentence(ev);
          assert.ok(line && !CODE.test(line), `${fx.name} ${when}: ${ev.action} → ${line}`);
          sentences++;
        }
      }
      if (fx.game === "kugler") {
        for (const a of d.legal) {
          const words = renderer.describe(a);
          assert.ok(!CODE.test(words.replace(/^Kassér |^Discard /, "")), `${fx.name}: ${a} → ${words}`);
        }
      }
    }
    assert.ok(sentences > 0, "the fixtures hold events with move facts");
  });
}
