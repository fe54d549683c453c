// Every game renderer on real `state` messages (tests/js/fixtures/, recorded from the
// server by tests/js/record_states.py): the DOM text a person reads — text and the
// aria-labels of cards, piles and places — equals the golden text in tests/js/golden/,
// for a seat and a spectator, at the start, in the middle and when the game is over.
// The board offers exactly the legal actions (never one the server did not list), and
// no catalogue key or internal code reaches the screen.
//   UPDATE_GOLDEN=1 node --test tests/js/renderers.test.js   writes the golden files anew.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { installDom, JS, ROOT, STATIC } from "./dom.js";

installDom();
localStorage.setItem("spillebord.lang", "da");
const i18n = await import(`${JS}i18n.js`);
await i18n.loadI18n();
const { seatNamer, shortNamer } = await import(`${JS}panel.js`);

const FIXTURES = `${ROOT}tests/js/fixtures/`;
const GOLDEN = `${ROOT}tests/js/golden/`;
const UPDATE = process.env.UPDATE_GOLDEN === "1";
const CATALOGUE = JSON.parse(readFileSync(`${STATIC}i18n/da.json`, "utf8"));

/**
 * The board as a person reads it: one line per element that carries an aria-label
 * ("[label]") or text of its own, in document order, indented by depth.
 * @param {Element} root
 * @returns {string}
 */
export function domText(root) {
  /** @type {string[]} */
  const lines = [];
  /** @param {Element} el @param {number} depth */
  const walk = (el, depth) => {
    if (el.getAttribute("aria-hidden") === "true" || (el instanceof HTMLElement && el.hidden)) return;
    const own = [...el.childNodes]
      .filter((n) => n.nodeType === 3)
      .map((n) => (n.textContent || "").replace(/\s+/g, " ").trim())
      .filter(Boolean)
      .join(" ");
    const label = el.getAttribute("aria-label");
    const parts = [label ? `[${label}]` : "", own].filter(Boolean);
    if (parts.length) lines.push(`${"  ".repeat(depth)}${parts.join(" ")}`);
    for (const child of el.children) walk(child, parts.length ? depth + 1 : depth);
  };
  walk(root, 0);
  return `${lines.join("\n")}\n`;
}

/** @typedef {{ name: string, game: string, seat: number | null, match: any, v: number, state: any }} Fixture */

/** @returns {Fixture[]} */
function fixtures() {
  return readdirSync(FIXTURES)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(FIXTURES + f, "utf8")));
}

/**
 * A renderer of the fixture's game on a fresh board, as play.js makes it; `sent`
 * collects what the board asks the server for.
 * @param {Fixture} fx
 */
async function draw(fx) {
  document.body.innerHTML = '<main id="board"></main>';
  const board = /** @type {HTMLElement} */ (document.getElementById("board"));
  const mod = await import(`${JS}games/${fx.game}.js`);
  /** @type {{ act: string[], click: string[] }} */
  const sent = { act: [], click: [] };
  const ctx = {
    act: (/** @type {string} */ a) => sent.act.push(a),
    click: (/** @type {string} */ c) => sent.click.push(c),
    say: () => {},
    choose: async () => null,
    describe: (/** @type {string} */ a) => a,
    seatName: seatNamer(fx.match, fx.seat),
    seatShort: shortNamer(fx.match, fx.seat),
    seat: fx.seat,
  };
  const renderer = mod.createRenderer(board, ctx);
  const d = fx.state;
  renderer.update({ view: d.view, legal: d.legal, seat: fx.seat, toMove: d.to_move, events: d.events || [], outcome: d.outcome, moves: d.moves });
  return { board, renderer, sent };
}

const all = fixtures();

// Every game's own renderer (js/games/<name>.js exporting createRenderer; the generic
// view has tests/js/generic.test.js).
const RENDERERS = readdirSync(`${JS}games/`)
  .filter((f) => f.endsWith(".js") && f !== "generic.js")
  .filter((f) => readFileSync(`${JS}games/${f}`, "utf8").includes("export function createRenderer"))
  .map((f) => f.replace(/\.js$/, ""))
  .sort();

test("the fixtures cover every renderer, seat and spectator, start, middle and end", () => {
  const games = new Set(all.map((f) => f.game));
  assert.ok(RENDERERS.length >= 4, RENDERERS.join());
  assert.deepEqual([...games].sort(), RENDERERS);
  for (const game of games) {
    const mine = all.filter((f) => f.game === game);
    assert.ok(mine.some((f) => f.state.status === "finished"), `${game}: a finished game`);
    assert.ok(mine.some((f) => f.state.legal.length > 0), `${game}: a position with moves`);
    if (game === "gammel_jomfru" || game === "kugler") assert.ok(mine.some((f) => f.seat === null), `${game}: a spectator`);
  }
});

for (const fx of all) {
  test(`${fx.name}: the DOM text is the golden one`, async () => {
    const { board } = await draw(fx);
    const text = domText(board);
    const file = `${GOLDEN}${fx.name}.txt`;
    if (UPDATE || !existsSync(file)) {
      mkdirSync(GOLDEN, { recursive: true });
      writeFileSync(file, text);
      if (!UPDATE) assert.fail(`${file} was missing: written now, check it and commit it`);
    }
    assert.equal(text, readFileSync(file, "utf8"),
      `${fx.name}: the board reads differently. If the change is meant, run ` +
      "UPDATE_GOLDEN=1 node --test tests/js/renderers.test.js and commit tests/js/golden/ (check the diff)");
  });

  test(`${fx.name}: no catalogue key, no raw key on the board`, async () => {
    const { board } = await draw(fx);
    const text = domText(board);
    for (const key of Object.keys(CATALOGUE)) {
      assert.ok(!new RegExp(`(^|[\\s\\[(])${key.replace(/\./g, "\\.")}($|[\\s\\]).,])`, "m").test(text), `${fx.name}: key ${key} on screen`);
    }
    assert.doesNotMatch(text, /\{\w+\}|undefined|null|NaN|\[object /, `${fx.name}: a hole in a text`);
  });

  test(`${fx.name}: what the board offers is among the legal actions`, async () => {
    const { board, sent } = await draw(fx);
    for (const el of board.querySelectorAll("[data-action]")) {
      if (el instanceof HTMLElement) el.click();
    }
    for (const a of sent.act) assert.ok(fx.state.legal.includes(a), `${fx.name}: ${a} is not legal`);
    if (!fx.state.legal.length) assert.deepEqual(sent.act, [], `${fx.name}: a move offered with none legal`);
  });

  if (fx.game === "gammel_jomfru") {
    test(`${fx.name}: the lit places are exactly the legal actions`, async () => {
      const { board, sent } = await draw(fx);
      for (const el of board.querySelectorAll("[data-action]")) if (el instanceof HTMLElement) el.click();
      assert.deepEqual([...new Set(sent.act)].sort(), [...fx.state.legal].sort());
    });
  }
}
