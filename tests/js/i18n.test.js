// i18n.js: catalogue loading, placeholders, missing keys, card and rank names.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { installDom, JS, STATIC } from "./dom.js";

installDom();

/** A fresh copy of i18n.js (its catalogue is module state) after choosing `lang`. */
async function i18nIn(/** @type {string | null} */ lang) {
  if (lang === null) localStorage.removeItem("spillebord.lang");
  else localStorage.setItem("spillebord.lang", lang);
  const mod = await import(`${JS}i18n.js?lang=${lang}&n=${Math.random()}`);
  await mod.loadI18n();
  return mod;
}

const da = JSON.parse(readFileSync(`${STATIC}i18n/da.json`, "utf8"));
const en = JSON.parse(readFileSync(`${STATIC}i18n/en.json`, "utf8"));

test("Danish is the default and sets <html lang>", async () => {
  const i18n = await i18nIn(null);
  assert.equal(i18n.currentLang(), "da");
  assert.equal(document.documentElement.lang, "da");
  assert.equal(i18n.t("app.name"), da["app.name"]);
});

test("an unknown stored language falls back to Danish", async () => {
  const i18n = await i18nIn("xx");
  assert.equal(i18n.currentLang(), "da");
});

test("English when chosen", async () => {
  const i18n = await i18nIn("en");
  assert.equal(i18n.currentLang(), "en");
  assert.equal(i18n.t("app.name"), en["app.name"]);
});

test("placeholders are filled; unknown ones stay visible", async () => {
  const i18n = await i18nIn("da");
  assert.equal(i18n.t("seat.player", { n: 3 }), da["seat.player"].replace("{n}", "3"));
  assert.match(i18n.t("seat.player", {}), /\{n\}/);
});

test("a missing key shows the key itself, and has() says so", async () => {
  const i18n = await i18nIn("da");
  assert.equal(i18n.t("no.such.key"), "no.such.key");
  assert.equal(i18n.has("no.such.key"), false);
  assert.equal(i18n.has("app.name"), true);
});

test("card names in Danish and English", async () => {
  let i18n = await i18nIn("da");
  assert.equal(i18n.cardName("8H"), "hjerter otte");
  assert.equal(i18n.cardName("TS"), "spar ti");
  assert.equal(i18n.cardName("JK"), da["card.joker"]);
  assert.equal(i18n.cardName(""), da["card.unknown"]);
  i18n = await i18nIn("en");
  assert.equal(i18n.cardName("8H"), "eight of hearts");
  assert.equal(i18n.cardName("QC"), "queen of clubs");
});

test("every rank and suit has a name in both catalogues", () => {
  for (const cat of [da, en]) {
    for (const r of "23456789TJQKA") assert.ok(cat[`rank.${r}`], `rank.${r}`);
    for (const s of "CDHS") assert.ok(cat[`suit.${s}`], `suit.${s}`);
  }
});

test("applyI18n fills text, aria-label, title and placeholder", async () => {
  const i18n = await i18nIn("da");
  document.body.innerHTML = `<p data-i18n="app.name"></p><button data-i18n-aria="app.name"
    data-i18n-title="app.name"></button><input data-i18n-placeholder="app.name">`;
  i18n.applyI18n();
  const name = da["app.name"];
  assert.equal(document.querySelector("p")?.textContent, name);
  assert.equal(document.querySelector("button")?.getAttribute("aria-label"), name);
  assert.equal(document.querySelector("button")?.title, name);
  assert.equal(/** @type {HTMLInputElement} */ (document.querySelector("input")).placeholder, name);
});

test("plurals: the language's category picks the branch, # is the number", async () => {
  let i18n = await i18nIn("en");
  assert.equal(i18n.t("gj.held", { count: 1 }), "1 card in all");
  assert.equal(i18n.t("gj.held", { count: 0 }), "0 cards in all");
  assert.equal(i18n.t("gj.held", { count: 7 }), "7 cards in all");
  assert.equal(i18n.t("clock.text", { time: "1:15", moves: 1 }), "Time 1:15 · 1 move");
  i18n = await i18nIn("da");
  assert.equal(i18n.t("gj.seat_label", { name: "Du", down: 1, up: 1 }), "Du: 1 kort med bagsiden op, 1 åbent kort");
  assert.equal(i18n.t("gj.seat_label", { name: "Du", down: 3, up: 2 }), "Du: 3 kort med bagsiden op, 2 åbne kort");
});

test("plurals: a one-branch worded apart (\"once\"); digits given as text count as their number", async () => {
  const i18n = await i18nIn("en");
  assert.equal(i18n.t("best.tries", { played: 1, wins: 0 }), "Played once, 0 won.");
  assert.equal(i18n.t("best.tries", { played: "3", wins: "1" }), "Played 3 times, 1 won.");
});

test("plurals: a count that is not a number is said on the console (a page bug)", async (t) => {
  const i18n = await i18nIn("en");
  const said = t.mock.method(console, "error", () => {});
  i18n.t("gj.held", {});
  assert.equal(said.mock.callCount(), 1);
  assert.match(String(said.mock.calls[0].arguments[0]), /gj\.held needs a number for \{count\}/);
});

test("rank names in both catalogues are words, not codes", async () => {
  let i18n = await i18nIn("da");
  assert.equal(i18n.t("rank.K"), "konge");
  assert.equal(i18n.t("rank.T"), "ti");
  i18n = await i18nIn("en");
  assert.equal(i18n.t("rank.A"), "ace");
  assert.equal(i18n.t("rank.8"), "eight");
});
